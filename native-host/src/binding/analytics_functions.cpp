// nvdsanalytics' metas between the model (meta/analytics_meta.h) and JS (NativeAnalyticsFrame,
// NativeAnalyticsObject in sdk/src/native/meta-binding.ts), member by member from the one list
// of members: label maps become plain objects, label lists arrays.
#include <cstdlib>
#include <string>

#include "binding/typed_user_meta.h"
#include "meta/analytics_meta.h"

#ifdef NAPI_CPP_EXCEPTIONS
#error "binding/ checks every N-API status itself: a C++ exception must never unwind through V8 frames on the JS thread"
#endif

namespace dsnode::metabind {

namespace {

using meta::AnalyticsFrameMeta;
using meta::AnalyticsObjectInfo;

// ---------------------------------------------------------------- model → JS

napi_value to_js(napi_env env, uint32_t value) { return make_number(env, value); }
napi_value to_js(napi_env env, const std::string& value) { return make_string(env, value.data(), value.size()); }

napi_value to_js(napi_env env, const meta::AnalyticsLabels& labels) {
  napi_value array = nullptr;
  if (napi_create_array_with_length(env, labels.size(), &array) != napi_ok) return nullptr;
  for (size_t i = 0; i < labels.size(); ++i) {
    napi_value label = to_js(env, labels[i]);
    if (label == nullptr || napi_set_element(env, array, static_cast<uint32_t>(i), label) != napi_ok) return nullptr;
  }
  return array;
}

napi_value key_of(napi_env env, const std::string& key) { return to_js(env, key); }
napi_value key_of(napi_env env, int key) { return to_js(env, std::to_string(key)); }
napi_value value_of(napi_env env, bool value) {
  napi_value out = nullptr;
  return napi_get_boolean(env, value, &out) == napi_ok ? out : nullptr;
}
napi_value value_of(napi_env env, uint32_t value) { return make_number(env, value); }
napi_value value_of(napi_env env, uint64_t value) { return make_number(env, static_cast<double>(value)); }

// A map as a plain object (class id keys as their decimal text, as JS keys are).
template <typename Map>
napi_value to_js(napi_env env, const Map& map) {
  napi_value object = nullptr;
  if (napi_create_object(env, &object) != napi_ok) return nullptr;
  for (const auto& [key, value] : map) {
    napi_value k = key_of(env, key), v = value_of(env, value);
    if (k == nullptr || v == nullptr || napi_set_property(env, object, k, v) != napi_ok) return nullptr;
  }
  return object;
}

#define DSNODE_SET_MEMBER(type, member, js, what) \
  if (napi_value v = to_js(env, value.member); v == nullptr || napi_set_named_property(env, object, js, v) != napi_ok) return nullptr;

napi_value analytics_frame_value(napi_env env, const AnalyticsFrameMeta& value) {
  napi_value object = nullptr;
  if (napi_create_object(env, &object) != napi_ok) return nullptr;
  DSNODE_ANALYTICS_FRAME_MEMBERS(DSNODE_SET_MEMBER)
  return object;
}

napi_value analytics_object_value(napi_env env, const AnalyticsObjectInfo& value) {
  napi_value object = nullptr;
  if (napi_create_object(env, &object) != napi_ok) return nullptr;
  DSNODE_ANALYTICS_OBJECT_MEMBERS(DSNODE_SET_MEMBER)
  return object;
}

#undef DSNODE_SET_MEMBER

// ---------------------------------------------------------------- JS → model (the testing harness)

bool from_js(napi_env env, napi_value value, const FieldName& name, uint32_t* out) {
  return read_int<uint32_t>(env, value, name, out);
}
bool from_js(napi_env env, napi_value value, const FieldName& name, std::string* out) {
  return read_string(env, value, name, out);
}
bool from_js(napi_env env, napi_value value, const FieldName& name, meta::AnalyticsLabels* out) {
  uint32_t length = 0;
  if (!read_array(env, value, name, &length)) return false;
  out->assign(length, std::string());
  const std::string root = name.str();
  for (uint32_t i = 0; i < length; ++i) {
    napi_value item;
    const Path path{root.c_str(), static_cast<long>(i)};
    if (napi_get_element(env, value, i, &item) != napi_ok || !read_string(env, item, FieldName(path, nullptr), &(*out)[i])) return false;
  }
  return true;
}

bool key_from(const std::string& text, std::string* key) {
  *key = text;
  return true;
}
bool key_from(const std::string& text, int* key) {
  char* end = nullptr;
  const long parsed = std::strtol(text.c_str(), &end, 10);
  *key = static_cast<int>(parsed);
  return !text.empty() && *end == '\0' && std::to_string(parsed) == text;
}
bool value_from(napi_env env, napi_value value, const FieldName& name, bool* out) { return read_bool(env, value, name, out); }
bool value_from(napi_env env, napi_value value, const FieldName& name, uint32_t* out) { return read_int<uint32_t>(env, value, name, out); }
bool value_from(napi_env env, napi_value value, const FieldName& name, uint64_t* out) {
  int64_t wide = 0;
  if (!read_integer(env, value, name, 0, kMaxSafeInteger, &wide)) return false;
  *out = static_cast<uint64_t>(wide);
  return true;
}

// A plain object's own enumerable properties into a map.
template <typename Map>
bool from_js(napi_env env, napi_value value, const FieldName& name, Map* out) {
  napi_value keys = nullptr;
  uint32_t count = 0;
  if (!read_object(env, value, name) || napi_get_property_names(env, value, &keys) != napi_ok ||
      napi_get_array_length(env, keys, &count) != napi_ok) {
    return false;
  }
  const std::string root = name.str();
  out->clear();
  for (uint32_t i = 0; i < count; ++i) {
    napi_value key_value, item;
    std::string text;
    if (napi_get_element(env, keys, i, &key_value) != napi_ok || !read_string(env, key_value, FieldName("key"), &text) ||
        napi_get_property(env, value, key_value, &item) != napi_ok) {
      return false;
    }
    typename Map::key_type key{};
    const std::string where = root + "[\"" + text + "\"]";
    if (!key_from(text, &key)) {
      throw_error(env, ErrorKind::kRange, "Expected a class id (an integer) for a key of " + root + " but received \"" + text + "\"");
      return false;
    }
    if (!value_from(env, item, FieldName(where.c_str()), &(*out)[key])) return false;
  }
  return true;
}

#define DSNODE_READ_MEMBER(type, member, js, what)                                              \
  {                                                                                              \
    napi_value v;                                                                                \
    if (!in.get(js, &v) || !from_js(env, v, FieldName(path, #member), &out->member)) return false; \
  }

bool parse_analytics_frame(napi_env env, napi_value value, AnalyticsFrameMeta* out) {
  static const Path path{"NvDsAnalyticsFrameMeta"};
  if (!read_object(env, value, FieldName("analytics"))) return false;
  FieldReader in(env, value, path);
  DSNODE_ANALYTICS_FRAME_MEMBERS(DSNODE_READ_MEMBER)
  return true;
}

bool parse_analytics_object(napi_env env, napi_value value, AnalyticsObjectInfo* out) {
  static const Path path{"NvDsAnalyticsObjInfo"};
  if (!read_object(env, value, FieldName("analytics"))) return false;
  FieldReader in(env, value, path);
  DSNODE_ANALYTICS_OBJECT_MEMBERS(DSNODE_READ_MEMBER)
  return true;
}

#undef DSNODE_READ_MEMBER

// ---------------------------------------------------------------- functions

// What differs between the frame meta and the object meta.
struct FrameMetaKind {
  using Value = AnalyticsFrameMeta;
  static constexpr const char* kRead = "readAnalyticsFrame";
  static constexpr const char* kAdd = "addAnalyticsFrame";
  static constexpr const char* kWhat = "an nvdsanalytics frame meta (NVDS_USER_FRAME_META_NVDSANALYTICS)";
  static constexpr auto kReader = &meta::Batch::read_analytics_frame;
  static constexpr auto kAdder = &meta::Batch::add_analytics_frame;
  static napi_value to_js(napi_env env, const Value& value) { return analytics_frame_value(env, value); }
  static bool parse(napi_env env, napi_value value, Value* out) { return parse_analytics_frame(env, value, out); }
};

struct ObjectInfoKind {
  using Value = AnalyticsObjectInfo;
  static constexpr const char* kRead = "readAnalyticsObject";
  static constexpr const char* kAdd = "addAnalyticsObject";
  static constexpr const char* kWhat = "an nvdsanalytics object meta (NVDS_USER_OBJ_META_NVDSANALYTICS)";
  static constexpr auto kReader = &meta::Batch::read_analytics_object;
  static constexpr auto kAdder = &meta::Batch::add_analytics_object;
  static napi_value to_js(napi_env env, const Value& value) { return analytics_object_value(env, value); }
  static bool parse(napi_env env, napi_value value, Value* out) { return parse_analytics_object(env, value, out); }
};

template <typename Kind>
napi_value read_analytics(napi_env env, napi_callback_info info) {
  CallArgs args(env, info);
  CallScope scope(env, args, Kind::kRead);
  typename Kind::Value value;
  if (!scope || !read_typed_user_meta(env, scope, args[1], Kind::kRead, Kind::kWhat, Kind::kReader, &value)) return nullptr;
  scope.unlock();
  return Kind::to_js(env, value);
}

template <typename Kind>
napi_value add_analytics(napi_env env, napi_callback_info info) {
  CallArgs args(env, info);
  typename Kind::Value value;
  if (!args.ok || !Kind::parse(env, args[3], &value)) return nullptr;
  return attach_user_meta(env, args.id, args[1], args[2],
      [&](meta::Batch* batch, meta::UserMetaLevel level, void* owner, meta::UserHandle* created) {
        return (batch->*Kind::kAdder)(level, owner, value, created);
      }, Kind::kAdd);
}

}  // namespace

const Export kAnalyticsMetaExports[2] = {
    {"readAnalyticsFrame", read_analytics<FrameMetaKind>},
    {"readAnalyticsObject", read_analytics<ObjectInfoKind>},
};

const Export kAnalyticsHarnessExports[2] = {
    {"addAnalyticsFrame", add_analytics<FrameMetaKind>},
    {"addAnalyticsObject", add_analytics<ObjectInfoKind>},
};

}  // namespace dsnode::metabind
