// The texts of calls that failed or were abandoned, as the element's author reads them.
#include "runtime/call_messages.h"

#include <cinttypes>
#include <cstdio>

#include <gst/gst.h>

#include "meta/batch.h"
#include "runtime/instance.h"

namespace dsnode {

const char kNotCalledFlushing[] = "transform() was not called: the element is flushing";

// The call as the element's author knows it, for the messages of abandoned calls.
std::string hook_name(CallKind kind) {
  switch (kind) {
    case CallKind::kCreate: return "loading the element (its bundle and constructor)";
    case CallKind::kStart: return "start()";
    case CallKind::kStop: return "stop()";
    case CallKind::kCaps: return "onCaps()";
    case CallKind::kEvent: return "onEvent()";
    case CallKind::kProperty: return "onPropertyChange()";
    case CallKind::kTransform: return "transform()";
    case CallKind::kDestroy: return "destroying the element";
  }
  return "?";
}

// What a call was about, for the messages of abandoned calls: " on the buffer with pts …
// (frame n)", " (event eos)", " (property name)"; empty for the others.
std::string describe_call_subject(const Call& call) {
  switch (call.kind) {
    case CallKind::kTransform: {
      std::string text = " on the buffer with pts ";
      if (call.buffer != nullptr && GST_BUFFER_PTS_IS_VALID(call.buffer)) {
        char pts[64];
        std::snprintf(pts, sizeof pts, "%" GST_TIME_FORMAT, GST_TIME_ARGS(GST_BUFFER_PTS(call.buffer)));
        text += pts;
      } else {
        text += "none";
      }
      const auto* batch = static_cast<const meta::Batch*>(call.batch);
      const uint32_t frames = batch != nullptr ? batch->num_frames() : 0;
      if (frames > 0) {
        text += frames == 1 ? " (frame " : " (frames ";
        for (uint32_t i = 0; i < frames && i < 8; ++i) {
          meta::FrameFields fields;
          batch->read_frame(batch->frame_at(i), &fields);
          text += (i > 0 ? ", " : "") + std::to_string(fields.frame_num);
          if (frames > 1) text += " of source " + std::to_string(fields.source_id);
        }
        text += frames > 8 ? ", …)" : ")";
      }
      return text;
    }
    case CallKind::kEvent: {
      // The event JSON is {"structure": …, "type":"<type>"} (gst/json_values.cpp, keys sorted):
      // the last "type" is the event's.
      const std::string key = "\"type\":\"";
      const size_t at = call.text_a.rfind(key);
      if (at == std::string::npos) return "";
      const size_t end = call.text_a.find('"', at + key.size());
      return " (event " + call.text_a.substr(at + key.size(), end - at - key.size()) + ")";
    }
    case CallKind::kProperty:
      return " (property " + call.text_a + ")";
    default:
      return "";
  }
}

// The instance's call deadline in seconds, as every deadline message writes it ("2", "0.5").
std::string deadline_seconds(const Instance& instance) {
  char seconds[32];
  std::snprintf(seconds, sizeof seconds, "%g", static_cast<double>(instance.timeout_ns() / 1000000) / 1000);
  return seconds;
}

// " (calls into JavaScript have a deadline of 2 s: …)", the end of every deadline message.
std::string deadline_advice(const Instance& instance) {
  return " (calls into JavaScript have a deadline of " + deadline_seconds(instance) +
         " s: set callTimeoutSeconds in Element.define(), or DS_ELEMENT_CALL_TIMEOUT_S; 0 = none)";
}

// The debug text of JavaScript that was interrupted: where it was (formatted), or that it is unknown.
std::string running_at(const std::string& where) {
  return where.empty() ? "JavaScript was running; where could not be told." : "JavaScript was running at:\n" + where;
}

const char* handler_name(CallKind kind) {
  switch (kind) {
    case CallKind::kCreate: return "create";
    case CallKind::kStart: return "start";
    case CallKind::kStop: return "stop";
    case CallKind::kCaps: return "caps";
    case CallKind::kEvent: return "event";
    case CallKind::kProperty: return "property";
    case CallKind::kTransform: return "transform";
    case CallKind::kDestroy: return "destroy";
  }
  return "?";
}

std::string JsExecutor::format_stack(const std::vector<JsFrame>& frames) {
  std::string text;
  for (const JsFrame& frame : frames) {
    text += "    at " + (frame.function.empty() ? std::string("<anonymous>") : frame.function) + " (" +
            frame.script + ":" + std::to_string(frame.line) + ":" + std::to_string(frame.column) + ")\n";
  }
  return text;
}

Outcome abandoned(const Call& call, Handoff::ExpiryReason reason, bool interrupted, const std::string& where,
    bool outside) {
  const std::string what = hook_name(call.kind);
  const std::string subject = describe_call_subject(call);
  if (reason == Handoff::ExpiryReason::kFlushing) {
    std::string message = what + subject + " was abandoned: the element is flushing (a flushing seek, or a state change to READY)";
    if (interrupted) message += "; its JavaScript did not return within " + std::to_string(Handoff::kFlushGraceNs / 1000000) + " ms and was interrupted";
    return Outcome::failure(message, where.empty() ? message : "JavaScript was running at:\n" + where);
  }
  const std::string seconds = deadline_seconds(*call.instance);
  std::string message = what + subject;
  if (!outside) {
    message += " did not return within " + seconds + " s: its JavaScript was interrupted";
  } else {
    message += " did not finish within " + seconds + " s: its Promise was abandoned";
    if (interrupted) message += ", and the JavaScript that kept the runtime busy meanwhile was interrupted";
  }
  message += deadline_advice(*call.instance);
  std::string debug;
  if (interrupted) {
    debug = running_at(where);
  } else {
    debug = where.empty() ? "No JavaScript of it was running: a Promise it returned had not settled." : where;
  }
  return Outcome::failure(message, debug);
}

Outcome yielded(const Call& call, int64_t held_ns, const std::string& yielded_to, const std::string& where) {
  char seconds[32];
  std::snprintf(seconds, sizeof seconds, "%.1f", static_cast<double>(held_ns) / 1e9);
  return Outcome::failure(hook_name(call.kind) + describe_call_subject(call) +
          " was interrupted: its JavaScript had kept the runtime for " + seconds + " s without returning while " +
          yielded_to + " was stopping (all elements of a process share one JavaScript engine)",
      running_at(where));
}

Outcome heap_exhausted(const Call& call, size_t heap_limit) {
  return Outcome::failure("JavaScript heap out of memory in " + hook_name(call.kind) + describe_call_subject(call) +
          ": the heap reached its limit of " + std::to_string(heap_limit >> 20) +
          " MiB and the call was interrupted; raise the limit with DS_ELEMENT_HEAP_MB, or find "
          "what keeps growing",
      "The element's objects stay in memory until it is stopped (state NULL or READY).");
}

std::string held_outside_calls(const Instance& waiter, int64_t held_ns) {
  char held[32];
  std::snprintf(held, sizeof held, "%.1f", static_cast<double>(held_ns) / 1e9);
  return std::string("JavaScript outside any call (a timer, an immediate or a Promise reaction) kept the runtime for ") +
         held + " s without returning while the element waited to call into it: it was interrupted" + deadline_advice(waiter);
}

std::string guard_expired(const Instance& instance) {
  return "did not return within " + deadline_seconds(instance) + " s: its JavaScript was interrupted" + deadline_advice(instance);
}

}  // namespace dsnode
