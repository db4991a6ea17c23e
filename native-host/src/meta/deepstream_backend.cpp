// Copies of values between the model (meta/model.h) and DeepStream's structs, for the Batch
// interface (meta/deepstream_copies.h); the backend's other files: meta/deepstream_backend.h.
#include "meta/deepstream_copies.h"

#include <gst/gst.h>

#include <cstring>
#include <string>

#include "nvds_version.h"

namespace dsnode::meta {

// --- conversions between the model and DeepStream's structs

// DeepStream g_free()s display_text when it releases a meta (nvinfer g_strdup()s it); it
// never frees font_name (nvinfer points it at a static string): we intern font names.
char *dup_or_null(const std::string &text) { return text.empty() ? nullptr : g_strdup(text.c_str()); }
char *intern_or_null(const std::string &text) {
  return text.empty() ? nullptr : const_cast<char *>(g_intern_string(text.c_str()));
}

// The strings of the table's records, one overload per direction so that one generated copy
// serves both ways: a label in its fixed array (result_label), a string DeepStream does not
// own (classifier_type: never freed, nvinfer points it at its own string; we intern it).
void copy_label(const char (&from)[kMaxLabelSize], char (*to)[kMaxLabelSize]) {
  std::memcpy(*to, from, kMaxLabelSize);
  (*to)[kMaxLabelSize - 1] = '\0';
}
void copy_interned(const std::string &from, const gchar **to) { *to = intern_or_null(from); }
void copy_interned(const std::string &from, gchar **to) { *to = intern_or_null(from); }
void copy_interned(const gchar *from, std::string *to) { *to = from != nullptr ? from : ""; }
// A string DeepStream g_free()s (display_text): the old copy freed, a g_strdup'd one written.
void copy_owned(const std::string &from, gchar **to) {
  g_free(*to);
  *to = dup_or_null(from);
}
void copy_owned(const gchar *from, std::string *to) { *to = from != nullptr ? from : ""; }

// The structs and records of the table (sdk/src/protocol/meta-fields.mjs): to_ds / from_ds
// for ColorParams, BboxCoords and RectParams, read_ / write_ of FrameFields and ObjectFields'
// numeric fields, and check_supported of RectParams and each record (members an older
// DeepStream lacks).
// generated: deepstream copies (npm run generate)
// ColorParams <-> NvOSD_ColorParams: the model's members have DeepStream's names, so one copy serves both ways.
template <typename From, typename To>
void copy_color_params(const From &from, To *to) {
  to->red = from.red;
  to->green = from.green;
  to->blue = from.blue;
  to->alpha = from.alpha;
}
[[maybe_unused]] NvOSD_ColorParams to_ds(const ColorParams &from) { NvOSD_ColorParams to{}; copy_color_params(from, &to); return to; }
[[maybe_unused]] ColorParams from_ds(const NvOSD_ColorParams &from) { ColorParams to; copy_color_params(from, &to); return to; }

// BboxCoords <-> NvBbox_Coords: the model's members have DeepStream's names, so one copy serves both ways.
template <typename From, typename To>
void copy_bbox_coords(const From &from, To *to) {
  to->left = from.left;
  to->top = from.top;
  to->width = from.width;
  to->height = from.height;
}
[[maybe_unused]] NvBbox_Coords to_ds(const BboxCoords &from) { NvBbox_Coords to{}; copy_bbox_coords(from, &to); return to; }
[[maybe_unused]] BboxCoords from_ds(const NvBbox_Coords &from) { BboxCoords to; copy_bbox_coords(from, &to); return to; }

// FontParams <-> NvOSD_FontParams: the model's members have DeepStream's names, so one copy serves both ways.
template <typename From, typename To>
void copy_font_params(const From &from, To *to) {
  copy_interned(from.font_name, &to->font_name);
  to->font_size = from.font_size;
  copy_color_params(from.font_color, &to->font_color);
}
[[maybe_unused]] NvOSD_FontParams to_ds(const FontParams &from) { NvOSD_FontParams to{}; copy_font_params(from, &to); return to; }
[[maybe_unused]] FontParams from_ds(const NvOSD_FontParams &from) { FontParams to; copy_font_params(from, &to); return to; }

// TextParams <-> NvOSD_TextParams: the model's members have DeepStream's names, so one copy serves both ways.
template <typename From, typename To>
void copy_text_params(const From &from, To *to) {
  copy_owned(from.display_text, &to->display_text);
  to->x_offset = from.x_offset;
  to->y_offset = from.y_offset;
  copy_font_params(from.font_params, &to->font_params);
  to->set_bg_clr = from.set_bg_clr;
  copy_color_params(from.text_bg_clr, &to->text_bg_clr);
}
[[maybe_unused]] NvOSD_TextParams to_ds(const TextParams &from) { NvOSD_TextParams to{}; copy_text_params(from, &to); return to; }
[[maybe_unused]] TextParams from_ds(const NvOSD_TextParams &from) { TextParams to; copy_text_params(from, &to); return to; }

// LineParams <-> NvOSD_LineParams: the model's members have DeepStream's names, so one copy serves both ways.
template <typename From, typename To>
void copy_line_params(const From &from, To *to) {
  to->x1 = from.x1;
  to->y1 = from.y1;
  to->x2 = from.x2;
  to->y2 = from.y2;
  to->line_width = from.line_width;
  copy_color_params(from.line_color, &to->line_color);
}
[[maybe_unused]] NvOSD_LineParams to_ds(const LineParams &from) { NvOSD_LineParams to{}; copy_line_params(from, &to); return to; }
[[maybe_unused]] LineParams from_ds(const NvOSD_LineParams &from) { LineParams to; copy_line_params(from, &to); return to; }

// ArrowParams <-> NvOSD_ArrowParams: the model's members have DeepStream's names, so one copy serves both ways.
template <typename From, typename To>
void copy_arrow_params(const From &from, To *to) {
  to->x1 = from.x1;
  to->y1 = from.y1;
  to->x2 = from.x2;
  to->y2 = from.y2;
  to->arrow_width = from.arrow_width;
  to->arrow_head = static_cast<decltype(to->arrow_head)>(from.arrow_head);
  copy_color_params(from.arrow_color, &to->arrow_color);
  to->reserved = from.reserved;
}
[[maybe_unused]] NvOSD_ArrowParams to_ds(const ArrowParams &from) { NvOSD_ArrowParams to{}; copy_arrow_params(from, &to); return to; }
[[maybe_unused]] ArrowParams from_ds(const NvOSD_ArrowParams &from) { ArrowParams to; copy_arrow_params(from, &to); return to; }

// CircleParams <-> NvOSD_CircleParams: the model's members have DeepStream's names, so one copy serves both ways.
template <typename From, typename To>
void copy_circle_params(const From &from, To *to) {
  to->xc = from.xc;
  to->yc = from.yc;
  to->radius = from.radius;
  copy_color_params(from.circle_color, &to->circle_color);
  to->has_bg_color = from.has_bg_color;
  copy_color_params(from.bg_color, &to->bg_color);
  to->circle_width = from.circle_width;
  to->reserved = from.reserved;
}
[[maybe_unused]] NvOSD_CircleParams to_ds(const CircleParams &from) { NvOSD_CircleParams to{}; copy_circle_params(from, &to); return to; }
[[maybe_unused]] CircleParams from_ds(const NvOSD_CircleParams &from) { CircleParams to; copy_circle_params(from, &to); return to; }

// RectParams <-> NvOSD_RectParams: the model's members have DeepStream's names, so one copy serves both ways.
template <typename From, typename To>
void copy_rect_params(const From &from, To *to) {
  copy_bbox_coords(from, to);
  to->border_width = from.border_width;
  copy_color_params(from.border_color, &to->border_color);
  to->has_bg_color = from.has_bg_color;
  to->reserved = from.reserved;
  copy_color_params(from.bg_color, &to->bg_color);
  to->has_color_info = from.has_color_info;
  to->color_id = from.color_id;
#if NVDS_VERSION_MAJOR >= 9  // rotation_angle is new in DeepStream 9.0
  to->rotation_angle = from.rotation_angle;
#endif
}
[[maybe_unused]] NvOSD_RectParams to_ds(const RectParams &from) { NvOSD_RectParams to{}; copy_rect_params(from, &to); return to; }
[[maybe_unused]] RectParams from_ds(const NvOSD_RectParams &from) { RectParams to; copy_rect_params(from, &to); return to; }

// Members of NvOSD_RectParams this DeepStream lacks must keep their default (`path` and `where`
// name the value in messages).
Status check_supported(const RectParams &value, const std::string &path, const char *where = "") {
  (void)value; (void)path; (void)where;
#if NVDS_VERSION_MAJOR < 9
  if (value.rotation_angle != 0)
    return Status::Invalid("Expected 0 for " + path + ".rotation_angle" + where + " (DeepStream " + std::to_string(NVDS_VERSION_MAJOR) +
        "." + std::to_string(NVDS_VERSION_MINOR) + " has no rotated boxes; NvOSD_RectParams::rotation_angle is new in 9.0) but received " +
        std::to_string(value.rotation_angle));
#endif
  return Status::Ok();
}

// NvDsFrameMeta's value fields to the model and back.
template <typename From, typename To>
void copy_frame_fields(const From &from, To *to) {
  to->frame_num = from.frame_num;
  to->source_id = from.source_id;
  to->pad_index = from.pad_index;
  to->batch_id = from.batch_id;
  to->buf_pts = from.buf_pts;
  to->ntp_timestamp = from.ntp_timestamp;
  to->source_frame_width = from.source_frame_width;
  to->source_frame_height = from.source_frame_height;
  to->pipeline_width = from.pipeline_width;
  to->pipeline_height = from.pipeline_height;
  to->surface_type = from.surface_type;
  to->surface_index = from.surface_index;
  to->num_surfaces_per_frame = from.num_surfaces_per_frame;
  to->bInferDone = from.bInferDone;
  std::memcpy(to->misc_frame_info, from.misc_frame_info, sizeof to->misc_frame_info);
}
void read_frame_fields(const NvDsFrameMeta &from, FrameFields *to) {
  copy_frame_fields(from, to);
}
void write_frame_fields(const FrameFields &from, NvDsFrameMeta *to) {
  copy_frame_fields(from, to);
}

// NvDsObjectMeta's numeric fields (its row) to the model and back.
template <typename From, typename To>
void copy_object_fields(const From &from, To *to) {
  to->class_id = from.class_id;
  to->object_id = from.object_id;
  to->unique_component_id = from.unique_component_id;
  to->confidence = from.confidence;
  to->tracker_confidence = from.tracker_confidence;
  copy_rect_params(from.rect_params, &to->rect_params);
  std::memcpy(to->misc_obj_info, from.misc_obj_info, sizeof to->misc_obj_info);
}
void read_object_fields(const NvDsObjectMeta &from, ObjectFields *to) {
  copy_object_fields(from, to);
  copy_bbox_coords(from.detector_bbox_info.org_bbox_coords, &to->detector_bbox_info);
  copy_bbox_coords(from.tracker_bbox_info.org_bbox_coords, &to->tracker_bbox_info);
}
void write_object_fields(const ObjectFields &from, NvDsObjectMeta *to) {
  copy_object_fields(from, to);
  copy_bbox_coords(from.detector_bbox_info, &to->detector_bbox_info.org_bbox_coords);
  copy_bbox_coords(from.tracker_bbox_info, &to->tracker_bbox_info.org_bbox_coords);
}

// NvDsLabelInfo's members to the model and back (its lists are the backend's).
template <typename From, typename To>
void copy_label_info_fields(const From &from, To *to) {
  to->num_classes = from.num_classes;
  copy_label(from.result_label, &to->result_label);
  to->result_class_id = from.result_class_id;
  to->label_id = from.label_id;
  to->result_prob = from.result_prob;
}

// NvDsClassifierMeta's members to the model and back (its lists are the backend's).
template <typename From, typename To>
void copy_classifier_fields(const From &from, To *to) {
  to->num_labels = from.num_labels;
  to->unique_component_id = from.unique_component_id;
  copy_interned(from.classifier_type, &to->classifier_type);
}

// Members of NvDsFrameMeta this DeepStream lacks must keep their default.
Status check_supported(const FrameFields &value) {
  (void)value;
  return Status::Ok();
}

// Members of NvDsObjectMeta this DeepStream lacks must keep their default.
Status check_supported(const ObjectFields &value) {
  if (Status status = check_supported(value.rect_params, "rect_params"); !status.ok()) return status;
  return Status::Ok();
}

// Members of NvDsLabelInfo this DeepStream lacks must keep their default.
Status check_supported(const LabelInfoFields &value) {
  (void)value;
  return Status::Ok();
}

// Members of NvDsClassifierMeta this DeepStream lacks must keep their default.
Status check_supported(const ClassifierFields &value) {
  (void)value;
  return Status::Ok();
}
// end generated: deepstream copies

template void copy_label_info_fields(const NvDsLabelInfo &, LabelInfoFields *);
template void copy_label_info_fields(const LabelInfoFields &, NvDsLabelInfo *);
template void copy_classifier_fields(const NvDsClassifierMeta &, ClassifierFields *);
template void copy_classifier_fields(const ClassifierFields &, NvDsClassifierMeta *);

void to_ds(const TextParams &t, NvOSD_TextParams *d) { copy_text_params(t, d); }

}  // namespace dsnode::meta
