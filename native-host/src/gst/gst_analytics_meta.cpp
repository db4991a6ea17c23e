#include "gst/gst_analytics_meta.h"

namespace dsnode {

namespace {

GType gst_analytics_mode_type() {
  static GType type = 0;
  if (g_once_init_enter(&type)) {
    static const GEnumValue values[] = {
        {static_cast<gint>(GstAnalyticsMode::kAuto), "Where GStreamer has its analytics library (>= 1.24)", "auto"},
        {static_cast<gint>(GstAnalyticsMode::kOn), "Always; the element fails to start without the library", "on"},
        {static_cast<gint>(GstAnalyticsMode::kOff), "Never", "off"},
        {0, nullptr, nullptr},
    };
    g_once_init_leave(&type, g_enum_register_static("DsNodeGstAnalyticsMeta", values));
  }
  return type;
}

}  // namespace

void install_gst_analytics_property(GObjectClass *klass, guint id) {
  g_object_class_install_property(klass, id,
      g_param_spec_enum(kGstAnalyticsProperty, "GStreamer analytics metadata",
          "Also write the objects this element adds (with their classifiers and tracking ids) as GStreamer's "
          "analytics metadata (GstAnalyticsRelationMeta), and read upstream object detections of it into the "
          "batch, on buffers of one frame. Needs GStreamer >= 1.24 (libgstanalytics-1.0); read at start",
          gst_analytics_mode_type(), static_cast<gint>(kDefaultGstAnalyticsMode),
          static_cast<GParamFlags>(G_PARAM_READWRITE | GST_PARAM_MUTABLE_READY | G_PARAM_STATIC_STRINGS)));
}

bool resolve_gst_analytics(GstObject *element, GstAnalyticsMode mode, const meta::GstAnalyticsApi **api,
    std::string *error, std::string *note) {
  *api = nullptr;
  if (mode == GstAnalyticsMode::kOff) {
    *note = std::string(kGstAnalyticsProperty) + "=off: GStreamer's analytics metadata is neither written nor read";
    return true;
  }
  std::string why;
  *api = meta::gst_analytics_api(&why);
  if (*api != nullptr) {
    *note = std::string("GStreamer's analytics metadata is written and read (") + meta::kGstAnalyticsLibrary + ")";
    return true;
  }
  if (mode == GstAnalyticsMode::kOn) {
    *error = std::string(GST_OBJECT_NAME(element)) + ": " + kGstAnalyticsProperty + "=on but " + why +
        ". Set " + kGstAnalyticsProperty + "=auto (or off) to run without it, or run on GStreamer >= 1.24 with "
        "its analytics library (Debian/Ubuntu: libgstreamer-plugins-bad1.0-0)";
    return false;
  }
  *note = std::string(kGstAnalyticsProperty) + "=auto: not available, neither written nor read: " + why;
  return true;
}

GstAnalyticsCall::GstAnalyticsCall(const meta::GstAnalyticsApi *api, meta::MetadataSource &source,
    meta::Batch &batch)
    : api_(api != nullptr && batch.num_frames() == 1 ? api : nullptr), source_(source), batch_(batch),
      frame_(api_ != nullptr ? batch.frame_at(0) : meta::FrameHandle{}) {}

bool GstAnalyticsCall::has_upstream(GstBuffer *buffer) const {
  return api_ != nullptr && source_.on_own_batch() && api_->gst_buffer_get_analytics_relation_meta(buffer) != nullptr;
}

void GstAnalyticsCall::before(GstBuffer *buffer, bool import_upstream) {
  if (api_ == nullptr) return;
  if (import_upstream) meta::import_gst_analytics(*api_, buffer, batch_, frame_);
  meta::list_objects_before(batch_, frame_, &objects_before_);
}

void GstAnalyticsCall::after(GstBuffer *buffer) {
  if (api_ != nullptr) meta::mirror_to_gst_analytics(*api_, buffer, batch_, frame_, objects_before_);
}

}  // namespace dsnode
