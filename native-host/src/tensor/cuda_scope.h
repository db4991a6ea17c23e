// The CUDA runtime as the tensor code uses it. Every CUDA call here runs inside a CudaScope,
// which makes the context that owns the memory current on the calling thread: the device's
// primary context (cudaSetDevice; what the CUDA runtime, DeepStream and TensorRT use), or a
// GstCudaContext's own context (GStreamer's CUDA library creates one per device with
// cuCtxCreate, and device pointers of one context are not valid in another). The previous
// state is restored at the end, so the thread's other CUDA users see no change.
//
// Built without CUDA (no nvcc at configure time: DSNODE_HAVE_CUDA unset), a scope always fails
// with a message saying so, and nothing links the CUDA runtime.
#ifndef DSNODE_TENSOR_CUDA_SCOPE_H
#define DSNODE_TENSOR_CUDA_SCOPE_H

#include <cstdint>
#include <string>

struct CUstream_st;

namespace dsnode::tensor {

// True when this build holds the CUDA code (DSNODE_HAVE_CUDA).
bool cuda_compiled();

class CudaScope {
 public:
  // gst_cuda_context: a GstCudaContext* (borrowed) or null for the device's primary context.
  CudaScope(int32_t device_id, void* gst_cuda_context);
  ~CudaScope();
  CudaScope(const CudaScope&) = delete;
  CudaScope& operator=(const CudaScope&) = delete;

  bool ok() const { return error_.empty(); }
  // Why the context could not be made current ("" when ok).
  const std::string& error() const { return error_; }

  // A non-blocking stream of this context: for a primary context one per device, created once
  // and reused (ops synchronise before they return, so one at a time is all they need); for a
  // GstCudaContext one made for this scope and destroyed with it. Null with error() set on
  // failure.
  CUstream_st* stream();

 private:
  int32_t device_id_ = 0;
  void* context_ = nullptr;
  int previous_device_ = -1;
  bool pushed_ = false;
  CUstream_st* own_stream_ = nullptr;
  std::string error_;
};

// "<call> failed: <cudaGetErrorName>: <cudaGetErrorString>"
std::string cuda_error_text(int code, const char* call);

}  // namespace dsnode::tensor

#endif
