#include "postprocess/candidates.h"

namespace dsnode::postprocess {

void yolo_candidates_cpu(const float *data, const YoloShape &shape, double threshold, std::vector<YoloCandidate> *out) {
  for (int32_t image = 0; image < shape.batch; ++image) {
    for (int32_t anchor = 0; anchor < shape.candidates; ++anchor) {
      const Best best = yolo_best(data, shape, image, anchor);
      if (!passes(best, threshold)) continue;
      YoloCandidate candidate{image * shape.candidates + anchor, best.class_id, best.score, {}};
      for (int32_t k = 0; k < 4; ++k) candidate.box[k] = yolo_box(data, shape, image, anchor, k);
      out->push_back(candidate);
    }
  }
}

void row_argmax_cpu(const float *data, int64_t rows, int32_t classes, int32_t *class_ids, float *scores) {
  for (int64_t row = 0; row < rows; ++row) {
    Best best = no_best();
    const float *values = data + row * classes;
    for (int32_t c = 0; c < classes; ++c) consider(best, values[c], c);
    class_ids[row] = best.class_id;
    scores[row] = best.score;
  }
}

}  // namespace dsnode::postprocess
