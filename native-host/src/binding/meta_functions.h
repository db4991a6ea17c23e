// The binding's `meta` object: its functions (sdk/src/native/meta-binding.ts documents each;
// meta_functions.cpp), by family: frames, objects (one at a time and in bulk), classifiers and
// label infos, display metas, user metas and nvinfer's tensor output.
#ifndef DSNODE_BINDING_META_FUNCTIONS_H
#define DSNODE_BINDING_META_FUNCTIONS_H

#include <node_api.h>

namespace dsnode::metabind {

// A new `meta` object (layoutVersion and every function). Null with an exception pending on failure.
napi_value make_meta_object(napi_env env);

}  // namespace dsnode::metabind

#endif
