// The hand-off between GStreamer streaming threads and the one JS thread.
//
// Callers queue a Call (mutex + deque), wake the JS thread with uv_async_send, then spin for
// a bounded, adaptive time on the call's done flag before sleeping on a condition variable.
// On the JS thread, calls are routed to their instance and run one at a time per instance,
// in the order they were queued, including the time a returned Promise takes; different
// instances proceed independently. Non-blocking calls (properties, destroy) travel the same
// queue, so they stay ordered with buffers.
//
// Direct mode (DS_ELEMENT_HANDOFF=direct): a blocking call does not travel to the JS thread.
// The caller takes the isolate's v8::Locker (JsLockHost, from embed/) and does on its own
// thread what the JS thread would have done: it routes whatever is queued (so properties and
// destroys keep their order), then routes its own call, which runs at once unless its instance
// is still busy with an earlier call. If the call returned a Promise (or had to queue behind
// one), the caller releases the Locker and waits on the Completion, signalled by whichever
// thread settles it. Everything marked "JS thread" below is then "the thread holding the
// Locker": the JS thread holds it only while it runs its loop, never while it sleeps.
//
// One class, one file per job: handoff.cpp (set-up, lifecycle, the registry of instances),
// queued_calls.cpp (the queue and the JS thread's drain), direct_calls.cpp (direct mode),
// call_routing.cpp (one call at a time per instance, outcomes back to callers), expiry.cpp
// (deadlines and flushes: abandoning calls, terminating their JavaScript), outside_calls.cpp
// (JavaScript outside any call: held isolates, guards), heap_limit.cpp (V8's heap limit);
// texts in call_messages.h, the stuck-JavaScript test in no_progress_watch.h, counters in
// handoff_statistics.h.
#ifndef DSNODE_RUNTIME_HANDOFF_H
#define DSNODE_RUNTIME_HANDOFF_H

#include <uv.h>

#include <atomic>
#include <deque>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "runtime/call.h"
#include "runtime/handoff_statistics.h"
#include "runtime/instance.h"
#include "runtime/js_executor.h"
#include "runtime/no_progress_watch.h"
#include "runtime/spin_policy.h"

namespace dsnode {

class Handoff {
 public:
  // The hand-off of the process's first (shared) JavaScript environment. Every further
  // environment (an element with isolate=own, embed/node_embed.cpp) has a Handoff of its own;
  // an Instance knows which (Instance::handoff()).
  static Handoff& get();
  // The hand-off of the environment whose JS thread this is (set by embed/ on each JS thread
  // before its environment loads; the shared one's elsewhere).
  static Handoff& current();
  static void set_current(Handoff* handoff);
  // Any thread: runs `body` on every live hand-off, under a lock that keeps them alive.
  static void for_each(void (*body)(Handoff&, void*), void* data);

  Handoff();
  ~Handoff();
  Handoff(const Handoff&) = delete;
  Handoff& operator=(const Handoff&) = delete;

  // --- Set-up, from ensure_started (before the JS thread exists).
  void configure(const SpinSettings& settings, std::string host_js_path);
  const std::string& host_js_path() const { return host_js_path_; }
  const SpinSettings& settings() const { return settings_; }

  // --- Lifecycle, on the JS thread.
  // Creates the wake-up handle on the JS thread's loop. `on_stop` runs on the JS thread
  // when request_stop() is seen (it stops Node).
  bool attach(uv_loop_t* loop, void (*on_stop)(void*), void* stop_data, std::string* error);
  // Calls are accepted from now on; until then (or if never) they fail with `reason`.
  void open();
  void refuse(std::string message, std::string debug);
  // After the loop ended: closes the wake-up handle (if stop did not already) and fails
  // every call that has not completed. Later calls fail at once.
  void close_after_loop(uv_loop_t* loop, const std::string& reason);
  // Any thread: asks the JS thread to stop; returns false if it is not running.
  bool request_stop();

  // DS_ELEMENT_HANDOFF_STATS=1: how often each side's spin paid off, printed at teardown.
  void print_statistics() const { statistics_.print(); }
  HandoffStatistics* statistics() { return settings_.statistics ? &statistics_ : nullptr; }

  void set_executor(JsExecutor* executor);  // JS thread
  // Direct mode: set by embed/ before open(); without one, calls are queued.
  void set_lock_host(JsLockHost* host) { lock_host_ = host; }
  bool direct() const { return lock_host_ != nullptr; }
  // True on a thread that is running a direct call right now (it holds the Locker).
  static bool in_direct_call();
  // Direct mode, JS thread, after its loop ended and before the isolate goes: fails what is
  // pending and closes the door (like close_after_loop), then, with the Locker released by
  // the caller, waits until no caller is on its way to the Locker.
  void shut_door(const std::string& reason) { fail_everything(reason); }
  void wait_for_direct_callers();
  void clear_executor(JsExecutor* executor);
  // An environment of one element (isolate=own): once that element's destroy call completed,
  // the environment stops (request_stop).
  void stop_after_destroy() { stop_after_destroy_ = true; }

  // --- Callers (GStreamer threads).
  int allocate_instance_id() { return next_instance_id_.fetch_add(1, std::memory_order_relaxed); }
  // Blocks until the call completed (or failed fast). Result in call.outcome.
  void call(Call& call);
  // Queues a heap-allocated non-blocking call; takes ownership and an instance reference.
  void post(Call* call);

  // --- JS thread, from the executor.
  void complete(Call& call, Outcome outcome);
  // For a Promise that settles later: completes the call if it is still the one running on
  // that instance (a thenable may settle twice, or after a stop failed the call).
  void complete_if_running(int instance_id, uint64_t sequence, Outcome outcome);
  Instance* find_instance(int id);
  std::vector<int> live_instance_ids();
  // An error no waiting call can carry (process exit, fatal exception): goes to the
  // instance whose call is executing right now, else to every live instance.
  void post_error_to_owners(const char* message, const char* debug);

  // --- Abandoning calls: the watchdog, flushes, the heap limit.
  enum class ExpiryReason { kTimeout, kFlushing, kYield };
  // JavaScript a flush would abandon gets this long to return by itself before it is
  // terminated; a pending Promise is abandoned at once.
  static constexpr int64_t kFlushGraceNs = 500 * 1000 * 1000;
  // JavaScript outside any call, while an expired call waits, is terminated after this long.
  static constexpr int64_t kStuckGraceNs = 500 * 1000 * 1000;
  // JavaScript that keeps the isolate this long, without returning, while a flushing element's
  // call (its stop(), an event) waits for the isolate, is terminated (flush()).
  static constexpr int64_t kYieldGraceNs = 1000 * 1000 * 1000;
  // Any thread: abandon the call `sequence` of `instance` (nothing if it is over).
  void expire(Instance* instance, uint64_t sequence, ExpiryReason reason);
  // Any thread, once instance->flushing is set: abandons its running call, releases its
  // transform calls still waiting to get to JavaScript, and, while the flush lasts, has the
  // JavaScript of another element that keeps its other calls waiting interrupted.
  void flush(Instance* instance);
  bool expiries_pending() const { return expiries_pending_.load() > 0; }
  // Any thread: the progress counter below (how often the runtime regained control).
  uint64_t progress() const { return progress_.load(std::memory_order_relaxed); }
  // Any thread (the watchdog): a call of `waiter` has waited for the isolate a whole deadline
  // while progress() stayed at `progress_mark`. JavaScript outside any call (a timer, an
  // immediate, a Promise reaction) that still holds the isolate without progress is terminated
  // and becomes an element error of `waiter`; a call of another element that holds it is left
  // to its own deadline.
  // `since_ns`: when the watchdog first saw it wait at that mark.
  void isolate_held(Instance* waiter, uint64_t progress_mark, int64_t since_ns);

  // --- A deadline for JavaScript that runs outside any call on an instance's behalf (dev mode
  // starting a new build from its file watcher), on the thread holding the isolate.
  // Guards what runs until end_guard() with the deadline of `instance`'s calls; false (nothing
  // guarded) when it has none, a call's handler is running (its own deadline applies) or a
  // guard is already on.
  bool begin_guard(Instance* instance);
  // Ends the guard begun last. True when the watchdog terminated its JavaScript past the
  // deadline: the isolate runs again, even with the guarded JavaScript's callers still on the
  // stack, and `message` / `debug` say what happened and where the JavaScript was.
  bool end_guard(std::string* message, std::string* debug);
  // The watchdog, every tick: a guard past its deadline has its JavaScript terminated.
  void check_guard(int64_t now);
  // Any thread (the watchdog, every tick while expiries are pending): wakes the JS thread to
  // settle them and asks for an interrupt where JavaScript runs.
  void nudge();
  void set_interrupter(JsInterrupter* interrupter) { interrupter_.store(interrupter); }
  // On the thread executing JavaScript (JsInterrupter): terminates an expired call's
  // JavaScript, or JavaScript stuck outside any call.
  void on_interrupt();
  // V8's near-heap-limit callback, on the thread allocating: the running call ends as if its
  // deadline had passed, with a heap error. Returns the limit V8 gets until it has unwound.
  size_t on_near_heap_limit(size_t current_limit, size_t initial_limit);
  // From the executor, when `call`'s handler came back terminated: true (and the outcome,
  // the isolate resumed) when on_interrupt or on_near_heap_limit terminated it; false when
  // Node did (it is stopping).
  bool take_termination(Call& call, Outcome* outcome);

 private:
  enum class State { kClosed, kOpen, kRefused, kStopped };

  static void on_wake(uv_async_t* handle);
  void drain();
  static void route_batch(void* self);
  void route(Call* call);
  void pump(Instance* instance);
  void finish(Call& call, Outcome outcome);
  bool spin_for_work(int64_t budget_ns);
  void stop_on_js_thread();
  bool close_handles();  // JS thread, after fail_everything(): true when the wake-up handle was open
  void fail_everything(const std::string& reason);
  bool unavailable(Outcome* outcome);
  void wait(Call& call);
  void call_direct(Call& call);
  static void run_direct(void* call);
  static void route_direct(void* call);
  // finish(): signals `call` if it is the direct call its own thread waits for (false otherwise).
  static bool signal_direct_caller(Call& call);
  void wake_js_thread();
  void settle_expiries();
  void terminate_javascript();  // thread holding the isolate
  static void on_check(uv_check_t* handle);

  struct Expiry {
    int instance_id;
    uint64_t sequence;
    ExpiryReason reason;
    int64_t terminate_from_ns;  // its JavaScript is terminated from then on
    // on_interrupt's view of JavaScript outside any call while this waits (under expiry_mutex_).
    NoProgressWatch no_progress;
    bool terminated_outside = false;
    std::vector<JsFrame> stack;  // where the JavaScript terminated for it was
  };
  // A flushing instance whose calls must not wait for JavaScript that does not return.
  struct YieldRequest {
    int instance_id;
    NoProgressWatch no_progress;  // the JavaScript that keeps its calls waiting
  };
  // What on_interrupt / on_near_heap_limit terminated, until the handler's call takes it.
  struct Termination {
    bool active = false;
    int instance_id = 0;
    uint64_t sequence = 0;
    bool heap = false;           // the heap limit, not the watchdog
    ExpiryReason reason = ExpiryReason::kTimeout;
    size_t heap_limit = 0;
    std::vector<JsFrame> stack;
    std::string yielded_to;      // kYield: the element that was waiting
    int64_t held_ns = 0;         // kYield: how long the JavaScript had held the isolate
  };
  // A waiter of isolate_held(), until the JavaScript holding the isolate is terminated or makes way.
  struct HeldRequest {
    Instance* waiter;  // holds a reference
    uint64_t progress_mark;
    int64_t since_ns;  // when the watchdog saw the isolate held last made progress (about)
  };
  // JavaScript outside any call terminated for a HeldRequest: posted once the isolate is resumed.
  struct HeldTermination {
    Instance* waiter = nullptr;  // holds a reference
    int64_t held_ns = 0;
    std::vector<JsFrame> stack;
  };
  bool yield_isolate(int64_t now);  // on_interrupt's part for yield requests
  bool terminate_held(int64_t now);  // on_interrupt's part for held requests (outside any call)
  bool terminate_guarded();          // on_interrupt's part for a guard past its deadline
  void resume_after_outside_termination();  // under the Locker, outside JavaScript
  void update_pending();            // with expiry_mutex_ held
  void release_helds();             // with expiry_mutex_ held: drops every isolate_held() request
  // A captured stack formatted for messages; "" when none was captured or nothing can format it.
  std::string formatted(const std::vector<JsFrame>& stack);
  bool waits_for_isolate(Instance* instance);

  SpinSettings settings_;
  std::string host_js_path_;
  bool stop_after_destroy_ = false;  // before the door opens

  // Shared with callers.
  std::mutex mutex_;
  std::deque<Call*> incoming_;
  std::atomic<State> state_{State::kClosed};
  std::string refusal_message_, refusal_debug_;  // written before state_ leaves kClosed
  std::atomic<int> queued_{0};
  std::atomic<int> senders_{0};
  // True while the JS thread is in drain() (running calls or spinning for more): it re-reads
  // the queue before it leaves, so callers need not wake it.
  std::atomic<bool> js_awake_{false};
  std::atomic<int> spinning_callers_{0};
  std::atomic<bool> stop_requested_{false};
  std::atomic<int> next_instance_id_{1};
  uv_async_t wake_{};
  bool wake_open_ = false;  // JS thread

  HandoffStatistics statistics_;

  // Direct mode: set before the door opens; callers between the door and the end of their
  // locked section (the JS thread waits for 0 before the isolate goes).
  JsLockHost* lock_host_ = nullptr;
  std::atomic<int> direct_users_{0};

  // Written by attach() before the door opens (state_ release/acquire orders it).
  std::thread::id js_thread_;

  // Abandoned calls not settled yet.
  std::mutex expiry_mutex_;
  std::vector<Expiry> expiries_;
  std::vector<YieldRequest> yields_;
  std::vector<HeldRequest> helds_;
  std::vector<HeldTermination> held_terminations_;
  // The guard (begin_guard): its instance (a reference) and start, written by the thread holding
  // the isolate; read by the watchdog under expiry_mutex_.
  Instance* guard_instance_ = nullptr;
  int64_t guard_started_ns_ = 0;
  bool guard_expired_ = false;     // the watchdog asked for its termination (expiry_mutex_)
  bool guard_terminated_ = false;  // on_interrupt terminated it (thread holding the isolate)
  std::vector<JsFrame> guard_stack_;
  std::atomic<int> expiries_pending_{0};  // expiries_, yields_, helds_ and an expired guard
  std::atomic<JsInterrupter*> interrupter_{nullptr};
  uv_check_t check_{};
  bool check_open_ = false;  // JS thread

  // JS thread only.
  void (*on_stop_)(void*) = nullptr;
  void* stop_data_ = nullptr;
  JsExecutor* executor_ = nullptr;
  std::deque<Call*> batch_;
  std::map<int, Instance*> instances_;  // each holds a reference
  Instance* executing_ = nullptr;       // whose handler is on the stack right now
  uint64_t next_sequence_ = 1;
  // Counts the times the runtime regained control from JavaScript (calls, loop turns): JS
  // that ran through none of them ran without a break. Written by the thread holding the
  // isolate only (a plain add), read by the watchdog too (progress()).
  std::atomic<uint64_t> progress_{0};
  void advance_progress() { progress_.store(progress_.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed); }
  Termination termination_;
  bool resume_pending_ = false;  // JavaScript outside any call was terminated
  JsSpin js_spin_;
};

}  // namespace dsnode

#endif
