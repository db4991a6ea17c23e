// Post-processing where the output lives: on a CUDA output, a kernel picks the few YOLO
// candidates that pass the confidence threshold (or each row's best class) and only those are
// copied to the host, instead of the whole tensor (a YOLOv8 [84, 8400] float32 output is
// 2.8 MB). sdk/src/postprocess/decode-yolo.ts turns the candidates into boxes exactly as it
// decodes a host output, so both paths give the same detections.
//
// The per-candidate and per-row rules are the inline functions below, compiled into the CPU
// reference (candidates_cpu.cpp, which the tensor binding also runs on host tensors) and into
// the kernels (candidates_cuda.cu): one definition, two compilers. No Node, no N-API, no CUDA
// header; the CUDA entry points exist in every build and say so where nvcc was not found.
//
// Example (CUDA output, primary context current, `stream` a stream of it):
//   dsnode::postprocess::YoloShape shape{1, 80, 8400, true};  // [84, 8400]
//   void *scratch = nullptr;  // device memory, reused between calls
//   cudaMalloc(&scratch, dsnode::postprocess::yolo_scratch_bytes(shape));
//   std::vector<dsnode::postprocess::YoloCandidate> kept;
//   std::string error = dsnode::postprocess::yolo_candidates_cuda(output, shape, 0.25, scratch, stream, &kept, nullptr);
#ifndef DSNODE_POSTPROCESS_CANDIDATES_H
#define DSNODE_POSTPROCESS_CANDIDATES_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#ifdef __CUDACC__
#define DSNODE_HOST_DEVICE __host__ __device__ __forceinline__
#else
#define DSNODE_HOST_DEVICE inline
#endif

struct CUstream_st;

namespace dsnode::postprocess {

// A YOLO output of `batch` images, each `4 + classes` channels (cx, cy, w, h, class scores) of
// `candidates` anchors: [4 + C, N] per image when channels_first (YOLOv8's export), else
// [N, 4 + C]. Dense float32, images one after another.
struct YoloShape {
  int32_t batch = 1;
  int32_t classes = 0;
  int32_t candidates = 0;
  bool channels_first = true;
};

// One candidate whose best class score passed the threshold. `index` = image × candidates +
// anchor (so sorting by it gives the CPU scan's order); box = cx, cy, w, h as stored.
struct YoloCandidate {
  int32_t index;
  int32_t class_id;
  float score;
  float box[4];
};

// Device-to-host bytes of one call (the count and the candidates), for the bench and stats.
struct CopyStats {
  uint64_t bytes = 0;
  uint32_t copies = 0;
};

// The running best of a sequential scan: a score replaces the best only when greater, so ties
// keep the lowest class and NaN never wins; -infinity / -1 when no score beats -infinity.
struct Best {
  float score;
  int32_t class_id;
};
DSNODE_HOST_DEVICE Best no_best() { return {-__builtin_huge_valf(), -1}; }
DSNODE_HOST_DEVICE void consider(Best &best, float score, int32_t class_id) {
  if (score > best.score) {
    best.score = score;
    best.class_id = class_id;
  }
}
// The better of two partial bests over disjoint classes, as if one scan had seen both: the
// greater score, the lower class on a tie (a class of -1 only ever goes with -infinity).
DSNODE_HOST_DEVICE Best better_of(Best a, Best b) {
  return b.score > a.score || (b.score == a.score && b.class_id < a.class_id) ? b : a;
}

// The best class of anchor `anchor` of image `image` (data: the whole output).
DSNODE_HOST_DEVICE Best yolo_best(const float *data, const YoloShape &shape, int32_t image, int32_t anchor) {
  const int64_t channels = 4 + static_cast<int64_t>(shape.classes);
  const float *item = data + static_cast<int64_t>(image) * channels * shape.candidates;
  Best best = no_best();
  if (shape.channels_first) {
    const float *scores = item + 4 * static_cast<int64_t>(shape.candidates) + anchor;
    for (int32_t c = 0; c < shape.classes; ++c) consider(best, scores[static_cast<int64_t>(c) * shape.candidates], c);
  } else {
    const float *scores = item + static_cast<int64_t>(anchor) * channels + 4;
    for (int32_t c = 0; c < shape.classes; ++c) consider(best, scores[c], c);
  }
  return best;
}

// Box value k (0..3: cx, cy, w, h) of an anchor.
DSNODE_HOST_DEVICE float yolo_box(const float *data, const YoloShape &shape, int32_t image, int32_t anchor, int32_t k) {
  const int64_t channels = 4 + static_cast<int64_t>(shape.classes);
  const float *item = data + static_cast<int64_t>(image) * channels * shape.candidates;
  return shape.channels_first ? item[static_cast<int64_t>(k) * shape.candidates + anchor] : item[anchor * channels + k];
}

// Kept when the best score reaches the threshold, compared in double as the TS decode compares
// (0.3 as a float is 0.300000012: a float compare would drop a score that JS keeps).
DSNODE_HOST_DEVICE bool passes(const Best &best, double threshold) { return static_cast<double>(best.score) >= threshold; }

// ---- CPU (candidates_cpu.cpp): the reference, and what the binding runs on host tensors.

// Appends the candidates of `data` (host memory) that pass, in index order.
void yolo_candidates_cpu(const float *data, const YoloShape &shape, double threshold, std::vector<YoloCandidate> *out);
// For each of `rows` rows of `classes` scores: the best class (a sequential scan, Best's rules).
void row_argmax_cpu(const float *data, int64_t rows, int32_t classes, int32_t *class_ids, float *scores);

// ---- CUDA (candidates_cuda.cu; an error saying why everywhere else).

// True where this library holds the kernels.
bool cuda_postprocess_compiled();

// Device scratch the YOLO call needs: a counter and room for every anchor of the batch.
size_t yolo_scratch_bytes(const YoloShape &shape);

// The candidates of a dense device output, in index order (the kernel's atomic compaction
// appends them in any order; they are sorted on the host), copied to the host in one copy
// when at most kYoloFirstCopy pass, two otherwise. `scratch`: yolo_scratch_bytes(shape) of
// device memory of the output's context, which must be current. Synchronises `stream` before
// returning. "" on success, else the failed CUDA call.
constexpr int32_t kYoloFirstCopy = 512;
std::string yolo_candidates_cuda(const float *data, const YoloShape &shape, double threshold, void *scratch,
    CUstream_st *stream, std::vector<YoloCandidate> *out, CopyStats *stats);

// Device scratch row_argmax_cuda needs for `rows` rows.
size_t row_argmax_scratch_bytes(int64_t rows);
// row_argmax_cpu's results for a dense device tensor: one warp per row, one copy of
// rows × (class, score) to the host. Same contract as yolo_candidates_cuda.
std::string row_argmax_cuda(const float *data, int64_t rows, int32_t classes, void *scratch, CUstream_st *stream,
    int32_t *class_ids, float *scores, CopyStats *stats);

}  // namespace dsnode::postprocess

#endif
