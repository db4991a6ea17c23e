// The metadata half of the Node-API binding (sdk/src/native/meta-binding.ts documents every
// function; docs/internals/metadata-design.md §5 the design): the entry points of
// meta_binding.h and meta_binding_internal.h here, the call registry in meta_call.{h,cpp}, the
// functions of the `meta` object in meta_functions.cpp.
//
// A process-wide registry maps call ids to MetaCalls: the call's Batch plus the small integers
// JS holds instead of pointers (object rows, classifier/label/display/user indices). Each
// function parses its JS arguments first (that may run JS: getters), then locks the registry
// for the Batch work (no JS runs under the lock, so a getter calling back into the binding
// cannot deadlock), then builds its JS result after unlocking. close_call may come from another
// thread; it waits for the lock, so a Batch is never used after its call ended.
#include "binding/meta_binding.h"

#include <memory>
#include <mutex>

#include "binding/meta_call.h"
#include "binding/meta_functions.h"

namespace dsnode::metabind {

// ---------------------------------------------------------------- meta_binding.h

void install(Napi::Env env, Napi::Object exports) {
  napi_value meta_object = make_meta_object(env);
  if (meta_object == nullptr) return;  // an error is pending; the caller's init reports it
  if (napi_set_named_property(env, exports, "meta", meta_object) != napi_ok) return;
  napi_env raw_env = env;
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  // One hook per env: Node aborts on a duplicate (fun, arg) pair.
  if (r.envs.insert(raw_env).second) napi_add_env_cleanup_hook(raw_env, forget_env, raw_env);
}

uint32_t open_call(meta::Batch* batch, GstBuffer* buffer, const DsnodeStreamInfo* stream, double* state) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  std::unique_ptr<MetaCall> call;
  if (!r.spare.empty()) {
    call = std::move(r.spare.back());
    r.spare.pop_back();
  } else {
    call = std::make_unique<MetaCall>();
  }
  call->batch = batch;
  call->buffer = buffer;
  call->stream = stream;
  const uint32_t num_frames = batch != nullptr ? batch->num_frames() : 0;
  call->frames.reserve(num_frames);
  for (uint32_t f = 0; f < num_frames; ++f) call->frames.push_back(batch->frame_at(f));

  state[L::kStatePts] = buffer != nullptr ? clock_slot(GST_BUFFER_PTS(buffer)) : -1.0;
  state[L::kStateDts] = buffer != nullptr ? clock_slot(GST_BUFFER_DTS(buffer)) : -1.0;
  state[L::kStateDuration] = buffer != nullptr ? clock_slot(GST_BUFFER_DURATION(buffer)) : -1.0;
  state[L::kStateSize] = buffer != nullptr ? static_cast<double>(gst_buffer_get_size(buffer)) : 0.0;
  state[L::kStateNumFrames] = num_frames;
  state[L::kStateMaxFrames] = batch != nullptr ? batch->max_frames_in_batch() : 0;
  state[L::kStateBackend] = batch != nullptr && batch->backend() == meta::BackendKind::kDeepStream ? 1.0 : 0.0;
  meta::FrameFields frame;
  for (uint32_t f = 0; f < num_frames; ++f) {
    batch->read_frame(call->frames[f], &frame);
    write_frame_record(frame, buffer, state + L::kStateFramesBase + f * L::kStateFrameStride);
  }

  do {
    ++r.last_id;
  } while (r.last_id == 0 || find_call(r, r.last_id) != nullptr);  // never 0, never a live id after wrap
  call->id = r.last_id;
  state[L::kStateCallId] = call->id;
  r.last = call.get();
  r.calls.push_back(std::move(call));
  return r.last_id;
}

void close_call(uint32_t call_id, napi_env env) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  auto found = std::find_if(r.calls.begin(), r.calls.end(),
      [call_id](const std::unique_ptr<MetaCall>& call) { return call->id == call_id; });
  if (found == r.calls.end()) return;
  std::unique_ptr<MetaCall> call = std::move(*found);
  r.calls.erase(found);
  if (r.last == call.get()) r.last = nullptr;
  std::vector<HeldRef> refs = take_refs(*call);
  std::vector<Attached> attachments = std::move(call->attachments);
  call->reset();
  constexpr size_t kMaxSpare = 16;
  if (r.spare.size() < kMaxSpare) r.spare.push_back(std::move(call));
  if (env == nullptr) {
    r.graveyard.insert(r.graveyard.end(), refs.begin(), refs.end());
    for (Attached& held : attachments) r.parked.push_back(std::move(held));
    return;
  }
  release_refs(env, std::move(refs), r);
  // After the views over their memory are detached; another env's wait for its own refs.
  for (Attached& held : attachments) {
    if (held.env != env) r.parked.push_back(std::move(held));
  }
  attachments.clear();
  if (!r.graveyard.empty() || !r.parked.empty()) sweep_graveyard(env, r);
}

napi_value attach_user_meta(napi_env env, uint32_t call_id, napi_value level_value, napi_value owner_value,
    const AttachUserMeta& attach, const char* operation) {
  CallScope scope(env, call_id, operation);
  if (!scope) return nullptr;
  MetaCall& call = scope.call();
  meta::UserMetaLevel level;
  void* owner = nullptr;
  if (!read_owner(env, call, level_value, owner_value, operation, &level, &owner)) return nullptr;
  meta::UserHandle created;
  Status status = attach(call.batch, level, owner, &created);
  if (!status.ok()) return throw_status(env, status);
  return make_number(env, call.users.index_for_new(created));
}

// ---------------------------------------------------------------- LiveCall (tensor binding)

LiveCall::LiveCall(napi_env env, uint32_t call_id, const char* handle) : env_(env), lock_(registry().mutex) {
  Registry& r = registry();
  if (!r.graveyard.empty() || !r.parked.empty()) sweep_graveyard(env, r);
  MetaCall* call = r.last != nullptr && r.last->id == call_id ? r.last : find_call(r, call_id);
  if (call == nullptr) {
    throw_error(env, ErrorKind::kStale,
        std::string(handle) + " used after its transform() call returned (call " + std::to_string(call_id) +
            " has ended); a handle is valid only during the call that received it");
    return;
  }
  r.last = call;
  call_ = call;
}

LiveCall::~LiveCall() = default;

uint32_t LiveCall::id() const { return static_cast<MetaCall*>(call_)->id; }
GstBuffer* LiveCall::buffer() const { return static_cast<MetaCall*>(call_)->buffer; }
const DsnodeStreamInfo* LiveCall::stream() const { return static_cast<MetaCall*>(call_)->stream; }
meta::Batch* LiveCall::batch() const { return static_cast<MetaCall*>(call_)->batch; }

CallAttachment* LiveCall::attachment(const void* key) const {
  for (const Attached& held : static_cast<MetaCall*>(call_)->attachments) {
    if (held.key == key) return held.attachment.get();
  }
  return nullptr;
}

void LiveCall::attach(const void* key, std::unique_ptr<CallAttachment> attachment) {
  static_cast<MetaCall*>(call_)->attachments.push_back(Attached{env_, key, std::move(attachment)});
}

napi_value LiveCall::view(const void* data, size_t size) {
  return host_view(env_, *static_cast<MetaCall*>(call_), data, size);
}

}  // namespace dsnode::metabind
