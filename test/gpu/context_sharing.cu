// GPU hook program (test/gpu/context-sharing.sh builds and runs it): what the TensorRT runner
// relies on for frames from `video/x-raw(memory:CUDAMemory)`. Their memory, and what
// preprocess makes of it, belongs to GStreamer's own CUDA context (a GstCudaContext, made with
// cuCtxCreate), while the runner's engine and stream live in the device's primary context. The
// runner binds those device pointers as they are, so a kernel and a copy running in the primary
// context must read memory of another context on the same device. This checks it with a real
// GstCudaContext (libgstcuda-1.0, loaded with dlopen: the machine has no GStreamer headers).
// Prints one line per check and "N passed, M failed"; exit status 0 when none failed.
#include <cuda.h>
#include <cuda_runtime.h>
#include <dlfcn.h>

#include <cstdio>
#include <vector>

namespace {

int passed = 0, failed = 0;

void check(const char* name, bool ok, const char* detail = "") {
  (ok ? passed : failed)++;
  std::printf("%s %s%s%s\n", ok ? "ok  " : "FAIL", name, *detail ? ": " : "", detail);
}

__global__ void scale(const float* in, float* out, int n, float factor) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] * factor;
}

template <typename F>
F symbol(void* library, const char* name) {
  return library != nullptr ? reinterpret_cast<F>(dlsym(library, name)) : nullptr;
}

}  // namespace

int main() {
  void* gst = dlopen("libgstreamer-1.0.so.0", RTLD_NOW | RTLD_GLOBAL);
  void* gstcuda = dlopen("libgstcuda-1.0.so.0", RTLD_NOW | RTLD_GLOBAL);
  auto gst_init = symbol<void (*)(int*, char***)>(gst, "gst_init");
  auto load_library = symbol<int (*)()>(gstcuda, "gst_cuda_load_library");  // what the nvcodec plugin calls first
  auto context_new = symbol<void* (*)(unsigned)>(gstcuda, "gst_cuda_context_new");
  auto context_handle = symbol<CUcontext (*)(void*)>(gstcuda, "gst_cuda_context_get_handle");
  auto context_push = symbol<int (*)(void*)>(gstcuda, "gst_cuda_context_push");
  auto context_pop = symbol<int (*)(CUcontext*)>(gstcuda, "gst_cuda_context_pop");
  if (gst_init == nullptr || load_library == nullptr || context_new == nullptr || context_handle == nullptr || context_push == nullptr ||
      context_pop == nullptr) {
    std::printf("FAIL libgstcuda-1.0.so.0 and libgstreamer-1.0.so.0 with gst_cuda_context_new: %s\n", dlerror());
    std::printf("0 passed, 1 failed\n");
    return 1;
  }
  gst_init(nullptr, nullptr);
  if (!load_library()) {
    std::printf("FAIL gst_cuda_load_library: GStreamer could not load libcuda\n0 passed, 1 failed\n");
    return 1;
  }

  // The primary context, as the runner's CUDA runtime calls make it current.
  cudaSetDevice(0);
  cudaFree(nullptr);
  CUcontext primary = nullptr;
  cuCtxGetCurrent(&primary);

  void* gst_context = context_new(0);
  check("gst_cuda_context_new(0) makes a GstCudaContext", gst_context != nullptr);
  if (gst_context == nullptr) {
    std::printf("%d passed, %d failed\n", passed, failed);
    return 1;
  }
  CUcontext handle = context_handle(gst_context);
  check("its CUcontext is not the primary context", handle != nullptr && handle != primary);

  // Memory of GStreamer's context, as cudaupload and our ops there allocate it.
  constexpr int n = 1 << 20;
  std::vector<float> host(n), back(n);
  for (int i = 0; i < n; ++i) host[i] = static_cast<float>(i % 1000) * 0.5f;
  CUdeviceptr theirs = 0;
  const bool pushed = context_push(gst_context) != 0;
  const bool allocated = pushed && cuMemAlloc(&theirs, n * sizeof(float)) == CUDA_SUCCESS &&
                         cuMemcpyHtoD(theirs, host.data(), n * sizeof(float)) == CUDA_SUCCESS;
  if (pushed) context_pop(nullptr);
  check("memory allocated and filled in GStreamer's context", allocated);
  CUcontext current = nullptr;
  cuCtxGetCurrent(&current);
  check("the primary context is current again", current == primary);

  CUcontext owner = nullptr;
  cuPointerGetAttribute(&owner, CU_POINTER_ATTRIBUTE_CONTEXT, theirs);
  check("the pointer belongs to GStreamer's context", owner == handle);

  // A kernel in the primary context, on a stream of its own (as enqueueV3 on the runner's).
  float* ours = nullptr;
  cudaStream_t stream = nullptr;
  cudaMalloc(&ours, n * sizeof(float));
  cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
  scale<<<(n + 255) / 256, 256, 0, stream>>>(reinterpret_cast<const float*>(theirs), ours, n, 2.0f);
  cudaError_t status = cudaStreamSynchronize(stream);
  bool same = status == cudaSuccess && cudaMemcpy(back.data(), ours, n * sizeof(float), cudaMemcpyDeviceToHost) == cudaSuccess;
  for (int i = 0; same && i < n; ++i) same = back[i] == host[i] * 2.0f;
  check("a kernel in the primary context reads it", same, cudaGetErrorString(status));

  // A copy into primary-context memory on that stream (what a staging copy would do).
  cudaMemsetAsync(ours, 0, n * sizeof(float), stream);
  status = cudaMemcpyAsync(ours, reinterpret_cast<const void*>(theirs), n * sizeof(float), cudaMemcpyDefault, stream);
  if (status == cudaSuccess) status = cudaStreamSynchronize(stream);
  same = status == cudaSuccess && cudaMemcpy(back.data(), ours, n * sizeof(float), cudaMemcpyDeviceToHost) == cudaSuccess;
  for (int i = 0; same && i < n; ++i) same = back[i] == host[i];
  check("cudaMemcpyAsync from it in the primary context", same, cudaGetErrorString(status));

  cudaStreamDestroy(stream);
  cudaFree(ours);
  if (context_push(gst_context) != 0) {
    cuMemFree(theirs);
    context_pop(nullptr);
  }
  std::printf("%d passed, %d failed\n", passed, failed);
  return failed == 0 ? 0 : 1;
}
