// cudaTesting (testing addon only): puts bytes on a CUDA device and reads them back, with plain
// synchronous cudaMemcpy, so the GPU tests can feed the TensorRT runner before TensorHandle has
// its own upload/download. Not for pipelines: every call blocks the JS thread.
//
//   deviceCount() → number (0 when CUDA is not usable)
//   upload(view: ArrayBufferView, deviceId = 0) → bigint (a device address; free() it)
//   download(address: bigint, byteLength: number, deviceId = 0) → ArrayBuffer
//   free(address: bigint, deviceId = 0)
#include <cuda_runtime_api.h>

#include <string>

#include "binding/js_values.h"
#include "runners/tensorrt_binding.h"

namespace dsnode::runners {

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

napi_value upload(napi_env env, napi_callback_info info) {
  metabind::Args args(env, info);
  bool is_view = false;
  void* bytes = nullptr;
  size_t length = 0;
  if (!args.ok) return nullptr;
  if (napi_is_typedarray(env, args[0], &is_view) == napi_ok && is_view) {
    napi_typedarray_type type;
    size_t count = 0;
    napi_get_typedarray_info(env, args[0], &type, &count, &bytes, nullptr, nullptr);  // `bytes`: past the offset
    size_t element = 1;
    switch (type) {
      case napi_int16_array: case napi_uint16_array: element = 2; break;
      case napi_int32_array: case napi_uint32_array: case napi_float32_array: element = 4; break;
      case napi_float64_array: case napi_bigint64_array: case napi_biguint64_array: element = 8; break;
      default: break;
    }
    length = count * element;
  } else if (napi_is_dataview(env, args[0], &is_view) == napi_ok && is_view) {
    napi_get_dataview_info(env, args[0], &length, &bytes, nullptr, nullptr);
  } else {
    return throw_error(env, ErrorKind::kType, "Expected a typed array or DataView for view but received " +
        metabind::describe_value(env, args[0]));
  }
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
  const cudaError_t status = cudaFree(device);
  if (status != cudaSuccess) return cuda_failure(env, "cudaFree", status);
  return nullptr;
}

}  // namespace

bool install_cuda_testing(napi_env env, napi_value exports) {
  struct Entry {
    const char* name;
    napi_callback callback;
  };
  constexpr Entry kEntries[] = {
      {"deviceCount", device_count}, {"upload", upload}, {"download", download}, {"free", free_device}};
  metabind::ObjectBuilder object(env);
  for (const Entry& entry : kEntries) {
    napi_value function = nullptr;
    if (napi_create_function(env, entry.name, NAPI_AUTO_LENGTH, entry.callback, nullptr, &function) != napi_ok) return false;
    object.set(entry.name, function);
  }
  return object.ok() && napi_set_named_property(env, exports, "cudaTesting", object.value()) == napi_ok;
}

}  // namespace dsnode::runners
