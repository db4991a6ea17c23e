#include "runtime/watchdog.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <thread>

#include <glib.h>

#include "runtime/clock.h"
#include "runtime/handoff.h"

namespace dsnode {
namespace {

int64_t seconds_to_ns(double seconds) { return static_cast<int64_t>(std::llround(seconds * 1e9)); }

}  // namespace

WatchdogSettings WatchdogSettings::from_environment() {
  WatchdogSettings settings;
  const char* text = g_getenv("DS_ELEMENT_CALL_TIMEOUT_S");
  if (text == nullptr || *text == '\0') return settings;
  char* end = nullptr;
  errno = 0;
  const double value = std::strtod(text, &end);
  if (errno != 0 || end == text || *end != '\0' || !std::isfinite(value) || value < 0 ||
      value > kMaxTimeoutS) {
    g_warning("dsnode: ignoring DS_ELEMENT_CALL_TIMEOUT_S=\"%s\": expected seconds from 0 (no "
              "deadline) to %.0f",
        text, kMaxTimeoutS);
    return settings;
  }
  settings.environment_s = value;
  return settings;
}

int64_t WatchdogSettings::timeout_ns(double declared_s) const {
  if (environment_s >= 0) return seconds_to_ns(environment_s);
  if (declared_s >= 0) return seconds_to_ns(std::min(declared_s, kMaxTimeoutS));
  return seconds_to_ns(kDefaultTimeoutS);
}

Watchdog& Watchdog::get() {
  // Never destroyed: its thread may still run while the process exits.
  static Watchdog* watchdog = new Watchdog();
  return *watchdog;
}

void Watchdog::watch(Instance* instance) {
  if (instance->timeout_ns() <= 0) return;
  instance->ref();
  std::lock_guard<std::mutex> lock(mutex_);
  watched_.push_back(Watched{instance});
  start_thread();
  wake_.notify_one();
}

void Watchdog::follow_up() {
  std::lock_guard<std::mutex> lock(mutex_);
  start_thread();
  wake_.notify_one();
}

void Watchdog::start_thread() {
  if (thread_started_) return;
  thread_started_ = true;
  // Detached: it only sleeps and looks at instances, and is never in the way at exit.
  std::thread([this] { run(); }).detach();
}

void Watchdog::forget(Instance* instance) {
  Instance* found = nullptr;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = std::find_if(watched_.begin(), watched_.end(),
        [instance](const Watched& watched) { return watched.instance == instance; });
    if (it == watched_.end()) return;
    found = it->instance;
    watched_.erase(it);
  }
  found->unref();
}

void Watchdog::run() {
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    // Asleep while there is nothing to watch and nothing to follow up.
    wake_.wait(lock, [this] { return !watched_.empty() || any_expiries_pending(); });
    wake_.wait_for(lock, std::chrono::nanoseconds(kTickNs));
    lock.unlock();
    tick(now_ns());
    lock.lock();
  }
}

void Watchdog::tick(int64_t now) {
  struct Due {
    Instance* instance;
    uint64_t sequence;
  };
  std::vector<Due> due;
  struct Held {
    Instance* waiter;
    uint64_t progress;
    int64_t since_ns;
  };
  std::vector<Held> held;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    for (Watched& watched : watched_) {
      // Progress of the environment the instance runs in (each has its own isolate).
      const uint64_t progress = watched.instance->handoff().progress();
      if (watched.instance->waiting_for_isolate.load(std::memory_order_relaxed) <= 0) {
        watched.waiting = false;
      } else if (!watched.waiting || watched.wait_progress != progress) {
        watched.waiting = true;
        watched.wait_progress = progress;
        watched.wait_seen_ns = now;
        watched.wait_reported = false;
      } else if (!watched.wait_reported && now - watched.wait_seen_ns >= watched.instance->timeout_ns()) {
        watched.wait_reported = true;
        watched.instance->ref();
        held.push_back(Held{watched.instance, progress, watched.wait_seen_ns});
      }
      const uint64_t sequence = watched.instance->running_sequence.load();
      if (sequence != watched.sequence) {
        watched.sequence = sequence;
        watched.seen_ns = now;
        watched.expired = false;
        continue;
      }
      if (sequence == 0 || watched.expired) continue;
      // It started after the tick before it was first seen: this never expires it early.
      if (now - watched.seen_ns < watched.instance->timeout_ns()) continue;
      watched.expired = true;
      watched.instance->ref();
      due.push_back(Due{watched.instance, sequence});
    }
  }
  for (const Due& expired : due) {
    expired.instance->handoff().expire(expired.instance, expired.sequence, Handoff::ExpiryReason::kTimeout);
    expired.instance->unref();
  }
  for (const Held& waited : held) {
    waited.waiter->handoff().isolate_held(waited.waiter, waited.progress, waited.since_ns);
    waited.waiter->unref();
  }
  // Every environment: its guard, and expiries whose JavaScript has not been reached yet (ask
  // again, see Handoff::nudge).
  Handoff::for_each(
      [](Handoff& handoff, void* at) {
        handoff.check_guard(*static_cast<int64_t*>(at));
        if (handoff.expiries_pending()) handoff.nudge();
      },
      &now);
}

bool Watchdog::any_expiries_pending() {
  bool pending = false;
  Handoff::for_each([](Handoff& handoff, void* any) { *static_cast<bool*>(any) |= handoff.expiries_pending(); },
      &pending);
  return pending;
}

}  // namespace dsnode
