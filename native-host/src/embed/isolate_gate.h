// Who may take the isolate's v8::Locker next (direct mode). Every thread that takes the Locker
// (callers, and the JS thread for its loop turns) passes this gate first and leaves it right
// after releasing the Locker, so a thread waiting for the isolate waits here, where it can give
// up: a streaming thread whose element is flushing (state change, seek) must not wait for
// JavaScript of another element that does not return (V8's own lock cannot be given up).
//
// A thread that finds the gate held spins for it first (SpinSettings::gate_spin_ns; at most
// `max_spinners` threads at once), then sleeps on a condition variable. Several streaming threads of a no-op
// element each hold the isolate for a microsecond or two: a waiter that went to sleep at once
// cost a futex sleep and wake-up per buffer (35-50 us of CPU on a virtual machine), and mostly
// for nothing, since the thread that left the gate came back for its next buffer and took it
// again before the sleeper was running (bench/RESULTS.md, "The many-stream convoy"). A waiter
// that runs on the core the holder took the gate on does not spin: the holder is then not
// running (preempted, on a busy machine), and the spin would only delay it. Only sleepers are
// known by waiting(); a spinner sleeps, and so becomes known, after its budget (microseconds),
// long before the watchdog asks.
#ifndef DSNODE_EMBED_ISOLATE_GATE_H
#define DSNODE_EMBED_ISOLATE_GATE_H

#include <sched.h>

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <vector>

#include "runtime/handoff_statistics.h"

namespace dsnode {

class IsolateGate {
 public:
  // Before any thread enters. `statistics` (may be null) counts spins, sleeps and wake-ups.
  void configure(int64_t spin_ns, int max_spinners, HandoffStatistics* statistics);

  // Waits until no other thread holds the isolate; false (gate not taken) if *abandon turned
  // true first. Who sleeps is known by `waiter` meanwhile.
  bool enter(const void* waiter, const std::atomic<bool>* abandon);
  void leave();
  // Sleepers look at their `abandon` flag again (spinners look at it all the time).
  void wake_all();
  bool waiting(const void* waiter);

 private:
  bool try_take() {
    bool expected = false;
    if (held_.load() || !held_.compare_exchange_strong(expected, true)) return false;
    holder_cpu_.store(sched_getcpu(), std::memory_order_relaxed);
    return true;
  }
  bool spin(const std::atomic<bool>* abandon);
  bool sleep(const void* waiter, const std::atomic<bool>* abandon);
  void count_holder();

  std::atomic<bool> held_{false};
  std::atomic<int> holder_cpu_{-1};  // the core the holder took it on
  std::atomic<int> spinners_{0};
  std::atomic<int> sleepers_{0};
  std::mutex mutex_;  // sleepers_ rises, and waiters_ changes, only under it
  std::condition_variable cv_;
  std::vector<const void*> waiters_;

  int64_t spin_ns_ = 0;
  int max_spinners_ = 1;
  HandoffStatistics* statistics_ = nullptr;
  std::atomic<const void*> last_holder_{nullptr};  // statistics only: the thread that held it last
};

}  // namespace dsnode

#endif
