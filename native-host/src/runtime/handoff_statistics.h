// How often each side of the hand-off (handoff.h) found the other ready while it spun, and how
// often it had to sleep or wake the other: DS_ELEMENT_HANDOFF_STATS=1 prints them at teardown,
// to tune the spin policy (spin_policy.h).
#ifndef DSNODE_RUNTIME_HANDOFF_STATISTICS_H
#define DSNODE_RUNTIME_HANDOFF_STATISTICS_H

#include <atomic>
#include <cstdint>

namespace dsnode {

struct HandoffStatistics {
  std::atomic<uint64_t> caller_spin_hits{0};   // reply arrived while the caller spun
  std::atomic<uint64_t> caller_sleeps{0};      // caller had to block
  std::atomic<uint64_t> wakeups_sent{0};       // uv_async_send calls
  uint64_t js_spin_hits = 0;                   // JS thread found work while spinning
  uint64_t js_spin_misses = 0;
  uint64_t wakes = 0;                          // on_wake callbacks
  std::atomic<uint64_t> direct_calls{0};       // run by the caller under the Locker
  std::atomic<uint64_t> direct_waits{0};       // ...that then waited for a Promise
  // Direct mode, the isolate's gate (embed/isolate_gate.h), every thread that takes the Locker:
  std::atomic<uint64_t> gate_entries{0};       // times it was taken
  std::atomic<uint64_t> gate_handovers{0};     // ...by another thread than the one before
  std::atomic<uint64_t> gate_spin_takes{0};    // ...by a thread that found it held and spun
  std::atomic<uint64_t> gate_sleeps{0};        // a thread found it held and slept
  std::atomic<uint64_t> gate_wakeups{0};       // a sleeper woke (notified, or spuriously)
  std::atomic<uint64_t> gate_turns{0};         // a streaming thread's turn passed to another
  std::atomic<uint64_t> gate_idle_turns{0};    // ...taken from one that did not come back
  std::atomic<uint64_t> gate_stalled_turns{0}; // a turn its thread left idle while others slept, and came back to

  // One line on stderr.
  void print() const;
};

}  // namespace dsnode

#endif
