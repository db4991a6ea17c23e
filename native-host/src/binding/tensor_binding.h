// The tensor half of the Node-API binding: the `tensor` export (sdk/src/native/tensor-binding.ts
// documents every function; docs/internals/tensors.md the design). Frame views over the
// buffer of a running transform call (through the metadata binding's per-call registry),
// owned tensors from the pool, DLPack capsules, and the pre-processing ops (src/ops/ops.h).
// Linked into libdsnode-runtime.so.0 and into the standalone binding dsnode_standalone.node.
//
// For other native bindings (runners): resolve() turns the source a TensorHandle hands to
// native code (`nativeTensorSource(tensor)` in TS) into a descriptor, and make_owned() turns a
// pooled block into the object TS wraps as an owned TensorHandle.
#ifndef DSNODE_BINDING_TENSOR_BINDING_H
#define DSNODE_BINDING_TENSOR_BINDING_H

#include <napi.h>

#include <memory>

#include "tensor/tensor.h"
#include "tensor/tensor_pool.h"

namespace dsnode::tensorbind {

// Adds `tensor` (the TensorBinding functions) to `exports`.
void install(Napi::Env env, Napi::Object exports);

// A tensor handed to native code, resolved. `desc` is valid while `keep_alive` is held, with
// one exception: the memory of a tensor over JS memory ("js" sources) is valid only until JS
// runs again (use it synchronously).
struct Resolved {
  tensor::Desc desc;
  // Keeps the memory alive: the pooled block (owned), a reference on the frame's GstMemory
  // (frames: the pixels stay valid after their call ends, though later elements may change
  // them), or nothing (js).
  std::shared_ptr<void> keep_alive;
  bool owned = false;
  // "js" sources: their ArrayBuffer (valid in the current callback only).
  napi_value js_buffer = nullptr;
};

// Reads a NativeTensorSource (`{ kind: "frame", callId, batchId } | { kind: "owned", storage }
// | { kind: "js", data, dtype, shape, strides, byteOffset, format }`). `name` names the value
// in messages. A frame's call must still be live. False with a JS exception pending.
bool resolve(napi_env env, napi_value source, const char* name, Resolved* out);

// The NativeTensorInfo of a new owned tensor `desc` over `block` (desc.data == block->ptr):
// a storage object (released by `release` or GC) and, for host-visible memory, an ArrayBuffer
// over it. Null with a JS exception pending.
napi_value make_owned(napi_env env, tensor::BlockRef block, const tensor::Desc& desc);

}  // namespace dsnode::tensorbind

#endif
