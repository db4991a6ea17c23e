// What the hand-off needs from the binding: running calls on the JS thread.
// Kept free of napi.h so runtime/ stays independent of Node headers.
#ifndef DSNODE_RUNTIME_JS_EXECUTOR_H
#define DSNODE_RUNTIME_JS_EXECUTOR_H

#include <atomic>
#include <string>
#include <vector>

#include "runtime/call.h"

namespace dsnode {

// One frame of the JavaScript stack as V8 reports it: positions in the bundle (1-based), which
// the executor maps back to the user's sources when it formats them.
struct JsFrame {
  std::string function;
  std::string script;
  int line = 0;
  int column = 0;
};

class JsExecutor {
 public:
  virtual ~JsExecutor() = default;

  // Runs `body` (which starts calls) inside the scopes that calling into JS from a libuv
  // callback needs. Closing them runs the microtask and nextTick queues, which is where
  // Promises returned by handlers make progress.
  virtual void run_in_js_scope(void (*body)(void*), void* data) = 0;

  // Direct mode, one transform call and nothing queued before it: like run_in_js_scope, but
  // where host.js drains the queues itself (handlers.drainsQueues), without a callback scope:
  // the transform handler is told to run the microtask and nextTick queues before it returns,
  // which costs far less than a scope around every buffer. Whatever `body` ran that did not
  // drain (no transform started, a Promise to wait for) gets its queues run as a scope would.
  virtual void run_unscoped(void (*body)(void*), void* data) { run_in_js_scope(body, data); }

  // Starts `call` on the JS thread. Must end in Handoff::complete(call) exactly once: before
  // returning (synchronous handler) or later (returned Promise settles).
  virtual void start(Call& call) = 0;

  // A transform call completes (on the thread holding the isolate, right before its caller
  // is released): the metadata it opened must become unreachable from JS now, because the
  // caller frees the batch as soon as it resumes.
  virtual void end_transform(Call& call) {}

  // The watchdog's tools (handoff.h), on the thread holding the isolate.
  // Inside JavaScript (an interrupt): where it is now, innermost frame first.
  virtual std::vector<JsFrame> capture_stack() { return {}; }
  // Inside JavaScript: stops it; it unwinds, uncatchable, to the outermost call into it.
  virtual void terminate() {}
  // Outside JavaScript, after terminate(): JavaScript may run again.
  virtual void resume() {}
  // Outside JavaScript: "    at function (file:line:column)" lines, in the user's sources
  // where a source map says so.
  virtual std::string format_stack(const std::vector<JsFrame>& frames);
};

// Has Handoff::on_interrupt() run on the thread that executes JavaScript, at its next interrupt
// check (a call, or a loop's back edge), or when JavaScript next runs. Any thread. embed/.
class JsInterrupter {
 public:
  virtual ~JsInterrupter() = default;
  virtual void request_interrupt() = 0;
  // On the thread holding the isolate, right before JavaScript is terminated: empties Node's
  // async context stack, which the terminated JavaScript would leave holding what it pushed.
  virtual void clear_async_context() = 0;
};

// Direct hand-off (DS_ELEMENT_HANDOFF=direct): lets a streaming thread run JS itself.
// Implemented by embed/, which owns the isolate and the loop.
class JsLockHost {
 public:
  virtual ~JsLockHost() = default;

  // Runs `body` on the calling thread holding the isolate's v8::Locker, with the isolate, a
  // HandleScope and the main context entered. While it runs, the JS thread is not inside
  // uv_run (it waits for the Locker, or polls the loop's backend fd). Before the Locker is
  // released, wakes the JS thread if `body` changed what the loop waits for (a new timer, new
  // fds, immediates, closing handles), so that it polls again with the new deadline.
  // While another thread holds the isolate, the caller waits, known by `waiter` (waiting());
  // if `abandon` (may be null) turns true meanwhile (and wake_waiters() is called), it gives
  // up: `body` does not run, and the result is false.
  virtual bool run_locked(void (*body)(void*), void* data, const void* waiter, const std::atomic<bool>* abandon) = 0;
  // Any thread: callers waiting for the isolate look at their `abandon` flag again.
  virtual void wake_waiters() = 0;
  // Any thread: whether a caller known by `waiter` waits for the isolate right now.
  virtual bool waiting(const void* waiter) = 0;
};

}  // namespace dsnode

#endif
