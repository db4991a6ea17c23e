#include "tensor/copy.h"

#include <atomic>
#include <cstring>

#include "tensor/cuda_scope.h"

#ifdef DSNODE_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

namespace dsnode::tensor {

// "a float32 tensor of shape [2, 3] on cuda:0"
std::string describe(const Desc& desc) {
  std::string shape = "[";
  for (int32_t d = 0; d < desc.ndim; ++d) shape += (d ? ", " : "") + std::to_string(desc.shape[d]);
  shape += "]";
  std::string text = std::string("a ") + dtype_name(desc.dtype) + " tensor of shape " + shape;
  if (desc.format != PixelFormat::kNone) text += std::string(" (") + format_name(desc.format) + ")";
  return text + " on " + describe_device(desc.device, desc.device_id);
}

// Copies `src` (host-visible) into dense `dst`: the longest run of contiguous trailing
// dimensions at a time (a frame's rows).
void copy_host(const Desc& src, uint8_t* dst) {
  const size_t element = dtype_size(src.dtype);
  if (element_count(src) == 0) return;
  int32_t inner = src.ndim;
  int64_t chunk = 1;
  while (inner > 0 && (src.strides[inner - 1] == chunk || src.shape[inner - 1] == 1)) {
    chunk *= src.shape[inner - 1];
    --inner;
  }
  const size_t chunk_bytes = static_cast<size_t>(chunk) * element;
  int64_t index[kMaxDims] = {};
  int64_t outer = 1;
  for (int32_t d = 0; d < inner; ++d) outer *= src.shape[d];
  const uint8_t* base = src.first();
  for (int64_t i = 0; i < outer; ++i) {
    int64_t offset = 0;
    for (int32_t d = 0; d < inner; ++d) offset += index[d] * src.strides[d];
    std::memcpy(dst + static_cast<size_t>(i) * chunk_bytes, base + offset * static_cast<int64_t>(element), chunk_bytes);
    for (int32_t d = inner - 1; d >= 0; --d) {
      if (++index[d] < src.shape[d]) break;
      index[d] = 0;
    }
  }
}

// Copies from device memory to the host, ever (tensorStats().hostCopies): the GPU path's pass
// mark is that extract and the ops make none.
namespace {
std::atomic<uint64_t> host_copies{0};
std::atomic<uint64_t> host_copy_bytes{0};
}  // namespace

// Device → dense host: one copy for dense tensors, a 2D copy for rows (frames). False with
// *error set otherwise.
bool copy_device(const Desc& src, uint8_t* dst, std::string* error) {
  CudaScope scope(src.device_id, src.cuda_context);
  if (!scope.ok()) {
    *error = scope.error();
    return false;
  }
#ifdef DSNODE_HAVE_CUDA
  const size_t element = dtype_size(src.dtype);
  if (element_count(src) == 0) return true;
  cudaError_t status = cudaSuccess;
  if (is_dense(src)) {
    status = cudaMemcpy(dst, src.first(), span_bytes(src), cudaMemcpyDeviceToHost);
  } else {
    int64_t row = 1;
    int32_t inner = src.ndim;
    while (inner > 0 && (src.strides[inner - 1] == row || src.shape[inner - 1] == 1)) {
      row *= src.shape[inner - 1];
      --inner;
    }
    if (inner != 1) {
      *error = "toHost() of a CUDA tensor needs it dense, or rows of contiguous elements (like a frame), but received " +
               describe(src);
      return false;
    }
    status = cudaMemcpy2D(dst, static_cast<size_t>(row) * element, src.first(), static_cast<size_t>(src.strides[0]) * element,
        static_cast<size_t>(row) * element, static_cast<size_t>(src.shape[0]), cudaMemcpyDeviceToHost);
  }
  if (status != cudaSuccess) {
    *error = cuda_error_text(status, "cudaMemcpy (toHost)");
    return false;
  }
  host_copies.fetch_add(1);
  host_copy_bytes.fetch_add(static_cast<uint64_t>(element_count(src)) * element);
  return true;
#else
  return false;
#endif
}

HostCopyStats host_copy_stats() { return {host_copies.load(), host_copy_bytes.load()}; }

}  // namespace dsnode::tensor
