// What a TensorHandle hands to native code (NativeTensorSource), resolved (tensor_binding.h):
// one reader per kind of source, chosen from a table by the source's `kind`.
#include "binding/tensor_binding_internal.h"

#include <cstdint>
#include <memory>
#include <string>

#include "tensor/copy.h"

namespace dsnode::tensorbind {

namespace {

// { kind: "frame", callId, batchId, region? }: a frame of a live call; keeps a reference on
// the frame's GstMemory (the pixels stay valid after their call ends, though later elements may
// change them).
bool read_frame_source(napi_env env, napi_value source, const char* name, Resolved* out) {
  napi_value call_value = nullptr, batch_value = nullptr;
  uint32_t call_id = 0, batch_id = 0;
  if (!get_property(env, source, "callId", &call_value) || !get_property(env, source, "batchId", &batch_value) ||
      !metabind::read_int<uint32_t>(env, call_value, FieldName("callId"), &call_id) ||
      !metabind::read_int<uint32_t>(env, batch_value, FieldName("batchId"), &batch_id)) {
    return false;
  }
  metabind::LiveCall call(env, call_id, "TensorHandle");
  if (!call) return false;
  tensor::FrameMapping* mapping = nullptr;
  if (!call_frame(env, call, batch_id, "Buffer.extract", &mapping, &out->desc)) return false;
  if (!apply_region(env, source, name, &out->desc) || !apply_plane(env, source, name, &out->desc)) return false;
  GstMemory* memory = gst_memory_ref(mapping->memory());
  out->keep_alive = std::shared_ptr<void>(memory, [](void* held) { gst_memory_unref(static_cast<GstMemory*>(held)); });
  return true;
}

// { kind: "owned", storage }: an owned tensor, not yet disposed; keeps its pooled block.
bool read_owned_source(napi_env env, napi_value source, const char* name, Resolved* out) {
  napi_value storage_value = nullptr;
  Storage* storage = nullptr;
  const std::string storage_name = std::string(name) + ".storage";
  if (!get_property(env, source, "storage", &storage_value) ||
      !read_storage(env, storage_value, storage_name.c_str(), &storage)) {
    return false;
  }
  if (storage->block == nullptr) {
    throw_tensor_error(env, std::string("TensorHandle used after dispose() (") + name +
                                "); an owned tensor's memory goes back to the pool when it is disposed");
    return false;
  }
  out->desc = storage->desc;
  out->keep_alive = storage->block;
  out->owned = true;
  return true;
}

// The layout members a "js" and a "device" source both carry: dtype, shape, strides (their
// count in `stride_dims`) and byteOffset (as JS gave it, and its value).
bool read_layout(napi_env env, napi_value source, Desc* desc, int32_t* stride_dims, napi_value* offset_value,
    double* byte_offset) {
  napi_value dtype = nullptr, shape = nullptr, strides = nullptr;
  return get_property(env, source, "dtype", &dtype) && read_dtype(env, dtype, "dtype", &desc->dtype) &&
         get_property(env, source, "shape", &shape) && read_dims(env, shape, "shape", desc->shape, &desc->ndim) &&
         get_property(env, source, "strides", &strides) &&
         read_dims(env, strides, "strides", desc->strides, stride_dims) &&
         get_property(env, source, "byteOffset", offset_value) &&
         metabind::read_double(env, *offset_value, FieldName("byteOffset"), byte_offset);
}

// { kind: "js", data, dtype, shape, strides, byteOffset, format }: a tensor over a typed array's
// ArrayBuffer, valid only until JS runs again.
bool read_js_source(napi_env env, napi_value source, const char* name, Resolved* out) {
  napi_value data = nullptr, offset_value = nullptr, format_value = nullptr, buffer = nullptr;
  bool is_typed = false;
  const std::string data_name = std::string(name) + ".data";
  if (!get_property(env, source, "data", &data) || napi_is_typedarray(env, data, &is_typed) != napi_ok) return false;
  if (!is_typed) {
    throw_error(env, ErrorKind::kType,
        "Expected a typed array for " + data_name + " but received " + metabind::describe_value(env, data));
    return false;
  }
  Desc& desc = out->desc;
  int32_t stride_dims = 0;
  double byte_offset = 0;
  if (!read_layout(env, source, &desc, &stride_dims, &offset_value, &byte_offset) ||
      !get_property(env, source, "format", &format_value) || !read_format(env, format_value, "format", &desc.format)) {
    return false;
  }
  void* base = nullptr;
  size_t length = 0;
  if (napi_get_typedarray_info(env, data, nullptr, nullptr, nullptr, &buffer, nullptr) != napi_ok ||
      napi_get_arraybuffer_info(env, buffer, &base, &length) != napi_ok) {
    return false;
  }
  const size_t element = tensor::dtype_size(desc.dtype);
  desc.byte_offset = static_cast<uint64_t>(byte_offset);
  if (stride_dims != desc.ndim || byte_offset < 0 || static_cast<double>(desc.byte_offset) != byte_offset ||
      desc.byte_offset % element != 0 || desc.byte_offset + tensor::span_bytes(desc) > length) {
    throw_error(env, ErrorKind::kRange,
        "Expected a tensor inside its ArrayBuffer of " + std::to_string(length) + " bytes for " + name +
            " but received " + tensor::describe(desc) + " from byte " + metabind::describe_value(env, offset_value));
    return false;
  }
  desc.device = Device::kCpu;
  desc.data = base;
  out->js_buffer = buffer;
  return true;
}

// { kind: "device", device, deviceId, dtype, shape, strides, byteOffset, dataPtr }: device memory
// a runner owns (TensorRT outputs). The TS handle keeps it alive, so the descriptor holds
// nothing. The device's primary context, as every runner allocation.
bool read_device_source(napi_env env, napi_value source, const char* name, Resolved* out) {
  napi_value device_value = nullptr, id_value = nullptr, offset_value = nullptr, pointer_value = nullptr;
  Desc& desc = out->desc;
  std::string device;
  int32_t device_id = 0, stride_dims = 0;
  double byte_offset = 0;
  if (!get_property(env, source, "device", &device_value) ||
      !metabind::read_string(env, device_value, FieldName("device"), &device) ||
      !get_property(env, source, "deviceId", &id_value) ||
      !metabind::read_int<int32_t>(env, id_value, FieldName("deviceId"), &device_id) ||
      !read_layout(env, source, &desc, &stride_dims, &offset_value, &byte_offset) ||
      !get_property(env, source, "dataPtr", &pointer_value)) {
    return false;
  }
  uint64_t address = 0;
  if (!read_address(env, pointer_value, "device", std::string(name) + ".dataPtr", &address)) return false;
  desc.byte_offset = static_cast<uint64_t>(byte_offset);
  if (device != "cuda" || device_id < 0 || stride_dims != desc.ndim || byte_offset < 0 ||
      static_cast<double>(desc.byte_offset) != byte_offset || desc.byte_offset % tensor::dtype_size(desc.dtype) != 0) {
    throw_error(env, ErrorKind::kRange,
        std::string("Expected a CUDA tensor with one stride per dimension and an aligned byte offset for ") + name +
            " but received " + device + ":" + std::to_string(device_id) + " " + tensor::describe(desc));
    return false;
  }
  desc.device = Device::kCuda;
  desc.device_id = device_id;
  desc.data = reinterpret_cast<void*>(static_cast<uintptr_t>(address));
  return true;
}

struct SourceKind {
  const char* kind;
  bool (*read)(napi_env env, napi_value source, const char* name, Resolved* out);
};

constexpr SourceKind kSourceKinds[] = {
    {"frame", read_frame_source},
    {"owned", read_owned_source},
    {"js", read_js_source},
    {"device", read_device_source},
};

// "\"frame\", \"owned\", \"js\" or \"device\"": the kinds, for the message of an unknown one.
std::string known_kinds() {
  std::string text;
  constexpr size_t count = sizeof kSourceKinds / sizeof kSourceKinds[0];
  for (size_t i = 0; i < count; ++i) {
    text += (i == 0 ? "" : i + 1 == count ? " or " : ", ") + std::string("\"") + kSourceKinds[i].kind + "\"";
  }
  return text;
}

}  // namespace

bool resolve(napi_env env, napi_value source, const char* name, Resolved* out) {
  if (!metabind::read_object(env, source, FieldName(name))) return false;
  std::string kind;
  napi_value kind_value = nullptr;
  const std::string kind_name = std::string(name) + ".kind";
  if (!get_property(env, source, "kind", &kind_value) ||
      !metabind::read_string(env, kind_value, FieldName(kind_name.c_str()), &kind)) {
    return false;
  }
  *out = Resolved();
  for (const SourceKind& known : kSourceKinds) {
    if (kind == known.kind) return known.read(env, source, name, out);
  }
  throw_error(env, ErrorKind::kRange,
      "Expected " + known_kinds() + " for " + kind_name + " but received " + metabind::describe_value(env, kind_value));
  return false;
}

}  // namespace dsnode::tensorbind
