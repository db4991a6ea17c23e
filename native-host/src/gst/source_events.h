// nvstreammux's per-source events (DeepStream's gst-nvevent.h): the muxer tells downstream
// elements, in order with the batches, when one of its sources is added, removed, reaches its
// end, gets a new segment or is reset. The element shell recognises them here and hands them to
// JS as source events (onSourceAdded, onSourceRemoved, onSourceEos, docs/sources.md).
#ifndef DSNODE_GST_SOURCE_EVENTS_H
#define DSNODE_GST_SOURCE_EVENTS_H

#include <gst/gst.h>

#include <cstdint>
#include <optional>

#include <nlohmann/json.hpp>

namespace dsnode {

// The events, numbered as gst-nvevent.h numbers them (GST_EVENT_MAKE_TYPE(400 + n, ...)).
enum class SourceEventKind : uint32_t {
  Added = 400,     // GST_NVEVENT_PAD_ADDED
  Removed = 401,   // GST_NVEVENT_PAD_DELETED
  Eos = 402,       // GST_NVEVENT_STREAM_EOS
  Segment = 403,   // GST_NVEVENT_STREAM_SEGMENT
  Reset = 404,     // GST_NVEVENT_STREAM_RESET
};

struct SourceEvent {
  SourceEventKind kind;
  // The source id the event carries: nvstreammux's sink pad number (sink_%u), which is the
  // frames' pad_index (gst-nvevent.h: "also the pad ID of the sinkpad of the Gst-nvstreammux").
  uint32_t source_id = 0;
};

// Whether `event` is one of the five (recognised by its type number, whatever its flags: they
// gained STICKY | STICKY_MULTI after DeepStream 6). A recognised event whose source id cannot be
// read gives nullopt in *source and true.
bool is_source_event(GstEvent *event, std::optional<SourceEvent> *source);

// The event as JS receives it: {"type": "source-added"|..., "structure": ..., "source": {"sourceId": n}}.
nlohmann::json source_event_to_json(GstEvent *event, const SourceEvent &source);

}  // namespace dsnode

#endif
