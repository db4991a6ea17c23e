#include "meta/gst_analytics_interop.h"

#include <algorithm>
#include <cmath>
#include <string>

#include <glib.h>

namespace dsnode::meta {

namespace {

// True when the two entries are related, in either direction and by any relation type:
// producers differ in which way they relate a classification to its detection.
bool related(const GstAnalyticsApi &api, GstAnalyticsRelationMetaOpaque *meta, guint a, guint b) {
  return api.gst_analytics_relation_meta_get_relation(meta, a, b) != kAnalyticsRelNone ||
      api.gst_analytics_relation_meta_get_relation(meta, b, a) != kAnalyticsRelNone;
}

// The entries of one type, in the order they were added.
std::vector<AnalyticsMtd> entries_of(const GstAnalyticsApi &api, GstAnalyticsRelationMetaOpaque *meta,
    AnalyticsMtdType type) {
  std::vector<AnalyticsMtd> entries;
  gpointer state = nullptr;
  AnalyticsMtd entry{};
  while (api.gst_analytics_relation_meta_iterate(meta, &state, type, &entry)) entries.push_back(entry);
  return entries;
}

void copy_label(char (&destination)[kMaxLabelSize], GQuark quark) {
  const char *text = quark != 0 ? g_quark_to_string(quark) : nullptr;
  g_strlcpy(destination, text != nullptr ? text : "", kMaxLabelSize);
}

// GstAnalytics' rotation is in radians, DeepStream's rotation_angle in degrees; both clockwise
// about the box's centre, the box given before rotation.
constexpr double kPi = 3.14159265358979323846;
float degrees_of(float radians) {
  return std::isfinite(radians) ? static_cast<float>(radians * 180.0 / kPi) : 0.0f;
}
float radians_of(float degrees) {
  const double turn = std::fmod(static_cast<double>(degrees), 360.0);
  return static_cast<float>((turn < 0 ? turn + 360.0 : turn) * kPi / 180.0);
}

// GstAnalytics keeps any float; DeepStream's confidence is 0..1 (or -0.1 for none).
float confidence_of(float level) {
  if (level == kNoConfidence) return level;
  return std::isfinite(level) ? std::clamp(level, 0.0f, 1.0f) : 0.0f;
}

void import_classification(const GstAnalyticsApi &api, const AnalyticsMtd &cls, Batch &batch, ObjectHandle object) {
  ClassifierHandle classifier = batch.acquire_classifier();
  ClassifierFields classifier_fields;
  classifier_fields.unique_component_id = kGstAnalyticsUniqueComponentId;
  const gsize length = api.gst_analytics_cls_mtd_get_length(&cls);
  for (gsize index = 0; index < length; ++index) {
    LabelInfoHandle label = batch.acquire_label_info();
    LabelInfoFields fields;
    fields.num_classes = static_cast<uint32_t>(length);
    copy_label(fields.result_label, api.gst_analytics_cls_mtd_get_quark(&cls, index));
    fields.result_class_id = fields.label_id = static_cast<uint32_t>(index);
    fields.result_prob = confidence_of(api.gst_analytics_cls_mtd_get_level(&cls, index));
    if (batch.write_label_info(label, fields).ok()) batch.add_label_info(classifier, label);
  }
  if (batch.write_classifier(classifier, classifier_fields).ok()) batch.add_classifier(object, classifier);
}

}  // namespace

size_t import_gst_analytics(const GstAnalyticsApi &api, GstBuffer *buffer, Batch &batch, FrameHandle frame) {
  GstAnalyticsRelationMetaOpaque *meta = api.gst_buffer_get_analytics_relation_meta(buffer);
  if (meta == nullptr) return 0;
  const std::vector<AnalyticsMtd> classifications = entries_of(api, meta, api.gst_analytics_cls_mtd_get_mtd_type());
  const std::vector<AnalyticsMtd> trackings = entries_of(api, meta, api.gst_analytics_tracking_mtd_get_mtd_type());
  size_t added = 0;
  for (const AnalyticsMtd &od : entries_of(api, meta, api.gst_analytics_od_mtd_get_mtd_type())) {
    gint x = 0, y = 0, w = 0, h = 0;
    gfloat level = 0, radians = 0;
    const bool located = api.gst_analytics_od_mtd_get_oriented_location != nullptr
        ? api.gst_analytics_od_mtd_get_oriented_location(&od, &x, &y, &w, &h, &radians, &level)
        : api.gst_analytics_od_mtd_get_location(&od, &x, &y, &w, &h, &level);
    if (!located) continue;
    ObjectFields fields;
    fields.unique_component_id = kGstAnalyticsUniqueComponentId;
    fields.class_id = -1;  // GstAnalytics has labels (quarks), no class index
    fields.confidence = confidence_of(level);
    copy_label(fields.obj_label, api.gst_analytics_od_mtd_get_obj_type(&od));
    RectParams &rect = fields.rect_params;
    rect.left = static_cast<float>(x);
    rect.top = static_cast<float>(y);
    rect.width = static_cast<float>(std::max(w, 0));
    rect.height = static_cast<float>(std::max(h, 0));
    rect.rotation_angle = degrees_of(radians);
    rect.border_width = kNvinferBorderWidth;
    rect.border_color = kNvinferBorderColor;
    fields.detector_bbox_info = {rect.left, rect.top, rect.width, rect.height};
    fields.text_params = nvinfer_text_params();
    fields.text_params.display_text = fields.obj_label;
    place_label(rect, &fields.text_params);
    for (const AnalyticsMtd &tracking : trackings) {
      guint64 id = 0;
      if (related(api, meta, od.id, tracking.id) &&
          api.gst_analytics_tracking_mtd_get_info(&tracking, &id, nullptr, nullptr, nullptr)) {
        fields.object_id = id;
        break;
      }
    }
    ObjectHandle object = batch.acquire_object();
    if (!batch.write_object(object, fields).ok() || !batch.add_object(frame, object, ObjectHandle{}).ok()) continue;
    ++added;
    for (const AnalyticsMtd &cls : classifications)
      if (related(api, meta, od.id, cls.id)) import_classification(api, cls, batch, object);
  }
  return added;
}

void list_objects_before(const Batch &batch, FrameHandle frame, ObjectsBefore *out) {
  batch.objects(frame, &out->objects);
}

namespace {

// A label as a quark: the text, else the class id in decimal (GstAnalytics has no class index).
GQuark quark_of(const char *label, int64_t class_id) {
  return g_quark_from_string(label[0] != '\0' ? label : std::to_string(class_id).c_str());
}

gint pixel(float value) {
  return static_cast<gint>(std::lround(std::clamp(value, -1e9f, 1e9f)));
}

void mirror_classifiers(const GstAnalyticsApi &api, GstAnalyticsRelationMetaOpaque *meta, const Batch &batch,
    ObjectHandle object, guint od_id) {
  std::vector<ClassifierHandle> classifiers;
  std::vector<LabelInfoHandle> labels;
  batch.classifiers(object, &classifiers);
  for (ClassifierHandle classifier : classifiers) {
    batch.label_infos(classifier, &labels);
    if (labels.empty()) continue;
    std::vector<gfloat> levels;
    std::vector<GQuark> quarks;
    for (LabelInfoHandle label : labels) {
      LabelInfoFields fields;
      batch.read_label_info(label, &fields);
      levels.push_back(fields.result_prob);
      quarks.push_back(quark_of(fields.result_label, fields.result_class_id));
    }
    AnalyticsMtd cls{};
    if (api.gst_analytics_relation_meta_add_cls_mtd(meta, levels.size(), levels.data(), quarks.data(), &cls))
      api.gst_analytics_relation_meta_set_relation(meta, kAnalyticsRelRelateTo, od_id, cls.id);
  }
}

// The relation meta for what this frame's new objects write: the buffer's own, else a new one
// sized for all of them. GStreamer's default (5 entries, growing by 5 and copying its order x
// order relation matrix each time) made 10 000 objects take minutes; sized once, its matrix is
// allocated once (calloc: pages are touched only where relations are set).
GstAnalyticsRelationMetaOpaque *relation_meta_for(const GstAnalyticsApi &api, GstBuffer *buffer, const Batch &batch,
    const std::vector<ObjectHandle> &objects) {
  if (GstAnalyticsRelationMetaOpaque *meta = api.gst_buffer_get_analytics_relation_meta(buffer)) return meta;
  gsize entries = 0;
  std::vector<ClassifierHandle> classifiers;
  ObjectFields fields;
  for (ObjectHandle object : objects) {
    batch.read_object(object, &fields);
    batch.classifiers(object, &classifiers);
    // the box, its classifiers, its tracking entry
    entries += 1 + classifiers.size() + (fields.object_id != kUntrackedObjectId ? 1 : 0);
  }
  AnalyticsRelationMetaInitParams params{std::max<gsize>(entries, 5), std::max<gsize>(entries * 64, 1024)};
  return api.gst_buffer_add_analytics_relation_meta_full(buffer, &params);
}

}  // namespace

size_t mirror_to_gst_analytics(const GstAnalyticsApi &api, GstBuffer *buffer, const Batch &batch,
    FrameHandle frame, const ObjectsBefore &before) {
  std::vector<ObjectHandle> all;
  batch.objects(frame, &all);
  std::vector<ObjectHandle> objects;
  for (ObjectHandle object : all)
    if (std::find(before.objects.begin(), before.objects.end(), object) == before.objects.end()) objects.push_back(object);
  if (objects.empty()) return 0;
  GstAnalyticsRelationMetaOpaque *meta = relation_meta_for(api, buffer, batch, objects);
  if (meta == nullptr) return 0;
  size_t written = 0;
  ObjectFields fields;
  for (ObjectHandle object : objects) {
    batch.read_object(object, &fields);
    const RectParams &rect = fields.rect_params;
    AnalyticsMtd od{};
    const GQuark type = quark_of(fields.obj_label, fields.class_id);
    const bool oriented = rect.rotation_angle != 0 && std::isfinite(rect.rotation_angle) &&
        api.gst_analytics_relation_meta_add_oriented_od_mtd != nullptr;
    if (!(oriented ? api.gst_analytics_relation_meta_add_oriented_od_mtd(meta, type, pixel(rect.left),
                         pixel(rect.top), pixel(rect.width), pixel(rect.height), radians_of(rect.rotation_angle),
                         fields.confidence, &od)
                   : api.gst_analytics_relation_meta_add_od_mtd(meta, type, pixel(rect.left), pixel(rect.top),
                         pixel(rect.width), pixel(rect.height), fields.confidence, &od)))
      continue;
    ++written;
    mirror_classifiers(api, meta, batch, object, od.id);
    if (fields.object_id != kUntrackedObjectId) {
      AnalyticsMtd tracking{};
      if (api.gst_analytics_relation_meta_add_tracking_mtd(meta, fields.object_id, GST_BUFFER_PTS(buffer), &tracking))
        api.gst_analytics_relation_meta_set_relation(meta, kAnalyticsRelRelateTo, od.id, tracking.id);
    }
  }
  return written;
}

}  // namespace dsnode::meta
