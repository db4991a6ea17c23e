// nvdsanalytics' metas between the model (meta/analytics_meta.h) and JS (NativeAnalyticsFrame,
// NativeAnalyticsObject in sdk/src/native/meta-binding.ts), member by member from the one list
// of members: label maps become plain objects, label lists arrays.
#include <cstdlib>
#include <string>

#include "binding/meta_kind_functions.h"
#include "meta/analytics_meta.h"

namespace dsnode::metabind {

namespace {

using meta::AnalyticsFrameMeta;
using meta::AnalyticsObjectInfo;

// ---------------------------------------------------------------- model → JS

napi_value to_js(napi_env env, uint32_t value) { return make_number(env, value); }
napi_value to_js(napi_env env, const std::string& value) { return make_string(env, value.data(), value.size()); }

napi_value to_js(napi_env env, const meta::AnalyticsLabels& labels) {
  return array_of(env, labels, [env](const std::string& label) { return to_js(env, label); });
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
// A meta as a JS object, its members in the order of its list.
#define DSNODE_ANALYTICS_VALUE(Type, MEMBERS)                      \
  napi_value analytics_value(napi_env env, const Type& value) {    \
    napi_value object = nullptr;                                   \
    if (napi_create_object(env, &object) != napi_ok) return nullptr; \
    MEMBERS(DSNODE_SET_MEMBER)                                     \
    return object;                                                 \
  }
DSNODE_ANALYTICS_VALUE(AnalyticsFrameMeta, DSNODE_ANALYTICS_FRAME_MEMBERS)
DSNODE_ANALYTICS_VALUE(AnalyticsObjectInfo, DSNODE_ANALYTICS_OBJECT_MEMBERS)
#undef DSNODE_ANALYTICS_VALUE
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
// A meta from a JS object named `analytics`, its members named after `Struct`'s in messages.
#define DSNODE_PARSE_ANALYTICS(Type, Struct, MEMBERS)                          \
  bool parse_analytics(napi_env env, napi_value value, Type* out) {            \
    static const Path path{Struct};                                            \
    if (!read_object(env, value, FieldName("analytics"))) return false;        \
    FieldReader in(env, value, path);                                          \
    MEMBERS(DSNODE_READ_MEMBER)                                                \
    return true;                                                               \
  }
DSNODE_PARSE_ANALYTICS(AnalyticsFrameMeta, "NvDsAnalyticsFrameMeta", DSNODE_ANALYTICS_FRAME_MEMBERS)
DSNODE_PARSE_ANALYTICS(AnalyticsObjectInfo, "NvDsAnalyticsObjInfo", DSNODE_ANALYTICS_OBJECT_MEMBERS)
#undef DSNODE_PARSE_ANALYTICS
#undef DSNODE_READ_MEMBER

// ---------------------------------------------------------------- functions

constexpr UserMetaKind kFrameMetaKind{"readAnalyticsFrame", "an nvdsanalytics frame meta (NVDS_USER_FRAME_META_NVDSANALYTICS)"};
constexpr UserMetaKind kObjectInfoKind{"readAnalyticsObject", "an nvdsanalytics object meta (NVDS_USER_OBJ_META_NVDSANALYTICS)"};

napi_value read_analytics_frame(napi_env env, napi_callback_info info) {
  return read_user_meta_copy(env, info, kFrameMetaKind, &meta::Batch::read_analytics_frame, analytics_value);
}

napi_value read_analytics_object(napi_env env, napi_callback_info info) {
  return read_user_meta_copy(env, info, kObjectInfoKind, &meta::Batch::read_analytics_object, analytics_value);
}

napi_value add_analytics_frame(napi_env env, napi_callback_info info) {
  return add_user_meta_as<AnalyticsFrameMeta>(env, info, "addAnalyticsFrame", parse_analytics, &meta::Batch::add_analytics_frame);
}

napi_value add_analytics_object(napi_env env, napi_callback_info info) {
  return add_user_meta_as<AnalyticsObjectInfo>(env, info, "addAnalyticsObject", parse_analytics, &meta::Batch::add_analytics_object);
}

}  // namespace

const Export kAnalyticsMetaExports[2] = {
    {"readAnalyticsFrame", read_analytics_frame},
    {"readAnalyticsObject", read_analytics_object},
};

const Export kAnalyticsHarnessExports[2] = {
    {"addAnalyticsFrame", add_analytics_frame},
    {"addAnalyticsObject", add_analytics_object},
};

}  // namespace dsnode::metabind
