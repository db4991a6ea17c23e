// DS_ELEMENT_HANDOFF_STATS=1: how often each side's spin paid off, printed at teardown.
#include "runtime/handoff_statistics.h"

#include <cstdio>

namespace dsnode {

void HandoffStatistics::print() const {
  const HandoffStatistics& s = *this;
  std::fprintf(stderr,
      "dsnode hand-off: caller spin hits %llu, caller sleeps %llu, wake-ups sent %llu, "
      "JS wakes %llu, JS spin hits %llu, JS spin misses %llu, direct calls %llu, "
      "direct waits %llu; isolate gate: entries %llu, hand-overs %llu, spin takes %llu, "
      "sleeps %llu, wake-ups %llu, turns passed on %llu, idle turns taken %llu, stalled turns %llu\n",
      static_cast<unsigned long long>(s.caller_spin_hits.load()),
      static_cast<unsigned long long>(s.caller_sleeps.load()),
      static_cast<unsigned long long>(s.wakeups_sent.load()),
      static_cast<unsigned long long>(s.wakes), static_cast<unsigned long long>(s.js_spin_hits),
      static_cast<unsigned long long>(s.js_spin_misses),
      static_cast<unsigned long long>(s.direct_calls.load()),
      static_cast<unsigned long long>(s.direct_waits.load()),
      static_cast<unsigned long long>(s.gate_entries.load()),
      static_cast<unsigned long long>(s.gate_handovers.load()),
      static_cast<unsigned long long>(s.gate_spin_takes.load()),
      static_cast<unsigned long long>(s.gate_sleeps.load()),
      static_cast<unsigned long long>(s.gate_wakeups.load()),
      static_cast<unsigned long long>(s.gate_turns.load()),
      static_cast<unsigned long long>(s.gate_idle_turns.load()),
      static_cast<unsigned long long>(s.gate_stalled_turns.load()));
}

}  // namespace dsnode
