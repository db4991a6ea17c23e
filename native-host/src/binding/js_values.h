// Reading and building JS values for the metadata binding and the standalone binding, with the
// project's error shape ("Expected <what> for <name> but received <value>") and a `code` on
// every error. C++ exceptions are off (an exception must never unwind through V8): every
// reader returns false, and every builder null, with a JS exception pending when it fails.
#ifndef DSNODE_BINDING_JS_VALUES_H
#define DSNODE_BINDING_JS_VALUES_H

#include <node_api.h>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "meta/batch.h"

// Every file of the binding includes this header: the check is made here, once.
#ifdef NAPI_CPP_EXCEPTIONS
#error "binding/ checks every N-API status itself: a C++ exception must never unwind through V8 frames on the JS thread"
#endif

namespace dsnode::metabind {

// The codes of the errors thrown here (sdk/src/errors/error-codes.mjs is their one definition).
// generated: error codes (scripts/generate-shared-names.mjs: do not edit)
// The code of every invalid-value error, thrown by JS validation and by native code alike.
inline constexpr const char* kInvalidValueCode = "ERR_DS_ELEMENT_INVALID_VALUE";
// The code of every metadata state error (added twice, wrong parent, used after removal).
inline constexpr const char* kMetaStateCode = "ERR_DS_ELEMENT_META_STATE";
// The code of the error of a handle used after the call that handed it out ended (StaleHandleError).
inline constexpr const char* kStaleHandleCode = "ERR_DS_ELEMENT_STALE_HANDLE";
// The code of the error of a full object table in a call: the SDK grows the table, rebinds and retries.
inline constexpr const char* kTableFullCode = "ERR_DS_ELEMENT_TABLE_FULL";
// The code of every tensor error, thrown by the SDK and by native code alike.
inline constexpr const char* kTensorCode = "ERR_DS_ELEMENT_TENSOR";
// The code of the error of a model a runner could not load.
inline constexpr const char* kRunnerLoadCode = "ERR_DS_ELEMENT_RUNNER_LOAD";
// The code of the error of an inference that failed in a runner's backend.
inline constexpr const char* kRunnerFailedCode = "ERR_DS_ELEMENT_RUNNER_FAILED";
// The code of the error of a runner used after dispose().
inline constexpr const char* kRunnerDisposedCode = "ERR_DS_ELEMENT_RUNNER_DISPOSED";
// end generated: error codes

// Largest integer a double holds exactly (Number.MAX_SAFE_INTEGER).
inline constexpr double kMaxSafeInteger = 9007199254740991.0;

enum class ErrorKind {
  kType,       // TypeError, ERR_DS_ELEMENT_INVALID_VALUE: a value of the wrong type
  kRange,      // RangeError, ERR_DS_ELEMENT_INVALID_VALUE: right type, invalid value
  kState,      // Error, ERR_DS_ELEMENT_META_STATE
  kStale,      // Error, ERR_DS_ELEMENT_STALE_HANDLE
  kTableFull,  // RangeError, ERR_DS_ELEMENT_TABLE_FULL
};

// Throws a new error of `kind`; returns null so callbacks can `return throw_error(...)`.
napi_value throw_error(napi_env env, ErrorKind kind, const std::string& message);
// kInvalidValue → RangeError, kInvalidState → Error (META_STATE); the message verbatim.
napi_value throw_status(napi_env env, const meta::Status& status);

// How a message shows a received value: 1.5, NaN, "text", an object, a Float64Array, ...
std::string describe_value(napi_env env, napi_value value);

// A DeepStream field path, root[index].a.b, spelled out only when a message needs it.
struct Path {
  const char* root;
  long index = -1;
  std::string name(const char* a = nullptr, const char* b = nullptr) const;
};

// What a message calls a value: an argument ("row") or a field under a Path. Four pointers,
// no string until a check fails.
class FieldName {
 public:
  FieldName(const char* plain) : plain_(plain) {}  // NOLINT: implicit on purpose
  FieldName(const Path& path, const char* a, const char* b = nullptr) : path_(&path), a_(a), b_(b) {}
  std::string str() const { return path_ != nullptr ? path_->name(a_, b_) : std::string(plain_); }

 private:
  const char* plain_ = nullptr;
  const Path* path_ = nullptr;
  const char* a_ = nullptr;
  const char* b_ = nullptr;
};

// The arguments of one callback; missing ones read as undefined.
struct Args {
  static constexpr size_t kMax = 8;
  Args(napi_env env, napi_callback_info info);
  napi_value operator[](size_t i) const { return argv[i]; }
  napi_env env;
  napi_value argv[kMax] = {};
  void* data = nullptr;
  bool ok = false;  // false: napi_get_cb_info failed (an error is pending)
};

bool is_nullish(napi_env env, napi_value value);
// The boolean true (not merely truthy).
bool is_true(napi_env env, napi_value value);

// --- readers: the value's type first (TypeError), then its range (RangeError)
bool read_double(napi_env env, napi_value value, const FieldName& name, double* out);
bool read_float(napi_env env, napi_value value, const FieldName& name, float* out);
// An integer in [minimum, maximum] (meta::checked_integer's message on failure).
bool read_integer(napi_env env, napi_value value, const FieldName& name, double minimum,
    double maximum, int64_t* out);
template <typename T>
bool read_int(napi_env env, napi_value value, const FieldName& name, T* out) {
  int64_t wide = 0;
  if (!read_integer(env, value, name, static_cast<double>(std::numeric_limits<T>::min()),
          static_cast<double>(std::numeric_limits<T>::max()), &wide)) {
    return false;
  }
  *out = static_cast<T>(wide);
  return true;
}
bool read_bool(napi_env env, napi_value value, const FieldName& name, bool* out);
bool read_string(napi_env env, napi_value value, const FieldName& name, std::string* out);
bool read_object(napi_env env, napi_value value, const FieldName& name);
bool read_array(napi_env env, napi_value value, const FieldName& name, uint32_t* length);
// A typed array of `type`; `data` points into JS memory (valid while the array lives).
bool read_typed_array(napi_env env, napi_value value, const FieldName& name,
    napi_typedarray_type type, void** data, size_t* length);

// The typed array type whose elements are `T`s.
template <typename T>
constexpr napi_typedarray_type typed_array_type();
template <>
constexpr napi_typedarray_type typed_array_type<uint8_t>() { return napi_uint8_array; }
template <>
constexpr napi_typedarray_type typed_array_type<int32_t>() { return napi_int32_array; }
template <>
constexpr napi_typedarray_type typed_array_type<float>() { return napi_float32_array; }
template <>
constexpr napi_typedarray_type typed_array_type<double>() { return napi_float64_array; }

// A typed array of `T`s (Float32Array for float, ...) in place: `data` points into JS memory.
template <typename T>
bool read_typed_array(napi_env env, napi_value value, const FieldName& name, T** data, size_t* length) {
  void* raw = nullptr;
  if (!read_typed_array(env, value, name, typed_array_type<T>(), &raw, length)) return false;
  *data = static_cast<T*>(raw);
  return true;
}

// A typed array of `T`s copied into `out`.
template <typename T>
bool read_vector(napi_env env, napi_value value, const FieldName& name, std::vector<T>* out) {
  T* items = nullptr;
  size_t length = 0;
  if (!read_typed_array(env, value, name, &items, &length)) return false;
  out->assign(items, items + length);
  return true;
}

// The native object wrapped in `value`, which must carry `tag`; otherwise a TypeError
// "Expected <what> for <name> but received <value>" (a non-object: read_object's).
bool read_tagged(napi_env env, napi_value value, const char* name, const napi_type_tag& tag, const char* what,
    void** out);

// Reads members of one JS object named after a DeepStream path.
class FieldReader {
 public:
  FieldReader(napi_env env, napi_value object, const Path& path) : env_(env), object_(object), path_(path) {}
  bool get(const char* key, napi_value* out);
  bool number(const char* key, const char* field, double* out);
  bool real(const char* key, const char* field, float* out);
  template <typename T>
  bool integer(const char* key, const char* field, T* out) {
    napi_value value;
    return get(key, &value) && read_int<T>(env_, value, FieldName(path_, field), out);
  }
  bool flag(const char* key, const char* field, bool* out);
  bool string(const char* key, const char* field, std::string* out);
  bool color(const char* key, const char* field, meta::ColorParams* out);
  // A typed array member copied into `out` (read_vector).
  template <typename T>
  bool vector(const char* key, const char* field, std::vector<T>* out) {
    napi_value value;
    return get(key, &value) && read_vector(env_, value, FieldName(path_, field), out);
  }
  // A member that must be an object (its own fields are read with another FieldReader).
  bool object(const char* key, const char* field, napi_value* out);
  napi_env env() const { return env_; }
  const Path& path() const { return path_; }

 private:
  napi_env env_;
  napi_value object_;
  const Path& path_;
};

// Builds one plain JS object; any failure leaves `ok()` false with an error pending.
// One exported function of a binding object: its JS name and its callback.
struct Export {
  const char* name;
  napi_callback callback;
};

class ObjectBuilder {
 public:
  explicit ObjectBuilder(napi_env env);
  ObjectBuilder& set(const char* key, napi_value value);
  // Sets one function per entry, each created with `data` as its callback data.
  template <size_t N>
  ObjectBuilder& functions(const Export (&exports)[N], void* data = nullptr) {
    for (const Export& entry : exports) function(entry, data);
    return *this;
  }
  ObjectBuilder& function(const Export& entry, void* data);
  ObjectBuilder& number(const char* key, double value);
  ObjectBuilder& boolean(const char* key, bool value);
  ObjectBuilder& string(const char* key, const char* text, size_t length);
  ObjectBuilder& string(const char* key, const std::string& text) { return string(key, text.data(), text.size()); }
  napi_value value() const { return ok_ ? object_ : nullptr; }
  bool ok() const { return ok_; }

 private:
  napi_env env_;
  napi_value object_ = nullptr;
  bool ok_ = false;
};

napi_value make_number(napi_env env, double value);
napi_value make_string(napi_env env, const char* text, size_t length);
// A typed array of `type` over a fresh copy of `count` elements of `element_size` bytes at `items`.
napi_value make_typed_copy(napi_env env, napi_typedarray_type type, const void* items, size_t count,
    size_t element_size);
// A typed array (Float32Array for float, ...) over a fresh copy of `items`.
template <typename T>
napi_value make_typed_copy(napi_env env, const std::vector<T>& items) {
  return make_typed_copy(env, typed_array_type<T>(), items.data(), items.size(), sizeof(T));
}
// A Uint8Array over a fresh copy of `bytes`.
inline napi_value make_bytes(napi_env env, const uint8_t* bytes, size_t length) {
  return make_typed_copy(env, napi_uint8_array, bytes, length, 1);
}
// A JS array of `build(item)` for each of the `count` items at `items`; null with an exception
// pending when a build gives null.
template <typename T, typename Build>
napi_value array_of(napi_env env, const T* items, size_t count, Build build) {
  napi_value array = nullptr;
  if (napi_create_array_with_length(env, count, &array) != napi_ok) return nullptr;
  for (size_t i = 0; i < count; ++i) {
    napi_value item = build(items[i]);
    if (item == nullptr || napi_set_element(env, array, static_cast<uint32_t>(i), item) != napi_ok) return nullptr;
  }
  return array;
}
template <typename T, typename Build>
napi_value array_of(napi_env env, const std::vector<T>& items, Build build) {
  return array_of(env, items.data(), items.size(), build);
}
napi_value make_null(napi_env env);
napi_value make_undefined(napi_env env);

}  // namespace dsnode::metabind

#endif
