#include "runtime/spin_policy.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <thread>

#include <glib.h>

namespace dsnode {
namespace {

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

}  // namespace

SpinSettings SpinSettings::from_environment() {
  SpinSettings settings;
  settings.caller_spin_ns = microseconds_from_env("DS_ELEMENT_SPIN_US", kDefaultCallerSpinUs) * 1000;
  settings.js_spin_ns = microseconds_from_env("DS_ELEMENT_JS_SPIN_US", kDefaultJsSpinUs) * 1000;
  unsigned cores = std::thread::hardware_concurrency();
  settings.max_spinning_callers = std::max(1, static_cast<int>(cores) - 1);
  return settings;
}

void AdaptiveSpin::record(int64_t wait_ns, int64_t max_spin_ns) {
  if (max_spin_ns <= 0) return;
  // Exponential moving average over ~8 calls: one slow buffer does not stop the spin.
  int64_t average = average_ns_.load(std::memory_order_relaxed);
  average = average == 0 ? wait_ns : average + (wait_ns - average) / 8;
  average_ns_.store(average, std::memory_order_relaxed);

  int64_t budget = budget_ns_.load(std::memory_order_relaxed);
  if (average <= max_spin_ns) {
    budget = max_spin_ns;
  } else if (average > 2 * max_spin_ns) {
    // Halving (rather than dropping to zero) keeps catching replies that are only
    // sometimes long; under a microsecond it is no longer worth the core.
    budget = std::min(budget, max_spin_ns) / 2;
    if (budget < 1000) budget = 0;
  }
  budget_ns_.store(budget, std::memory_order_relaxed);
}

}  // namespace dsnode
