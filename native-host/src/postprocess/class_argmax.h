// The hot loop of YOLO decoding (sdk/src/postprocess/decode-yolo.ts), as a native fast path:
// for each of `candidates` anchors, the best of `classes` class scores laid out class-major
// (row c holds every anchor's score for class c, as YOLOv8's [4 + C, N] output does). No Node,
// no N-API: the tensor binding exposes it as `classArgmax`.
#ifndef DSNODE_POSTPROCESS_CLASS_ARGMAX_H
#define DSNODE_POSTPROCESS_CLASS_ARGMAX_H

#include <cstdint>

namespace dsnode::postprocess {

// best_score[i] = max over c of scores[c * candidates + i], best_class[i] = the first c that
// reaches it; -infinity and -1 when every score is NaN (a NaN never wins, as in the TS loop).
void class_argmax(const float *scores, int32_t classes, int32_t candidates, float *best_score, int32_t *best_class);

}  // namespace dsnode::postprocess

#endif
