// IsolateGate (isolate_gate.h): spin, then sleep, for the isolate.
#include "embed/isolate_gate.h"

#include <algorithm>

#include "runtime/clock.h"

namespace dsnode {

void IsolateGate::configure(int64_t spin_ns, int max_spinners, HandoffStatistics* statistics) {
  spin_ns_ = spin_ns;
  max_spinners_ = max_spinners;
  statistics_ = statistics;
}

bool IsolateGate::enter(const void* waiter, const std::atomic<bool>* abandon) {
  bool taken = try_take() || spin(abandon) || sleep(waiter, abandon);
  if (taken && statistics_ != nullptr) count_holder();
  return taken;
}

// True when it took the gate; false when it did not spin (budget 0, enough spinners already),
// the budget ran out, the holder is not running (it took the gate on this core), or the caller
// gave up (sleep() then returns at once).
bool IsolateGate::spin(const std::atomic<bool>* abandon) {
  if (spin_ns_ <= 0) return false;
  bool taken = false;
  if (spinners_.fetch_add(1, std::memory_order_relaxed) < max_spinners_) {
    spin_until(
        [&] {
          if ((taken = try_take())) return true;
          return (abandon != nullptr && abandon->load()) ||
                 holder_cpu_.load(std::memory_order_relaxed) == sched_getcpu();
        },
        now_ns(), spin_ns_);
  }
  spinners_.fetch_sub(1, std::memory_order_relaxed);
  if (taken && statistics_ != nullptr) statistics_->gate_spin_takes.fetch_add(1, std::memory_order_relaxed);
  return taken;
}

bool IsolateGate::sleep(const void* waiter, const std::atomic<bool>* abandon) {
  std::unique_lock<std::mutex> lock(mutex_);
  waiters_.push_back(waiter);
  // seq_cst, pairs with leave(): either try_take() below sees the gate free, or leave() sees
  // a sleeper and notifies (under mutex_, so not before this thread waits).
  sleepers_.fetch_add(1);
  if (statistics_ != nullptr) statistics_->gate_sleeps.fetch_add(1, std::memory_order_relaxed);
  bool taken;
  while (!(taken = try_take()) && (abandon == nullptr || !abandon->load())) {
    cv_.wait(lock);
    if (statistics_ != nullptr) statistics_->gate_wakeups.fetch_add(1, std::memory_order_relaxed);
  }
  sleepers_.fetch_sub(1);
  waiters_.erase(std::find(waiters_.begin(), waiters_.end(), waiter));
  return taken;
}

void IsolateGate::leave() {
  held_.store(false);
  if (sleepers_.load() == 0) return;
  { std::lock_guard<std::mutex> lock(mutex_); }
  cv_.notify_one();
}

void IsolateGate::wake_all() {
  std::lock_guard<std::mutex> lock(mutex_);
  cv_.notify_all();
}

bool IsolateGate::waiting(const void* waiter) {
  std::lock_guard<std::mutex> lock(mutex_);
  return std::find(waiters_.begin(), waiters_.end(), waiter) != waiters_.end();
}

// A Locker taken by another thread than the one that held it last makes V8 archive that
// thread's state and restore this one's.
void IsolateGate::count_holder() {
  thread_local char marker;
  if (last_holder_.exchange(&marker, std::memory_order_relaxed) != &marker) {
    statistics_->gate_handovers.fetch_add(1, std::memory_order_relaxed);
  }
  statistics_->gate_entries.fetch_add(1, std::memory_order_relaxed);
}

}  // namespace dsnode
