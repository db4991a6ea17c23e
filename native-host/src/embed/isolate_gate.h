// Who may take the isolate's v8::Locker next (direct mode). Every thread that takes the Locker
// (callers, and the JS thread for its loop turns) passes this gate first and leaves it right
// after releasing the Locker, so a thread waiting for the isolate waits here, where it can give
// up: a streaming thread whose element is flushing (state change, seek) must not wait for
// JavaScript of another element that does not return (V8's own lock cannot be given up).
//
// Turns. Streaming threads take the isolate in turns of SpinSettings::gate_turn_ns (a
// millisecond): the thread whose turn it is takes it call after call, and another streaming
// thread that wants it meanwhile sleeps until the turn is over and handed to it (oldest
// sleeper first). The same JavaScript costs two to three times as much when the call before
// ran on another core (V8's per-thread state, the isolate's and the heap's hot lines move
// between the cores, and the Locker archives one thread's state and restores the other's), so
// several streams whose threads took the isolate in whatever order spent most of their CPU on
// that (bench/RESULTS.md, "Turns at the isolate's gate"). A turn ends early when its thread
// does not come back: a thread that arrives takes it over after 20 us, and a sleeper once the
// turn is over by a quarter of its length (a stall; streams that wait for each other stall at
// every turn, and turns then turn themselves off for a while). The JS thread takes no turns:
// it enters whenever the isolate is free, like before.
//
// A thread that finds the gate held when it may take it spins for it first
// (SpinSettings::gate_spin_ns; at most `max_spinners` threads at once), then sleeps. A thread
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
  // Before any thread enters. `turn_ns` 0: no turns (any thread takes the gate when it is
  // free). `statistics` (may be null) counts spins, sleeps, wake-ups and turns.
  void configure(int64_t spin_ns, int max_spinners, int64_t turn_ns, HandoffStatistics* statistics);

  // Waits until this thread may hold the isolate and no other thread does; false (gate not
  // taken) if *abandon turned true first. Who sleeps is known by `waiter` meanwhile.
  // `takes_turns`: a streaming thread (true) or the JS thread (false).
  bool enter(const void* waiter, const std::atomic<bool>* abandon, bool takes_turns = true);
  void leave();
  // Sleepers look at their `abandon` flag again (spinners look at it all the time).
  void wake_all();
  bool waiting(const void* waiter);

 private:
  // A thread asleep in enter(), on its own stack; in sleepers_ (oldest first) under mutex_.
  struct Sleeper {
    const void* waiter;
    const void* thread;
    bool takes_turns;
    std::condition_variable wake;
  };

  static const void* this_thread() {
    thread_local char marker;
    return &marker;
  }
  // Whether `me` may take the gate now as far as turns go (not whether it is free).
  bool my_turn(const void* me) const;
  // The turn going on is over by a quarter of its length (its thread did not hand it on).
  bool turn_lapsed() const;
  bool try_take(const void* me, bool takes_turns);
  // `slept`: the thread slept in line for it (sleep()).
  bool take_if_free(const void* me, bool takes_turns, bool slept);
  void claim_turn(const void* me, bool slept);
  void begin_turn(const void* me);
  bool record_turn_end(bool stalled);
  void came_back_after_stall(const void* me);
  void turn_turns_off();
  bool take_idle_turn(const void* me, const std::atomic<bool>* abandon);
  bool spin(const void* me, bool takes_turns, const std::atomic<bool>* abandon);
  bool sleep(const void* me, const void* waiter, bool takes_turns, const std::atomic<bool>* abandon);
  // Under mutex_: whether another thread's turn is that of a thread asleep in line.
  bool turn_thread_in_line(const void* me);
  // Under mutex_: the first sleeper that takes turns, or null.
  Sleeper* first_turn_taker();
  // Under mutex_, with the gate just left by `me`: who to wake.
  void wake_after_leave(const void* me);
  void count_holder();

  std::atomic<bool> held_{false};
  std::atomic<int> holder_cpu_{-1};  // the core the holder took it on
  std::atomic<int> spinners_{0};
  std::atomic<int> sleepers_count_{0};
  std::mutex mutex_;  // sleepers_count_ rises, and sleepers_ changes, only under it
  std::vector<Sleeper*> sleepers_;

  // Turns (turn_ns_ > 0). Changed by the thread holding the gate only, except that a thread
  // handed a turn it then gives up (abandoned) clears it.
  std::atomic<const void*> turn_thread_{nullptr};  // whose turn it is; null: nobody's
  std::atomic<bool> turn_started_{false};          // it has taken the gate since it was handed the turn
  std::atomic<int64_t> turn_end_ns_{0};
  std::atomic<uint32_t> turn_takes_{0};  // times the turn's thread took the gate in its turn
  static constexpr int64_t kIdleTurnNs = 20000;
  // After stalls (claim_turn), no turns until then (0: turns on).
  std::atomic<int64_t> turns_off_until_ns_{0};
  static constexpr int64_t kFirstTurnsOffNs = 10'000'000;
  static constexpr int64_t kLongestTurnsOffNs = 2'000'000'000;
  static constexpr int kGoodTurns = 8;
  int64_t turns_off_for_ns_ = kFirstTurnsOffNs;  // under mutex_
  std::atomic<int> good_turns_{kGoodTurns};     // turns passed on since turns were last turned off
  std::atomic<uint32_t> turn_history_{0};  // the last four turns' ends, newest lowest: 1 a stall
  std::atomic<const void*> stalled_thread_{nullptr};  // the thread of the turn that stalled last
  std::atomic<int64_t> stalled_at_ns_{0};
  static constexpr int64_t kComebackNs = 50'000'000;
  int64_t turn_ns_ = 0;

  int64_t spin_ns_ = 0;
  int max_spinners_ = 1;
  HandoffStatistics* statistics_ = nullptr;
  std::atomic<const void*> last_holder_{nullptr};  // statistics only: the thread that held it last
};

}  // namespace dsnode

#endif
