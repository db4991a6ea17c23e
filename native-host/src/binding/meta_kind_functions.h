// The functions of the binding's `meta` object for the metadata kinds beyond frames, objects,
// classifiers, label infos, displays and plain user metas, one file a kind (sdk/src/native/
// meta-binding.ts documents each): event messages (event_msg_binding.cpp), nvdsanalytics' metas
// (analytics_functions.cpp), nvinfer's segmentation meta (segmentation_functions.cpp) and NVIDIA
// components' metas (component_meta_functions.cpp); the testing harness's writers of them
// (analytics_functions.cpp, component_meta_harness.cpp); and what their readers and writers
// share: reading a user meta as one kind, attaching one parsed from JS.
#ifndef DSNODE_BINDING_META_KIND_FUNCTIONS_H
#define DSNODE_BINDING_META_KIND_FUNCTIONS_H

#include <node_api.h>

#include <string>
#include <utility>

#include "binding/js_values.h"
#include "binding/meta_call.h"

namespace dsnode::metabind {

// The `meta` object's, in the order it sets them.
extern const Export kEventMsgExports[2];          // addEventMsg, readEventMsg
extern const Export kAnalyticsMetaExports[2];     // readAnalyticsFrame, readAnalyticsObject
extern const Export kSegmentationMetaExports[2];  // readSegmentation, addSegmentation
extern const Export kComponentMetaExports[5];     // readTrackerTargets, readReid, readPreprocessBatch, readRoi, readSensorInfo
// The standalone binding's `harness` object's.
extern const Export kAnalyticsHarnessExports[2];   // addAnalyticsFrame, addAnalyticsObject
extern const Export kComponentHarnessExports[2];   // addComponentMeta, setSensorInfo

// How the error for a user meta of another kind tells what it received (each reader keeps the
// words it has always used).
enum class Received {
  kTypeAndIndex,  // "\"ACME.A.B\" (user meta index 3)", "one of type 32 (user meta index 3)"
  kType,          // "a user meta of type \"ACME.A.B\"", "a user meta of type 32"
  kIndex,         // "user meta index 3 of another type"
};

// A reader of one kind of user meta: its function's name and what its error calls the kind.
struct UserMetaKind {
  const char* operation;  // "readAnalyticsFrame"
  const char* what;       // "an nvdsanalytics frame meta (NVDS_USER_FRAME_META_NVDSANALYTICS)"
  Received received = Received::kTypeAndIndex;
};

// Throws ERR_DS_ELEMENT_META_STATE: user meta `index` (`user`) is not of `kind`. False.
inline bool throw_not_of_kind(MetaFunction& f, const UserMetaKind& kind, meta::UserHandle user, uint32_t index) {
  meta::UserMetaFields fields;
  f.batch().read_user_meta(user, &fields);
  const std::string type = fields.meta_type.empty() ? std::to_string(fields.meta_type_id) : "\"" + fields.meta_type + "\"";
  const std::string at = "user meta index " + std::to_string(index);
  const std::string received = kind.received == Received::kIndex ? at + " of another type"
      : kind.received == Received::kType                         ? "a user meta of type " + type
      : (fields.meta_type.empty() ? "one of type " : "") + type + " (" + at + ")";
  throw_error(f.env, ErrorKind::kState,
      std::string("Expected ") + kind.what + " for " + kind.operation + " but received " + received);
  return false;
}

// User meta args[1] of the entered call read as a `T` with `read` (a Batch member, false for
// another kind); false with an exception pending when it is not live or not of `kind`.
template <typename T>
bool read_typed_user_meta(MetaFunction& f, const UserMetaKind& kind,
    bool (meta::Batch::*read)(meta::UserHandle, T*) const, T* out) {
  uint32_t index = 0;
  meta::UserHandle user;
  if (!f.live(1, "userIndex", &user, &index)) return false;
  return (f.batch().*read)(user, out) || throw_not_of_kind(f, kind, user, index);
}

// A reader function of `meta`: (callId, userIndex) read as a `T`, then `build(f, value)` makes
// its JS value and unlocks the call (after making any view: close_call must find every view to
// detach it).
template <typename T, typename Build>
napi_value read_user_meta_as(napi_env env, napi_callback_info info, const UserMetaKind& kind,
    bool (meta::Batch::*read)(meta::UserHandle, T*) const, Build build) {
  MetaFunction f(env, info, kind.operation);
  T value;
  if (!f.enter() || !read_typed_user_meta(f, kind, read, &value)) return nullptr;
  return build(f, value);
}

// The same for a value copied out of the meta: `to_js` builds it after unlocking.
template <typename T>
napi_value read_user_meta_copy(napi_env env, napi_callback_info info, const UserMetaKind& kind,
    bool (meta::Batch::*read)(meta::UserHandle, T*) const, napi_value (*to_js)(napi_env, const T&)) {
  return read_user_meta_as(env, info, kind, read, [to_js](MetaFunction& f, const T& value) {
    f.unlock();
    return to_js(f.env, value);
  });
}

// A writer function: (callId, level, owner, value), the value parsed with `parse` (which may run
// JS) before the call is entered, then attached with `add` (a Batch member) at (level, owner);
// returns the new meta's user index.
template <typename T, typename Add>
napi_value add_user_meta_as(napi_env env, napi_callback_info info, const char* operation,
    bool (*parse)(napi_env, napi_value, T*), Add add) {
  CallArgs args(env, info);
  T value;
  if (!args.ok || !parse(env, args[3], &value)) return nullptr;
  return attach_user_meta(env, args.id, args[1], args[2],
      [&](meta::Batch* batch, meta::UserMetaLevel level, void* owner, meta::UserHandle* created) {
        return (batch->*add)(level, owner, std::move(value), created);
      }, operation);
}

}  // namespace dsnode::metabind

#endif
