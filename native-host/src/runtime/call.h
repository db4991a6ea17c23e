// A call record: one request from a GStreamer thread to the JS thread, and its outcome.
#ifndef DSNODE_RUNTIME_CALL_H
#define DSNODE_RUNTIME_CALL_H

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>

#include "common/runtime_api.h"

namespace dsnode {

class Instance;

// transformState holds this many frames; DeepStream batches are far smaller.
constexpr uint32_t kMaxFramesPerBatch = 1024;

enum class CallKind : uint8_t {
  kCreate,
  kStart,
  kStop,
  kCaps,
  kEvent,
  kProperty,
  kTransform,
  kDestroy,
};

// The JS handler a call runs, as host.js names it (handlers.<name>).
const char* handler_name(CallKind kind);

struct Outcome {
  bool ok = true;
  std::string message;  // one line for the user
  std::string debug;    // the JS stack, or what is known instead
  bool dropped = false; // transform: the element asked for the buffer to be dropped (Element.DROP)

  static Outcome failure(std::string message, std::string debug) {
    return Outcome{false, std::move(message), std::move(debug)};
  }
  static Outcome drop() { return Outcome{true, {}, {}, true}; }
};

// Signalled once by the JS thread, awaited by the caller. The caller may spin on done()
// first; whichever way it observed completion, it must go through block() or settle()
// before the Completion goes out of scope, because the signaller may still be inside
// signal() (holding mutex_) when done() turns true.
class Completion {
 public:
  bool done() const { return done_.load(std::memory_order_acquire); }

  void signal() {
    std::lock_guard<std::mutex> lock(mutex_);
    done_.store(true, std::memory_order_release);
    if (sleeping_) cv_.notify_one();
  }

  void block() {
    std::unique_lock<std::mutex> lock(mutex_);
    sleeping_ = true;
    cv_.wait(lock, [this] { return done_.load(std::memory_order_acquire); });
  }

  void settle() { std::lock_guard<std::mutex> lock(mutex_); }

  // For a waiter that is the signalling thread itself (a direct call completing on the
  // caller's own stack): nobody sleeps, and nobody can be inside signal(), so no mutex.
  void signal_on_waiting_thread() { done_.store(true, std::memory_order_release); }

 private:
  std::atomic<bool> done_{false};
  bool sleeping_ = false;
  std::mutex mutex_;
  std::condition_variable cv_;
};

struct Call {
  Call(CallKind kind, Instance* instance, bool blocking)
      : kind(kind), instance(instance), blocking(blocking) {}

  const CallKind kind;
  Instance* const instance;
  // Blocking calls live on the caller's stack until completed; the others are owned by the
  // hand-off and deleted once the JS side is done with them.
  const bool blocking;

  // Payload. Strings are copied: they only travel with calls that are rare (create, caps,
  // events, properties), never with the per-buffer one.
  std::string text_a;  // create: element name; caps/event: JSON; property: JS name
  std::string text_b;  // create: bundle path; property: value JSON
  std::string text_c;  // create: props JSON
  GstBuffer* buffer = nullptr;   // transform; valid while the caller waits
  void* batch = nullptr;         // transform: the plugin's dsnode::meta::Batch*; ditto
  const DsnodeStreamInfo* stream = nullptr;  // transform: format and memory; ditto
  uint32_t meta_call_id = 0;     // transform: the binding's id for `batch` while JS may use it

  // Timings that drive the spin policies (steady clock, ns).
  int64_t submitted_ns = 0;  // by the caller
  // By the caller: from its return from the previous call on this instance to this
  // submission, i.e. without its own wake-up latency; -1 when unknown.
  int64_t think_ns = -1;
  int64_t started_ns = 0;    // by the JS thread, when the handler is called
  int64_t service_ns = 0;    // by the JS thread, at completion

  uint64_t sequence = 0;  // set on the JS thread when the call starts
  Outcome outcome;
  Completion completion;
};

}  // namespace dsnode

#endif
