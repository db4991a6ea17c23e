// candidates.h's CUDA entry points in a build without nvcc: each says why it cannot run.
#include "postprocess/candidates.h"

namespace dsnode::postprocess {

namespace {
const char kNoCuda[] = "ds-element's native host was built without CUDA (nvcc was not found)";
}  // namespace

bool cuda_postprocess_compiled() { return false; }

size_t yolo_scratch_bytes(const YoloShape &) { return 0; }

std::string yolo_candidates_cuda(const float *, const YoloShape &, double, void *, CUstream_st *,
    std::vector<YoloCandidate> *, CopyStats *) {
  return kNoCuda;
}

size_t row_argmax_scratch_bytes(int64_t) { return 0; }

std::string row_argmax_cuda(const float *, int64_t, int32_t, void *, CUstream_st *, int32_t *, float *, CopyStats *) {
  return kNoCuda;
}

}  // namespace dsnode::postprocess
