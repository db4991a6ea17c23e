// dsnode_cuda_testing.node, a test-only Node-API module (CMake target dsnode-cuda-testing, not
// part of ALL, never shipped): exports `cudaTesting`, which puts bytes on a CUDA device and reads
// them back with plain synchronous cudaMemcpy, so the GPU tests (test/helpers/tensorrt.ts) can
// feed the TensorRT runner. Not for pipelines: every call blocks the JS thread.
//
//   deviceCount() → number (0 when CUDA is not usable)
//   upload(view: ArrayBufferView, deviceId = 0) → bigint (a device address; free() it)
//   download(address: bigint, byteLength: number, deviceId = 0) → ArrayBuffer
//   free(address: bigint, deviceId = 0)
//   uploadInOwnContext(view, deviceId = 0) → bigint: like upload, but the memory belongs to a
//     CUDA context of its own on the device, not the primary one (as `(memory:CUDAMemory)`
//     frames belong to GStreamer's GstCudaContext); free() frees it in that context
#include <cuda_runtime_api.h>
#include <dlfcn.h>

#include <cstdint>
#include <map>
#include <mutex>
#include <string>

#include "binding/js_values.h"

namespace dsnode::testing {

namespace {

using metabind::ErrorKind;
using metabind::throw_error;

napi_value cuda_failure(napi_env env, const char* what, cudaError_t status) {
  return throw_error(env, ErrorKind::kState, std::string(what) + " failed: " + cudaGetErrorString(status) + " (" +
      cudaGetErrorName(status) + ")");
}

bool read_address(napi_env env, napi_value value, void** out) {
  uint64_t address = 0;
  bool lossless = false;
  napi_valuetype type = napi_undefined;
  if (value == nullptr || napi_typeof(env, value, &type) != napi_ok || type != napi_bigint ||
      napi_get_value_bigint_uint64(env, value, &address, &lossless) != napi_ok || !lossless) {
    throw_error(env, ErrorKind::kType, "Expected a device address (bigint) for address but received " +
        metabind::describe_value(env, value));
    return false;
  }
  *out = reinterpret_cast<void*>(static_cast<uintptr_t>(address));
  return true;
}

// The driver API, from the libcuda the CUDA runtime has loaded (the standalone binding does not link
// it). CUresult is an int, CUcontext a pointer, CUdeviceptr 64 bits, CUdevice an int.
struct Driver {
  int (*device_get)(int*, int) = nullptr;                                  // cuDeviceGet
  int (*context_create)(void**, unsigned, int) = nullptr;                  // cuCtxCreate_v2
  int (*context_push)(void*) = nullptr;                                    // cuCtxPushCurrent_v2
  int (*context_pop)(void**) = nullptr;                                    // cuCtxPopCurrent_v2
  int (*memory_allocate)(unsigned long long*, size_t) = nullptr;           // cuMemAlloc_v2
  int (*copy_to_device)(unsigned long long, const void*, size_t) = nullptr;  // cuMemcpyHtoD_v2
  int (*memory_free)(unsigned long long) = nullptr;                        // cuMemFree_v2
  bool ok() const {
    return device_get && context_create && context_push && context_pop && memory_allocate && copy_to_device && memory_free;
  }
};

const Driver& driver() {
  static const Driver loaded = [] {
    Driver d;
    void* library = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
    if (library == nullptr) library = dlopen("libcuda.so.1", RTLD_NOW);
    if (library == nullptr) return d;
    d.device_get = reinterpret_cast<int (*)(int*, int)>(dlsym(library, "cuDeviceGet"));
    d.context_create = reinterpret_cast<int (*)(void**, unsigned, int)>(dlsym(library, "cuCtxCreate_v2"));
    d.context_push = reinterpret_cast<int (*)(void*)>(dlsym(library, "cuCtxPushCurrent_v2"));
    d.context_pop = reinterpret_cast<int (*)(void**)>(dlsym(library, "cuCtxPopCurrent_v2"));
    d.memory_allocate = reinterpret_cast<int (*)(unsigned long long*, size_t)>(dlsym(library, "cuMemAlloc_v2"));
    d.copy_to_device = reinterpret_cast<int (*)(unsigned long long, const void*, size_t)>(dlsym(library, "cuMemcpyHtoD_v2"));
    d.memory_free = reinterpret_cast<int (*)(unsigned long long)>(dlsym(library, "cuMemFree_v2"));
    return d;
  }();
  return loaded;
}

// One context of its own per device, made on first use and kept; and which addresses are its.
struct OwnContexts {
  std::mutex mutex;
  std::map<int, void*> by_device;
  std::map<uintptr_t, void*> owner_of;
};

OwnContexts& own_contexts() {
  static OwnContexts* contexts = new OwnContexts();
  return *contexts;
}

bool select_device(napi_env env, napi_value value) {
  int64_t device = 0;
  if (!metabind::is_nullish(env, value) && !metabind::read_integer(env, value, "deviceId", 0, 1023, &device)) return false;
  const cudaError_t status = cudaSetDevice(static_cast<int>(device));
  if (status != cudaSuccess) {
    cuda_failure(env, "cudaSetDevice", status);
    return false;
  }
  return true;
}

napi_value device_count(napi_env env, napi_callback_info /*info*/) {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) count = 0;
  return metabind::make_number(env, count);
}

// Reads the bytes of a typed array or DataView argument.
bool read_bytes(napi_env env, napi_value value, void** bytes, size_t* length) {
  bool is_view = false;
  if (napi_is_typedarray(env, value, &is_view) == napi_ok && is_view) {
    napi_typedarray_type type;
    size_t count = 0;
    napi_get_typedarray_info(env, value, &type, &count, bytes, nullptr, nullptr);  // `bytes`: past the offset
    size_t element = 1;
    switch (type) {
      case napi_int16_array: case napi_uint16_array: element = 2; break;
      case napi_int32_array: case napi_uint32_array: case napi_float32_array: element = 4; break;
      case napi_float64_array: case napi_bigint64_array: case napi_biguint64_array: element = 8; break;
      default: break;
    }
    *length = count * element;
    return true;
  }
  if (napi_is_dataview(env, value, &is_view) == napi_ok && is_view) {
    napi_get_dataview_info(env, value, length, bytes, nullptr, nullptr);
    return true;
  }
  throw_error(env, ErrorKind::kType, "Expected a typed array or DataView for view but received " +
      metabind::describe_value(env, value));
  return false;
}

napi_value upload(napi_env env, napi_callback_info info) {
  metabind::Args args(env, info);
  void* bytes = nullptr;
  size_t length = 0;
  if (!args.ok || !read_bytes(env, args[0], &bytes, &length)) return nullptr;
  if (!select_device(env, args[1])) return nullptr;
  void* device = nullptr;
  cudaError_t status = cudaMalloc(&device, length == 0 ? 1 : length);
  if (status != cudaSuccess) return cuda_failure(env, "cudaMalloc", status);
  status = cudaMemcpy(device, bytes, length, cudaMemcpyHostToDevice);
  if (status != cudaSuccess) {
    cudaFree(device);
    return cuda_failure(env, "cudaMemcpy", status);
  }
  napi_value address = nullptr;
  napi_create_bigint_uint64(env, reinterpret_cast<uintptr_t>(device), &address);
  return address;
}

napi_value driver_failure(napi_env env, const char* what, int status) {
  return throw_error(env, ErrorKind::kState, std::string(what) + " failed: CUresult " + std::to_string(status));
}

napi_value upload_in_own_context(napi_env env, napi_callback_info info) {
  metabind::Args args(env, info);
  void* bytes = nullptr;
  size_t length = 0;
  int64_t device_id = 0;
  if (!args.ok || !read_bytes(env, args[0], &bytes, &length)) return nullptr;
  if (!metabind::is_nullish(env, args[1]) && !metabind::read_integer(env, args[1], "deviceId", 0, 1023, &device_id)) {
    return nullptr;
  }
  const Driver& d = driver();
  if (!d.ok()) return throw_error(env, ErrorKind::kState, "libcuda.so.1 (the CUDA driver API) could not be loaded");
  OwnContexts& contexts = own_contexts();
  std::lock_guard<std::mutex> lock(contexts.mutex);
  void*& context = contexts.by_device[static_cast<int>(device_id)];
  if (context == nullptr) {
    int device = 0;
    int status = d.device_get(&device, static_cast<int>(device_id));
    if (status == 0) status = d.context_create(&context, 0, device);  // current now: pop it
    if (status != 0) {
      context = nullptr;
      return driver_failure(env, "cuCtxCreate", status);
    }
    void* popped = nullptr;
    d.context_pop(&popped);
  }
  int status = d.context_push(context);
  if (status != 0) return driver_failure(env, "cuCtxPushCurrent", status);
  unsigned long long device_pointer = 0;
  status = d.memory_allocate(&device_pointer, length == 0 ? 1 : length);
  if (status == 0) {
    status = d.copy_to_device(device_pointer, bytes, length);
    if (status != 0) d.memory_free(device_pointer);
  }
  void* popped = nullptr;
  d.context_pop(&popped);
  if (status != 0) return driver_failure(env, "cuMemAlloc/cuMemcpyHtoD", status);
  contexts.owner_of[static_cast<uintptr_t>(device_pointer)] = context;
  napi_value address = nullptr;
  napi_create_bigint_uint64(env, device_pointer, &address);
  return address;
}

napi_value download(napi_env env, napi_callback_info info) {
  metabind::Args args(env, info);
  void* device = nullptr;
  int64_t length = 0;
  if (!args.ok || !read_address(env, args[0], &device) ||
      !metabind::read_integer(env, args[1], "byteLength", 0, 1 << 30, &length) || !select_device(env, args[2])) {
    return nullptr;
  }
  void* bytes = nullptr;
  napi_value buffer = nullptr;
  if (napi_create_arraybuffer(env, static_cast<size_t>(length), &bytes, &buffer) != napi_ok) return nullptr;
  const cudaError_t status = cudaMemcpy(bytes, device, static_cast<size_t>(length), cudaMemcpyDeviceToHost);
  if (status != cudaSuccess) return cuda_failure(env, "cudaMemcpy", status);
  return buffer;
}

napi_value free_device(napi_env env, napi_callback_info info) {
  metabind::Args args(env, info);
  void* device = nullptr;
  if (!args.ok || !read_address(env, args[0], &device) || !select_device(env, args[1])) return nullptr;
  {
    OwnContexts& contexts = own_contexts();
    std::lock_guard<std::mutex> lock(contexts.mutex);
    auto owned = contexts.owner_of.find(reinterpret_cast<uintptr_t>(device));
    if (owned != contexts.owner_of.end()) {
      const Driver& d = driver();
      int status = d.context_push(owned->second);
      if (status == 0) {
        status = d.memory_free(reinterpret_cast<uintptr_t>(device));
        void* popped = nullptr;
        d.context_pop(&popped);
      }
      contexts.owner_of.erase(owned);
      if (status != 0) return driver_failure(env, "cuMemFree", status);
      return nullptr;
    }
  }
  const cudaError_t status = cudaFree(device);
  if (status != cudaSuccess) return cuda_failure(env, "cudaFree", status);
  return nullptr;
}

bool install_cuda_testing(napi_env env, napi_value exports) {
  struct Entry {
    const char* name;
    napi_callback callback;
  };
  constexpr Entry kEntries[] = {
      {"deviceCount", device_count}, {"upload", upload}, {"download", download}, {"free", free_device},
      {"uploadInOwnContext", upload_in_own_context}};
  metabind::ObjectBuilder object(env);
  for (const Entry& entry : kEntries) {
    napi_value function = nullptr;
    if (napi_create_function(env, entry.name, NAPI_AUTO_LENGTH, entry.callback, nullptr, &function) != napi_ok) return false;
    object.set(entry.name, function);
  }
  return object.ok() && napi_set_named_property(env, exports, "cudaTesting", object.value()) == napi_ok;
}

napi_value init(napi_env env, napi_value exports) {
  return install_cuda_testing(env, exports) ? exports : nullptr;
}

}  // namespace

}  // namespace dsnode::testing

NAPI_MODULE(dsnode_cuda_testing, dsnode::testing::init)
