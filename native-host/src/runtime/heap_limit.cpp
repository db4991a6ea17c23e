// The heap limit (handoff.h): V8's near-heap-limit callback ends the running call as if its
// deadline had passed, instead of aborting the process.
#include "runtime/handoff.h"

#include <algorithm>
#include <string>


namespace dsnode {

size_t Handoff::on_near_heap_limit(size_t current_limit, size_t initial_limit) {
  // Enough for the allocation under way and the unwinding; the initial limit comes back once
  // the heap shrinks again (embed/ has V8 restore it).
  const size_t headroom = std::max<size_t>(initial_limit / 4, size_t{64} << 20);
  if (current_limit >= 3 * initial_limit) return current_limit;  // nothing more to give: V8 aborts
  if (!termination_.active) {
    Call* running = executing_ != nullptr ? executing_->running : nullptr;
    if (running != nullptr) {
      termination_ = Termination{true, executing_->id(), running->sequence, true,
          ExpiryReason::kTimeout, initial_limit, {}, "", 0};
    } else {
      // No call's handler is running (a timer, a Promise reaction): whose it is cannot be told.
      const std::string message = "JavaScript heap out of memory outside any call: the heap reached its limit of " +
          std::to_string(initial_limit >> 20) + " MiB and the JavaScript running was interrupted";
      post_error_to_owners(message.c_str(),
          "Raise the limit with DS_ELEMENT_HEAP_MB, or find what keeps growing (DS_ELEMENT_NODE_OPTIONS=--inspect)");
    }
  }
  terminate_javascript();
  return current_limit + headroom;
}

}  // namespace dsnode
