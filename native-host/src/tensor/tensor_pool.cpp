#include "tensor/tensor_pool.h"

#include <glib-object.h>

#include <cstdlib>

#include "tensor/cuda_scope.h"

#ifdef DSNODE_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

namespace dsnode::tensor {

namespace {

constexpr size_t kHostAlignment = 256;  // DLPack's alignment advice, and a cache line multiple
constexpr size_t kMinClass = 256;
constexpr size_t kMaxCachedPerClass = 16;
constexpr size_t kMaxCachedBytesPerDevice = size_t{256} << 20;

// Allocates a block's memory; false with *error set.
bool acquire(Block* block, std::string* error) {
  if (block->device == Device::kCpu) {
    block->ptr = std::aligned_alloc(kHostAlignment, block->bytes);
    if (block->ptr == nullptr) *error = "Could not allocate " + std::to_string(block->bytes) + " bytes of host memory";
    return block->ptr != nullptr;
  }
  CudaScope scope(block->device_id, block->cuda_context);
  if (!scope.ok()) {
    *error = scope.error();
    return false;
  }
#ifdef DSNODE_HAVE_CUDA
  const cudaError_t status =
      block->device == Device::kCuda ? cudaMalloc(&block->ptr, block->bytes) : cudaMallocHost(&block->ptr, block->bytes);
  if (status != cudaSuccess) {
    block->ptr = nullptr;
    *error = cuda_error_text(status, block->device == Device::kCuda ? "cudaMalloc" : "cudaMallocHost") + " (" +
             std::to_string(block->bytes) + " bytes on " + describe_device(block->device, block->device_id) + ")";
    return false;
  }
  return true;
#else
  return false;
#endif
}

}  // namespace

Pool& Pool::instance() {
  static Pool* pool = new Pool();
  return *pool;
}

size_t Pool::size_class(size_t bytes) {
  if (bytes <= kMinClass) return kMinClass;
  size_t power = kMinClass;
  while (power * 2 <= bytes) power *= 2;
  const size_t step = power / 4;
  return (bytes + step - 1) / step * step;
}

BlockRef Pool::allocate(Device device, int32_t device_id, void* cuda_context, size_t bytes, std::string* error) {
  if (device == Device::kCpu) {
    device_id = 0;
    cuda_context = nullptr;
  }
  const size_t klass = size_class(bytes);
  Block* block = nullptr;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto found = cached_.find(Key{static_cast<int32_t>(device), device_id, cuda_context, klass});
    if (found != cached_.end() && !found->second.empty()) {
      block = found->second.back();
      found->second.pop_back();
      stats_.cached_blocks -= 1;
      stats_.cached_bytes -= block->bytes;
      cached_bytes_per_device_[{static_cast<int32_t>(device), device_id, cuda_context}] -= block->bytes;
      stats_.reuses += 1;
    }
  }
  if (block == nullptr) {
    auto fresh = std::make_unique<Block>();
    fresh->bytes = klass;
    fresh->device = device;
    fresh->device_id = device_id;
    fresh->cuda_context = cuda_context;
    if (!acquire(fresh.get(), error)) return nullptr;
    if (cuda_context != nullptr) g_object_ref(cuda_context);
    block = fresh.release();
    std::lock_guard<std::mutex> lock(mutex_);
    stats_.allocations += 1;
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stats_.live_blocks += 1;
    stats_.live_bytes += block->bytes;
  }
  return BlockRef(block, [](Block* back) { Pool::instance().recycle(back); });
}

void Pool::recycle(Block* block) {
  bool keep = false;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stats_.live_blocks -= 1;
    stats_.live_bytes -= block->bytes;
    const auto device = std::make_tuple(static_cast<int32_t>(block->device), block->device_id, block->cuda_context);
    std::vector<Block*>& list = cached_[Key{std::get<0>(device), std::get<1>(device), std::get<2>(device), block->bytes}];
    size_t& device_bytes = cached_bytes_per_device_[device];
    // Blocks of a GstCudaContext are not kept: a cached block would keep GStreamer's CUDA
    // context (and its pipeline's device memory) alive after the pipeline is gone.
    if (block->cuda_context == nullptr && list.size() < kMaxCachedPerClass &&
        device_bytes + block->bytes <= kMaxCachedBytesPerDevice) {
      list.push_back(block);
      device_bytes += block->bytes;
      stats_.cached_blocks += 1;
      stats_.cached_bytes += block->bytes;
      keep = true;
    }
  }
  if (!keep) release(block);
}

void Pool::release(Block* block) {
  if (block->device == Device::kCpu) {
    std::free(block->ptr);
  } else {
#ifdef DSNODE_HAVE_CUDA
    CudaScope scope(block->device_id, block->cuda_context);
    if (scope.ok()) {
      if (block->device == Device::kCuda) {
        cudaFree(block->ptr);
      } else {
        cudaFreeHost(block->ptr);
      }
    }
#endif
    if (block->cuda_context != nullptr) g_object_unref(block->cuda_context);
  }
  delete block;
}

PoolStats Pool::stats() {
  std::lock_guard<std::mutex> lock(mutex_);
  return stats_;
}

void Pool::trim() {
  std::vector<Block*> freed;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    for (auto& entry : cached_) {
      freed.insert(freed.end(), entry.second.begin(), entry.second.end());
      entry.second.clear();
    }
    cached_.clear();
    cached_bytes_per_device_.clear();
    stats_.cached_blocks = 0;
    stats_.cached_bytes = 0;
  }
  for (Block* block : freed) release(block);
}

}  // namespace dsnode::tensor
