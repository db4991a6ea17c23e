// What other parts of the binding need from the per-call registry beyond meta_binding.h:
// - the standalone binding (binding/standalone_binding.cpp): attaching a user meta made outside the
//   MetaBinding functions (the portable backend's synthetic tensor output) so it gets this
//   call's user meta index;
// - the tensor binding (binding/tensor_binding.cpp): the call's buffer and stream, per-call
//   state (the buffer mapped once for frame access) and zero-copy views detached at close.
#ifndef DSNODE_BINDING_META_BINDING_INTERNAL_H
#define DSNODE_BINDING_META_BINDING_INTERNAL_H

#include <node_api.h>

#include <gst/gst.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>

#include "common/runtime_api.h"
#include "meta/batch.h"

namespace dsnode::metabind {

// State another part of the binding keeps for one call, found again by its key. Destroyed when
// the call closes, after the call's views are detached (a call closed without an env: once its
// views are, on that env's thread, or when the env goes away). Its destructor must not run JS
// and must not depend on the call's buffer still existing (hold your own references).
class CallAttachment {
 public:
  virtual ~CallAttachment() = default;
};

// A live call for as long as this object lives, with the registry locked: no JS may run
// meanwhile (building plain values is fine). When `call_id` is not live it throws
// ERR_DS_ELEMENT_STALE_HANDLE saying "<handle> used after its transform() call returned" and
// converts to false.
class LiveCall {
 public:
  LiveCall(napi_env env, uint32_t call_id, const char* handle);
  ~LiveCall();
  LiveCall(const LiveCall&) = delete;
  LiveCall& operator=(const LiveCall&) = delete;

  explicit operator bool() const { return call_ != nullptr; }
  uint32_t id() const;
  GstBuffer* buffer() const;                  // may be null
  const DsnodeStreamInfo* stream() const;     // may be null (the standalone binding without setVideo)
  meta::Batch* batch() const;                 // may be null
  CallAttachment* attachment(const void* key) const;
  void attach(const void* key, std::unique_ptr<CallAttachment> attachment);
  // A zero-copy ArrayBuffer over `size` bytes of native memory at `data`, one per pointer per
  // call (V8 must not see two over one backing store), detached when the call closes. Null
  // with an exception pending on failure.
  napi_value view(const void* data, size_t size);

 private:
  napi_env env_;
  std::unique_lock<std::mutex> lock_;
  void* call_ = nullptr;  // the registry's MetaCall
};

using AttachUserMeta = std::function<meta::Status(meta::Batch* batch, meta::UserMetaLevel level,
    void* owner, meta::UserHandle* created)>;

// Resolves (level, owner) of live call `call_id` as the user meta functions do (0 batch, 1 frame
// index, 2 object row), runs `attach` under the registry lock and returns the new meta's user
// index as a JS number. Null with a JS exception pending on failure. `attach` must not run JS.
napi_value attach_user_meta(napi_env env, uint32_t call_id, napi_value level, napi_value owner,
    const AttachUserMeta& attach, const char* operation = "addTensorOutput");

}  // namespace dsnode::metabind

#endif
