// What the CUDA test programs share: CUDA_OK (a failed runtime call ends the program with
// status 2, "could not run", naming the call), the check for a device, a host-to-device copy that
// waits, the median of timings.
#ifndef DSNODE_TEST_CUDA_CHECK_H
#define DSNODE_TEST_CUDA_CHECK_H

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CUDA_OK(call)                                                                                   \
  do {                                                                                                  \
    const cudaError_t cuda_ok_error = (call);                                                           \
    if (cuda_ok_error != cudaSuccess) {                                                                 \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(cuda_ok_error)); \
      std::exit(2);                                                                                     \
    }                                                                                                   \
  } while (0)

namespace dsnode_test {

// Ends the program with status 2 ("could not run") where no CUDA device can be used.
inline void require_cuda_device() {
  int devices = 0;
  const cudaError_t error = cudaGetDeviceCount(&devices);
  if (error != cudaSuccess || devices == 0) {
    std::fprintf(stderr, "no usable CUDA device: %s\n", error != cudaSuccess ? cudaGetErrorString(error) : "none found");
    std::exit(2);
  }
}

// Copies host bytes to the device and waits until they have landed. cudaMemcpy alone is not
// enough for the kernels under test: from pageable memory it may return before the DMA ends,
// and it runs on the legacy default stream, which the tests' non-blocking streams do not wait
// for; a kernel launched next on such a stream can read a half-copied input (seen on an H100:
// 26 of 1000 random YOLO outputs differed, differently from run to run).
inline void copy_to_device(void *to, const void *from, size_t bytes) {
  CUDA_OK(cudaMemcpy(to, from, bytes, cudaMemcpyHostToDevice));
  CUDA_OK(cudaDeviceSynchronize());
}

inline double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const size_t n = values.size();
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

}  // namespace dsnode_test

#endif
