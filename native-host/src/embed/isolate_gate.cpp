// IsolateGate (isolate_gate.h): turns, then spin, then sleep, for the isolate.
#include "embed/isolate_gate.h"

#include <algorithm>
#include <chrono>

#include "runtime/clock.h"

namespace dsnode {

void IsolateGate::configure(int64_t spin_ns, int max_spinners, int64_t turn_ns, HandoffStatistics* statistics) {
  spin_ns_ = spin_ns;
  max_spinners_ = max_spinners;
  turn_ns_ = turn_ns;
  statistics_ = statistics;
}

bool IsolateGate::enter(const void* waiter, const std::atomic<bool>* abandon, bool takes_turns) {
  const void* me = this_thread();
  if (stalled_thread_.load(std::memory_order_relaxed) == me) came_back_after_stall(me);
  bool taken = try_take(me, takes_turns) || spin(me, takes_turns, abandon) ||
               (takes_turns && take_idle_turn(me, abandon)) || sleep(me, waiter, takes_turns, abandon);
  if (taken && statistics_ != nullptr) count_holder();
  return taken;
}

// Nobody's turn; this thread's; one handed on whose thread has not taken the gate yet (the
// thread before goes on meanwhile rather than leave the isolate idle while it wakes); or a turn
// over by a quarter of its length that its thread did not hand on (it has not come back).
bool IsolateGate::my_turn(const void* me) const {
  if (turn_ns_ <= 0) return true;
  const void* turn = turn_thread_.load();
  if (turn == nullptr || turn == me || !turn_started_.load()) return true;
  return turn_lapsed();
}

bool IsolateGate::turn_lapsed() const { return now_ns() >= turn_end_ns_.load() + turn_ns_ / 4; }

bool IsolateGate::try_take(const void* me, bool takes_turns) {
  return (!takes_turns || my_turn(me)) && take_if_free(me, takes_turns, false);
}

bool IsolateGate::take_if_free(const void* me, bool takes_turns, bool slept) {
  bool expected = false;
  if (held_.load() || !held_.compare_exchange_strong(expected, true)) return false;
  holder_cpu_.store(sched_getcpu(), std::memory_order_relaxed);
  if (takes_turns && turn_ns_ > 0) claim_turn(me, slept);
  return true;
}

// Holding the gate. A turn handed on but not begun stays its thread's: this call is the
// thread before's, while that one wakes.
void IsolateGate::claim_turn(const void* me, bool slept) {
  const void* turn = turn_thread_.load();
  if (turn == me) {
    if (!turn_started_.load()) begin_turn(me);
    turn_takes_.store(turn_takes_.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
    return;
  }
  if (turn == nullptr) {
    const int64_t off_until = turns_off_until_ns_.load();
    if (off_until != 0) {
      if (now_ns() < off_until) return;
      turns_off_until_ns_.store(0);
    }
    begin_turn(me);
    return;
  }
  if (!turn_started_.load() || !turn_lapsed()) return;
  if (!slept) {
    // Lapsed with nobody waiting (its thread went on with no one to pass it to).
    begin_turn(me);
    return;
  }
  // A stall: this thread slept for a turn whose thread neither came back to pass it on nor held
  // the isolate, so the isolate stood idle while it waited. Now and then that is a stream that
  // ended, or a thread the system kept off its core. But if that thread's stream was waiting for
  // this one's (a tee whose other branch's queue is full, a muxer that waits for its other
  // inputs), turns stall again and again: two such stalls in four turns turn them off for a
  // while (turn_turns_off).
  // A stream that ended does not come back; one that waited for this one's comes back as soon
  // as this one's buffer has moved on (enter() counts the stall then).
  stalled_at_ns_.store(now_ns());
  stalled_thread_.store(turn);
  turn_thread_.store(nullptr);
  if (statistics_ != nullptr) statistics_->gate_stalled_turns.fetch_add(1, std::memory_order_relaxed);
}

// The thread whose turn stalled (claim_turn) is back. Soon (50 ms, for a busy machine): it had
// been waiting for the stream of the thread that took over, and turns between these streams
// will stall again.
void IsolateGate::came_back_after_stall(const void* me) {
  const void* expected = me;
  if (!stalled_thread_.compare_exchange_strong(expected, nullptr)) return;
  if (now_ns() - stalled_at_ns_.load() < kComebackNs && record_turn_end(true)) turn_turns_off();
}

// For 10 ms where turns went well for a while before (a pipeline prerolling or going to EOS
// makes its streams wait for each other now and then); twice as long as the last time where
// they stalled again right away (a tee), up to 2 s.
void IsolateGate::turn_turns_off() {
  std::lock_guard<std::mutex> lock(mutex_);
  turns_off_for_ns_ = good_turns_.load() >= kGoodTurns ? kFirstTurnsOffNs : std::min(turns_off_for_ns_ * 2, kLongestTurnsOffNs);
  good_turns_.store(0);
  turns_off_until_ns_.store(now_ns() + turns_off_for_ns_);
}

// True when turns stalled often enough lately to be turned off (and forgets them then).
bool IsolateGate::record_turn_end(bool stalled) {
  uint32_t before = turn_history_.load();
  uint32_t after;
  do {
    after = ((before << 1) | (stalled ? 1u : 0u)) & 0xFu;
  } while (!turn_history_.compare_exchange_weak(before, after));
  if (!stalled || __builtin_popcount(after) < 2) return false;
  turn_history_.store(0);
  return true;
}

void IsolateGate::begin_turn(const void* me) {
  turn_end_ns_.store(now_ns() + turn_ns_);
  turn_started_.store(true);
  turn_thread_.store(me);
}

// Another thread's turn: it is kept only while that thread comes back for its next call. A
// thread that finds the gate free watches for kIdleTurnNs; if the turn's thread neither holds
// the gate nor takes it again meanwhile, it is busy elsewhere (its stream waits for a clock, a
// queue, the next buffer of a live source) and this thread takes the turn instead of sleeping
// through it.
bool IsolateGate::take_idle_turn(const void* me, const std::atomic<bool>* abandon) {
  if (turn_ns_ <= 0 || held_.load() || my_turn(me)) return false;
  const uint32_t takes = turn_takes_.load(std::memory_order_relaxed);
  const void* turn = turn_thread_.load();
  auto turn_moved = [&] {
    return held_.load() || turn_takes_.load(std::memory_order_relaxed) != takes || turn_thread_.load() != turn ||
           (abandon != nullptr && abandon->load());
  };
  spin_until(turn_moved, now_ns(), kIdleTurnNs);
  if (turn_moved() || !take_if_free(me, false, false)) return false;
  if (turn_thread_.load() == turn) begin_turn(me);
  if (statistics_ != nullptr) statistics_->gate_idle_turns.fetch_add(1, std::memory_order_relaxed);
  return true;
}

// True when it took the gate; false when it did not spin (not its turn, budget 0, enough
// spinners already), the budget ran out, the holder is not running (it took the gate on this
// core), or the caller gave up (sleep() then returns at once).
bool IsolateGate::spin(const void* me, bool takes_turns, const std::atomic<bool>* abandon) {
  if (spin_ns_ <= 0 || (takes_turns && !my_turn(me))) return false;
  bool taken = false;
  if (spinners_.fetch_add(1, std::memory_order_relaxed) < max_spinners_) {
    spin_until(
        [&] {
          if ((taken = try_take(me, takes_turns))) return true;
          return (abandon != nullptr && abandon->load()) ||
                 holder_cpu_.load(std::memory_order_relaxed) == sched_getcpu() ||
                 (takes_turns && !my_turn(me));
        },
        now_ns(), spin_ns_);
  }
  spinners_.fetch_sub(1, std::memory_order_relaxed);
  if (taken && statistics_ != nullptr) statistics_->gate_spin_takes.fetch_add(1, std::memory_order_relaxed);
  return taken;
}

bool IsolateGate::sleep(const void* me, const void* waiter, bool takes_turns, const std::atomic<bool>* abandon) {
  std::unique_lock<std::mutex> lock(mutex_);
  Sleeper self{waiter, me, takes_turns, {}};
  sleepers_.push_back(&self);
  // seq_cst, pairs with leave(): either try_take() below sees the gate free, or leave() sees
  // a sleeper and wakes it (under mutex_, so not before this thread waits).
  sleepers_count_.fetch_add(1);
  if (statistics_ != nullptr) statistics_->gate_sleeps.fetch_add(1, std::memory_order_relaxed);
  bool taken = false;
  for (;;) {
    if (abandon != nullptr && abandon->load()) break;
    // Looked at once a round: a turn that lapses between two looks must not leave this thread
    // asleep for a turn it was about to get.
    // A turn whose thread waits in line too (for the JS thread, say) has not lapsed: that thread
    // comes back, and passes the turn on then.
    const bool mine = !takes_turns || (my_turn(me) && !turn_thread_in_line(me));
    if (mine && (taken = take_if_free(me, takes_turns, true))) break;
    if (takes_turns && turn_thread_.load() == me) {
      // Handed the turn, and awake: it begins now (the thread before waits from here on), and
      // the gate is that thread's for a microsecond or two more.
      if (!turn_started_.load()) begin_turn(me);
      lock.unlock();
      taken = spin(me, takes_turns, abandon);
      lock.lock();
      if (taken) break;
      if (abandon != nullptr && abandon->load()) break;
      if ((taken = take_if_free(me, takes_turns, true))) break;
    }
    if (takes_turns && turn_ns_ > 0 && first_turn_taker() == &self) {
      // The first in line never sleeps for good: the turn's thread may not come back to hand
      // it on, and a newcomer may take a lapsed turn while this one waited for the gate.
      const int64_t now = now_ns();
      int64_t deadline = turn_end_ns_.load() + turn_ns_ / 4;
      if (deadline <= now) deadline = now + turn_ns_;
      self.wake.wait_until(lock, std::chrono::steady_clock::time_point(std::chrono::nanoseconds(deadline)));
    } else {
      self.wake.wait(lock);
    }
    if (statistics_ != nullptr) statistics_->gate_wakeups.fetch_add(1, std::memory_order_relaxed);
  }
  const bool was_first = first_turn_taker() == &self;
  sleepers_count_.fetch_sub(1);
  sleepers_.erase(std::find(sleepers_.begin(), sleepers_.end(), &self));
  // Gave up (flushing) with the turn handed to it: nobody's now.
  const void* handed = me;
  const bool gave_turn_up = !taken && turn_thread_.compare_exchange_strong(handed, nullptr);
  // Either way the next in line is told (and watches the clock from now on, if it is first).
  if (gave_turn_up || was_first) {
    if (Sleeper* next = first_turn_taker()) next->wake.notify_one();
  }
  return taken;
}

bool IsolateGate::turn_thread_in_line(const void* me) {
  const void* turn = turn_thread_.load();
  if (turn == nullptr || turn == me) return false;
  return std::any_of(sleepers_.begin(), sleepers_.end(), [&](const Sleeper* sleeper) { return sleeper->thread == turn; });
}

IsolateGate::Sleeper* IsolateGate::first_turn_taker() {
  for (Sleeper* sleeper : sleepers_) {
    if (sleeper->takes_turns) return sleeper;
  }
  return nullptr;
}

void IsolateGate::leave() {
  held_.store(false);
  if (sleepers_count_.load() == 0) return;
  const void* me = this_thread();
  std::lock_guard<std::mutex> lock(mutex_);
  wake_after_leave(me);
}

void IsolateGate::wake_after_leave(const void* me) {
  if (sleepers_.empty()) return;
  if (turn_ns_ <= 0) {
    sleepers_.front()->wake.notify_one();
    return;
  }
  // The JS thread takes no turns: it may come in whenever the gate is free.
  for (Sleeper* sleeper : sleepers_) {
    if (!sleeper->takes_turns) sleeper->wake.notify_one();
  }
  const void* turn = turn_thread_.load();
  if (turn == me) {
    // This thread's turn: it goes on until its time is up, then passes to the first in line.
    Sleeper* next = first_turn_taker();
    if (next == nullptr || now_ns() < turn_end_ns_.load()) return;
    turn_started_.store(false);
    turn_thread_.store(next->thread);
    record_turn_end(false);
    good_turns_.fetch_add(1);
    if (statistics_ != nullptr) statistics_->gate_turns.fetch_add(1, std::memory_order_relaxed);
    next->wake.notify_one();
    return;
  }
  // Left by a thread whose turn it is not (the JS thread, or a call between turns): the
  // turn's thread, if it sleeps; else, with no turn going on, the first in line.
  for (Sleeper* sleeper : sleepers_) {
    if (sleeper->thread == turn) {
      sleeper->wake.notify_one();
      return;
    }
  }
  if (turn == nullptr || !turn_started_.load() || turn_lapsed()) {
    if (Sleeper* first = first_turn_taker()) first->wake.notify_one();
  }
}

void IsolateGate::wake_all() {
  std::lock_guard<std::mutex> lock(mutex_);
  for (Sleeper* sleeper : sleepers_) sleeper->wake.notify_one();
}

bool IsolateGate::waiting(const void* waiter) {
  std::lock_guard<std::mutex> lock(mutex_);
  return std::any_of(sleepers_.begin(), sleepers_.end(), [&](const Sleeper* sleeper) { return sleeper->waiter == waiter; });
}

// A Locker taken by another thread than the one that held it last makes V8 archive that
// thread's state and restore this one's.
void IsolateGate::count_holder() {
  const void* me = this_thread();
  if (last_holder_.exchange(me, std::memory_order_relaxed) != me) {
    statistics_->gate_handovers.fetch_add(1, std::memory_order_relaxed);
  }
  statistics_->gate_entries.fetch_add(1, std::memory_order_relaxed);
}

}  // namespace dsnode
