// Direct mode (handoff.h): a blocking call runs on its caller's thread, under the isolate's
// Locker, after whatever was queued before it.
#include "runtime/handoff.h"

#include <sched.h>

#include "runtime/call_messages.h"

namespace dsnode {

namespace {

// A thread's direct calls, in one thread_local: in a dlopen'ed library each one is a call to
// __tls_get_addr, and the per-buffer path reads this several times.
struct DirectThread {
  int depth = 0;                 // direct calls this thread is inside (a host callback may re-enter)
  const Call* call = nullptr;    // the blocking call it runs directly, and waits for
};
thread_local DirectThread t_direct;

}  // namespace

bool Handoff::in_direct_call() { return t_direct.depth > 0; }

void Handoff::wait_for_direct_callers() {
  // state_ is no longer kOpen (shut_door): callers that come now turn back before the Locker.
  while (direct_users_.load() != 0) sched_yield();
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
  Call& call = *static_cast<Call*>(data);
  Handoff& handoff = call.instance->handoff();
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
  Call& call = *static_cast<Call*>(data);
  Handoff& handoff = call.instance->handoff();
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

bool Handoff::signal_direct_caller(Call& call) {
  if (&call != t_direct.call) return false;
  t_direct.call = nullptr;
  call.completion.signal_on_waiting_thread();
  return true;
}

}  // namespace dsnode
