// What the testing addon (harness/harness_addon.cpp) needs from the binding's per-call registry
// beyond meta_binding.h: attaching a user meta made outside the MetaBinding functions (the
// portable backend's synthetic tensor output) so it gets this call's user meta index.
#ifndef DSNODE_BINDING_META_BINDING_INTERNAL_H
#define DSNODE_BINDING_META_BINDING_INTERNAL_H

#include <node_api.h>

#include <functional>

#include "meta/batch.h"

namespace dsnode::metabind {

using AttachUserMeta = std::function<meta::Status(meta::Batch* batch, meta::UserMetaLevel level,
    void* owner, meta::UserHandle* created)>;

// Resolves (level, owner) of live call `call_id` as the user meta functions do (0 batch, 1 frame
// index, 2 object row), runs `attach` under the registry lock and returns the new meta's user
// index as a JS number. Null with a JS exception pending on failure. `attach` must not run JS.
napi_value attach_user_meta(napi_env env, uint32_t call_id, napi_value level, napi_value owner,
    const AttachUserMeta& attach);

}  // namespace dsnode::metabind

#endif
