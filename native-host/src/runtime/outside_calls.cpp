// JavaScript outside any call (handoff.h): a timer, an immediate or a Promise reaction that holds
// the isolate while a call waits for it (isolate_held), and the deadline of JavaScript run on an
// instance's behalf outside its calls (begin_guard / end_guard).
#include "runtime/handoff.h"

#include <algorithm>

#include "runtime/call_messages.h"
#include "runtime/clock.h"
#include "runtime/watchdog.h"

namespace dsnode {

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
    const std::string message = held_outside_calls(*termination.waiter, termination.held_ns);
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
    *message = guard_expired(*instance);
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

}  // namespace dsnode
