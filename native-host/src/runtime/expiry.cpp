// Abandoning calls (handoff.h): calls past their deadline or of a flushing element are
// expired; their JavaScript is terminated where it runs, their pending Promise abandoned; JavaScript
// that keeps a flushing element's calls from the isolate is made to yield.
#include "runtime/handoff.h"

#include <algorithm>
#include <utility>

#include <glib.h>

#include "runtime/call_messages.h"
#include "runtime/clock.h"
#include "runtime/watchdog.h"

namespace dsnode {

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
    if (!known) yields_.push_back(YieldRequest{instance->id(), NoProgressWatch{}});
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
    if (!expiry.no_progress.stuck_for(progress(), now, kStuckGraceNs)) continue;
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
      request.no_progress.reset();
      continue;
    }
    if (!request.no_progress.stuck_for(progress(), now, kYieldGraceNs)) continue;
    const int64_t held_ns = request.no_progress.held_ns(now);
    request.no_progress.reset();
    Call* running = executing_ != nullptr ? executing_->running : nullptr;
    if (running != nullptr) {
      termination_ = Termination{true, executing_->id(), running->sequence, false, ExpiryReason::kYield, 0,
          executor_->capture_stack(), waiter->object_name(), held_ns};
    } else {
      g_warning("dsnode: JavaScript outside any call kept the runtime for %.1f s while %s was stopping; it was interrupted",
          held_ns / 1e9, waiter->object_name().c_str());
      resume_pending_ = true;
    }
    return true;
  }
  return false;
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
    *outcome = heap_exhausted(call, termination.heap_limit);
  } else if (termination.reason == ExpiryReason::kYield) {
    *outcome = yielded(call, termination.held_ns, termination.yielded_to, formatted(termination.stack));
  } else {
    *outcome = abandoned(call, termination.reason, true, formatted(termination.stack), false);
  }
  return true;
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
    complete(*running, abandoned(*running, entry.reason, entry.terminated_outside, formatted(entry.stack), true));
  }
}

}  // namespace dsnode
