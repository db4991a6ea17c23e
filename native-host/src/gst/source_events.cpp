#include "gst/source_events.h"

#include "gst/json_values.h"

namespace dsnode {

namespace {

const char *type_name(SourceEventKind kind) {
  switch (kind) {
    case SourceEventKind::Added: return "source-added";
    case SourceEventKind::Removed: return "source-removed";
    case SourceEventKind::Eos: return "source-eos";
    case SourceEventKind::Segment: return "source-segment";
    case SourceEventKind::Reset: return "source-reset";
  }
  return "unknown";
}

// The id is a guint "source-id" field of the event's structure: NVIDIA's builders and parsers
// (libnvdsgst_helper) are not published, and that field is where DeepStream users who parse
// the events without them read it (Savant's gst_nvevent_parse_* for Python); a gint is taken too.
std::optional<uint32_t> read_source_id(const GstStructure *structure) {
  if (structure == nullptr) return std::nullopt;
  guint unsigned_id = 0;
  if (gst_structure_get_uint(structure, "source-id", &unsigned_id)) return unsigned_id;
  gint signed_id = 0;
  if (gst_structure_get_int(structure, "source-id", &signed_id) && signed_id >= 0) return static_cast<uint32_t>(signed_id);
  return std::nullopt;
}

}  // namespace

bool is_source_event(GstEvent *event, std::optional<SourceEvent> *source) {
  const uint32_t number = static_cast<uint32_t>(GST_EVENT_TYPE(event)) >> GST_EVENT_NUM_SHIFT;
  if (number < static_cast<uint32_t>(SourceEventKind::Added) || number > static_cast<uint32_t>(SourceEventKind::Reset) ||
      !GST_EVENT_IS_DOWNSTREAM(event) || !GST_EVENT_IS_SERIALIZED(event))
    return false;
  std::optional<uint32_t> id = read_source_id(gst_event_get_structure(event));
  if (id)
    *source = SourceEvent{static_cast<SourceEventKind>(number), *id};
  else
    source->reset();
  return true;
}

nlohmann::json source_event_to_json(GstEvent *event, const SourceEvent &source) {
  return {{"type", type_name(source.kind)},
    {"structure", structure_to_json(gst_event_get_structure(event))},
    {"source", {{"sourceId", source.source_id}}}};
}

}  // namespace dsnode
