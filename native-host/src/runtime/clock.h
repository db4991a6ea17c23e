// The runtime's clock and its one way of spinning (spin_policy.h decides for how long).
#ifndef DSNODE_RUNTIME_CLOCK_H
#define DSNODE_RUNTIME_CLOCK_H

#include <sched.h>

#include <chrono>
#include <cstdint>

#include "runtime/cpu_relax.h"

namespace dsnode {

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

}  // namespace dsnode

#endif
