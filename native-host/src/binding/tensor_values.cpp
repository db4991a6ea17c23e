// Reading and building the tensor binding's JS values (tensor_binding_internal.h).
#include "binding/tensor_binding_internal.h"

#include <string>

namespace dsnode::tensorbind {

napi_value throw_tensor_error(napi_env env, const std::string& message) {
  napi_value code = nullptr, text = nullptr, error = nullptr;
  if (napi_create_string_utf8(env, kTensorCode, NAPI_AUTO_LENGTH, &code) == napi_ok &&
      napi_create_string_utf8(env, message.data(), message.size(), &text) == napi_ok &&
      napi_create_error(env, code, text, &error) == napi_ok) {
    napi_throw(env, error);
  }
  return nullptr;
}

// An address from JS: a non-zero bigint that fits 64 bits. `kind` is "device" or "host".
bool read_address(napi_env env, napi_value value, const char* kind, const std::string& name, uint64_t* out) {
  bool lossless = false;
  napi_valuetype type = napi_undefined;
  if (napi_typeof(env, value, &type) != napi_ok || type != napi_bigint ||
      napi_get_value_bigint_uint64(env, value, out, &lossless) != napi_ok || !lossless || *out == 0) {
    throw_error(env, ErrorKind::kType,
        std::string("Expected a ") + kind + " address (a non-zero bigint) for " + name + " but received " +
            metabind::describe_value(env, value));
    return false;
  }
  return true;
}

napi_value throw_frame_error(napi_env env, const tensor::FrameError& error) {
  if (error.kind == tensor::FrameError::Kind::kRange) return throw_error(env, ErrorKind::kRange, error.message);
  return throw_tensor_error(env, error.message);
}


bool get_property(napi_env env, napi_value object, const char* key, napi_value* out) {
  return napi_get_named_property(env, object, key, out) == napi_ok;
}

bool read_dims(napi_env env, napi_value value, const std::string& name, int64_t* dims, int32_t* ndim) {
  uint32_t length = 0;
  if (!metabind::read_array(env, value, FieldName(name.c_str()), &length)) return false;
  if (length > static_cast<uint32_t>(tensor::kMaxDims)) {
    throw_error(env, ErrorKind::kRange,
        "Expected at most " + std::to_string(tensor::kMaxDims) + " dimensions for " + name + " but received " +
            std::to_string(length));
    return false;
  }
  for (uint32_t d = 0; d < length; ++d) {
    napi_value dim = nullptr;
    const std::string dim_name = name + "[" + std::to_string(d) + "]";
    if (napi_get_element(env, value, d, &dim) != napi_ok ||
        !metabind::read_integer(env, dim, FieldName(dim_name.c_str()), 0, metabind::kMaxSafeInteger, &dims[d])) {
      return false;
    }
  }
  *ndim = static_cast<int32_t>(length);
  return true;
}

bool read_choice(napi_env env, napi_value object, const char* key, const char* name, std::string* out) {
  napi_value value = nullptr;
  return get_property(env, object, key, &value) && metabind::read_string(env, value, FieldName(name), out);
}

bool read_dtype(napi_env env, napi_value value, const char* name, DType* out) {
  std::string text;
  if (!metabind::read_string(env, value, FieldName(name), &text)) return false;
  if (tensor::parse_dtype(text, out)) return true;
  throw_error(env, ErrorKind::kRange,
      std::string("Expected \"uint8\", \"int8\", \"int32\", \"int64\", \"float16\" or \"float32\" for ") + name +
          " but received " + metabind::describe_value(env, value));
  return false;
}

// undefined/null → kNone.
bool read_format(napi_env env, napi_value value, const char* name, PixelFormat* out) {
  *out = PixelFormat::kNone;
  if (metabind::is_nullish(env, value)) return true;
  std::string text;
  if (!metabind::read_string(env, value, FieldName(name), &text)) return false;
  if (tensor::parse_format(text, out)) return true;
  throw_error(env, ErrorKind::kRange,
      std::string("Expected \"RGB\", \"RGBA\", \"BGR\", \"BGRx\" or \"GRAY8\" for ") + name + " but received " +
          metabind::describe_value(env, value));
  return false;
}

napi_value make_dims(napi_env env, const int64_t* dims, int32_t ndim) {
  napi_value array = nullptr;
  if (napi_create_array_with_length(env, static_cast<size_t>(ndim), &array) != napi_ok) return nullptr;
  for (int32_t d = 0; d < ndim; ++d) {
    napi_value dim = metabind::make_number(env, static_cast<double>(dims[d]));
    if (dim == nullptr || napi_set_element(env, array, static_cast<uint32_t>(d), dim) != napi_ok) return nullptr;
  }
  return array;
}

napi_value make_pointer(napi_env env, const void* pointer) {
  napi_value value = nullptr;
  napi_create_bigint_uint64(env, static_cast<uint64_t>(reinterpret_cast<uintptr_t>(pointer)), &value);
  return value;
}

// NativeTensorInfo. `buffer`/`storage` may be null (→ undefined).
napi_value make_info(napi_env env, const Desc& desc, napi_value buffer, napi_value storage) {
  napi_value undefined = metabind::make_undefined(env);
  metabind::ObjectBuilder info(env);
  info.string("device", tensor::device_name(desc.device))
      .number("deviceId", desc.device_id)
      .string("dtype", tensor::dtype_name(desc.dtype))
      .set("shape", make_dims(env, desc.shape, desc.ndim))
      .set("strides", make_dims(env, desc.strides, desc.ndim))
      .number("byteOffset", static_cast<double>(desc.byte_offset))
      .number("byteLength", static_cast<double>(tensor::span_bytes(desc)))
      .set("dataPtr", make_pointer(env, desc.data));
  if (desc.format != PixelFormat::kNone) {
    info.string("format", tensor::format_name(desc.format));
  } else {
    info.set("format", undefined);
  }
  info.set("buffer", buffer != nullptr ? buffer : undefined).set("storage", storage != nullptr ? storage : undefined);
  if (!add_planes(env, desc, &info)) return nullptr;
  return info.value();
}
}  // namespace dsnode::tensorbind
