// On the thread holding the isolate: calls go to their instance's queue and run one at a time
// per instance; a completed call's outcome goes back to its caller (or to the element's bus).
#include "runtime/handoff.h"

#include <utility>

#include <glib.h>

#include "runtime/call_messages.h"
#include "runtime/clock.h"
#include "runtime/watchdog.h"

namespace dsnode {

void Handoff::route_batch(void* self) {
  auto* handoff = static_cast<Handoff*>(self);
  // Not a range-for: a handler could re-enter drain() through a nested event loop, and the
  // batch must survive that.
  while (!handoff->batch_.empty()) {
    Call* call = handoff->batch_.front();
    handoff->batch_.pop_front();
    handoff->route(call);
  }
}

void Handoff::route(Call* call) {
  Instance* instance = call->instance;
  instance->waiting_for_isolate.fetch_sub(1, std::memory_order_relaxed);
  if (call->kind == CallKind::kCreate && !instance->registered) {
    instance->ref();
    instance->registered = true;
    instances_[instance->id()] = instance;
  }
  instance->queue.push_back(call);
  if (!instance->pumping) pump(instance);
}

void Handoff::pump(Instance* instance) {
  instance->ref();
  instance->pumping = true;
  while (instance->running == nullptr && !instance->queue.empty()) {
    Call* call = instance->queue.front();
    instance->queue.pop_front();
    instance->running = call;
    call->sequence = next_sequence_++;
    advance_progress();
    // seq_cst, pairs with set_flushing (Instance::running_sequence).
    instance->running_sequence.store(call->sequence);
    if (call->kind == CallKind::kTransform && instance->flushing.load()) {
      complete(*call, Outcome::failure(kNotCalledFlushing, ""));
      continue;
    }
    if (lock_host_ == nullptr) call->started_ns = now_ns();
    if (executor_ == nullptr) {
      complete(*call, Outcome::failure(
          "host.js did not install the runtime's handlers (native.setHandlers was never called)",
          "host.js: " + host_js_path_));
      continue;
    }
    Instance* outer = executing_;
    executing_ = instance;
    executor_->start(*call);
    executing_ = outer;
  }
  instance->pumping = false;
  instance->unref();
}

void Handoff::complete(Call& call, Outcome outcome) {
  Instance* instance = call.instance;
  if (instance->running != &call) {
    g_critical("dsnode: completion of a %s call that is not running on instance %d",
        handler_name(call.kind), instance->id());
    return;
  }
  instance->ref();
  instance->running = nullptr;
  instance->running_sequence.store(0, std::memory_order_relaxed);
  if (lock_host_ == nullptr) call.service_ns = now_ns() - call.started_ns;
  const CallKind kind = call.kind;
  if (kind == CallKind::kTransform && executor_ != nullptr) executor_->end_transform(call);
  finish(call, std::move(outcome));  // `call` may be gone from here on
  if (kind == CallKind::kDestroy && instance->registered) {
    instances_.erase(instance->id());
    instance->registered = false;
    Watchdog::get().forget(instance);
    while (!instance->queue.empty()) {
      Call* late = instance->queue.front();
      instance->queue.pop_front();
      finish(*late, Outcome::failure("The element instance was already destroyed", ""));
    }
    instance->unref();  // the registry's reference
  }
  if (kind == CallKind::kDestroy && stop_after_destroy_) request_stop();
  if (!instance->pumping) pump(instance);
  instance->unref();
}

void Handoff::complete_if_running(int instance_id, uint64_t sequence, Outcome outcome) {
  Instance* instance = find_instance(instance_id);
  if (instance == nullptr || instance->running == nullptr ||
      instance->running->sequence != sequence) {
    return;
  }
  complete(*instance->running, std::move(outcome));
}

void Handoff::finish(Call& call, Outcome outcome) {
  if (call.blocking) {
    call.outcome = std::move(outcome);
    if (!signal_direct_caller(call)) call.completion.signal();
    return;
  }
  Instance* instance = call.instance;
  if (!outcome.ok) {
    if (call.kind == CallKind::kDestroy || !instance->post_error(outcome.message.c_str(),
                                                                 outcome.debug.c_str())) {
      g_warning("dsnode: %s(%d) of %s failed: %s\n%s", handler_name(call.kind), instance->id(),
          instance->element_name().c_str(), outcome.message.c_str(), outcome.debug.c_str());
    }
  }
  delete &call;
  instance->unref();
}

}  // namespace dsnode
