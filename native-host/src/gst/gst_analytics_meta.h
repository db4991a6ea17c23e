// The element's `gst-analytics-meta` property and what it does per buffer: GStreamer's analytics
// metadata (GstAnalyticsRelationMeta, GStreamer >= 1.24) written beside the objects an element's
// call adds, and read into its batch from upstream (meta/gst_analytics_interop.h;
// docs/gst-analytics.md).
#ifndef DSNODE_GST_GST_ANALYTICS_META_H
#define DSNODE_GST_GST_ANALYTICS_META_H

#include <gst/gst.h>

#include <optional>
#include <string>

#include "meta/gst_analytics_interop.h"
#include "meta/metadata_source.h"

namespace dsnode {

// The property's values (nicks: auto, on, off).
enum class GstAnalyticsMode : gint { kAuto = 0, kOn = 1, kOff = 2 };
inline constexpr const char *kGstAnalyticsProperty = "gst-analytics-meta";
inline constexpr GstAnalyticsMode kDefaultGstAnalyticsMode = GstAnalyticsMode::kAuto;

// Installs the property on the base class of every ds-element (id `id` of that class).
void install_gst_analytics_property(GObjectClass *klass, guint id);

// At start: the library the run uses, null when it uses none (off, or auto where GStreamer
// < 1.24). False when `on` asked for it and it is absent: *error says why and what to do.
// *note: a line for the element's log saying what was chosen.
bool resolve_gst_analytics(GstObject *element, GstAnalyticsMode mode, const meta::GstAnalyticsApi **api,
    std::string *error, std::string *note);

// One transform call's side of it. Before the call: with `import_upstream` (has_upstream() was
// true and the element does not stand before nvstreammux), upstream object detections become
// objects of the call's own one-frame batch; then the objects
// the frame holds are noted. After a successful call: the objects it added are mirrored.
// Nothing happens on a batch of several frames.
class GstAnalyticsCall {
 public:
  GstAnalyticsCall(const meta::GstAnalyticsApi *api, meta::MetadataSource &source, meta::Batch &batch);
  // True when the call is on the source's own one-frame batch and the buffer carries upstream
  // analytics metadata to read (asked once per buffer; its answer goes to `before`).
  bool has_upstream(GstBuffer *buffer) const;
  void before(GstBuffer *buffer, bool import_upstream);
  void after(GstBuffer *buffer);

 private:
  const meta::GstAnalyticsApi *api_;
  meta::MetadataSource &source_;
  meta::Batch &batch_;
  meta::FrameHandle frame_;
  meta::ObjectsBefore objects_before_;
};

}  // namespace dsnode

#endif
