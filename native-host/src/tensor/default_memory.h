// What NVBUF_MEM_DEFAULT (an NvBufSurface's memType 0) means on the machine it runs on: CUDA
// device memory on a discrete GPU (x86-64 and aarch64 servers alike: GH200, IGX with a dGPU),
// a surface array that needs NvBufSurfaceMap on an integrated one (Jetson), per nvbufsurface.h
// (:357-360: "NVBUF_MEM_CUDA_DEVICE for dGPU, NVBUF_MEM_SURFACE_ARRAY for Jetson"). Decided
// at run time from the device, never from the architecture the build targets.
#ifndef DSNODE_TENSOR_DEFAULT_MEMORY_H
#define DSNODE_TENSOR_DEFAULT_MEMORY_H

#include <cstdint>
#include <optional>

namespace dsnode::tensor {

enum class DefaultMemory {
  kCudaDevice,    // discrete GPU: read it as NVBUF_MEM_CUDA_DEVICE
  kSurfaceArray,  // integrated GPU: NVBUF_MEM_SURFACE_ARRAY (not read: needs NvBufSurfaceMap)
  kUnknown,       // no answer from CUDA on a platform where both exist
};

// The decision: `integrated` is CUDA's cudaDevAttrIntegrated for the surface's GPU (nullopt when
// CUDA could not say: no CUDA in this build, no driver, no such device); `aarch64` whether this
// machine is one (only there are integrated NVIDIA GPUs). Pure, for tests.
constexpr DefaultMemory resolve_default_memory(std::optional<bool> integrated, bool aarch64) {
  if (integrated.has_value()) return *integrated ? DefaultMemory::kSurfaceArray : DefaultMemory::kCudaDevice;
  return aarch64 ? DefaultMemory::kUnknown : DefaultMemory::kCudaDevice;
}

// CUDA's cudaDevAttrIntegrated for `gpu_id` (asked once per device, then remembered); nullopt
// where CUDA cannot say. Any thread.
std::optional<bool> device_is_integrated(int32_t gpu_id);

// resolve_default_memory for `gpu_id` on this machine.
DefaultMemory default_memory_of(int32_t gpu_id);

}  // namespace dsnode::tensor

#endif
