// How long the two sides of the hand-off busy-wait before they sleep.
//
// Waking a sleeping thread costs tens of microseconds (futex or epoll, then the scheduler;
// more on virtual machines); a JS transform that does little returns in one or two. So:
// - the caller (streaming thread) spins for the reply before it blocks;
// - the JS thread, having drained the queue, spins for the next call before it goes back to
//   epoll, which catches the next buffer of a busy pipeline without a wake-up.
// Both burn a core while they spin, so both are bounded and adapt:
// - a caller keeps spinning while its spins pay off (the reply arrives within the budget) and
//   backs off when they do not: the element is slow (inference), or there is no spare core
//   and the spin only keeps the JS thread from running. Once backed off it cannot see the
//   replies get quick again, so one call in 16 probes (unless the last call's service time on
//   the JS thread says it cannot pay off). A probe spins 4x the budget: after a back-off the
//   JS thread is usually asleep too, and a probe shorter than its wake-up (50-70 us on a
//   virtual machine) would keep missing, leaving both sides sleeping for good;
// - the JS thread keeps spinning while callers come back with their next call within the
//   budget. It looks at the callers' think time (from getting a reply to submitting the next
//   call), which holds neither its own wake-up latency nor theirs: adapting to observed waits
//   lets each side measure the other's wake-ups, and the pair settles where neither spins.
// (How a spin spins, in handoff.cpp: pure for 10 us, then yielding the core every 2 us, since
// the thread being waited for may sit on the spinner's own core.)
#ifndef DSNODE_RUNTIME_SPIN_POLICY_H
#define DSNODE_RUNTIME_SPIN_POLICY_H

#include <atomic>
#include <cstdint>

namespace dsnode {

// DS_ELEMENT_HANDOFF: who runs a blocking call's JS (handoff.h).
enum class HandoffMode {
  kQueue,   // queued to the JS thread, the caller waits
  kDirect,  // the calling thread runs it under the isolate's v8::Locker
};

struct SpinSettings {
  static constexpr int64_t kDefaultCallerSpinUs = 50;
  static constexpr int64_t kDefaultJsSpinUs = 50;
  // Direct hand-off: how long a thread that finds the isolate's gate held spins for it before
  // it sleeps (isolate_gate.h). A no-op call holds the gate a microsecond or two.
  static constexpr int64_t kDefaultGateSpinUs = 10;

  int64_t caller_spin_ns = kDefaultCallerSpinUs * 1000;  // DS_ELEMENT_SPIN_US
  int64_t js_spin_ns = kDefaultJsSpinUs * 1000;          // DS_ELEMENT_JS_SPIN_US
  // DS_ELEMENT_GATE_SPIN_US; unset: the default, or DS_ELEMENT_SPIN_US if lower.
  int64_t gate_spin_ns = kDefaultGateSpinUs * 1000;
  // Direct hand-off: how long a streaming thread's turn at the isolate lasts while others wait
  // for it (isolate_gate.h); 0: no turns.
  static constexpr int64_t kDefaultGateTurnUs = 1000;
  int64_t gate_turn_ns = kDefaultGateTurnUs * 1000;  // DS_ELEMENT_GATE_TURN_US
  // Spinning callers beyond the spare cores only steal the JS thread's core.
  int max_spinning_callers = 1;
  HandoffMode mode = HandoffMode::kDirect;  // DS_ELEMENT_HANDOFF=direct (default) or queue
  bool statistics = false;                   // DS_ELEMENT_HANDOFF_STATS=1: count, print at exit

  static SpinSettings from_environment();
};

// The caller's side, per instance (one element's calls cost about the same each time).
class CallerSpin {
 public:
  int64_t budget_ns(int64_t max_ns);
  // spun: the caller did spin (it may have been over the spinning-callers limit); hit: the
  // reply came while it spun; service_ns: the call's time on the JS thread, from its start to
  // its completion (Promise included).
  void record(bool spun, bool hit, int64_t service_ns, int64_t max_ns);

 private:
  static constexpr uint32_t kProbeInterval = 16;
  static constexpr int64_t kProbeFactor = 4;

  std::atomic<int64_t> budget_ns_{INT64_MAX};  // "full" until calls say otherwise
  std::atomic<int64_t> last_service_ns_{0};
  std::atomic<uint32_t> calls_{0};
};

// The JS thread's side (only the JS thread touches it).
class JsSpin {
 public:
  int64_t budget_ns(int64_t max_ns) const { return budget_ns_ < max_ns ? budget_ns_ : max_ns; }
  void record_spin(bool hit, int64_t max_ns);
  // Woken from epoll for a call whose caller thought for think_ns (-1: unknown): had both
  // sides spun, a spin that long would have caught it.
  void record_wake(int64_t think_ns, int64_t max_ns);

 private:
  int64_t budget_ns_ = INT64_MAX;
};

}  // namespace dsnode

#endif
