// The C ABI table (common/runtime_api.h) on top of the embedded Node and the hand-off.
#include <glib.h>

#include <memory>
#include <string>

#include "common/runtime_api.h"
#include "embed/node_embed.h"
#include "meta/batch.h"
#include "runtime/call.h"
#include "runtime/handoff.h"
#include "runtime/instance.h"
#include "runtime/watchdog.h"

namespace dsnode {
namespace {

Instance* from_handle(DsnodeInstance* handle) { return reinterpret_cast<Instance*>(handle); }
DsnodeInstance* to_handle(Instance* instance) { return reinterpret_cast<DsnodeInstance*>(instance); }

void fill(DsnodeResult* result, const Outcome& outcome) {
  if (result == nullptr) return;
  result->ok = outcome.ok ? TRUE : FALSE;
  result->message = outcome.ok ? nullptr : g_strdup(outcome.message.c_str());
  result->debug = outcome.ok ? nullptr : g_strdup(outcome.debug.c_str());
  result->dropped = outcome.ok && outcome.dropped ? TRUE : FALSE;
}

void fail(DsnodeResult* result, const char* message) {
  fill(result, Outcome::failure(message, ""));
}

gboolean ensure_started(const DsnodeHostCallbacks* callbacks, const char* host_js, char** error) {
  std::string message;
  bool ok = false;
  if (callbacks == nullptr || host_js == nullptr || !g_path_is_absolute(host_js)) {
    message = "ensure_started needs the host callbacks and the absolute path of host.js";
  } else {
    ok = embed::ensure_started(*callbacks, host_js, &message);
  }
  if (!ok && error != nullptr) *error = g_strdup(message.c_str());
  return ok ? TRUE : FALSE;
}

void blocking_call(CallKind kind, DsnodeInstance* handle, const char* json, DsnodeResult* result) {
  if (handle == nullptr) {
    fail(result, "The element has no runtime instance (create_instance failed or was not called)");
    return;
  }
  Call call(kind, from_handle(handle), true);
  if (json != nullptr) call.text_a = json;
  call.instance->handoff().call(call);
  fill(result, call.outcome);
}

DsnodeInstance* create_instance(GstElement* element, const char* element_name,
    const char* bundle_path, const char* props_json, double call_timeout_s, gboolean own_isolate,
    DsnodeResult* result) {
  if (element_name == nullptr || bundle_path == nullptr) {
    fail(result, "create_instance needs an element name and a bundle path");
    return nullptr;
  }
  std::shared_ptr<void> environment;
  Handoff* chosen = &Handoff::get();
  const gint64 started_us = g_get_monotonic_time();
  if (own_isolate) {
    std::string error;
    chosen = embed::start_own_environment(&environment, &error);
    if (chosen == nullptr) {
      fail(result, error.c_str());
      return nullptr;
    }
  }
  Handoff& handoff = *chosen;
  auto* instance = new Instance(handoff.allocate_instance_id(), element, element_name,
      Watchdog::get().settings().timeout_ns(call_timeout_s), handoff, std::move(environment));
  if (own_isolate) {
    const std::string note = "isolate=own: a Node environment of its own started in " +
        std::to_string((g_get_monotonic_time() - started_us) / 1000) + " ms";
    instance->log(DSNODE_LOG_INFO, __FILE__, __LINE__, note.c_str());
  }
  Watchdog::get().watch(instance);  // from its create call on
  Call call(CallKind::kCreate, instance, true);
  call.text_a = element_name;
  call.text_b = bundle_path;
  call.text_c = props_json != nullptr ? props_json : "{}";
  handoff.call(call);
  fill(result, call.outcome);
  if (call.outcome.ok) return to_handle(instance);
  // The JS side may hold half an instance (e.g. the constructor threw after registering a
  // timer); let it drop it. Nothing may reach the element any more.
  instance->detach_element();
  Watchdog::get().forget(instance);
  handoff.post(new Call(CallKind::kDestroy, instance, false));  // takes our reference
  // An environment of its own goes with it (the destroy may never reach its JavaScript:
  // host.js failed to load there), and its JavaScript with it.
  if (own_isolate) handoff.request_stop();
  return nullptr;
}

void start(DsnodeInstance* instance, DsnodeResult* result) {
  blocking_call(CallKind::kStart, instance, nullptr, result);
}

void stop(DsnodeInstance* instance, DsnodeResult* result) {
  blocking_call(CallKind::kStop, instance, nullptr, result);
}

void set_caps(DsnodeInstance* instance, const char* caps_json, DsnodeResult* result) {
  if (caps_json == nullptr) return fail(result, "set_caps needs the caps as JSON");
  blocking_call(CallKind::kCaps, instance, caps_json, result);
}

void event(DsnodeInstance* instance, const char* event_json, DsnodeResult* result) {
  if (event_json == nullptr) return fail(result, "event needs the event as JSON");
  blocking_call(CallKind::kEvent, instance, event_json, result);
}

void set_property(DsnodeInstance* handle, const char* js_name, const char* value_json) {
  if (handle == nullptr || js_name == nullptr || value_json == nullptr) {
    g_warning("dsnode: set_property called without an instance, a name or a value");
    return;
  }
  Instance* instance = from_handle(handle);
  auto* call = new Call(CallKind::kProperty, instance, false);
  call->text_a = js_name;
  call->text_b = value_json;
  instance->ref();
  instance->handoff().post(call);
}

void transform(DsnodeInstance* handle, GstBuffer* buffer, void* batch, const DsnodeStreamInfo* stream,
    DsnodeResult* result) {
  if (handle == nullptr) {
    fail(result, "The element has no runtime instance (create_instance failed or was not called)");
    return;
  }
  if (batch == nullptr) {
    fail(result, "transform got no batch metadata (the plugin opens one for every buffer)");
    return;
  }
  const uint32_t num_frames = static_cast<meta::Batch*>(batch)->num_frames();
  if (num_frames > kMaxFramesPerBatch) {
    std::string message = "transform got a batch of " + std::to_string(num_frames) +
                          " frames; the runtime takes 0 to " +
                          std::to_string(kMaxFramesPerBatch) + " frames";
    fail(result, message.c_str());
    return;
  }
  Call call(CallKind::kTransform, from_handle(handle), true);
  call.buffer = buffer;
  call.batch = batch;
  call.stream = stream;
  call.instance->handoff().call(call);
  fill(result, call.outcome);
}

void destroy_instance(DsnodeInstance* handle) {
  if (handle == nullptr) return;
  Instance* instance = from_handle(handle);
  instance->detach_element();
  // An environment of its own stops once this destroy has run (Handoff::stop_after_destroy).
  instance->handoff().post(new Call(CallKind::kDestroy, instance, false));  // takes the plugin's ref
}

void set_flushing(DsnodeInstance* handle, gboolean flushing) {
  if (handle == nullptr) return;
  Instance* instance = from_handle(handle);
  if (!flushing) {
    instance->flushing.store(false);
    return;
  }
  // seq_cst, pairs with Handoff::pump: a transform starting now sees the flag, or is seen here.
  instance->flushing.store(true);
  instance->handoff().flush(instance);
}

const DsnodeRuntimeApi kApi = {
    DSNODE_RUNTIME_ABI_VERSION,
    ensure_started,
    create_instance,
    start,
    stop,
    set_caps,
    event,
    set_property,
    transform,
    destroy_instance,
    set_flushing,
};

}  // namespace
}  // namespace dsnode

extern "C" __attribute__((visibility("default"))) const DsnodeRuntimeApi* dsnode_runtime_api(void) {
  return &dsnode::kApi;
}
