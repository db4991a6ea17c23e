// GStreamer's analytics metadata (GstAnalyticsRelationMeta, GStreamer >= 1.24) beside a
// ds-element's batch: what an element writes as objects is also written as relation-meta
// entries, for upstream GStreamer elements (objectdetectionoverlay, analytics consumers), and
// the object detections an upstream element attached are read into the element's batch.
// docs/gst-analytics.md has the table of fields, both ways.
//
// Both directions work on one frame: a buffer of a non-batched pipeline carries one frame, and
// its relation meta is that frame's. A batch of several frames (nvstreammux's) is left alone:
// a relation meta on such a buffer cannot say which frame an entry belongs to.
#ifndef DSNODE_META_GST_ANALYTICS_INTEROP_H
#define DSNODE_META_GST_ANALYTICS_INTEROP_H

#include <gst/gst.h>

#include <cstddef>
#include <vector>

#include "meta/batch.h"
#include "meta/gst_analytics_library.h"

namespace dsnode::meta {

// The unique_component_id of objects and classifiers read from upstream GstAnalytics metadata
// (and only of those): DeepStream elements number themselves from 1 by their gie-unique-id.
inline constexpr int32_t kGstAnalyticsUniqueComponentId = 124;

// Reads the object detections of `buffer`'s relation meta, with the classifications and
// tracking ids related to them, into `frame` of `batch` as objects (docs/gst-analytics.md).
// Returns how many objects it added; nothing when the buffer carries no relation meta. Call it
// on the element's own one-frame batch only: a batch the buffer carries already holds what an
// element upstream mirrored.
size_t import_gst_analytics(const GstAnalyticsApi &api, GstBuffer *buffer, Batch &batch, FrameHandle frame);

// The objects a frame held before the element's call: the mirror writes the others.
struct ObjectsBefore {
  std::vector<ObjectHandle> objects;
};
void list_objects_before(const Batch &batch, FrameHandle frame, ObjectsBefore *out);

// Writes the objects of `frame` that are not in `before` (those the element's call added),
// their classifiers and tracking ids, as entries of `buffer`'s relation meta (added when the
// buffer has none). `buffer` must be writable. Returns how many objects it wrote.
size_t mirror_to_gst_analytics(const GstAnalyticsApi &api, GstBuffer *buffer, const Batch &batch,
    FrameHandle frame, const ObjectsBefore &before);

}  // namespace dsnode::meta

#endif
