// The binding's functions for NVIDIA's typed user metas (sdk/src/native/meta-binding.ts
// documents each): nvdsanalytics' frame and object metas (analytics_functions.cpp) and nvinfer's
// segmentation meta (segmentation_functions.cpp). The `meta` object gets the readers and
// addSegmentation (meta_functions.cpp), the standalone binding's `harness` the analytics writers.
#ifndef DSNODE_BINDING_TYPED_USER_META_H
#define DSNODE_BINDING_TYPED_USER_META_H

#include <node_api.h>

#include <string>

#include "binding/js_values.h"
#include "binding/meta_call.h"

namespace dsnode::metabind {

extern const Export kAnalyticsMetaExports[2];      // readAnalyticsFrame, readAnalyticsObject
extern const Export kAnalyticsHarnessExports[2];   // addAnalyticsFrame, addAnalyticsObject
extern const Export kSegmentationMetaExports[2];   // readSegmentation, addSegmentation

// Reads user meta `index_value` of the scope's call as `T` with `read` (a Batch member), or
// throws ERR_DS_ELEMENT_META_STATE naming `what` ("an nvdsanalytics frame meta
// (NVDS_USER_FRAME_META_NVDSANALYTICS)") when it is not one.
template <typename T>
bool read_typed_user_meta(napi_env env, CallScope& scope, napi_value index_value, const char* operation,
    const char* what, bool (meta::Batch::*read)(meta::UserHandle, T*) const, T* out) {
  MetaCall& call = scope.call();
  uint32_t index = 0;
  meta::UserHandle user;
  if (!read_live(env, call.users, kUserKind, index_value, "userIndex", operation, &index, &user)) return false;
  if ((call.batch->*read)(user, out)) return true;
  meta::UserMetaFields fields;
  call.batch->read_user_meta(user, &fields);
  throw_error(env, ErrorKind::kState,
      std::string("Expected ") + what + " for " + operation + " but received " +
          (fields.meta_type.empty() ? "one of type " + std::to_string(fields.meta_type_id)
                                    : "\"" + fields.meta_type + "\"") +
          " (user meta index " + std::to_string(index) + ")");
  return false;
}

}  // namespace dsnode::metabind

#endif
