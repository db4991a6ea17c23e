// What an NvBufSurface of NVBUF_MEM_DEFAULT is read as (src/tensor/default_memory.h): decided
// from the GPU (CUDA's "integrated" attribute), not from the architecture of the build, so that
// aarch64 machines with a discrete GPU (GH200, IGX) read it as CUDA device memory.
#include "tensor/default_memory.h"

#include "check.h"

using dsnode::tensor::DefaultMemory;
using dsnode::tensor::resolve_default_memory;
using dsnode_test::check;

int main() {
  check(resolve_default_memory(false, true) == DefaultMemory::kCudaDevice,
      "aarch64, discrete GPU (GH200, IGX): CUDA device memory");
  check(resolve_default_memory(false, false) == DefaultMemory::kCudaDevice, "x86-64, discrete GPU: CUDA device memory");
  check(resolve_default_memory(true, true) == DefaultMemory::kSurfaceArray,
      "aarch64, integrated GPU (Jetson): a surface array");
  check(resolve_default_memory(true, false) == DefaultMemory::kSurfaceArray,
      "integrated GPU, whatever the build: a surface array");
  check(resolve_default_memory(std::nullopt, false) == DefaultMemory::kCudaDevice,
      "x86-64, CUDA cannot say: CUDA device memory (no integrated GPUs there)");
  check(resolve_default_memory(std::nullopt, true) == DefaultMemory::kUnknown,
      "aarch64, CUDA cannot say: unknown (refused with a message, never guessed)");
  // The device query answers or says it cannot; asked twice, it answers the same.
  check(dsnode::tensor::device_is_integrated(0) == dsnode::tensor::device_is_integrated(0),
      "device_is_integrated(0) is stable");
  std::printf("%d passed, %d failed\n", dsnode_test::passed, dsnode_test::failed);
  return dsnode_test::failed == 0 ? 0 : 1;
}
