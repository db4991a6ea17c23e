// Node-API glue of the TensorRT runner (runners/tensorrt_runner.h). Compiled only where CMake
// found TensorRT (DSNODE_HAVE_TENSORRT): libdsnode-runtime.so.0 and the standalone binding
// install it.
#ifndef DSNODE_BINDING_TENSORRT_BINDING_H
#define DSNODE_BINDING_TENSORRT_BINDING_H

#include <node_api.h>

namespace dsnode::runners {

// Adds `loadTensorRT(path, options) → Promise<runner>` and `tensorRTVersion` to `exports`.
// False with a JS exception pending when it fails.
bool install_tensorrt(napi_env env, napi_value exports);

}  // namespace dsnode::runners

#endif
