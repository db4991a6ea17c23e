// What the runtime tells an element's author about a call that failed or was abandoned: the
// call named as the author wrote it, what it was about, the deadline and where JavaScript was.
// Text only: no state of the hand-off (handoff.h) is read here.
#ifndef DSNODE_RUNTIME_CALL_MESSAGES_H
#define DSNODE_RUNTIME_CALL_MESSAGES_H

#include <cstddef>
#include <cstdint>
#include <string>

#include "runtime/call.h"
#include "runtime/handoff.h"

namespace dsnode {

// The failure of a transform call that never got to JavaScript because its element is flushing.
extern const char kNotCalledFlushing[];

// The call as the element's author knows it: "transform()", "onPropertyChange()", ….
std::string hook_name(CallKind kind);
// What a call was about: " on the buffer with pts … (frame n)", " (event eos)",
// " (property name)"; empty for the others.
std::string describe_call_subject(const Call& call);
// The instance's call deadline in seconds, as every deadline message writes it ("2", "0.5").
std::string deadline_seconds(const Instance& instance);
// " (calls into JavaScript have a deadline of 2 s: …)", the end of every deadline message.
std::string deadline_advice(const Instance& instance);
// The debug text of JavaScript that was interrupted: where it was (`where`, a formatted stack,
// "" when unknown), or that it is unknown.
std::string running_at(const std::string& where);

// An expired call, completed by the runtime: its JavaScript `interrupted` or not, `outside` its
// handler (a pending Promise) or in it; `where` is the formatted stack ("" when none).
Outcome abandoned(const Call& call, Handoff::ExpiryReason reason, bool interrupted, const std::string& where,
    bool outside);
// A call whose JavaScript held the isolate `held_ns` while `yielded_to` was stopping.
Outcome yielded(const Call& call, int64_t held_ns, const std::string& yielded_to, const std::string& where);
// A call interrupted at the heap limit (`heap_limit` bytes).
Outcome heap_exhausted(const Call& call, size_t heap_limit);
// The element error of `waiter` whose call JavaScript outside any call kept waiting `held_ns`.
std::string held_outside_calls(const Instance& waiter, int64_t held_ns);
// JavaScript run under `instance`'s deadline outside its calls (Handoff::begin_guard), past it.
std::string guard_expired(const Instance& instance);

}  // namespace dsnode

#endif
