// How long the two sides of the hand-off busy-wait before they sleep.
//
// A condition-variable wake-up costs tens of microseconds (futex, scheduler); a JS transform
// that does little returns in a few. Spinning briefly on the caller's side catches those
// replies without a sleep; spinning on the JS thread after it drained the queue catches the
// next buffer without a trip through epoll. Both burn a core while they spin, so both are
// bounded, and the caller's spin adapts to what the element actually costs.
#ifndef DSNODE_RUNTIME_SPIN_POLICY_H
#define DSNODE_RUNTIME_SPIN_POLICY_H

#include <atomic>
#include <cstdint>

namespace dsnode {

struct SpinSettings {
  static constexpr int64_t kDefaultCallerSpinUs = 50;
  static constexpr int64_t kDefaultJsSpinUs = 0;

  int64_t caller_spin_ns = kDefaultCallerSpinUs * 1000;  // DS_ELEMENT_SPIN_US
  int64_t js_spin_ns = kDefaultJsSpinUs * 1000;          // DS_ELEMENT_JS_SPIN_US
  // Spinning callers beyond the number of spare cores only steal the JS thread's core.
  int max_spinning_callers = 1;

  static SpinSettings from_environment();
};

// Per instance: an element whose calls take milliseconds (inference) stops spinning; one
// whose calls are short spins for the full budget.
class AdaptiveSpin {
 public:
  int64_t budget_ns() const { return budget_ns_.load(std::memory_order_relaxed); }

  // wait_ns: submit-to-completion time of the call that just finished.
  void record(int64_t wait_ns, int64_t max_spin_ns);

 private:
  // Starts at "unknown" so the first calls spin for the full budget.
  std::atomic<int64_t> budget_ns_{INT64_MAX};
  std::atomic<int64_t> average_ns_{0};
};

}  // namespace dsnode

#endif
