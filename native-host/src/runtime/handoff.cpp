#include "runtime/handoff.h"
#include "runtime/cpu_relax.h"

#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <utility>

#include <glib.h>
#include <gst/gst.h>
#include <sched.h>

#include "meta/batch.h"
#include "runtime/watchdog.h"

namespace dsnode {
namespace {

inline int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}


// Spins until done() or the budget (from `since_ns`) runs out. After a first stretch of pure
// spinning (the common case: the other thread runs on another core and answers in a
// microsecond or two) it yields the core every couple of microseconds: the scheduler likes to
// wake a thread on its waker's core, so the thread we wait for may be queued behind us on this
// very core, and a pure spin would keep it off the CPU until the budget ran out.
template <typename Done>
bool spin_until(Done done, int64_t since_ns, int64_t budget_ns) {
  constexpr int64_t kPureSpinNs = 10000;
  constexpr int64_t kYieldEveryNs = 2000;
  int64_t last_yield_ns = since_ns + kPureSpinNs - kYieldEveryNs;
  for (;;) {
    if (done()) return true;
    int64_t now = now_ns();
    if (now - since_ns >= budget_ns) return false;
    if (now - last_yield_ns >= kYieldEveryNs) {
      sched_yield();
      last_yield_ns = now;
    } else {
      cpu_relax();
    }
  }
}

// How long the JS thread serves calls in one go before it lets its loop take a turn.
constexpr int64_t kDrainSliceNs = 2000000;

// A thread's direct calls, in one thread_local: in a dlopen'ed library each one is a call to
// __tls_get_addr, and the per-buffer path reads this several times.
struct DirectThread {
  int depth = 0;                 // direct calls this thread is inside (a host callback may re-enter)
  const Call* call = nullptr;    // the blocking call it runs directly, and waits for
};
thread_local DirectThread t_direct;

constexpr char kNotCalledFlushing[] = "transform() was not called: the element is flushing";

// The call as the element's author knows it, for the messages of abandoned calls.
std::string hook_name(CallKind kind) {
  switch (kind) {
    case CallKind::kCreate: return "loading the element (its bundle and constructor)";
    case CallKind::kStart: return "start()";
    case CallKind::kStop: return "stop()";
    case CallKind::kCaps: return "onCaps()";
    case CallKind::kEvent: return "onEvent()";
    case CallKind::kProperty: return "onPropertyChange()";
    case CallKind::kTransform: return "transform()";
    case CallKind::kDestroy: return "destroying the element";
  }
  return "?";
}

// What a call was about, for the messages of abandoned calls: " on the buffer with pts …
// (frame n)", " (event eos)", " (property name)"; empty for the others.
std::string describe_call_subject(const Call& call) {
  switch (call.kind) {
    case CallKind::kTransform: {
      std::string text = " on the buffer with pts ";
      if (call.buffer != nullptr && GST_BUFFER_PTS_IS_VALID(call.buffer)) {
        char pts[64];
        std::snprintf(pts, sizeof pts, "%" GST_TIME_FORMAT, GST_TIME_ARGS(GST_BUFFER_PTS(call.buffer)));
        text += pts;
      } else {
        text += "none";
      }
      const auto* batch = static_cast<const meta::Batch*>(call.batch);
      const uint32_t frames = batch != nullptr ? batch->num_frames() : 0;
      if (frames > 0) {
        text += frames == 1 ? " (frame " : " (frames ";
        for (uint32_t i = 0; i < frames && i < 8; ++i) {
          meta::FrameFields fields;
          batch->read_frame(batch->frame_at(i), &fields);
          text += (i > 0 ? ", " : "") + std::to_string(fields.frame_num);
          if (frames > 1) text += " of source " + std::to_string(fields.source_id);
        }
        text += frames > 8 ? ", …)" : ")";
      }
      return text;
    }
    case CallKind::kEvent: {
      // The event JSON is {"structure": …, "type":"<type>"} (gst/json_values.cpp, keys sorted):
      // the last "type" is the event's.
      const std::string key = "\"type\":\"";
      const size_t at = call.text_a.rfind(key);
      if (at == std::string::npos) return "";
      const size_t end = call.text_a.find('"', at + key.size());
      return " (event " + call.text_a.substr(at + key.size(), end - at - key.size()) + ")";
    }
    case CallKind::kProperty:
      return " (property " + call.text_a + ")";
    default:
      return "";
  }
}

// The instance's call deadline in seconds, as every deadline message writes it ("2", "0.5").
std::string deadline_seconds(const Instance& instance) {
  char seconds[32];
  std::snprintf(seconds, sizeof seconds, "%g", static_cast<double>(instance.timeout_ns() / 1000000) / 1000);
  return seconds;
}

// " (calls into JavaScript have a deadline of 2 s: …)", the end of every deadline message.
std::string deadline_advice(const Instance& instance) {
  return " (calls into JavaScript have a deadline of " + deadline_seconds(instance) +
         " s: set callTimeoutSeconds in Element.define(), or DS_ELEMENT_CALL_TIMEOUT_S; 0 = none)";
}

// The debug text of JavaScript that was interrupted: where it was (formatted), or that it is unknown.
std::string running_at(const std::string& where) {
  return where.empty() ? "JavaScript was running; where could not be told." : "JavaScript was running at:\n" + where;
}

}  // namespace

const char* handler_name(CallKind kind) {
  switch (kind) {
    case CallKind::kCreate: return "create";
    case CallKind::kStart: return "start";
    case CallKind::kStop: return "stop";
    case CallKind::kCaps: return "caps";
    case CallKind::kEvent: return "event";
    case CallKind::kProperty: return "property";
    case CallKind::kTransform: return "transform";
    case CallKind::kDestroy: return "destroy";
  }
  return "?";
}

Handoff& Handoff::get() {
  // Never destroyed: the JS thread and atexit teardown may use it after static destructors.
  static Handoff* handoff = new Handoff();
  return *handoff;
}

void Handoff::configure(const SpinSettings& settings, std::string host_js_path) {
  settings_ = settings;
  host_js_path_ = std::move(host_js_path);
}

// ---------------------------------------------------------------- lifecycle (JS thread)

bool Handoff::attach(uv_loop_t* loop, void (*on_stop)(void*), void* stop_data, std::string* error) {
  int rc = uv_async_init(loop, &wake_, &Handoff::on_wake);
  if (rc != 0) {
    *error = std::string("uv_async_init failed: ") + uv_strerror(rc);
    return false;
  }
  wake_.data = this;
  wake_open_ = true;
  // A loop turn is progress: JavaScript that runs through none is stuck (on_interrupt).
  if (uv_check_init(loop, &check_) == 0) {
    check_.data = this;
    uv_check_start(&check_, &Handoff::on_check);
    uv_unref(reinterpret_cast<uv_handle_t*>(&check_));
    check_open_ = true;
  }
  js_thread_ = std::this_thread::get_id();
  on_stop_ = on_stop;
  stop_data_ = stop_data;
  return true;
}

void Handoff::open() {
  std::lock_guard<std::mutex> lock(mutex_);
  state_.store(State::kOpen, std::memory_order_release);
}

void Handoff::refuse(std::string message, std::string debug) {
  std::lock_guard<std::mutex> lock(mutex_);
  refusal_message_ = std::move(message);
  refusal_debug_ = std::move(debug);
  state_.store(State::kRefused, std::memory_order_release);
}

bool Handoff::request_stop() {
  stop_requested_.store(true);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    State state = state_.load();
    if (state != State::kOpen && state != State::kRefused) return false;
    senders_.fetch_add(1);
  }
  uv_async_send(&wake_);
  senders_.fetch_sub(1);
  return true;
}

void Handoff::on_check(uv_check_t* handle) { static_cast<Handoff*>(handle->data)->advance_progress(); }

void Handoff::stop_on_js_thread() {
  fail_everything("Node.js is shutting down with the host process");
  if (check_open_) {
    uv_close(reinterpret_cast<uv_handle_t*>(&check_), nullptr);
    check_open_ = false;
  }
  if (wake_open_) {
    // fail_everything() closed the door; wait out callers that were between the door and
    // uv_async_send before the handle goes away.
    while (senders_.load() != 0) cpu_relax();
    uv_close(reinterpret_cast<uv_handle_t*>(&wake_), nullptr);
    wake_open_ = false;
  }
  if (on_stop_ != nullptr) on_stop_(stop_data_);
}

void Handoff::close_after_loop(uv_loop_t* loop, const std::string& reason) {
  fail_everything(reason);
  if (check_open_) {
    uv_close(reinterpret_cast<uv_handle_t*>(&check_), nullptr);
    check_open_ = false;
  }
  if (wake_open_) {
    while (senders_.load() != 0) cpu_relax();
    uv_close(reinterpret_cast<uv_handle_t*>(&wake_), nullptr);
    wake_open_ = false;
    // The loop is about to be closed; it refuses while a closing handle is pending.
    uv_run(loop, UV_RUN_NOWAIT);
  }
  executor_ = nullptr;
}

void Handoff::set_executor(JsExecutor* executor) { executor_ = executor; }

bool Handoff::in_direct_call() { return t_direct.depth > 0; }

void Handoff::wait_for_direct_callers() {
  // state_ is no longer kOpen (shut_door): callers that come now turn back before the Locker.
  while (direct_users_.load() != 0) sched_yield();
}

void Handoff::clear_executor(JsExecutor* executor) {
  if (executor_ == executor) executor_ = nullptr;
}

// ---------------------------------------------------------------- callers

bool Handoff::unavailable(Outcome* outcome) {
  State state = state_.load(std::memory_order_acquire);
  if (state == State::kOpen) return false;
  if (state == State::kClosed) {
    *outcome = Outcome::failure(
        "The ds-element runtime is not running (ensure_started has not succeeded)", "");
    return true;
  }
  std::lock_guard<std::mutex> lock(mutex_);
  *outcome = Outcome::failure(refusal_message_, refusal_debug_);
  return true;
}

void Handoff::call(Call& call) {
  if (unavailable(&call.outcome)) return;
  if (std::this_thread::get_id() == js_thread_) {
    // e.g. a host callback that re-enters the API: the JS thread would wait for itself.
    call.outcome = Outcome::failure(
        std::string("A blocking runtime call (") + handler_name(call.kind) +
            ") was made on the JS thread itself, which would wait for itself forever",
        "");
    return;
  }
  if (lock_host_ != nullptr) return call_direct(call);
  // The queue hand-off's spin policies feed on these times; the direct one needs no clock.
  call.submitted_ns = now_ns();
  if (int64_t last = call.instance->last_return_ns().load(std::memory_order_relaxed); last != 0) {
    call.think_ns = call.submitted_ns - last;
  }
  call.instance->ref();
  bool queued = false;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (state_.load(std::memory_order_relaxed) == State::kOpen) {
      call.instance->waiting_for_isolate.fetch_add(1, std::memory_order_relaxed);
      incoming_.push_back(&call);
      queued_.fetch_add(1);
      senders_.fetch_add(1);
      queued = true;
    }
  }
  if (!queued) {
    unavailable(&call.outcome);
    call.instance->unref();
    return;
  }
  // seq_cst on both sides: we bump queued_ then read js_awake_; the JS thread clears
  // js_awake_ then re-reads queued_. One of us sees the other.
  if (!js_awake_.load()) {
    uv_async_send(&wake_);
    statistics_.wakeups_sent.fetch_add(1, std::memory_order_relaxed);
  }
  senders_.fetch_sub(1);
  wait(call);
  call.instance->last_return_ns().store(now_ns(), std::memory_order_relaxed);
  call.instance->unref();
}

void Handoff::wait(Call& call) {
  const int64_t max_spin_ns = settings_.caller_spin_ns;
  CallerSpin& spin = call.instance->spin();
  const int64_t budget = spin.budget_ns(max_spin_ns);
  bool done = false;
  bool spun = false;
  if (budget > 0) {
    if (spinning_callers_.fetch_add(1) < settings_.max_spinning_callers) {
      spun = true;
      done = spin_until([&call] { return call.completion.done(); }, call.submitted_ns, budget);
    }
    spinning_callers_.fetch_sub(1);
  }
  if (done) {
    call.completion.settle();
    statistics_.caller_spin_hits.fetch_add(1, std::memory_order_relaxed);
  } else {
    call.completion.block();
    statistics_.caller_sleeps.fetch_add(1, std::memory_order_relaxed);
  }
  spin.record(spun, done, call.service_ns, max_spin_ns);
}

void Handoff::call_direct(Call& call) {
  DirectThread& direct = t_direct;
  if (direct.depth > 0) {
    // A host callback (log, post_error) that re-enters the API from inside JS: this thread
    // holds the Locker, and the call would queue behind the one it is part of.
    call.outcome = Outcome::failure(
        std::string("A blocking runtime call (") + handler_name(call.kind) +
            ") was made from inside a JavaScript call on the same thread, which would wait "
            "for itself forever",
        "");
    return;
  }
  // seq_cst, pairs with shut_door() + wait_for_direct_callers(): either we see the door
  // closed, or the JS thread waits for us before the isolate goes.
  direct_users_.fetch_add(1);
  if (state_.load() != State::kOpen) {
    direct_users_.fetch_sub(1);
    unavailable(&call.outcome);
    return;
  }
  call.instance->ref();
  ++direct.depth;
  direct.call = &call;
  // A transform waiting for the isolate gives up when its element starts flushing (set_flushing).
  const std::atomic<bool>* abandon = call.kind == CallKind::kTransform ? &call.instance->flushing : nullptr;
  call.instance->waiting_for_isolate.fetch_add(1, std::memory_order_relaxed);
  const bool ran = lock_host_->run_locked(&Handoff::run_direct, &call, call.instance, abandon);
  const bool completed_here = direct.call == nullptr;  // finish() took it
  direct.call = nullptr;
  --direct.depth;
  if (settings_.statistics) statistics_.direct_calls.fetch_add(1, std::memory_order_relaxed);
  direct_users_.fetch_sub(1);
  if (!ran) {
    call.instance->waiting_for_isolate.fetch_sub(1, std::memory_order_relaxed);
    call.outcome = Outcome::failure(kNotCalledFlushing, "");
    call.instance->unref();
    return;
  }
  // Done unless it returned a Promise or queued behind a call of its instance that had not
  // finished; then the thread that settles it signals (the Locker is released by now).
  if (completed_here) {
    // Signalled on this very thread, without the Completion's mutex: nothing to settle.
  } else if (call.completion.done()) {
    call.completion.settle();
  } else {
    call.completion.block();
    statistics_.direct_waits.fetch_add(1, std::memory_order_relaxed);
  }
  call.instance->unref();
}

// Under the Locker, on the caller's thread.
void Handoff::run_direct(void* data) {
  Handoff& handoff = get();
  Call& call = *static_cast<Call*>(data);
  if (handoff.resume_pending_) handoff.resume_after_outside_termination();
  if (handoff.state_.load() != State::kOpen) {
    // Stopped while we waited for the Locker.
    call.instance->waiting_for_isolate.fetch_sub(1, std::memory_order_relaxed);
    handoff.unavailable(&call.outcome);
    call.completion.signal();
    return;
  }
  if (handoff.executor_ != nullptr) {
    if (call.kind == CallKind::kTransform && handoff.queued_.load() == 0) {
      handoff.executor_->run_unscoped(&Handoff::route_direct, &call);
    } else {
      handoff.executor_->run_in_js_scope(&Handoff::route_direct, &call);
    }
  } else {
    route_direct(&call);
  }
}

void Handoff::route_direct(void* data) {
  Handoff& handoff = get();
  Call& call = *static_cast<Call*>(data);
  // Whatever was queued before this call (a property change, a destroy, a call of another
  // instance) is routed first, as the JS thread would have; per instance, order holds.
  if (handoff.queued_.load() > 0) {
    std::lock_guard<std::mutex> lock(handoff.mutex_);
    for (Call* queued : handoff.incoming_) handoff.batch_.push_back(queued);
    handoff.incoming_.clear();
    handoff.queued_.store(0);
  }
  handoff.advance_progress();
  route_batch(&handoff);
  handoff.route(&call);
}

void Handoff::post(Call* call) {
  call->submitted_ns = now_ns();
  Outcome refused;
  bool queued = false;
  if (!unavailable(&refused)) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (state_.load(std::memory_order_relaxed) == State::kOpen) {
      call->instance->waiting_for_isolate.fetch_add(1, std::memory_order_relaxed);
      incoming_.push_back(call);
      queued_.fetch_add(1);
      senders_.fetch_add(1);
      queued = true;
    }
  }
  if (!queued) {
    // Nothing will run it; a property that cannot be applied is still worth a warning.
    if (call->kind == CallKind::kProperty) {
      g_warning("dsnode: property %s of %s not applied: the runtime is not running",
          call->text_a.c_str(), call->instance->element_name().c_str());
    }
    Instance* instance = call->instance;
    delete call;
    instance->unref();
    return;
  }
  if (!js_awake_.load()) {
    uv_async_send(&wake_);
    statistics_.wakeups_sent.fetch_add(1, std::memory_order_relaxed);
  }
  senders_.fetch_sub(1);
}

// ---------------------------------------------------------------- JS thread

void Handoff::on_wake(uv_async_t* handle) {
  auto* handoff = static_cast<Handoff*>(handle->data);
  ++handoff->statistics_.wakes;
  handoff->drain();
}

void Handoff::drain() {
  // Direct mode: the JS thread holds the Locker here, and spinning would keep callers out.
  const int64_t max_js_spin_ns = lock_host_ != nullptr ? 0 : settings_.js_spin_ns;
  js_awake_.store(true);
  bool worked = false;
  const int64_t slice_end_ns = now_ns() + kDrainSliceNs;
  for (;;) {
    if (worked && now_ns() >= slice_end_ns) {
      // Back to the loop for a turn (timers, I/O) while calls keep coming: a busy pipeline
      // would otherwise keep the JS thread here and its setTimeout/setInterval waiting.
      js_awake_.store(false);
      uv_async_send(&wake_);
      break;
    }
    if (stop_requested_.load()) {
      js_awake_.store(false);
      stop_on_js_thread();
      return;
    }
    advance_progress();
    settle_expiries();
    {
      std::lock_guard<std::mutex> lock(mutex_);
      batch_.swap(incoming_);
      queued_.store(0);
    }
    if (batch_.empty()) {
      if (worked && spin_for_work(js_spin_.budget_ns(max_js_spin_ns))) continue;
      js_awake_.store(false);
      if (queued_.load() == 0) break;
      js_awake_.store(true);  // a caller saw us awake just before we left
      continue;
    }
    if (!worked) js_spin_.record_wake(batch_.front()->think_ns, max_js_spin_ns);
    worked = true;
    if (executor_ != nullptr) {
      executor_->run_in_js_scope(&Handoff::route_batch, this);
    } else {
      route_batch(this);
    }
  }
}

bool Handoff::spin_for_work(int64_t budget_ns) {
  if (budget_ns <= 0) return false;
  bool found = spin_until(
      [this] {
        return queued_.load(std::memory_order_relaxed) > 0 ||
               stop_requested_.load(std::memory_order_relaxed);
      },
      now_ns(), budget_ns);
  js_spin_.record_spin(found, settings_.js_spin_ns);
  ++(found ? statistics_.js_spin_hits : statistics_.js_spin_misses);
  return found;
}

void Handoff::print_statistics() const {
  const Statistics& s = statistics_;
  std::fprintf(stderr,
      "dsnode hand-off: caller spin hits %llu, caller sleeps %llu, wake-ups sent %llu, "
      "JS wakes %llu, JS spin hits %llu, JS spin misses %llu, direct calls %llu, "
      "direct waits %llu\n",
      static_cast<unsigned long long>(s.caller_spin_hits.load()),
      static_cast<unsigned long long>(s.caller_sleeps.load()),
      static_cast<unsigned long long>(s.wakeups_sent.load()),
      static_cast<unsigned long long>(s.wakes), static_cast<unsigned long long>(s.js_spin_hits),
      static_cast<unsigned long long>(s.js_spin_misses),
      static_cast<unsigned long long>(s.direct_calls.load()),
      static_cast<unsigned long long>(s.direct_waits.load()));
}

void Handoff::route_batch(void* self) {
  auto* handoff = static_cast<Handoff*>(self);
  // Not a range-for: a handler could re-enter drain() through a nested event loop, and the
  // batch must survive that.
  while (!handoff->batch_.empty()) {
    Call* call = handoff->batch_.front();
    handoff->batch_.pop_front();
    handoff->route(call);
  }
}

void Handoff::route(Call* call) {
  Instance* instance = call->instance;
  instance->waiting_for_isolate.fetch_sub(1, std::memory_order_relaxed);
  if (call->kind == CallKind::kCreate && !instance->registered) {
    instance->ref();
    instance->registered = true;
    instances_[instance->id()] = instance;
  }
  instance->queue.push_back(call);
  if (!instance->pumping) pump(instance);
}

void Handoff::pump(Instance* instance) {
  instance->ref();
  instance->pumping = true;
  while (instance->running == nullptr && !instance->queue.empty()) {
    Call* call = instance->queue.front();
    instance->queue.pop_front();
    instance->running = call;
    call->sequence = next_sequence_++;
    advance_progress();
    // seq_cst, pairs with set_flushing (Instance::running_sequence).
    instance->running_sequence.store(call->sequence);
    if (call->kind == CallKind::kTransform && instance->flushing.load()) {
      complete(*call, Outcome::failure(kNotCalledFlushing, ""));
      continue;
    }
    if (lock_host_ == nullptr) call->started_ns = now_ns();
    if (executor_ == nullptr) {
      complete(*call, Outcome::failure(
          "host.js did not install the runtime's handlers (native.setHandlers was never called)",
          "host.js: " + host_js_path_));
      continue;
    }
    Instance* outer = executing_;
    executing_ = instance;
    executor_->start(*call);
    executing_ = outer;
  }
  instance->pumping = false;
  instance->unref();
}

void Handoff::complete(Call& call, Outcome outcome) {
  Instance* instance = call.instance;
  if (instance->running != &call) {
    g_critical("dsnode: completion of a %s call that is not running on instance %d",
        handler_name(call.kind), instance->id());
    return;
  }
  instance->ref();
  instance->running = nullptr;
  instance->running_sequence.store(0, std::memory_order_relaxed);
  if (lock_host_ == nullptr) call.service_ns = now_ns() - call.started_ns;
  const CallKind kind = call.kind;
  if (kind == CallKind::kTransform && executor_ != nullptr) executor_->end_transform(call);
  finish(call, std::move(outcome));  // `call` may be gone from here on
  if (kind == CallKind::kDestroy && instance->registered) {
    instances_.erase(instance->id());
    instance->registered = false;
    Watchdog::get().forget(instance);
    while (!instance->queue.empty()) {
      Call* late = instance->queue.front();
      instance->queue.pop_front();
      finish(*late, Outcome::failure("The element instance was already destroyed", ""));
    }
    instance->unref();  // the registry's reference
  }
  if (!instance->pumping) pump(instance);
  instance->unref();
}

void Handoff::complete_if_running(int instance_id, uint64_t sequence, Outcome outcome) {
  Instance* instance = find_instance(instance_id);
  if (instance == nullptr || instance->running == nullptr ||
      instance->running->sequence != sequence) {
    return;
  }
  complete(*instance->running, std::move(outcome));
}

void Handoff::finish(Call& call, Outcome outcome) {
  if (call.blocking) {
    call.outcome = std::move(outcome);
    if (&call == t_direct.call) {
      t_direct.call = nullptr;
      call.completion.signal_on_waiting_thread();
    } else {
      call.completion.signal();
    }
    return;
  }
  Instance* instance = call.instance;
  if (!outcome.ok) {
    if (call.kind == CallKind::kDestroy || !instance->post_error(outcome.message.c_str(),
                                                                 outcome.debug.c_str())) {
      g_warning("dsnode: %s(%d) of %s failed: %s\n%s", handler_name(call.kind), instance->id(),
          instance->element_name().c_str(), outcome.message.c_str(), outcome.debug.c_str());
    }
  }
  delete &call;
  instance->unref();
}

void Handoff::fail_everything(const std::string& reason) {
  std::deque<Call*> orphans;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    refusal_message_ = "The Node.js runtime has stopped: " + reason;
    refusal_debug_.clear();
    state_.store(State::kStopped, std::memory_order_release);
    orphans.swap(incoming_);
    queued_.store(0);
  }
  const Outcome stopped = Outcome::failure("The Node.js runtime has stopped: " + reason, "");
  // Waiting callers get the failure; queued property changes and destroys have nobody to
  // tell (at process exit they are expected), so they are dropped quietly.
  auto abandon = [&stopped](Call* call) {
    if (call->blocking) {
      call->outcome = stopped;
      call->completion.signal();
    } else {
      Instance* instance = call->instance;
      delete call;
      instance->unref();
    }
  };
  for (Call* call : batch_) orphans.push_back(call);
  batch_.clear();
  for (Call* call : orphans) abandon(call);
  {
    std::lock_guard<std::mutex> lock(expiry_mutex_);
    expiries_.clear();
    yields_.clear();
    release_helds();
    for (HeldTermination& termination : held_terminations_) termination.waiter->unref();
    held_terminations_.clear();
    expiries_pending_.store(0);
  }
  interrupter_.store(nullptr);
  std::map<int, Instance*> instances;
  instances.swap(instances_);
  for (auto& entry : instances) {
    Instance* instance = entry.second;
    Watchdog::get().forget(instance);
    if (instance->running != nullptr) {
      Call* running = instance->running;
      instance->running = nullptr;
      abandon(running);
    }
    while (!instance->queue.empty()) {
      Call* call = instance->queue.front();
      instance->queue.pop_front();
      abandon(call);
    }
    instance->registered = false;
    instance->unref();
  }
  executing_ = nullptr;
}

Instance* Handoff::find_instance(int id) {
  auto it = instances_.find(id);
  return it == instances_.end() ? nullptr : it->second;
}

std::vector<int> Handoff::live_instance_ids() {
  std::vector<int> ids;
  for (auto& entry : instances_) {
    if (entry.second->has_element()) ids.push_back(entry.first);
  }
  return ids;
}

void Handoff::post_error_to_owners(const char* message, const char* debug) {
  if (executing_ != nullptr && executing_->post_error(message, debug)) return;
  bool posted = false;
  for (auto& entry : instances_) posted |= entry.second->post_error(message, debug);
  if (!posted) g_warning("dsnode: %s\n%s", message, debug);
}

// ---------------------------------------------------------------- abandoning calls

std::string JsExecutor::format_stack(const std::vector<JsFrame>& frames) {
  std::string text;
  for (const JsFrame& frame : frames) {
    text += "    at " + (frame.function.empty() ? std::string("<anonymous>") : frame.function) + " (" +
            frame.script + ":" + std::to_string(frame.line) + ":" + std::to_string(frame.column) + ")\n";
  }
  return text;
}

void Handoff::wake_js_thread() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (state_.load(std::memory_order_relaxed) != State::kOpen) return;
    senders_.fetch_add(1);
  }
  uv_async_send(&wake_);
  senders_.fetch_sub(1);
}

void Handoff::expire(Instance* instance, uint64_t sequence, ExpiryReason reason) {
  if (sequence == 0) {
    if (expiries_pending()) Watchdog::get().follow_up();  // (yield requests)
    return;
  }
  const int64_t now = now_ns();
  {
    std::lock_guard<std::mutex> lock(expiry_mutex_);
    auto it = std::find_if(expiries_.begin(), expiries_.end(), [&](const Expiry& expiry) {
      return expiry.instance_id == instance->id() && expiry.sequence == sequence;
    });
    if (it == expiries_.end()) {
      Expiry expiry;
      expiry.instance_id = instance->id();
      expiry.sequence = sequence;
      expiry.reason = reason;
      expiry.terminate_from_ns = reason == ExpiryReason::kTimeout ? now : now + kFlushGraceNs;
      expiries_.push_back(std::move(expiry));
    } else if (reason == ExpiryReason::kTimeout) {
      it->reason = reason;  // a flush waiting out its grace, and the deadline passed meanwhile
      it->terminate_from_ns = std::min(it->terminate_from_ns, now);
    }
    update_pending();
  }
  Watchdog::get().follow_up();
  nudge();
}

void Handoff::flush(Instance* instance) {
  {
    std::lock_guard<std::mutex> lock(expiry_mutex_);
    const bool known = std::any_of(yields_.begin(), yields_.end(),
        [&](const YieldRequest& request) { return request.instance_id == instance->id(); });
    if (!known) yields_.push_back(YieldRequest{instance->id()});
    update_pending();
  }
  expire(instance, instance->running_sequence.load(), ExpiryReason::kFlushing);
  // Its transform calls that wait for the isolate behind other JavaScript must not wait for it:
  // direct callers give up at the gate; queued ones the JS thread has not taken yet are failed.
  if (lock_host_ != nullptr) {
    lock_host_->wake_waiters();
    return;
  }
  std::vector<Call*> released;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    for (auto it = incoming_.begin(); it != incoming_.end();) {
      if ((*it)->instance == instance && (*it)->kind == CallKind::kTransform && (*it)->blocking) {
        released.push_back(*it);
        it = incoming_.erase(it);
        queued_.fetch_sub(1);
      } else {
        ++it;
      }
    }
  }
  for (Call* call : released) {
    call->instance->waiting_for_isolate.fetch_sub(1, std::memory_order_relaxed);
    call->outcome = Outcome::failure(kNotCalledFlushing, "");
    call->completion.signal();
  }
}

void Handoff::nudge() {
  if (expiries_pending_.load() == 0) return;
  wake_js_thread();
  if (JsInterrupter* interrupter = interrupter_.load()) interrupter->request_interrupt();
}

void Handoff::on_interrupt() {
  if (termination_.active || executor_ == nullptr) return;
  const int64_t now = now_ns();
  std::lock_guard<std::mutex> lock(expiry_mutex_);
  for (Expiry& expiry : expiries_) {
    if (now < expiry.terminate_from_ns || expiry.terminated_outside) continue;
    if (executing_ != nullptr) {
      // A handler is on the stack: if it is the expired call's, its JavaScript ends here.
      // Another element's call is left to its own deadline.
      Call* running = executing_->running;
      if (executing_->id() != expiry.instance_id || running == nullptr ||
          running->sequence != expiry.sequence) {
        continue;
      }
      termination_ = Termination{true, expiry.instance_id, expiry.sequence, false, expiry.reason, 0,
          executor_->capture_stack(), "", 0};
      terminate_javascript();
      return;
    }
    // JavaScript outside any call (a timer, a Promise reaction) while the expired call waits:
    // maybe the call's own continuation, maybe not; stuck, it keeps every call from settling.
    // Guarded JavaScript (begin_guard) is left to its own deadline.
    if (guard_instance_ != nullptr) continue;
    if (!expiry.marked || expiry.progress_mark != progress()) {
      expiry.marked = true;
      expiry.progress_mark = progress();
      expiry.mark_ns = now;
      continue;
    }
    if (now - expiry.mark_ns < kStuckGraceNs) continue;
    expiry.terminated_outside = true;
    expiry.stack = executor_->capture_stack();
    terminate_javascript();
    return;
  }
  if (executing_ == nullptr && terminate_guarded()) return;
  if (executing_ == nullptr && guard_instance_ == nullptr && terminate_held(now)) {
    terminate_javascript();
    return;
  }
  if (yield_isolate(now)) terminate_javascript();
}

// Under the Locker: whether a call of `instance` waits to get to JavaScript (direct: a caller
// at the isolate's gate; queued: in the queue, the JS thread's batch, or the instance's queue).
bool Handoff::waits_for_isolate(Instance* instance) {
  if (lock_host_ != nullptr) return lock_host_->waiting(instance);
  if (!instance->queue.empty()) return true;
  auto of_instance = [instance](const Call* call) { return call->instance == instance; };
  if (std::any_of(batch_.begin(), batch_.end(), of_instance)) return true;
  std::lock_guard<std::mutex> lock(mutex_);
  return std::any_of(incoming_.begin(), incoming_.end(), of_instance);
}

void Handoff::update_pending() {
  expiries_pending_.store(static_cast<int>(expiries_.size() + yields_.size() + helds_.size() + (guard_expired_ ? 1 : 0)));
}

// With expiry_mutex_ held, inside JavaScript: true (termination_ set, or JavaScript outside any
// call to be terminated) when a flushing element's call has waited kYieldGraceNs for the isolate
// while this JavaScript held it without the runtime seeing any progress.
bool Handoff::yield_isolate(int64_t now) {
  for (auto it = yields_.begin(); it != yields_.end();) {
    Instance* waiter = find_instance(it->instance_id);
    if (waiter == nullptr || !waiter->flushing.load()) {
      it = yields_.erase(it);
      update_pending();
      continue;
    }
    YieldRequest& request = *it++;
    if (executing_ == waiter || !waits_for_isolate(waiter)) {
      request.marked = false;
      continue;
    }
    if (!request.marked || request.progress_mark != progress()) {
      request.marked = true;
      request.progress_mark = progress();
      request.mark_ns = now;
      continue;
    }
    if (now - request.mark_ns < kYieldGraceNs) continue;
    request.marked = false;
    Call* running = executing_ != nullptr ? executing_->running : nullptr;
    if (running != nullptr) {
      termination_ = Termination{true, executing_->id(), running->sequence, false, ExpiryReason::kYield, 0,
          executor_->capture_stack(), waiter->object_name(), now - request.mark_ns};
    } else {
      g_warning("dsnode: JavaScript outside any call kept the runtime for %.1f s while %s was stopping; it was interrupted",
          (now - request.mark_ns) / 1e9, waiter->object_name().c_str());
      resume_pending_ = true;
    }
    return true;
  }
  return false;
}

// ---------------------------------------------------------------- JavaScript outside any call

std::string Handoff::formatted(const std::vector<JsFrame>& stack) {
  return stack.empty() || executor_ == nullptr ? std::string() : executor_->format_stack(stack);
}

void Handoff::release_helds() {
  for (HeldRequest& request : helds_) request.waiter->unref();
  helds_.clear();
}

void Handoff::isolate_held(Instance* waiter, uint64_t progress_mark, int64_t since_ns) {
  {
    std::lock_guard<std::mutex> lock(expiry_mutex_);
    const bool known = std::any_of(helds_.begin(), helds_.end(),
        [&](const HeldRequest& request) { return request.waiter == waiter && request.progress_mark == progress_mark; });
    if (known || progress() != progress_mark) return;
    waiter->ref();
    helds_.push_back(HeldRequest{waiter, progress_mark, since_ns});
    update_pending();
  }
  Watchdog::get().follow_up();
  nudge();
}

// With expiry_mutex_ held, inside JavaScript that no call's handler runs: true (the termination
// recorded, to be posted once the isolate is resumed) when a waiter of isolate_held() still waits
// and the runtime has not regained control since the watchdog saw it wait.
bool Handoff::terminate_held(int64_t now) {
  bool terminate = false;
  for (HeldRequest& request : helds_) {
    if (terminate || request.progress_mark != progress() || !waits_for_isolate(request.waiter)) {
      request.waiter->unref();
      continue;
    }
    held_terminations_.push_back(HeldTermination{request.waiter, now - request.since_ns, executor_->capture_stack()});
    terminate = true;
  }
  helds_.clear();
  update_pending();
  if (terminate) resume_pending_ = true;
  return terminate;
}

// Under the Locker, outside JavaScript, after on_interrupt terminated JavaScript outside any call:
// JavaScript may run again, and the waiters it held learn why they waited.
void Handoff::resume_after_outside_termination() {
  resume_pending_ = false;
  if (executor_ != nullptr) executor_->resume();
  std::vector<HeldTermination> terminations;
  {
    std::lock_guard<std::mutex> lock(expiry_mutex_);
    terminations.swap(held_terminations_);
  }
  for (HeldTermination& termination : terminations) {
    char held[32];
    std::snprintf(held, sizeof held, "%.1f", static_cast<double>(termination.held_ns) / 1e9);
    const std::string message = std::string("JavaScript outside any call (a timer, an immediate or a Promise reaction) kept the runtime for ") +
        held + " s without returning while the element waited to call into it: it was interrupted" + deadline_advice(*termination.waiter);
    const std::string debug = running_at(formatted(termination.stack));
    termination.waiter->post_error(message.c_str(), debug.c_str());
    termination.waiter->unref();
  }
}

bool Handoff::begin_guard(Instance* instance) {
  if (instance == nullptr || instance->timeout_ns() <= 0 || executing_ != nullptr || guard_instance_ != nullptr) return false;
  instance->ref();
  advance_progress();  // calls waiting from before get the guard's deadline too
  {
    std::lock_guard<std::mutex> lock(expiry_mutex_);
    guard_instance_ = instance;
    guard_started_ns_ = now_ns();
    guard_expired_ = false;
  }
  guard_terminated_ = false;
  Watchdog::get().follow_up();
  return true;
}

bool Handoff::end_guard(std::string* message, std::string* debug) {
  Instance* instance = guard_instance_;
  advance_progress();  // the runtime has control: what waited meanwhile starts its wait afresh
  {
    std::lock_guard<std::mutex> lock(expiry_mutex_);
    guard_instance_ = nullptr;
    guard_started_ns_ = 0;
    guard_expired_ = false;
    update_pending();
  }
  const bool terminated = guard_terminated_;
  guard_terminated_ = false;
  if (terminated) {
    // Cancelled with JavaScript frames still on the stack: they resume with the caller's Error.
    if (executor_ != nullptr) executor_->resume();
    *message = "did not return within " + deadline_seconds(*instance) + " s: its JavaScript was interrupted" + deadline_advice(*instance);
    *debug = running_at(formatted(guard_stack_));
  }
  guard_stack_.clear();
  if (instance != nullptr) instance->unref();
  return terminated;
}

void Handoff::check_guard(int64_t now) {
  {
    std::lock_guard<std::mutex> lock(expiry_mutex_);
    if (guard_instance_ == nullptr || guard_expired_ || now - guard_started_ns_ < guard_instance_->timeout_ns()) return;
    guard_expired_ = true;
    update_pending();
  }
  nudge();
}

// With expiry_mutex_ held, inside JavaScript outside any call.
bool Handoff::terminate_guarded() {
  if (!guard_expired_ || guard_terminated_) return false;
  guard_expired_ = false;
  update_pending();
  guard_terminated_ = true;
  guard_stack_ = executor_->capture_stack();
  // Not terminate_javascript(): the guard's callers stay on the stack and resume (end_guard),
  // and they leave Node's async context stack as they entered it.
  executor_->terminate();
  return true;
}

size_t Handoff::on_near_heap_limit(size_t current_limit, size_t initial_limit) {
  // Enough for the allocation under way and the unwinding; the initial limit comes back once
  // the heap shrinks again (embed/ has V8 restore it).
  const size_t headroom = std::max<size_t>(initial_limit / 4, size_t{64} << 20);
  if (current_limit >= 3 * initial_limit) return current_limit;  // nothing more to give: V8 aborts
  if (!termination_.active) {
    Call* running = executing_ != nullptr ? executing_->running : nullptr;
    if (running != nullptr) {
      termination_ = Termination{true, executing_->id(), running->sequence, true,
          ExpiryReason::kTimeout, initial_limit, {}, "", 0};
    } else {
      // No call's handler is running (a timer, a Promise reaction): whose it is cannot be told.
      const std::string message = "JavaScript heap out of memory outside any call: the heap reached its limit of " +
          std::to_string(initial_limit >> 20) + " MiB and the JavaScript running was interrupted";
      post_error_to_owners(message.c_str(),
          "Raise the limit with DS_ELEMENT_HEAP_MB, or find what keeps growing (DS_ELEMENT_NODE_OPTIONS=--inspect)");
    }
  }
  terminate_javascript();
  return current_limit + headroom;
}

void Handoff::terminate_javascript() {
  if (executor_ == nullptr) return;
  if (JsInterrupter* interrupter = interrupter_.load()) interrupter->clear_async_context();
  executor_->terminate();
}

bool Handoff::take_termination(Call& call, Outcome* outcome) {
  if (!termination_.active || termination_.instance_id != call.instance->id() ||
      termination_.sequence != call.sequence) {
    return false;
  }
  Termination termination = std::move(termination_);
  termination_ = Termination{};
  executor_->resume();
  {
    std::lock_guard<std::mutex> lock(expiry_mutex_);
    expiries_.erase(std::remove_if(expiries_.begin(), expiries_.end(),
                        [&](const Expiry& expiry) {
                          return expiry.instance_id == termination.instance_id &&
                                 expiry.sequence == termination.sequence;
                        }),
        expiries_.end());
    update_pending();
  }
  if (termination.heap) {
    *outcome = Outcome::failure("JavaScript heap out of memory in " + hook_name(call.kind) + describe_call_subject(call) +
            ": the heap reached its limit of " + std::to_string(termination.heap_limit >> 20) +
            " MiB and the call was interrupted; raise the limit with DS_ELEMENT_HEAP_MB, or find "
            "what keeps growing",
        "The element's objects stay in memory until it is stopped (state NULL or READY).");
  } else if (termination.reason == ExpiryReason::kYield) {
    *outcome = yielded(call, termination);
  } else {
    *outcome = abandoned(call, termination.reason, true, termination.stack, false);
  }
  return true;
}

Outcome Handoff::yielded(const Call& call, const Termination& termination) {
  char seconds[32];
  std::snprintf(seconds, sizeof seconds, "%.1f", static_cast<double>(termination.held_ns) / 1e9);
  const std::string where = formatted(termination.stack);
  return Outcome::failure(hook_name(call.kind) + describe_call_subject(call) +
          " was interrupted: its JavaScript had kept the runtime for " + seconds + " s without returning while " +
          termination.yielded_to + " was stopping (all elements of a process share one JavaScript engine)",
      where.empty() ? "JavaScript was running; where could not be told." : "JavaScript was running at:\n" + where);
}

// Under the Locker, outside JavaScript: completes the expired calls that are not executing
// (their Promise is pending, or JavaScript outside any call was terminated for them).
void Handoff::settle_expiries() {
  if (resume_pending_) resume_after_outside_termination();
  if (expiries_pending_.load(std::memory_order_relaxed) == 0) return;
  {
    // The runtime has control: whatever held the isolate for a waiter has let go of it.
    std::lock_guard<std::mutex> lock(expiry_mutex_);
    release_helds();
    update_pending();
  }
  struct Settled {
    Instance* instance;
    ExpiryReason reason;
    bool terminated_outside;
    std::vector<JsFrame> stack;
  };
  std::vector<Settled> settled;
  bool resume = false;
  {
    std::lock_guard<std::mutex> lock(expiry_mutex_);
    auto keep = expiries_.begin();
    for (Expiry& expiry : expiries_) {
      Instance* instance = find_instance(expiry.instance_id);
      resume |= expiry.terminated_outside;
      if (instance == nullptr || instance->running == nullptr ||
          instance->running->sequence != expiry.sequence) {
        continue;  // completed meanwhile: nothing to abandon
      }
      if (instance == executing_) {
        *keep++ = std::move(expiry);  // its handler is on this stack (a nested drain)
        continue;
      }
      settled.push_back(Settled{instance, expiry.reason, expiry.terminated_outside, std::move(expiry.stack)});
    }
    expiries_.erase(keep, expiries_.end());
    update_pending();
  }
  if (resume && executor_ != nullptr) executor_->resume();
  for (Settled& entry : settled) {
    Call* running = entry.instance->running;
    if (running == nullptr) continue;
    complete(*running, abandoned(*running, entry.reason, entry.terminated_outside, entry.stack, true));
  }
}

Outcome Handoff::abandoned(const Call& call, ExpiryReason reason, bool interrupted,
    const std::vector<JsFrame>& stack, bool outside) {
  const std::string what = hook_name(call.kind);
  const std::string subject = describe_call_subject(call);
  const std::string where = formatted(stack);
  if (reason == ExpiryReason::kFlushing) {
    std::string message = what + subject + " was abandoned: the element is flushing (a flushing seek, or a state change to READY)";
    if (interrupted) message += "; its JavaScript did not return within " + std::to_string(kFlushGraceNs / 1000000) + " ms and was interrupted";
    return Outcome::failure(message, where.empty() ? message : "JavaScript was running at:\n" + where);
  }
  const std::string seconds = deadline_seconds(*call.instance);
  std::string message = what + subject;
  if (!outside) {
    message += " did not return within " + seconds + " s: its JavaScript was interrupted";
  } else {
    message += " did not finish within " + seconds + " s: its Promise was abandoned";
    if (interrupted) message += ", and the JavaScript that kept the runtime busy meanwhile was interrupted";
  }
  message += deadline_advice(*call.instance);
  std::string debug;
  if (interrupted) {
    debug = running_at(where);
  } else {
    debug = where.empty() ? "No JavaScript of it was running: a Promise it returned had not settled." : where;
  }
  return Outcome::failure(message, debug);
}

}  // namespace dsnode
