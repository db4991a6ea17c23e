/*
 * The builders of nvstreammux's per-source events declared in DeepStream's gst-nvevent.h (see
 * nvevent_standin.h for why they are built here): each event has its gst-nvevent.h type and a
 * structure carrying the source id as a guint "source-id" (the stream segment also its segment),
 * named "nv-pad-added", "nv-pad-deleted", "nv-stream-eos", "nv-stream-segment", "nv-stream-reset"
 * (the structure DeepStream users who parse these events without NVIDIA's library read, e.g.
 * Savant's Python gst_nvevent_parse_*: NVIDIA's own builders are not published).
 */
#include "nvevent_standin.h"

static GstEvent *source_event(GstNvEventType type, const char *name, guint source_id) {
  GstStructure *structure = gst_structure_new(name, "source-id", G_TYPE_UINT, source_id, NULL);
  return gst_event_new_custom((GstEventType)type, structure);
}

GstEvent *gst_nvevent_new_pad_added(guint source_id) {
  return source_event(GST_NVEVENT_PAD_ADDED, "nv-pad-added", source_id);
}

GstEvent *gst_nvevent_new_pad_deleted(guint source_id) {
  return source_event(GST_NVEVENT_PAD_DELETED, "nv-pad-deleted", source_id);
}

GstEvent *gst_nvevent_new_stream_eos(guint source_id) {
  return source_event(GST_NVEVENT_STREAM_EOS, "nv-stream-eos", source_id);
}

GstEvent *gst_nvevent_new_stream_segment(guint source_id, GstSegment *segment) {
  GstStructure *structure =
      gst_structure_new("nv-stream-segment", "source-id", G_TYPE_UINT, source_id, "segment", GST_TYPE_SEGMENT, segment, NULL);
  return gst_event_new_custom((GstEventType)GST_NVEVENT_STREAM_SEGMENT, structure);
}

GstEvent *gst_nvevent_new_stream_reset(guint source_id) {
  return source_event(GST_NVEVENT_STREAM_RESET, "nv-stream-reset", source_id);
}
