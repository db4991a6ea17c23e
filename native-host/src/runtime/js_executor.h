// What the hand-off needs from the binding: running calls on the JS thread.
// Kept free of napi.h so runtime/ stays independent of Node headers.
#ifndef DSNODE_RUNTIME_JS_EXECUTOR_H
#define DSNODE_RUNTIME_JS_EXECUTOR_H

#include "runtime/call.h"

namespace dsnode {

class JsExecutor {
 public:
  virtual ~JsExecutor() = default;

  // Runs `body` (which starts calls) inside the scopes that calling into JS from a libuv
  // callback needs. Closing them runs the microtask and nextTick queues, which is where
  // Promises returned by handlers make progress.
  virtual void run_in_js_scope(void (*body)(void*), void* data) = 0;

  // Starts `call` on the JS thread. Must end in Handoff::complete(call) exactly once: before
  // returning (synchronous handler) or later (returned Promise settles).
  virtual void start(Call& call) = 0;
};

}  // namespace dsnode

#endif
