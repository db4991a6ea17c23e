// One element instance as the runtime sees it: the GstElement it reports to, its JS-side id,
// and the calls waiting to run on it (one at a time, in order).
#ifndef DSNODE_RUNTIME_INSTANCE_H
#define DSNODE_RUNTIME_INSTANCE_H

#include <atomic>
#include <deque>
#include <memory>
#include <mutex>
#include <string>

#include "common/runtime_api.h"
#include "runtime/call.h"
#include "runtime/spin_policy.h"

namespace dsnode {

class Handoff;

// The plugin's callbacks, copied once by ensure_started.
void set_host_callbacks(const DsnodeHostCallbacks& callbacks);

class Instance {
 public:
  // timeout_ns: the deadline of each of its calls (runtime/watchdog.h); 0: none. `handoff`: the
  // hand-off of the JavaScript environment it runs in, kept alive by `environment` (null for
  // the shared one, which lives as long as the process).
  Instance(int id, GstElement* element, std::string element_name, int64_t timeout_ns,
      Handoff& handoff, std::shared_ptr<void> environment = nullptr);
  Instance(const Instance&) = delete;
  Instance& operator=(const Instance&) = delete;

  int id() const { return id_; }
  const std::string& element_name() const { return element_name_; }
  int64_t timeout_ns() const { return timeout_ns_; }
  // Every call, interrupt and expiry of this instance goes through this hand-off.
  Handoff& handoff() const { return handoff_; }

  void ref() { refs_.fetch_add(1, std::memory_order_relaxed); }
  void unref();

  // Report to the element, unless the plugin already let go of it (destroy_instance):
  // after that the element pointer must not be used, even by calls still queued.
  // Return false when the element is gone.
  bool log(DsnodeLogLevel level, const char* file, int line, const char* message);
  bool post_error(const char* message, const char* debug);
  void detach_element();
  bool has_element();
  // The element's object name (e.g. "detector1"), or its factory name once it is detached.
  std::string object_name();

  CallerSpin& spin() { return spin_; }
  // When the last blocking call returned to its caller (steady clock, ns; 0: never).
  std::atomic<int64_t>& last_return_ns() { return last_return_ns_; }

  // The sequence of the call that is running (started, not completed; 0: none): written by the
  // thread holding the isolate's Locker as calls start and complete, read by the watchdog.
  // seq_cst with `flushing`: set_flushing() stores flushing then reads this, the hand-off
  // stores this then reads flushing, so a transform that starts as the flush begins is seen
  // by one of them.
  std::atomic<uint64_t> running_sequence{0};
  // Between set_flushing(true) and (false): transform calls are refused, and the one running
  // is abandoned (runtime_api.h).
  std::atomic<bool> flushing{false};
  // Its calls on their way to the isolate: queued for the JS thread, or at the isolate's gate
  // (direct), not yet routed to this instance. Read by the watchdog: a call that waits a whole
  // deadline for JavaScript outside any call gets that JavaScript terminated.
  std::atomic<int> waiting_for_isolate{0};

  // Owned by the hand-off on the thread holding the isolate's Locker (the JS thread, or in
  // direct mode a caller running its call); nothing else touches these.
  std::deque<Call*> queue;
  Call* running = nullptr;  // started and not yet completed (its Promise may be pending)
  bool pumping = false;
  bool registered = false;

 protected:
  ~Instance() = default;

 private:
  const int id_;
  const std::string element_name_;
  const int64_t timeout_ns_;
  Handoff& handoff_;
  const std::shared_ptr<void> environment_;
  std::atomic<int> refs_{1};
  std::mutex element_mutex_;  // held across callbacks so detach waits for them
  GstElement* element_;
  CallerSpin spin_;
  std::atomic<int64_t> last_return_ns_{0};
};

}  // namespace dsnode

#endif
