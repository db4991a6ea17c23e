// The Node-API binding host.js gets from process.dlopen() of this library: setHandlers,
// transformState, log, postError, liveInstances (docs/internals/host-protocol.md), and the
// JsExecutor that runs the hand-off's calls through those handlers on the JS thread.
#include <napi.h>
// node.h brings node_version.h, which defines NAPI_VERSION as the runtime's own (9); the
// binding is built against the version CMakeLists.txt sets, so keep that one.
#pragma push_macro("NAPI_VERSION")
#undef NAPI_VERSION
#include <node.h>
#pragma pop_macro("NAPI_VERSION")
#include <v8.h>

#include <gst/gst.h>

#include <cstring>
#include <memory>
#include <string>

#include "binding/meta_binding.h"
#include "protocol/state_layout.h"
#include "binding/tensor_binding.h"
#include "runtime/call.h"
#include "runtime/handoff.h"
#include "runtime/instance.h"
#include "runtime/js_executor.h"
#ifdef DSNODE_HAVE_TENSORRT
#include "binding/tensorrt_binding.h"
#endif

#ifdef NAPI_CPP_EXCEPTIONS
#error "binding/ checks every N-API status itself: a C++ exception must never unwind through V8 frames on the JS thread"
#endif

namespace dsnode {
namespace {

// transformState: header and frame records as protocol/state_layout.h lays them out.
constexpr size_t kStateLength = layout::state_length(kMaxFramesPerBatch);

// Indexed by CallKind.
constexpr const char* kHandlerNames[] = {"create", "start",     "stop",   "caps",
                                         "event",  "property",  "transform", "destroy"};
constexpr size_t kHandlerCount = sizeof(kHandlerNames) / sizeof(kHandlerNames[0]);

// Calls into the handlers, and the scope around them, go to V8 directly: on the per-buffer
// path the Node-API layer cost about a third of a no-op transform (handle scopes, references,
// checks on every call). A napi_value is a v8::Local<v8::Value> in Node's own implementation of
// Node-API (v8impl::JsValueFromV8LocalValue and back are reinterpret casts), which lets the
// rare paths (arguments, errors, thenables) keep using the Node-API helpers.
static_assert(sizeof(napi_value) == sizeof(v8::Local<v8::Value>), "napi_value is a V8 handle");

napi_value to_napi(v8::Local<v8::Value> value) { return reinterpret_cast<napi_value>(*value); }

v8::Local<v8::Value> to_v8(napi_value value) {
  v8::Local<v8::Value> local;
  std::memcpy(static_cast<void*>(&local), &value, sizeof value);
  return local;
}

std::string utf8(v8::Isolate* isolate, v8::Local<v8::Value> value) {
  v8::String::Utf8Value text(isolate, value);
  return *text != nullptr ? std::string(*text, text.length()) : std::string();
}

class Binding final : public JsExecutor {
 public:
  Binding(Napi::Env env, Napi::Object exports);
  ~Binding() override { handoff_.clear_executor(this); }

  void run_in_js_scope(void (*body)(void*), void* data) override;
  void run_unscoped(void (*body)(void*), void* data) override;
  void start(Call& call) override;
  void end_transform(Call& call) override;
  std::vector<JsFrame> capture_stack() override;
  void terminate() override { isolate_->TerminateExecution(); }
  void resume() override { isolate_->CancelTerminateExecution(); }
  std::string format_stack(const std::vector<JsFrame>& frames) override;

 private:
  static Binding* from(const Napi::CallbackInfo& info) { return static_cast<Binding*>(info.Data()); }
  static Napi::Value set_handlers(const Napi::CallbackInfo& info);
  static Napi::Value log(const Napi::CallbackInfo& info);
  static Napi::Value post_error(const Napi::CallbackInfo& info);
  static Napi::Value live_instances(const Napi::CallbackInfo& info);
  static Napi::Value run_with_deadline(const Napi::CallbackInfo& info);
  static Napi::Value call_deadline_ms(const Napi::CallbackInfo& info);

  void start_transform(Call& call);
  bool call_handler(Call& call, int argc, v8::Local<v8::Value>* argv, v8::Local<v8::Value>* result);
  void settle_result(Call& call, napi_value result);
  void write_transform_state(Call& call);
  bool parse_json(const std::string& text, const char* what, napi_value* parsed, Outcome* failure);
  void await_settlement(Call& call, napi_value thenable, napi_value then);
  void run_queues();
  void report_property_rejection(const Call& call, napi_value thenable, napi_value then);

  // Error plumbing: N-API leaves a thrown exception pending until it is taken.
  bool take_exception(napi_value* thrown);
  Outcome describe_thrown(napi_value thrown, const char* how);
  std::string non_error_message(napi_value value);
  Outcome failure_from_pending(const char* what);
  std::string display_string(napi_value value);
  bool string_property(napi_value object, const char* name, std::string* text);
  std::string received(Napi::Value value);
  void throw_type_error(const std::string& message);
  // False, with a TypeError "Expected <what> for <name> but received <value>" thrown, unless `is`.
  bool expect(bool is, const char* what, const std::string& name, const Napi::Value& value);
  // False, with a TypeError thrown, when `value` is not a number (the instanceId argument).
  bool expect_instance_id(const Napi::Value& value) { return expect(value.IsNumber(), "an instance id", "instanceId", value); }

  Napi::Env env_;
  // The hand-off of the environment this binding was loaded in (each environment loads its own).
  Handoff& handoff_ = Handoff::current();
  Napi::ObjectReference json_;
  Napi::FunctionReference json_parse_;
  Napi::FunctionReference json_stringify_;
  Napi::FunctionReference string_;
  Napi::Reference<Napi::Float64Array> transform_state_;
  double* state_ = nullptr;
  v8::Isolate* isolate_ = nullptr;
  v8::Global<v8::Object> handlers_object_;
  v8::Global<v8::Function> handlers_[kHandlerCount];  // indexed by CallKind
  v8::Global<v8::Function> format_stack_;  // handlers.formatStack, when host.js has one
  // Calls run inside a callback scope of this resource (set with the handlers): its closing
  // runs the microtask and nextTick queues, and AsyncLocalStorage sees one resource for the
  // runtime's calls.
  v8::Global<v8::Object> async_resource_;
  node::async_context async_context_{};
  // handlers.drainsQueues: transform(id, true) runs the queues itself (run_unscoped).
  bool drains_queues_ = false;
  // Set by run_unscoped for the transform it expects; taken by the transform that starts.
  bool unscoped_ = false;
  // Symbol.for("ds-element.drop") (Element.DROP, host protocol v1's TRANSFORM_DROP_V1): what a
  // transform returns, or its Promise resolves to, when the buffer must not be pushed.
  v8::Global<v8::Symbol> drop_symbol_;
  bool is_drop(v8::Local<v8::Value> value) { return value->IsSymbol() && value->StrictEquals(drop_symbol_.Get(isolate_)); }
};

Binding::Binding(Napi::Env env, Napi::Object exports) : env_(env), isolate_(v8::Isolate::GetCurrent()) {
  Napi::Object global = env.Global();
  json_ = Napi::Persistent(global.Get("JSON").As<Napi::Object>());
  json_parse_ = Napi::Persistent(json_.Value().Get("parse").As<Napi::Function>());
  json_stringify_ = Napi::Persistent(json_.Value().Get("stringify").As<Napi::Function>());
  string_ = Napi::Persistent(global.Get("String").As<Napi::Function>());

  {
    v8::HandleScope scope(isolate_);
    drop_symbol_.Reset(isolate_, v8::Symbol::For(isolate_, v8::String::NewFromUtf8Literal(isolate_, "ds-element.drop")));
  }

  Napi::Float64Array state = Napi::Float64Array::New(env, kStateLength);
  state_ = state.Data();
  transform_state_ = Napi::Persistent(state);

  exports.Set("setHandlers", Napi::Function::New(env, &Binding::set_handlers, "setHandlers", this));
  exports.Set("transformState", state);
  exports.Set("log", Napi::Function::New(env, &Binding::log, "log", this));
  exports.Set("postError", Napi::Function::New(env, &Binding::post_error, "postError", this));
  exports.Set("liveInstances",
      Napi::Function::New(env, &Binding::live_instances, "liveInstances", this));
  exports.Set("runWithDeadline", Napi::Function::New(env, &Binding::run_with_deadline, "runWithDeadline", this));
  exports.Set("callDeadlineMs", Napi::Function::New(env, &Binding::call_deadline_ms, "callDeadlineMs", this));
  metabind::install(env, exports);
  tensorbind::install(env, exports);
#ifdef DSNODE_HAVE_TENSORRT
  if (!env.IsExceptionPending()) runners::install_tensorrt(env, exports);
#endif
}

// ---------------------------------------------------------------- exports

Napi::Value Binding::set_handlers(const Napi::CallbackInfo& info) {
  Binding* self = from(info);
  Napi::Env env = info.Env();
  if (!self->expect(info[0].IsObject(), "an object", "handlers", info[0])) return env.Undefined();
  Napi::Object handlers = info[0].As<Napi::Object>();
  Napi::Function functions[kHandlerCount];
  for (size_t i = 0; i < kHandlerCount; ++i) {
    Napi::Value handler = handlers.Get(kHandlerNames[i]);
    if (env.IsExceptionPending()) return env.Undefined();
    if (!self->expect(handler.IsFunction(), "a function", std::string("handlers.") + kHandlerNames[i], handler)) {
      return env.Undefined();
    }
    functions[i] = handler.As<Napi::Function>();
  }
  v8::Isolate* isolate = self->isolate_;
  self->handlers_object_.Reset(isolate, to_v8(handlers).As<v8::Object>());
  for (size_t i = 0; i < kHandlerCount; ++i) self->handlers_[i].Reset(isolate, to_v8(functions[i]).As<v8::Function>());
  if (self->async_resource_.IsEmpty()) {
    v8::Local<v8::Object> resource = v8::Object::New(isolate);
    self->async_resource_.Reset(isolate, resource);
    self->async_context_ = node::EmitAsyncInit(isolate, resource, "ds-element:runtime");
  }
  Napi::Value drains = handlers.Get("drainsQueues");
  if (env.IsExceptionPending()) return env.Undefined();
  self->drains_queues_ = drains.IsBoolean() && drains.As<Napi::Boolean>().Value();
  Napi::Value format_stack = handlers.Get("formatStack");
  if (env.IsExceptionPending()) return env.Undefined();
  if (format_stack.IsFunction()) self->format_stack_.Reset(isolate, to_v8(format_stack).As<v8::Function>());
  self->handoff_.set_executor(self);
  return env.Undefined();
}

Napi::Value Binding::log(const Napi::CallbackInfo& info) {
  Binding* self = from(info);
  Napi::Env env = info.Env();
  if (!self->expect_instance_id(info[0])) return env.Undefined();
  int level = info[1].IsNumber() ? info[1].As<Napi::Number>().Int32Value() : 0;
  if (level < DSNODE_LOG_ERROR || level > DSNODE_LOG_TRACE) {
    self->throw_type_error("Expected a log level from 1 to 7 for level but received " + self->received(info[1]));
    return env.Undefined();
  }
  if (!self->expect(info[2].IsString(), "a string", "message", info[2])) return env.Undefined();
  std::string message = info[2].As<Napi::String>().Utf8Value();
  std::string file = info[3].IsString() ? info[3].As<Napi::String>().Utf8Value() : std::string();
  int line = info[4].IsNumber() ? info[4].As<Napi::Number>().Int32Value() : 0;
  Instance* instance = self->handoff_.find_instance(info[0].As<Napi::Number>().Int32Value());
  bool delivered = instance != nullptr &&
      instance->log(static_cast<DsnodeLogLevel>(level), file.empty() ? nullptr : file.c_str(),
          line, message.c_str());
  if (!delivered && level <= DSNODE_LOG_WARNING) {
    g_warning("dsnode: (element gone) %s", message.c_str());
  }
  return env.Undefined();
}

Napi::Value Binding::post_error(const Napi::CallbackInfo& info) {
  Binding* self = from(info);
  Napi::Env env = info.Env();
  if (!self->expect_instance_id(info[0]) || !self->expect(info[1].IsString(), "a string", "message", info[1])) {
    return env.Undefined();
  }
  std::string message = info[1].As<Napi::String>().Utf8Value();
  std::string debug = info[2].IsString() ? info[2].As<Napi::String>().Utf8Value() : std::string();
  Instance* instance = self->handoff_.find_instance(info[0].As<Napi::Number>().Int32Value());
  if (instance == nullptr || !instance->post_error(message.c_str(), debug.c_str())) {
    g_warning("dsnode: (element gone) %s\n%s", message.c_str(), debug.c_str());
  }
  return env.Undefined();
}

bool Binding::expect(bool is, const char* what, const std::string& name, const Napi::Value& value) {
  if (!is) throw_type_error(std::string("Expected ") + what + " for " + name + " but received " + received(value));
  return is;
}

Napi::Value Binding::live_instances(const Napi::CallbackInfo& info) {
  std::vector<int> ids = from(info)->handoff_.live_instance_ids();
  Napi::Array array = Napi::Array::New(info.Env(), ids.size());
  for (size_t i = 0; i < ids.size(); ++i) array.Set(static_cast<uint32_t>(i), ids[i]);
  return array;
}

// runWithDeadline(instanceId, what, run): run() under the deadline of the instance's calls,
// though no call is running (dev mode starts a new build from its file watcher). Past the
// deadline its JavaScript is terminated, and this throws an Error "<what> did not return within
// …" whose stack says where the JavaScript was.
Napi::Value Binding::run_with_deadline(const Napi::CallbackInfo& info) {
  Binding* self = from(info);
  Napi::Env env = info.Env();
  if (!self->expect_instance_id(info[0]) || !self->expect(info[1].IsString(), "a string", "what", info[1]) ||
      !self->expect(info[2].IsFunction(), "a function", "run", info[2])) {
    return env.Undefined();
  }
  v8::Isolate* isolate = self->isolate_;
  v8::EscapableHandleScope scope(isolate);
  v8::Local<v8::Context> context = isolate->GetCurrentContext();
  Handoff& handoff = self->handoff_;
  const bool guarded = handoff.begin_guard(handoff.find_instance(info[0].As<Napi::Number>().Int32Value()));
  v8::Local<v8::Value> result;
  bool returned = false;
  bool terminated = false;
  {
    v8::TryCatch try_catch(isolate);
    returned = to_v8(info[2]).As<v8::Function>()->Call(context, v8::Undefined(isolate), 0, nullptr).ToLocal(&result);
    terminated = try_catch.HasTerminated();
    if (!returned && !terminated) try_catch.ReThrow();
  }
  std::string message, debug;
  if (guarded && handoff.end_guard(&message, &debug)) {
    message = info[1].As<Napi::String>().Utf8Value() + " " + message;
    v8::Local<v8::Value> error = v8::Exception::Error(v8::String::NewFromUtf8(isolate, message.c_str()).ToLocalChecked());
    error.As<v8::Object>()->Set(context, v8::String::NewFromUtf8Literal(isolate, "stack"),
        v8::String::NewFromUtf8(isolate, (message + "\n" + debug).c_str()).ToLocalChecked()).Check();
    isolate->ThrowException(error);
    return env.Undefined();
  }
  if (!returned) return env.Undefined();  // rethrown, or terminated by Node (it is stopping)
  return Napi::Value(env, to_napi(scope.Escape(result)));
}

// callDeadlineMs(instanceId): the deadline of the instance's calls in ms; 0 when none.
Napi::Value Binding::call_deadline_ms(const Napi::CallbackInfo& info) {
  Binding* self = from(info);
  Napi::Env env = info.Env();
  if (!self->expect_instance_id(info[0])) return env.Undefined();
  Instance* instance = self->handoff_.find_instance(info[0].As<Napi::Number>().Int32Value());
  return Napi::Number::New(env, instance == nullptr ? 0 : static_cast<double>(instance->timeout_ns() / 1000000));
}

// ---------------------------------------------------------------- executor

void Binding::run_in_js_scope(void (*body)(void*), void* data) {
  v8::HandleScope handle_scope(isolate_);
  if (async_resource_.IsEmpty()) return body(data);
  node::CallbackScope scope(isolate_, async_resource_.Get(isolate_), async_context_);
  body(data);
}

void Binding::run_unscoped(void (*body)(void*), void* data) {
  if (!drains_queues_) return run_in_js_scope(body, data);
  unscoped_ = true;  // (run_locked holds a HandleScope)
  body(data);
  const bool drained = !unscoped_;  // the transform took it and drained
  unscoped_ = false;
  if (!drained) run_queues();
}

// What closing a callback scope does: microtasks, then nextTicks (and rejections to report).
void Binding::run_queues() {
  if (async_resource_.IsEmpty()) return;
  node::CallbackScope scope(isolate_, async_resource_.Get(isolate_), async_context_);
}

void Binding::start(Call& call) {
  if (call.kind == CallKind::kTransform) return start_transform(call);
  v8::HandleScope scope(isolate_);
  Handoff& handoff = handoff_;
  napi_value args[4];
  size_t argc = 0;
  args[argc++] = Napi::Number::New(env_, call.instance->id());
  Outcome failure;
  bool parsed = true;
  switch (call.kind) {
    case CallKind::kCreate:
      args[argc++] = Napi::String::New(env_, call.text_a);
      args[argc++] = Napi::String::New(env_, call.text_b);
      parsed = parse_json(call.text_c, "the properties", &args[argc++], &failure);
      break;
    case CallKind::kCaps:
      parsed = parse_json(call.text_a, "the caps", &args[argc++], &failure);
      break;
    case CallKind::kEvent:
      parsed = parse_json(call.text_a, "the event", &args[argc++], &failure);
      break;
    case CallKind::kProperty:
      args[argc++] = Napi::String::New(env_, call.text_a);
      parsed = parse_json(call.text_b, "the property value", &args[argc++], &failure);
      break;
    default:
      break;
  }
  if (!parsed) return handoff.complete(call, std::move(failure));

  v8::Local<v8::Value> argv[4];
  for (size_t i = 0; i < argc; ++i) argv[i] = to_v8(args[i]);
  v8::Local<v8::Value> result;
  if (call_handler(call, static_cast<int>(argc), argv, &result)) settle_result(call, to_napi(result));
}

// The per-buffer call: no Node-API on its way (no JSON, no strings), and a handler that
// returned nothing completes it at once.
void Binding::start_transform(Call& call) {
  // No HandleScope of its own: every caller of start() holds one (run_locked, run_in_js_scope,
  // a Promise callback's), and this one makes three handles.
  // Outside a callback scope (run_unscoped), the handler drains the queues itself.
  const bool drain = unscoped_;
  unscoped_ = false;
  write_transform_state(call);
  v8::Local<v8::Value> argv[] = {v8::Integer::New(isolate_, call.instance->id()),
                                 v8::Boolean::New(isolate_, drain)};
  v8::Local<v8::Value> result;
  if (!call_handler(call, 2, argv, &result)) return;
  if (result->IsUndefined()) return handoff_.complete(call, Outcome{});
  if (is_drop(result)) return handoff_.complete(call, Outcome::drop());
  settle_result(call, to_napi(result));
  // A Promise: its reactions were just registered, after the handler drained the queues. If
  // it has settled already they are due now, as they would be at the end of a scope.
  if (drain) run_queues();
}

// Calls the call's handler. False when it threw or could not run; the call is then completed
// with the failure.
bool Binding::call_handler(Call& call, int argc, v8::Local<v8::Value>* argv, v8::Local<v8::Value>* result) {
  const size_t index = static_cast<size_t>(call.kind);
  v8::Local<v8::Value> thrown;
  bool terminated = false;
  {
    v8::TryCatch try_catch(isolate_);
    if (handlers_[index].Get(isolate_)
            ->Call(isolate_->GetCurrentContext(), handlers_object_.Get(isolate_), argc, argv)
            .ToLocal(result)) {
      return true;
    }
    terminated = try_catch.HasTerminated();
    if (try_catch.HasCaught() && !terminated) thrown = try_catch.Exception();
  }
  // Terminated by the watchdog or the heap limit: the call fails, the isolate goes on.
  Outcome abandoned;
  if (terminated && handoff_.take_termination(call, &abandoned)) {
    handoff_.complete(call, std::move(abandoned));
    return false;
  }
  // No exception: execution was terminated, which Node does when it stops.
  handoff_.complete(call, thrown.IsEmpty()
      ? Outcome::failure(std::string("Could not call ") + kHandlerNames[index] + ": Node.js is shutting down", "")
      : describe_thrown(to_napi(thrown), "threw"));
  return false;
}

// A handler may return a Promise, or any thenable; everything else means "done".
void Binding::settle_result(Call& call, napi_value result) {
  Handoff& handoff = handoff_;
  const size_t index = static_cast<size_t>(call.kind);
  napi_valuetype type = napi_undefined;
  napi_typeof(env_, result, &type);
  if (call.kind != CallKind::kDestroy && (type == napi_object || type == napi_function)) {
    napi_value then = nullptr;
    if (napi_get_named_property(env_, result, "then", &then) != napi_ok) {
      return handoff.complete(call, failure_from_pending(kHandlerNames[index]));
    }
    napi_valuetype then_type = napi_undefined;
    napi_typeof(env_, then, &then_type);
    if (then_type == napi_function) {
      if (call.kind != CallKind::kProperty) return await_settlement(call, result, then);
      report_property_rejection(call, result, then);
    }
  }
  handoff.complete(call, Outcome{});
}

void Binding::write_transform_state(Call& call) {
  call.meta_call_id =
      metabind::open_call(static_cast<meta::Batch*>(call.batch), call.buffer, call.stream, state_);
}

void Binding::end_transform(Call& call) {
  if (call.meta_call_id == 0) return;
  metabind::close_call(call.meta_call_id, env_);
  call.meta_call_id = 0;
}

bool Binding::parse_json(const std::string& text, const char* what, napi_value* parsed,
    Outcome* failure) {
  napi_value input = Napi::String::New(env_, text);
  if (napi_call_function(env_, json_.Value(), json_parse_.Value(), 1, &input, parsed) == napi_ok) {
    return true;
  }
  Outcome thrown = failure_from_pending("JSON.parse");
  *failure = Outcome::failure(std::string("The plugin passed invalid JSON for ") + what + ": " +
                                  thrown.message,
                              text);
  return false;
}

// The streaming thread keeps waiting; the call completes when the thenable settles. The
// callbacks carry (instance id, call sequence), not the Call: a thenable may call them twice,
// or after the runtime failed the call at shutdown.
void Binding::await_settlement(Call& call, napi_value thenable, napi_value then) {
  const int id = call.instance->id();
  const uint64_t sequence = call.sequence;
  const char* handler = kHandlerNames[static_cast<size_t>(call.kind)];
  const bool transform = call.kind == CallKind::kTransform;
  Napi::Function on_fulfilled = Napi::Function::New(env_,
      [this, id, sequence, transform](const Napi::CallbackInfo& info) {
        const bool drop = transform && info.Length() > 0 && is_drop(to_v8(info[0]));
        handoff_.complete_if_running(id, sequence, drop ? Outcome::drop() : Outcome{});
      },
      "onFulfilled");
  Napi::Function on_rejected = Napi::Function::New(env_,
      [this, id, sequence](const Napi::CallbackInfo& info) {
        handoff_.complete_if_running(id, sequence, describe_thrown(info[0], "rejected with"));
      },
      "onRejected");
  napi_value callbacks[] = {on_fulfilled, on_rejected};
  napi_value ignored = nullptr;
  if (napi_call_function(env_, thenable, then, 2, callbacks, &ignored) != napi_ok) {
    handoff_.complete(call, failure_from_pending(handler));
  }
}

// property() is not waited for (set_property does not block); a rejection still has to reach
// the element.
void Binding::report_property_rejection(const Call& call, napi_value thenable, napi_value then) {
  const int id = call.instance->id();
  Napi::Function on_rejected = Napi::Function::New(env_,
      [this, id](const Napi::CallbackInfo& info) {
        Outcome outcome = describe_thrown(info[0], "rejected with");
        Instance* instance = handoff_.find_instance(id);
        if (instance != nullptr) instance->post_error(outcome.message.c_str(), outcome.debug.c_str());
      },
      "onPropertyRejected");
  napi_value callbacks[] = {env_.Undefined(), on_rejected};
  napi_value ignored = nullptr;
  if (napi_call_function(env_, thenable, then, 2, callbacks, &ignored) != napi_ok) {
    Outcome outcome = failure_from_pending("property");
    call.instance->post_error(outcome.message.c_str(), outcome.debug.c_str());
  }
}

// ---------------------------------------------------------------- errors

bool Binding::take_exception(napi_value* thrown) {
  bool pending = false;
  if (napi_is_exception_pending(env_, &pending) != napi_ok || !pending) return false;
  return napi_get_and_clear_last_exception(env_, thrown) == napi_ok;
}

Outcome Binding::failure_from_pending(const char* what) {
  napi_value thrown = nullptr;
  if (take_exception(&thrown)) return describe_thrown(thrown, "threw");
  // No exception: Node is stopping and refuses to run JS.
  return Outcome::failure(std::string("Could not call ") + what + ": Node.js is shutting down", "");
}

// message: error.message (String(value) for anything that is not an Error-like object);
// debug: error.stack, the full text V8 and source maps produced.
Outcome Binding::describe_thrown(napi_value thrown, const char* how) {
  napi_valuetype type = napi_undefined;
  napi_typeof(env_, thrown, &type);
  if (type == napi_object || type == napi_function) {
    std::string message;
    std::string stack;
    const bool has_message = string_property(thrown, "message", &message);
    string_property(thrown, "stack", &stack);
    if (!has_message) message = non_error_message(thrown);
    return Outcome::failure(message, stack.empty() ? message : stack);
  }
  std::string message = non_error_message(thrown);
  return Outcome::failure(message, std::string(how) + " a value that is not an Error (no stack): " + message);
}

// As host.js's toError words it (sdk/src/host-runtime/host.ts), so a thrown string reads the same
// whether a hook threw it or its Promise rejected with it.
std::string Binding::non_error_message(napi_value value) {
  napi_valuetype type = napi_undefined;
  napi_typeof(env_, value, &type);
  std::string text;
  napi_value quoted = nullptr;
  if (type == napi_string &&
      napi_call_function(env_, json_.Value(), json_stringify_.Value(), 1, &value, &quoted) == napi_ok) {
    text = Napi::String(env_, quoted).Utf8Value();
  } else {
    text = display_string(value);
  }
  return "Element code threw a non-Error value: " + text;
}

// ---------------------------------------------------------------- the watchdog's tools

std::vector<JsFrame> Binding::capture_stack() {
  constexpr int kFrames = 12;
  v8::HandleScope scope(isolate_);
  std::vector<JsFrame> frames;
  v8::Local<v8::StackTrace> trace = v8::StackTrace::CurrentStackTrace(isolate_, kFrames, v8::StackTrace::kDetailed);
  for (int i = 0; i < trace->GetFrameCount(); ++i) {
    v8::Local<v8::StackFrame> frame = trace->GetFrame(isolate_, i);
    JsFrame out;
    v8::Local<v8::String> name = frame->GetFunctionName();
    if (!name.IsEmpty()) out.function = utf8(isolate_, name);
    v8::Local<v8::String> script = frame->GetScriptNameOrSourceURL();
    if (!script.IsEmpty()) out.script = utf8(isolate_, script);
    out.line = frame->GetLineNumber();
    out.column = frame->GetColumn();
    frames.push_back(std::move(out));
  }
  return frames;
}

// Through host.js's formatStack (source maps) when it has one; the plain frames otherwise.
std::string Binding::format_stack(const std::vector<JsFrame>& frames) {
  if (format_stack_.IsEmpty() || frames.empty()) return JsExecutor::format_stack(frames);
  v8::HandleScope scope(isolate_);
  v8::Local<v8::Context> context = isolate_->GetCurrentContext();
  v8::Local<v8::Array> array = v8::Array::New(isolate_, static_cast<int>(frames.size()));
  for (size_t i = 0; i < frames.size(); ++i) {
    v8::Local<v8::Object> frame = v8::Object::New(isolate_);
    const JsFrame& in = frames[i];
    bool ok = frame->Set(context, to_v8(Napi::String::New(env_, "function")), to_v8(Napi::String::New(env_, in.function))).IsJust() &&
              frame->Set(context, to_v8(Napi::String::New(env_, "script")), to_v8(Napi::String::New(env_, in.script))).IsJust() &&
              frame->Set(context, to_v8(Napi::String::New(env_, "line")), v8::Integer::New(isolate_, in.line)).IsJust() &&
              frame->Set(context, to_v8(Napi::String::New(env_, "column")), v8::Integer::New(isolate_, in.column)).IsJust() &&
              array->Set(context, static_cast<uint32_t>(i), frame).IsJust();
    if (!ok) return JsExecutor::format_stack(frames);
  }
  v8::TryCatch try_catch(isolate_);
  v8::Local<v8::Value> argv[] = {array};
  v8::Local<v8::Value> text;
  if (!format_stack_.Get(isolate_)->Call(context, handlers_object_.Get(isolate_), 1, argv).ToLocal(&text) ||
      !text->IsString()) {
    return JsExecutor::format_stack(frames);
  }
  return utf8(isolate_, text);
}

bool Binding::string_property(napi_value object, const char* name, std::string* text) {
  napi_value value = nullptr;
  if (napi_get_named_property(env_, object, name, &value) != napi_ok) {
    napi_value ignored;
    take_exception(&ignored);  // a throwing getter
    return false;
  }
  napi_valuetype type = napi_undefined;
  napi_typeof(env_, value, &type);
  if (type != napi_string) return false;
  *text = Napi::String(env_, value).Utf8Value();
  return true;
}

std::string Binding::display_string(napi_value value) {
  // The global String(), unlike napi_coerce_to_string, also converts Symbols.
  napi_value text = nullptr;
  if (napi_call_function(env_, env_.Undefined(), string_.Value(), 1, &value, &text) != napi_ok) {
    napi_value ignored;
    take_exception(&ignored);
    return "(a value that cannot be converted to a string)";
  }
  return Napi::String(env_, text).Utf8Value();
}

std::string Binding::received(Napi::Value value) {
  if (value.IsFunction()) return "a function";
  if (value.IsObject()) return "an object";
  if (value.IsString()) return "\"" + value.As<Napi::String>().Utf8Value() + "\"";
  return display_string(value);
}

void Binding::throw_type_error(const std::string& message) {
  Napi::TypeError::New(env_, message).ThrowAsJavaScriptException();
}

}  // namespace
}  // namespace dsnode

static Napi::Object InitBinding(Napi::Env env, Napi::Object exports) {
  // One per napi_env (a second process.dlopen gets its own); the last setHandlers wins.
  env.SetInstanceData<dsnode::Binding>(new dsnode::Binding(env, exports));
  return exports;
}

// Registers through the exported napi_register_module_v1 symbol, which Node looks up after
// process.dlopen(); no static constructor, since this library is loaded before Node exists.
NODE_API_MODULE(dsnode_runtime, InitBinding)
