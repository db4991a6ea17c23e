// preprocess_cuda in a build without nvcc: validates like the real one, then says why it cannot
// run, so callers get one error shape whatever the build.
#include "ops/ops.h"

namespace dsnode::ops {

Status preprocess_cuda(const ImageView *frames, int32_t count, const PreprocessParams &params, void *out,
    FrameTransform *transforms, CUstream_st *stream) {
  Status status = validate(frames, count, params);
  if (!status.ok()) return status;
  return cuda_device_status();
}

bool cuda_compiled() { return false; }

Status cuda_device_status() {
  return {ErrorCode::kUnsupported, "ds-element's native host was built without CUDA (nvcc was not found)"};
}

}  // namespace dsnode::ops
