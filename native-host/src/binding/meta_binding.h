// The metadata half of the Node-API binding (sdk/src/native/meta-binding.ts documents every
// function): per-call registry of open batches, and the `meta` export. Linked into
// libdsnode-runtime.so.0 (pipelines) and into the standalone binding dsnode_standalone.node.
#ifndef DSNODE_BINDING_META_BINDING_H
#define DSNODE_BINDING_META_BINDING_H

#include <napi.h>

#include <gst/gst.h>

#include <cstdint>

#include "common/runtime_api.h"
#include "meta/batch.h"

namespace dsnode::metabind {

// Adds `meta` (the MetaBinding functions and layoutVersion) to `exports`.
void install(Napi::Env env, Napi::Object exports);

// On the thread that runs JS (it holds the isolate). Registers `batch` under a new call id
// (never 0) and fills `state`: header slots (buffer times and size from `buffer`, which may be
// null; num_frames, max_frames, call id, backend) and one record per frame from
// Batch::read_frame (buffer DTS/duration in every frame record). `state` must hold
// layout::state_length(batch->num_frames()) doubles. The batch stays owned by the caller and
// must outlive close_call.
// `stream` (may be null: no frame access) describes the buffer's format and memory; it must
// outlive close_call too.
uint32_t open_call(meta::Batch* batch, GstBuffer* buffer, const DsnodeStreamInfo* stream, double* state);

// Ends the call: later uses of the id throw ERR_DS_ELEMENT_STALE_HANDLE. With `env` (the
// caller runs JS), also detaches the ArrayBuffers the call handed out over native memory
// (tensor output views). Idempotent and thread-safe (without env from any thread). Does not
// call Batch::end_call: the batch's owner does.
void close_call(uint32_t call_id, napi_env env);

}  // namespace dsnode::metabind

#endif
