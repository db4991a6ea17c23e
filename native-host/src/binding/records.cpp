#include "binding/records.h"

#include <cmath>
#include <cstdint>
#include <limits>

#include "binding/state_layout.h"
#include "meta/validate.h"

namespace dsnode::metabind {

namespace {

using meta::Status;
namespace L = dsnode::layout;

constexpr double kMaxSafe = 9007199254740991.0;  // 2^53 - 1
constexpr double kInt32Min = std::numeric_limits<int32_t>::min();
constexpr double kInt32Max = std::numeric_limits<int32_t>::max();
constexpr double kUint32Max = std::numeric_limits<uint32_t>::max();

bool is_integer_in(double value, double minimum, double maximum) {
  return std::isfinite(value) && std::trunc(value) == value && value >= minimum && value <= maximum;
}

// Reads record[index] as an integer of [minimum, maximum]; the first failure wins.
struct IntegerReader {
  const double* record;
  Status status;
  template <typename T>
  void read(size_t index, double minimum, double maximum, const char* field, T* out) {
    if (!status.ok()) return;
    const double value = record[index];
    if (is_integer_in(value, minimum, maximum)) {
      *out = static_cast<T>(value);
      return;
    }
    int64_t ignored = 0;
    status = meta::checked_integer(value, minimum, maximum, field, &ignored);
  }
  void u32(size_t index, const char* field, uint32_t* out) { read(index, 0, kUint32Max, field, out); }
  void i32(size_t index, const char* field, int32_t* out) { read(index, kInt32Min, kInt32Max, field, out); }
  void i64(size_t index, const char* field, int64_t* out) { read(index, -kMaxSafe, kMaxSafe, field, out); }
};

// uint64 values that use all-ones for "none" (buf_pts, object_id) travel as -1.
Status read_uint64_or_none(double value, const char* field, const char* none, uint64_t* out) {
  if (value == -1) {
    *out = UINT64_MAX;
    return Status::Ok();
  }
  if (is_integer_in(value, 0, kMaxSafe)) {
    *out = static_cast<uint64_t>(value);
    return Status::Ok();
  }
  return Status::Invalid(std::string("Expected an integer from 0 to 9007199254740991 (or -1 for ") + none +
      ") for " + field + " but received " + meta::describe_number(value));
}

double uint64_or_none(uint64_t value) {
  return value == UINT64_MAX ? -1.0 : static_cast<double>(value);
}

}  // namespace

double clock_slot(GstClockTime time) {
  return time == GST_CLOCK_TIME_NONE ? -1.0 : static_cast<double>(time);
}

void write_frame_record(const meta::FrameFields& frame, GstBuffer* buffer, double* record) {
  record[L::kFrameNum] = frame.frame_num;
  record[L::kFrameBufPts] = uint64_or_none(frame.buf_pts);
  record[L::kFrameBufDts] = buffer != nullptr ? clock_slot(GST_BUFFER_DTS(buffer)) : -1.0;
  record[L::kFrameBufDuration] = buffer != nullptr ? clock_slot(GST_BUFFER_DURATION(buffer)) : -1.0;
  record[L::kFrameSourceId] = frame.source_id;
  record[L::kFramePadIndex] = frame.pad_index;
  record[L::kFrameBatchId] = frame.batch_id;
  record[L::kFrameSourceWidth] = frame.source_frame_width;
  record[L::kFrameSourceHeight] = frame.source_frame_height;
  record[L::kFramePipelineWidth] = frame.pipeline_width;
  record[L::kFramePipelineHeight] = frame.pipeline_height;
  // Two exact 32-bit halves: an NTP timestamp (ns since 1900) does not fit a double's 53 bits.
  record[L::kFrameNtpHi] = static_cast<double>(frame.ntp_timestamp >> 32);
  record[L::kFrameNtpLo] = static_cast<double>(frame.ntp_timestamp & 0xFFFFFFFFull);
  record[L::kFrameSurfaceType] = frame.surface_type;
  record[L::kFrameSurfaceIndex] = frame.surface_index;
  record[L::kFrameNumSurfaces] = frame.num_surfaces_per_frame;
  record[L::kFrameInferDone] = frame.bInferDone != 0 ? 1.0 : 0.0;
  for (size_t i = 0; i < meta::kMaxUserFields; ++i)
    record[L::kFrameMisc + i] = static_cast<double>(frame.misc_frame_info[i]);
  for (size_t i = L::kFrameMisc + meta::kMaxUserFields; i < L::kStateFrameStride; ++i) record[i] = 0.0;
}

Status read_frame_record(const double* record, meta::FrameFields* out) {
  meta::FrameFields frame;
  IntegerReader in{record, Status::Ok()};
  in.i32(L::kFrameNum, "NvDsFrameMeta.frame_num", &frame.frame_num);
  in.u32(L::kFrameSourceId, "NvDsFrameMeta.source_id", &frame.source_id);
  in.u32(L::kFramePadIndex, "NvDsFrameMeta.pad_index", &frame.pad_index);
  in.u32(L::kFrameBatchId, "NvDsFrameMeta.batch_id", &frame.batch_id);
  in.u32(L::kFrameSourceWidth, "NvDsFrameMeta.source_frame_width", &frame.source_frame_width);
  in.u32(L::kFrameSourceHeight, "NvDsFrameMeta.source_frame_height", &frame.source_frame_height);
  in.u32(L::kFramePipelineWidth, "NvDsFrameMeta.pipeline_width", &frame.pipeline_width);
  in.u32(L::kFramePipelineHeight, "NvDsFrameMeta.pipeline_height", &frame.pipeline_height);
  uint32_t ntp_high = 0, ntp_low = 0;
  in.u32(L::kFrameNtpHi, "NvDsFrameMeta.ntp_timestamp (high 32 bits)", &ntp_high);
  in.u32(L::kFrameNtpLo, "NvDsFrameMeta.ntp_timestamp (low 32 bits)", &ntp_low);
  in.u32(L::kFrameSurfaceType, "NvDsFrameMeta.surface_type", &frame.surface_type);
  in.u32(L::kFrameSurfaceIndex, "NvDsFrameMeta.surface_index", &frame.surface_index);
  in.i32(L::kFrameNumSurfaces, "NvDsFrameMeta.num_surfaces_per_frame", &frame.num_surfaces_per_frame);
  in.read(L::kFrameInferDone, 0, 1, "NvDsFrameMeta.bInferDone", &frame.bInferDone);
  static const char* const kMisc[] = {"NvDsFrameMeta.misc_frame_info[0]", "NvDsFrameMeta.misc_frame_info[1]",
      "NvDsFrameMeta.misc_frame_info[2]", "NvDsFrameMeta.misc_frame_info[3]"};
  for (size_t i = 0; i < meta::kMaxUserFields; ++i) in.i64(L::kFrameMisc + i, kMisc[i], &frame.misc_frame_info[i]);
  if (!in.status.ok()) return in.status;
  Status status = read_uint64_or_none(record[L::kFrameBufPts], "NvDsFrameMeta.buf_pts", "none", &frame.buf_pts);
  if (!status.ok()) return status;
  frame.ntp_timestamp = (static_cast<uint64_t>(ntp_high) << 32) | ntp_low;
  *out = frame;
  return Status::Ok();
}

void write_object_row(const meta::ObjectFields& object, double* row) {
  const meta::RectParams& rect = object.rect_params;
  row[L::kObjClassId] = object.class_id;
  row[L::kObjObjectId] = uint64_or_none(object.object_id);  // UNTRACKED_OBJECT_ID reads as -1
  row[L::kObjUniqueComponentId] = object.unique_component_id;
  row[L::kObjConfidence] = object.confidence;
  row[L::kObjTrackerConfidence] = object.tracker_confidence;
  row[L::kObjRect + 0] = rect.left;
  row[L::kObjRect + 1] = rect.top;
  row[L::kObjRect + 2] = rect.width;
  row[L::kObjRect + 3] = rect.height;
  row[L::kObjBorderWidth] = rect.border_width;
  const meta::ColorParams* colors[] = {&rect.border_color, &rect.bg_color};
  const size_t color_slots[] = {L::kObjBorderColor, L::kObjBgColor};
  for (int c = 0; c < 2; ++c) {
    row[color_slots[c] + 0] = colors[c]->red;
    row[color_slots[c] + 1] = colors[c]->green;
    row[color_slots[c] + 2] = colors[c]->blue;
    row[color_slots[c] + 3] = colors[c]->alpha;
  }
  row[L::kObjHasBgColor] = rect.has_bg_color;
  row[L::kObjHasColorInfo] = rect.has_color_info;
  row[L::kObjColorId] = rect.color_id;
  row[L::kObjRotationAngle] = rect.rotation_angle;
  const meta::BboxCoords* boxes[] = {&object.detector_bbox_info, &object.tracker_bbox_info};
  const size_t box_slots[] = {L::kObjDetectorBbox, L::kObjTrackerBbox};
  for (int b = 0; b < 2; ++b) {
    row[box_slots[b] + 0] = boxes[b]->left;
    row[box_slots[b] + 1] = boxes[b]->top;
    row[box_slots[b] + 2] = boxes[b]->width;
    row[box_slots[b] + 3] = boxes[b]->height;
  }
  for (size_t i = 0; i < meta::kMaxUserFields; ++i) row[L::kObjMisc + i] = static_cast<double>(object.misc_obj_info[i]);
}

Status read_object_row(const double* row, meta::ObjectFields* fields) {
  meta::ObjectFields& object = *fields;
  meta::RectParams rect = object.rect_params;
  IntegerReader in{row, Status::Ok()};
  int32_t class_id = 0, unique_component_id = 0, has_color_info = 0, color_id = 0;
  uint32_t border_width = 0, has_bg_color = 0;
  int64_t misc[meta::kMaxUserFields] = {};
  in.i32(L::kObjClassId, "NvDsObjectMeta.class_id", &class_id);
  in.i32(L::kObjUniqueComponentId, "NvDsObjectMeta.unique_component_id", &unique_component_id);
  in.u32(L::kObjBorderWidth, "NvDsObjectMeta.rect_params.border_width", &border_width);
  in.read(L::kObjHasBgColor, 0, 1, "NvDsObjectMeta.rect_params.has_bg_color", &has_bg_color);
  in.read(L::kObjHasColorInfo, 0, 1, "NvDsObjectMeta.rect_params.has_color_info", &has_color_info);
  in.i32(L::kObjColorId, "NvDsObjectMeta.rect_params.color_id", &color_id);
  static const char* const kMisc[] = {"NvDsObjectMeta.misc_obj_info[0]", "NvDsObjectMeta.misc_obj_info[1]",
      "NvDsObjectMeta.misc_obj_info[2]", "NvDsObjectMeta.misc_obj_info[3]"};
  for (size_t i = 0; i < meta::kMaxUserFields; ++i) in.i64(L::kObjMisc + i, kMisc[i], &misc[i]);
  if (!in.status.ok()) return in.status;
  uint64_t object_id = 0;
  Status status = read_uint64_or_none(row[L::kObjObjectId], "NvDsObjectMeta.object_id", "untracked", &object_id);
  if (!status.ok()) return status;

  object.class_id = class_id;
  object.object_id = object_id;
  object.unique_component_id = unique_component_id;
  object.confidence = static_cast<float>(row[L::kObjConfidence]);
  object.tracker_confidence = static_cast<float>(row[L::kObjTrackerConfidence]);
  rect.left = static_cast<float>(row[L::kObjRect + 0]);
  rect.top = static_cast<float>(row[L::kObjRect + 1]);
  rect.width = static_cast<float>(row[L::kObjRect + 2]);
  rect.height = static_cast<float>(row[L::kObjRect + 3]);
  rect.border_width = border_width;
  meta::ColorParams* colors[] = {&rect.border_color, &rect.bg_color};
  const size_t color_slots[] = {L::kObjBorderColor, L::kObjBgColor};
  for (int c = 0; c < 2; ++c) {
    *colors[c] = {row[color_slots[c] + 0], row[color_slots[c] + 1], row[color_slots[c] + 2], row[color_slots[c] + 3]};
  }
  rect.has_bg_color = has_bg_color;
  rect.has_color_info = has_color_info;
  rect.color_id = color_id;
  rect.rotation_angle = static_cast<float>(row[L::kObjRotationAngle]);
  object.rect_params = rect;
  meta::BboxCoords* boxes[] = {&object.detector_bbox_info, &object.tracker_bbox_info};
  const size_t box_slots[] = {L::kObjDetectorBbox, L::kObjTrackerBbox};
  for (int b = 0; b < 2; ++b) {
    *boxes[b] = {static_cast<float>(row[box_slots[b] + 0]), static_cast<float>(row[box_slots[b] + 1]),
        static_cast<float>(row[box_slots[b] + 2]), static_cast<float>(row[box_slots[b] + 3])};
  }
  for (size_t i = 0; i < meta::kMaxUserFields; ++i) object.misc_obj_info[i] = misc[i];
  return Status::Ok();
}

}  // namespace dsnode::metabind
