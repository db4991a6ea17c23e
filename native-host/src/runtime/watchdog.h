// The watchdog: no call into JavaScript holds a streaming thread (or an isolate) forever. One
// thread for the process; each instance's expiries go to the hand-off of its environment. Every
// call (create, hooks, property changes, transform) has a deadline, the same for all calls of an
// instance: DS_ELEMENT_CALL_TIMEOUT_S when set, else the element's declared
// callTimeoutSeconds, else kDefaultTimeoutS; 0 means none.
//
// One thread per process looks at the instances every kTickNs. An instance's running call is
// known by its sequence (Instance::running_sequence, one store per call on the hot path, no
// clock); a sequence seen unchanged for the deadline is expired: Handoff::expire() abandons the
// call (a pending Promise at once, JavaScript that runs synchronously by terminating it, see
// handoff.h), and its caller gets a failure naming the call, the buffer and where the
// JavaScript was. Seen only at ticks, a call expires between its deadline and one tick later,
// never earlier. A call still waiting for the isolate has the same deadline: when it waited that
// long while the runtime regained control not once, Handoff::isolate_held() has JavaScript
// outside any call that holds the isolate terminated (a timer's endless loop).
#ifndef DSNODE_RUNTIME_WATCHDOG_H
#define DSNODE_RUNTIME_WATCHDOG_H

#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <vector>

#include "runtime/instance.h"

namespace dsnode {

struct WatchdogSettings {
  static constexpr double kDefaultTimeoutS = 10;
  static constexpr double kMaxTimeoutS = 24 * 3600;

  // DS_ELEMENT_CALL_TIMEOUT_S; negative when unset (or invalid, with a warning).
  double environment_s = -1;

  static WatchdogSettings from_environment();
  // The deadline of an instance whose element declared `declared_s` (negative: nothing
  // declared): the environment's, else the declared one, else the default. 0: no deadline.
  int64_t timeout_ns(double declared_s) const;
};

class Watchdog {
 public:
  static constexpr int64_t kTickNs = 50 * 1000 * 1000;

  static Watchdog& get();

  void configure(const WatchdogSettings& settings) { settings_ = settings; }
  const WatchdogSettings& settings() const { return settings_; }

  // Any thread: the calls of `instance` are watched from now on (holds a reference). An
  // instance without a deadline is not watched at all.
  void watch(Instance* instance);
  // Any thread: no longer (its destroy call completed, or the runtime stopped).
  void forget(Instance* instance);
  // Any thread: the hand-off has expiries to follow up (Handoff::nudge on every tick until
  // they are settled), whether or not anything is watched.
  void follow_up();

 private:
  struct Watched {
    Instance* instance;
    uint64_t sequence = 0;  // the running call last seen; 0: none
    int64_t seen_ns = 0;    // the tick it was first seen at
    bool expired = false;   // ...and handed to Handoff::expire
    // A call of it waiting for the isolate (Instance::waiting_for_isolate) while the runtime
    // makes no progress (Handoff::progress), since wait_seen_ns; reported once per mark.
    bool waiting = false;
    uint64_t wait_progress = 0;
    int64_t wait_seen_ns = 0;
    bool wait_reported = false;
  };

  Watchdog() = default;
  void run();
  void start_thread();  // with mutex_ held
  void tick(int64_t now_ns);
  static bool any_expiries_pending();

  WatchdogSettings settings_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::vector<Watched> watched_;
  bool thread_started_ = false;
};

}  // namespace dsnode

#endif
