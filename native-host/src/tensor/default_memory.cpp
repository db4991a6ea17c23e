#include "tensor/default_memory.h"

#include <map>
#include <mutex>

#ifdef DSNODE_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

namespace dsnode::tensor {

std::optional<bool> device_is_integrated(int32_t gpu_id) {
#ifdef DSNODE_HAVE_CUDA
  static std::mutex mutex;
  static auto *answers = new std::map<int32_t, std::optional<bool>>();
  std::lock_guard<std::mutex> lock(mutex);
  if (auto found = answers->find(gpu_id); found != answers->end()) return found->second;
  int integrated = 0;
  std::optional<bool> answer;
  if (cudaDeviceGetAttribute(&integrated, cudaDevAttrIntegrated, gpu_id) == cudaSuccess)
    answer = integrated != 0;
  else
    cudaGetLastError();  // not sticky, but leave no error for the next call to find
  answers->emplace(gpu_id, answer);
  return answer;
#else
  (void)gpu_id;
  return std::nullopt;
#endif
}

DefaultMemory default_memory_of(int32_t gpu_id) {
#if defined(__aarch64__)
  constexpr bool kAarch64 = true;
#else
  constexpr bool kAarch64 = false;
#endif
  return resolve_default_memory(device_is_integrated(gpu_id), kAarch64);
}

}  // namespace dsnode::tensor
