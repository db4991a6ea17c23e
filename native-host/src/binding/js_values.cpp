#include "binding/js_values.h"

#include <cmath>
#include <cstring>
#include <vector>

#include "meta/validate.h"

namespace dsnode::metabind {

// ---------------------------------------------------------------- errors

napi_value throw_error(napi_env env, ErrorKind kind, const std::string& message) {
  const char* code = kInvalidValueCode;
  if (kind == ErrorKind::kState) code = kMetaStateCode;
  if (kind == ErrorKind::kStale) code = kStaleHandleCode;
  if (kind == ErrorKind::kTableFull) code = kTableFullCode;
  napi_value code_value = nullptr, message_value = nullptr, error = nullptr;
  if (napi_create_string_utf8(env, code, NAPI_AUTO_LENGTH, &code_value) != napi_ok ||
      napi_create_string_utf8(env, message.data(), message.size(), &message_value) != napi_ok) {
    return nullptr;
  }
  napi_status status = napi_ok;
  switch (kind) {
    case ErrorKind::kType: status = napi_create_type_error(env, code_value, message_value, &error); break;
    case ErrorKind::kRange:
    case ErrorKind::kTableFull: status = napi_create_range_error(env, code_value, message_value, &error); break;
    default: status = napi_create_error(env, code_value, message_value, &error); break;
  }
  if (status == napi_ok) napi_throw(env, error);
  return nullptr;
}

napi_value throw_status(napi_env env, const meta::Status& status) {
  return throw_error(env,
      status.code == meta::ErrorCode::kInvalidState ? ErrorKind::kState : ErrorKind::kRange,
      status.message);
}

namespace {

const char* typed_array_name(napi_typedarray_type type) {
  switch (type) {
    case napi_int8_array: return "an Int8Array";
    case napi_uint8_array: return "a Uint8Array";
    case napi_uint8_clamped_array: return "a Uint8ClampedArray";
    case napi_int16_array: return "an Int16Array";
    case napi_uint16_array: return "a Uint16Array";
    case napi_int32_array: return "an Int32Array";
    case napi_uint32_array: return "a Uint32Array";
    case napi_float32_array: return "a Float32Array";
    case napi_float64_array: return "a Float64Array";
    case napi_bigint64_array: return "a BigInt64Array";
    case napi_biguint64_array: return "a BigUint64Array";
  }
  return "a typed array";
}

std::string describe_object(napi_env env, napi_value value) {
  bool is = false;
  if (napi_is_typedarray(env, value, &is) == napi_ok && is) {
    napi_typedarray_type type = napi_uint8_array;
    size_t length = 0;
    napi_get_typedarray_info(env, value, &type, &length, nullptr, nullptr, nullptr);
    return std::string(typed_array_name(type)) + " of " + std::to_string(length) + " values";
  }
  if (napi_is_array(env, value, &is) == napi_ok && is) return "an array";
  if (napi_is_arraybuffer(env, value, &is) == napi_ok && is) return "an ArrayBuffer";
  return "an object";
}

// Strings are quoted and cut: a message names the value, it does not reproduce a long one.
std::string describe_string(napi_env env, napi_value value) {
  constexpr size_t kShown = 40;
  char text[kShown * 4 + 1];
  size_t length = 0;
  napi_get_value_string_utf8(env, value, text, sizeof text, &length);
  size_t total = 0;
  napi_get_value_string_utf8(env, value, nullptr, 0, &total);
  std::string shown(text, length);
  if (total > shown.size() || shown.size() > kShown * 2) {
    shown.resize(kShown);
    // Do not cut a UTF-8 sequence in two.
    while (!shown.empty() && (static_cast<unsigned char>(shown.back()) & 0xC0) == 0x80) shown.pop_back();
    if (!shown.empty() && (static_cast<unsigned char>(shown.back()) & 0xC0) == 0xC0) shown.pop_back();
    return "\"" + shown + "...\" (" + std::to_string(total) + " bytes)";
  }
  return "\"" + shown + "\"";
}

}  // namespace

std::string describe_value(napi_env env, napi_value value) {
  napi_valuetype type = napi_undefined;
  if (value == nullptr || napi_typeof(env, value, &type) != napi_ok) return "undefined";
  switch (type) {
    case napi_undefined: return "undefined";
    case napi_null: return "null";
    case napi_boolean: {
      bool flag = false;
      napi_get_value_bool(env, value, &flag);
      return flag ? "true" : "false";
    }
    case napi_number: {
      double number = 0;
      napi_get_value_double(env, value, &number);
      return meta::describe_number(number);
    }
    case napi_string: return describe_string(env, value);
    case napi_symbol: return "a symbol";
    case napi_bigint: {
      int64_t number = 0;
      bool lossless = false;
      napi_get_value_bigint_int64(env, value, &number, &lossless);
      return lossless ? std::to_string(number) + "n" : "a bigint";
    }
    case napi_function: return "a function";
    case napi_external: return "an external";
    case napi_object: return describe_object(env, value);
  }
  return "a value";
}

// ---------------------------------------------------------------- names

std::string Path::name(const char* a, const char* b) const {
  std::string text = root;
  if (index >= 0) text += "[" + std::to_string(index) + "]";
  if (a != nullptr) text += std::string(".") + a;
  if (b != nullptr) text += std::string(".") + b;
  return text;
}

Args::Args(napi_env env, napi_callback_info info) : env(env) {
  size_t count = kMax;
  ok = napi_get_cb_info(env, info, &count, argv, nullptr, &data) == napi_ok;
  // Node fills the missing ones with undefined; be explicit for an early failure.
  if (!ok) {
    for (napi_value& value : argv) value = nullptr;
  }
}

bool is_nullish(napi_env env, napi_value value) {
  napi_valuetype type = napi_undefined;
  if (value == nullptr || napi_typeof(env, value, &type) != napi_ok) return true;
  return type == napi_undefined || type == napi_null;
}

bool is_true(napi_env env, napi_value value) {
  napi_valuetype type = napi_undefined;
  bool flag = false;
  if (value == nullptr || napi_typeof(env, value, &type) != napi_ok || type != napi_boolean) return false;
  return napi_get_value_bool(env, value, &flag) == napi_ok && flag;
}

// ---------------------------------------------------------------- readers

namespace {

bool type_error(napi_env env, const char* what, const FieldName& name, napi_value value) {
  throw_error(env, ErrorKind::kType,
      std::string("Expected ") + what + " for " + name.str() + " but received " + describe_value(env, value));
  return false;
}

bool has_type(napi_env env, napi_value value, napi_valuetype wanted) {
  napi_valuetype type = napi_undefined;
  return value != nullptr && napi_typeof(env, value, &type) == napi_ok && type == wanted;
}

}  // namespace

bool read_double(napi_env env, napi_value value, const FieldName& name, double* out) {
  if (value == nullptr || napi_get_value_double(env, value, out) != napi_ok) {
    return type_error(env, "a number", name, value);
  }
  return true;
}

bool read_float(napi_env env, napi_value value, const FieldName& name, float* out) {
  double number = 0;
  if (!read_double(env, value, name, &number)) return false;
  *out = static_cast<float>(number);  // range checks (finite, >= 0, 0..1) run on the float
  return true;
}

bool read_integer(napi_env env, napi_value value, const FieldName& name, double minimum,
    double maximum, int64_t* out) {
  double number = 0;
  if (!read_double(env, value, name, &number)) return false;
  if (std::isfinite(number) && std::trunc(number) == number && number >= minimum && number <= maximum) {
    *out = static_cast<int64_t>(number);
    return true;
  }
  // The failure path builds the name and takes validate.h's message, so the text matches the
  // native core's everywhere.
  const std::string field = name.str();
  throw_status(env, meta::checked_integer(number, minimum, maximum, field.c_str(), out));
  return false;
}

bool read_bool(napi_env env, napi_value value, const FieldName& name, bool* out) {
  if (value == nullptr || napi_get_value_bool(env, value, out) != napi_ok) {
    return type_error(env, "a boolean", name, value);
  }
  return true;
}

bool read_string(napi_env env, napi_value value, const FieldName& name, std::string* out) {
  size_t length = 0;
  if (!has_type(env, value, napi_string) ||
      napi_get_value_string_utf8(env, value, nullptr, 0, &length) != napi_ok) {
    return type_error(env, "a string", name, value);
  }
  // Embedded NULs survive (V8 writes `length` bytes); validate.h rejects them by field.
  out->resize(length);
  size_t written = 0;
  if (napi_get_value_string_utf8(env, value, out->data(), length + 1, &written) != napi_ok) {
    return type_error(env, "a string", name, value);
  }
  out->resize(written);
  return true;
}

bool read_object(napi_env env, napi_value value, const FieldName& name) {
  if (!has_type(env, value, napi_object)) return type_error(env, "an object", name, value);
  return true;
}

bool read_array(napi_env env, napi_value value, const FieldName& name, uint32_t* length) {
  bool is = false;
  if (value == nullptr || napi_is_array(env, value, &is) != napi_ok || !is ||
      napi_get_array_length(env, value, length) != napi_ok) {
    return type_error(env, "an array", name, value);
  }
  return true;
}

bool read_typed_array(napi_env env, napi_value value, const FieldName& name,
    napi_typedarray_type type, void** data, size_t* length) {
  bool is = false;
  napi_typedarray_type actual = napi_uint8_array;
  if (value != nullptr && napi_is_typedarray(env, value, &is) == napi_ok && is &&
      napi_get_typedarray_info(env, value, &actual, length, data, nullptr, nullptr) == napi_ok &&
      actual == type) {
    return true;
  }
  return type_error(env, typed_array_name(type), name, value);
}

bool read_tagged(napi_env env, napi_value value, const char* name, const napi_type_tag& tag, const char* what,
    void** out) {
  bool tagged = false;
  if (!read_object(env, value, FieldName(name)) || napi_check_object_type_tag(env, value, &tag, &tagged) != napi_ok) {
    return false;
  }
  if (!tagged || napi_unwrap(env, value, out) != napi_ok) {
    throw_error(env, ErrorKind::kType,
        std::string("Expected ") + what + " for " + name + " but received " + describe_value(env, value));
    return false;
  }
  return true;
}

// ---------------------------------------------------------------- FieldReader

bool FieldReader::get(const char* key, napi_value* out) {
  // A throwing getter leaves its exception pending; that is the error the caller sees.
  return napi_get_named_property(env_, object_, key, out) == napi_ok;
}

bool FieldReader::number(const char* key, const char* field, double* out) {
  napi_value value;
  return get(key, &value) && read_double(env_, value, FieldName(path_, field), out);
}

bool FieldReader::real(const char* key, const char* field, float* out) {
  napi_value value;
  return get(key, &value) && read_float(env_, value, FieldName(path_, field), out);
}

bool FieldReader::flag(const char* key, const char* field, bool* out) {
  napi_value value;
  return get(key, &value) && read_bool(env_, value, FieldName(path_, field), out);
}

bool FieldReader::string(const char* key, const char* field, std::string* out) {
  napi_value value;
  return get(key, &value) && read_string(env_, value, FieldName(path_, field), out);
}

bool FieldReader::object(const char* key, const char* field, napi_value* out) {
  return get(key, out) && read_object(env_, *out, FieldName(path_, field));
}

bool FieldReader::color(const char* key, const char* field, meta::ColorParams* out) {
  napi_value color;
  if (!object(key, field, &color)) return false;
  auto component = [&](const char* name, double* value) {
    napi_value member;
    return napi_get_named_property(env_, color, name, &member) == napi_ok &&
           read_double(env_, member, FieldName(path_, field, name), value);
  };
  return component("red", &out->red) && component("green", &out->green) &&
         component("blue", &out->blue) && component("alpha", &out->alpha);
}

// ---------------------------------------------------------------- builders

ObjectBuilder::ObjectBuilder(napi_env env) : env_(env) {
  ok_ = napi_create_object(env, &object_) == napi_ok;
}

ObjectBuilder& ObjectBuilder::set(const char* key, napi_value value) {
  ok_ = ok_ && value != nullptr && napi_set_named_property(env_, object_, key, value) == napi_ok;
  return *this;
}

ObjectBuilder& ObjectBuilder::function(const Export& entry, void* data) {
  napi_value function = nullptr;
  if (ok_) ok_ = napi_create_function(env_, entry.name, NAPI_AUTO_LENGTH, entry.callback, data, &function) == napi_ok;
  return ok_ ? set(entry.name, function) : *this;
}

ObjectBuilder& ObjectBuilder::number(const char* key, double value) {
  return ok_ ? set(key, make_number(env_, value)) : *this;
}

ObjectBuilder& ObjectBuilder::boolean(const char* key, bool value) {
  napi_value flag = nullptr;
  if (ok_) ok_ = napi_get_boolean(env_, value, &flag) == napi_ok;
  return ok_ ? set(key, flag) : *this;
}

ObjectBuilder& ObjectBuilder::string(const char* key, const char* text, size_t length) {
  return ok_ ? set(key, make_string(env_, text, length)) : *this;
}

napi_value make_number(napi_env env, double value) {
  napi_value result = nullptr;
  napi_create_double(env, value, &result);
  return result;
}

napi_value make_string(napi_env env, const char* text, size_t length) {
  napi_value result = nullptr;
  napi_create_string_utf8(env, text, length, &result);
  return result;
}

napi_value make_typed_copy(napi_env env, napi_typedarray_type type, const void* items, size_t count,
    size_t element_size) {
  void* data = nullptr;
  napi_value buffer = nullptr, array = nullptr;
  if (napi_create_arraybuffer(env, count * element_size, &data, &buffer) != napi_ok) return nullptr;
  if (count > 0) std::memcpy(data, items, count * element_size);
  if (napi_create_typedarray(env, type, count, buffer, 0, &array) != napi_ok) return nullptr;
  return array;
}

napi_value make_null(napi_env env) {
  napi_value result = nullptr;
  napi_get_null(env, &result);
  return result;
}

napi_value make_undefined(napi_env env) {
  napi_value result = nullptr;
  napi_get_undefined(env, &result);
  return result;
}

}  // namespace dsnode::metabind
