// The queue hand-off (handoff.h): callers queue their call, wake the JS thread and wait for it
// (spinning first, as spin_policy.h decides); the JS thread drains the queue in slices.
#include "runtime/handoff.h"

#include <glib.h>

#include "runtime/call_messages.h"
#include "runtime/clock.h"

namespace dsnode {

namespace {

// How long the JS thread serves calls in one go before it lets its loop take a turn.
constexpr int64_t kDrainSliceNs = 2000000;

}  // namespace

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

void Handoff::wake_js_thread() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (state_.load(std::memory_order_relaxed) != State::kOpen) return;
    senders_.fetch_add(1);
  }
  uv_async_send(&wake_);
  senders_.fetch_sub(1);
}

}  // namespace dsnode
