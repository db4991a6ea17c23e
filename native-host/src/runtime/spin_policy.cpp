#include "runtime/spin_policy.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <thread>

#include <glib.h>

namespace dsnode {
namespace {

// Below this a spin is not worth starting.
constexpr int64_t kMinimumSpinNs = 1000;

int64_t microseconds_from_env(const char* name, int64_t fallback) {
  const char* text = g_getenv(name);
  if (text == nullptr || *text == '\0') return fallback;
  char* end = nullptr;
  errno = 0;
  long long value = std::strtoll(text, &end, 10);
  if (errno != 0 || end == text || *end != '\0' || value < 0 || value > 1000000) {
    g_warning("dsnode: ignoring %s=\"%s\": expected microseconds from 0 to 1000000", name, text);
    return fallback;
  }
  return value;
}

int64_t halved(int64_t budget_ns, int64_t max_ns) {
  int64_t half = std::min(budget_ns, max_ns) / 2;
  return half < kMinimumSpinNs ? 0 : half;
}

}  // namespace

SpinSettings SpinSettings::from_environment() {
  SpinSettings settings;
  settings.caller_spin_ns = microseconds_from_env("DS_ELEMENT_SPIN_US", kDefaultCallerSpinUs) * 1000;
  settings.js_spin_ns = microseconds_from_env("DS_ELEMENT_JS_SPIN_US", kDefaultJsSpinUs) * 1000;
  settings.gate_spin_ns = microseconds_from_env("DS_ELEMENT_GATE_SPIN_US",
      std::min(kDefaultGateSpinUs, settings.caller_spin_ns / 1000)) * 1000;
  settings.gate_turn_ns = microseconds_from_env("DS_ELEMENT_GATE_TURN_US", kDefaultGateTurnUs) * 1000;
  const char* statistics = g_getenv("DS_ELEMENT_HANDOFF_STATS");
  settings.statistics = statistics != nullptr && *statistics == '1';
  if (const char* mode = g_getenv("DS_ELEMENT_HANDOFF"); mode != nullptr && *mode != '\0') {
    if (std::strcmp(mode, "direct") == 0) {
      settings.mode = HandoffMode::kDirect;
    } else if (std::strcmp(mode, "queue") == 0) {
      settings.mode = HandoffMode::kQueue;
    } else {
      g_warning("dsnode: ignoring DS_ELEMENT_HANDOFF=\"%s\": expected \"direct\" or \"queue\"", mode);
    }
  }
  unsigned cores = std::thread::hardware_concurrency();
  settings.max_spinning_callers = std::max(1, static_cast<int>(cores) - 1);
  return settings;
}

int64_t CallerSpin::budget_ns(int64_t max_ns) {
  if (max_ns <= 0) return 0;
  int64_t budget = std::min(budget_ns_.load(std::memory_order_relaxed), max_ns);
  if (budget < max_ns && last_service_ns_.load(std::memory_order_relaxed) <= max_ns &&
      calls_.fetch_add(1, std::memory_order_relaxed) % kProbeInterval == kProbeInterval - 1) {
    return kProbeFactor * max_ns;
  }
  return budget;
}

void CallerSpin::record(bool spun, bool hit, int64_t service_ns, int64_t max_ns) {
  last_service_ns_.store(service_ns, std::memory_order_relaxed);
  if (!spun || max_ns <= 0) return;
  int64_t budget = hit ? max_ns : halved(budget_ns_.load(std::memory_order_relaxed), max_ns);
  budget_ns_.store(budget, std::memory_order_relaxed);
}

void JsSpin::record_spin(bool hit, int64_t max_ns) {
  budget_ns_ = hit ? max_ns : halved(budget_ns_, max_ns);
}

void JsSpin::record_wake(int64_t think_ns, int64_t max_ns) {
  if (think_ns >= 0 && think_ns <= max_ns) budget_ns_ = max_ns;
}

}  // namespace dsnode
