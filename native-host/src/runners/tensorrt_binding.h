// Node-API glue of the TensorRT runner (tensorrt_runner.h). Compiled only where CMake found
// TensorRT (DSNODE_HAVE_TENSORRT): libdsnode-runtime.so.0 and the testing addon install it.
#ifndef DSNODE_RUNNERS_TENSORRT_BINDING_H
#define DSNODE_RUNNERS_TENSORRT_BINDING_H

#include <node_api.h>

namespace dsnode::runners {

// Adds `loadTensorRT(path, options) → Promise<runner>` and `tensorRTVersion` to `exports`.
// False with a JS exception pending when it fails.
bool install_tensorrt(napi_env env, napi_value exports);

// Testing addon only: adds `cudaTesting` { deviceCount, upload, download, free }, plain
// synchronous cudaMemcpy helpers that let tests put data on the GPU until TensorHandle has its
// own CUDA upload/download (cuda_testing_binding.cpp).
bool install_cuda_testing(napi_env env, napi_value exports);

}  // namespace dsnode::runners

#endif
