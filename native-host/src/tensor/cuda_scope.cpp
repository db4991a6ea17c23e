#include "tensor/cuda_scope.h"

#include <map>
#include <mutex>

#include "tensor/gst_cuda.h"

#ifdef DSNODE_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

namespace dsnode::tensor {

#ifdef DSNODE_HAVE_CUDA

bool cuda_compiled() { return true; }

std::string cuda_error_text(int code, const char* call) {
  const cudaError_t error = static_cast<cudaError_t>(code);
  return std::string(call) + " failed: " + cudaGetErrorName(error) + ": " + cudaGetErrorString(error);
}

CudaScope::CudaScope(int32_t device_id, void* gst_cuda_context) : device_id_(device_id), context_(gst_cuda_context) {
  if (gst_cuda_context != nullptr) {
    pushed_ = gstcuda::push_context(static_cast<GstObject*>(gst_cuda_context), &error_);
    return;
  }
  int previous = 0;
  cudaError_t status = cudaGetDevice(&previous);
  if (status != cudaSuccess) {
    error_ = cuda_error_text(status, "cudaGetDevice");
    return;
  }
  if (previous != device_id) {
    status = cudaSetDevice(device_id);
    if (status != cudaSuccess) {
      error_ = cuda_error_text(status, ("cudaSetDevice(" + std::to_string(device_id) + ")").c_str());
      return;
    }
    previous_device_ = previous;
  }
}

CudaScope::~CudaScope() {
  if (own_stream_ != nullptr) cudaStreamDestroy(own_stream_);
  if (pushed_) gstcuda::pop_context();
  if (previous_device_ >= 0) cudaSetDevice(previous_device_);
}

CUstream_st* CudaScope::stream() {
  if (!ok()) return nullptr;
  if (own_stream_ != nullptr) return own_stream_;
  if (context_ != nullptr) {
    // A GstCudaContext may go away with its pipeline: its streams are made per scope, not kept.
    const cudaError_t status = cudaStreamCreateWithFlags(&own_stream_, cudaStreamNonBlocking);
    if (status != cudaSuccess) {
      error_ = cuda_error_text(status, "cudaStreamCreateWithFlags");
      own_stream_ = nullptr;
    }
    return own_stream_;
  }
  // Primary contexts live as long as the process: one stream per device, kept.
  static std::mutex mutex;
  static auto* streams = new std::map<int32_t, cudaStream_t>();
  std::lock_guard<std::mutex> lock(mutex);
  auto found = streams->find(device_id_);
  if (found != streams->end()) return found->second;
  cudaStream_t stream = nullptr;
  const cudaError_t status = cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
  if (status != cudaSuccess) {
    error_ = cuda_error_text(status, "cudaStreamCreateWithFlags");
    return nullptr;
  }
  streams->emplace(device_id_, stream);
  return stream;
}

#else  // no CUDA in this build

bool cuda_compiled() { return false; }

std::string cuda_error_text(int code, const char* call) { return std::string(call) + " failed: error " + std::to_string(code); }

CudaScope::CudaScope(int32_t device_id, void* gst_cuda_context) : device_id_(device_id), context_(gst_cuda_context) {
  error_ = "ds-element-native was built without CUDA (nvcc was not found when it was compiled): "
           "CUDA tensors are not available; rebuild it on a machine with the CUDA toolkit";
}

CudaScope::~CudaScope() = default;

CUstream_st* CudaScope::stream() { return nullptr; }

#endif

}  // namespace dsnode::tensor
