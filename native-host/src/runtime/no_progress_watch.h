// How the runtime tells JavaScript that runs without a break: the hand-off counts the times it
// regains control from JavaScript (Handoff::progress()); JavaScript that has held the isolate
// while the count stayed put, for a grace period, is stuck.
#ifndef DSNODE_RUNTIME_NO_PROGRESS_WATCH_H
#define DSNODE_RUNTIME_NO_PROGRESS_WATCH_H

#include <cstdint>

namespace dsnode {

struct NoProgressWatch {
  bool marked = false;
  uint64_t progress_mark = 0;  // the count when first seen
  int64_t mark_ns = 0;         // and when

  // True when the count has stayed at `progress` for `grace_ns` up to `now`; otherwise (the
  // first look, or the count moved) the watch starts afresh at `progress` and returns false.
  bool stuck_for(uint64_t progress, int64_t now, int64_t grace_ns) {
    if (!marked || progress_mark != progress) {
      marked = true;
      progress_mark = progress;
      mark_ns = now;
      return false;
    }
    return now - mark_ns >= grace_ns;
  }
  // How long the count has stayed put, up to `now`.
  int64_t held_ns(int64_t now) const { return now - mark_ns; }
  void reset() { marked = false; }
};

}  // namespace dsnode

#endif
