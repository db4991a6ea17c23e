// Memory of owned tensors (outputs of ops and runners, toHost copies): blocks reused by size
// class, like DeepStream's buffer pools but for tensors of any size. A block goes back to the
// pool when its last BlockRef is dropped (TensorHandle.dispose(), GC of the handle and of its
// views, a DLPack capsule's deleter), from any thread.
//
// - cpu: 256-byte aligned host memory (aligned_alloc);
// - cuda: cudaMalloc in the context that owns it (tensor/cuda_scope.h);
// - cuda_host: cudaMallocHost (pinned, mapped into every device: readable by the CPU and by
//   kernels alike).
// Sizes are rounded up to classes of four per power of two (at most 25% waste). Freed blocks
// stay cached up to 16 per class and 256 MiB per device; beyond that they are freed at once, as
// are blocks of a GstCudaContext (caching them would keep GStreamer's context alive).
#ifndef DSNODE_TENSOR_TENSOR_POOL_H
#define DSNODE_TENSOR_TENSOR_POOL_H

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <tuple>
#include <vector>

#include "tensor/tensor.h"

namespace dsnode::tensor {

struct Block {
  void* ptr = nullptr;
  size_t bytes = 0;  // the size class: at least what was asked for
  Device device = Device::kCpu;
  int32_t device_id = 0;
  void* cuda_context = nullptr;  // a GstCudaContext* this block holds a reference on, or null
};

using BlockRef = std::shared_ptr<Block>;

struct PoolStats {
  size_t live_blocks = 0;    // handed out, not yet back
  size_t live_bytes = 0;
  size_t cached_blocks = 0;  // back in the pool, ready for reuse
  size_t cached_bytes = 0;
  size_t allocations = 0;    // blocks allocated from the system (ever)
  size_t reuses = 0;         // requests served from the cache (ever)
};

class Pool {
 public:
  // The process's pool (never destroyed: blocks may come back during exit).
  static Pool& instance();

  // A block of at least `bytes` (>= 1 byte is always allocated) of `device`. cuda_context: a
  // GstCudaContext* for device memory of GStreamer's context (the block takes a reference),
  // else null. Null with *error set when the memory cannot be had.
  BlockRef allocate(Device device, int32_t device_id, void* cuda_context, size_t bytes, std::string* error);

  PoolStats stats();
  // Frees every cached block (live ones are untouched).
  void trim();

  static size_t size_class(size_t bytes);

 private:
  using Key = std::tuple<int32_t, int32_t, void*, size_t>;  // device, id, context, class
  void recycle(Block* block);
  static void release(Block* block);  // back to the system

  std::mutex mutex_;
  std::map<Key, std::vector<Block*>> cached_;
  std::map<std::tuple<int32_t, int32_t, void*>, size_t> cached_bytes_per_device_;
  PoolStats stats_;
};

}  // namespace dsnode::tensor

#endif
