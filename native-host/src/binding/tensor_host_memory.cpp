// Host memory across threads and addons (tensor_binding_internal.h): holds that keep a tensor's
// memory while other code reads it, views over memory this environment does not own, and the
// address of a typed array's memory.
#include "binding/tensor_binding_internal.h"

#include <cstdint>
#include <string>

namespace dsnode::tensorbind {

namespace {

// A hold keeps a tensor's memory while native work or another thread reads it after the JS side
// may have let go of the tensor (dispose(), the end of its call). letGo() ends it at once; GC
// ends a forgotten one.
constexpr napi_type_tag kHoldTag = {0x64736e6f64652d68ull, 0x6f6c642d74656e73ull};

void finalize_hold(napi_env env, void* data, void* hint) {
  auto* held = static_cast<HeldMemory*>(data);
  held->drop(env);
  delete held;
}

}  // namespace

napi_value address_of(napi_env env, napi_callback_info info) {
  Args args(env, info);
  bool is_typed = false;
  if (!args.ok || napi_is_typedarray(env, args[0], &is_typed) != napi_ok) return nullptr;
  if (!is_typed) {
    return throw_error(env, ErrorKind::kType,
        "Expected a typed array for data but received " + metabind::describe_value(env, args[0]));
  }
  napi_value buffer = nullptr;
  size_t offset = 0;
  void* base = nullptr;
  size_t length = 0;
  if (napi_get_typedarray_info(env, args[0], nullptr, nullptr, nullptr, &buffer, &offset) != napi_ok ||
      napi_get_arraybuffer_info(env, buffer, &base, &length) != napi_ok) {
    return nullptr;
  }
  return make_pointer(env, base);
}

napi_value hold(napi_env env, napi_callback_info info) {
  Args args(env, info);
  Resolved source;
  if (!args.ok || !resolve(env, args[0], "tensor", &source)) return nullptr;
  auto* held = new HeldMemory();
  napi_value object = nullptr;
  if (!held->take(env, &source) || napi_create_object(env, &object) != napi_ok ||
      napi_type_tag_object(env, object, &kHoldTag) != napi_ok ||
      napi_wrap(env, object, held, finalize_hold, nullptr, nullptr) != napi_ok) {
    held->drop(env);
    delete held;
    return nullptr;
  }
  return object;
}

napi_value let_go(napi_env env, napi_callback_info info) {
  Args args(env, info);
  bool tagged = false;
  void* data = nullptr;
  if (!args.ok) return nullptr;
  if (napi_check_object_type_tag(env, args[0], &kHoldTag, &tagged) != napi_ok || !tagged ||
      napi_unwrap(env, args[0], &data) != napi_ok) {
    return throw_error(env, ErrorKind::kType,
        "Expected a hold from tensor.hold() for hold but received " + metabind::describe_value(env, args[0]));
  }
  static_cast<HeldMemory*>(data)->drop(env);
  return metabind::make_undefined(env);
}

// An ArrayBuffer over host memory this environment does not own, for a worker thread that
// reads a tensor of the main thread in place (the ONNX Runtime runner's session thread). It frees
// nothing: the caller keeps the memory alive (a hold on the main thread) until the worker is done
// with the view.
napi_value host_view(napi_env env, napi_callback_info info) {
  Args args(env, info);
  if (!args.ok) return nullptr;
  uint64_t address = 0;
  if (!read_address(env, args[0], "host", "address", &address)) return nullptr;
  double byte_length = 0;
  if (!metabind::read_double(env, args[1], FieldName("byteLength"), &byte_length)) return nullptr;
  if (!(byte_length >= 1 && byte_length <= 9007199254740991.0) || byte_length != static_cast<double>(static_cast<uint64_t>(byte_length))) {
    return throw_error(env, ErrorKind::kRange,
        "Expected a whole number of bytes from 1 to 2^53 - 1 for byteLength but received " + metabind::describe_value(env, args[1]));
  }
  napi_value view = nullptr;
  if (napi_create_external_arraybuffer(env, reinterpret_cast<void*>(static_cast<uintptr_t>(address)),
          static_cast<size_t>(byte_length), nullptr, nullptr, &view) != napi_ok) {
    bool pending = false;
    napi_is_exception_pending(env, &pending);
    return pending ? nullptr : throw_tensor_error(env, "Could not make an ArrayBuffer over host memory");
  }
  return view;
}
}  // namespace dsnode::tensorbind
