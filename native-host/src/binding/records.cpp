#include "binding/records.h"

#include <algorithm>
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

// One statement per field of the table: write_frame_record, read_frame_record (integers
// checked and named first, nothing written on an error), write_object_row, read_object_row.
// generated: record codec (npm run generate)
void write_frame_record(const meta::FrameFields& frame, GstBuffer* buffer, double* record) {
  record[L::kFrameNum] = frame.frame_num;
  record[L::kFrameSourceId] = frame.source_id;
  record[L::kFramePadIndex] = frame.pad_index;
  record[L::kFrameBatchId] = frame.batch_id;
  record[L::kFrameBufPts] = uint64_or_none(frame.buf_pts);
  record[L::kFrameBufDts] = buffer != nullptr ? clock_slot(GST_BUFFER_DTS(buffer)) : -1.0;
  record[L::kFrameBufDuration] = buffer != nullptr ? clock_slot(GST_BUFFER_DURATION(buffer)) : -1.0;
  record[L::kFrameNtpTimestamp] = static_cast<double>(frame.ntp_timestamp >> 32);
  record[L::kFrameNtpTimestamp + 1] = static_cast<double>(frame.ntp_timestamp & 0xFFFFFFFFull);
  record[L::kFrameSourceFrameWidth] = frame.source_frame_width;
  record[L::kFrameSourceFrameHeight] = frame.source_frame_height;
  record[L::kFramePipelineWidth] = frame.pipeline_width;
  record[L::kFramePipelineHeight] = frame.pipeline_height;
  record[L::kFrameSurfaceType] = frame.surface_type;
  record[L::kFrameSurfaceIndex] = frame.surface_index;
  record[L::kFrameNumSurfacesPerFrame] = frame.num_surfaces_per_frame;
  record[L::kFrameInferDone] = frame.bInferDone != 0 ? 1.0 : 0.0;
  for (size_t i = 0; i < meta::kMaxUserFields; ++i) record[L::kFrameMiscFrameInfo + i] = static_cast<double>(frame.misc_frame_info[i]);
  for (size_t i = L::kFrameSlotsUsed; i < L::kStateFrameStride; ++i) record[i] = 0.0;
}

Status read_frame_record(const double* record, meta::FrameFields* out) {
  meta::FrameFields& frame = *out;
  IntegerReader in{record, Status::Ok()};
  int32_t frame_num = 0;
  in.i32(L::kFrameNum, "NvDsFrameMeta.frame_num", &frame_num);
  uint32_t source_id = 0;
  in.u32(L::kFrameSourceId, "NvDsFrameMeta.source_id", &source_id);
  uint32_t pad_index = 0;
  in.u32(L::kFramePadIndex, "NvDsFrameMeta.pad_index", &pad_index);
  uint32_t batch_id = 0;
  in.u32(L::kFrameBatchId, "NvDsFrameMeta.batch_id", &batch_id);
  uint32_t ntp_timestamp_high = 0, ntp_timestamp_low = 0;
  in.u32(L::kFrameNtpTimestamp, "NvDsFrameMeta.ntp_timestamp (high 32 bits)", &ntp_timestamp_high);
  in.u32(L::kFrameNtpTimestamp + 1, "NvDsFrameMeta.ntp_timestamp (low 32 bits)", &ntp_timestamp_low);
  uint32_t source_frame_width = 0;
  in.u32(L::kFrameSourceFrameWidth, "NvDsFrameMeta.source_frame_width", &source_frame_width);
  uint32_t source_frame_height = 0;
  in.u32(L::kFrameSourceFrameHeight, "NvDsFrameMeta.source_frame_height", &source_frame_height);
  uint32_t pipeline_width = 0;
  in.u32(L::kFramePipelineWidth, "NvDsFrameMeta.pipeline_width", &pipeline_width);
  uint32_t pipeline_height = 0;
  in.u32(L::kFramePipelineHeight, "NvDsFrameMeta.pipeline_height", &pipeline_height);
  uint32_t surface_type = 0;
  in.u32(L::kFrameSurfaceType, "NvDsFrameMeta.surface_type", &surface_type);
  uint32_t surface_index = 0;
  in.u32(L::kFrameSurfaceIndex, "NvDsFrameMeta.surface_index", &surface_index);
  int32_t num_surfaces_per_frame = 0;
  in.i32(L::kFrameNumSurfacesPerFrame, "NvDsFrameMeta.num_surfaces_per_frame", &num_surfaces_per_frame);
  int32_t bInferDone = 0;
  in.read(L::kFrameInferDone, 0, 1, "NvDsFrameMeta.bInferDone", &bInferDone);
  int64_t misc_frame_info[meta::kMaxUserFields] = {};
  static const char* const kMiscFrameInfo[] = {"NvDsFrameMeta.misc_frame_info[0]", "NvDsFrameMeta.misc_frame_info[1]", "NvDsFrameMeta.misc_frame_info[2]", "NvDsFrameMeta.misc_frame_info[3]"};
  for (size_t i = 0; i < meta::kMaxUserFields; ++i) in.i64(L::kFrameMiscFrameInfo + i, kMiscFrameInfo[i], &misc_frame_info[i]);
  if (!in.status.ok()) return in.status;
  uint64_t buf_pts = 0;
  if (Status status = read_uint64_or_none(record[L::kFrameBufPts], "NvDsFrameMeta.buf_pts", "none", &buf_pts); !status.ok()) return status;
  frame.frame_num = frame_num;
  frame.source_id = source_id;
  frame.pad_index = pad_index;
  frame.batch_id = batch_id;
  frame.buf_pts = buf_pts;
  frame.ntp_timestamp = (static_cast<uint64_t>(ntp_timestamp_high) << 32) | ntp_timestamp_low;
  frame.source_frame_width = source_frame_width;
  frame.source_frame_height = source_frame_height;
  frame.pipeline_width = pipeline_width;
  frame.pipeline_height = pipeline_height;
  frame.surface_type = surface_type;
  frame.surface_index = surface_index;
  frame.num_surfaces_per_frame = num_surfaces_per_frame;
  frame.bInferDone = bInferDone;
  std::copy_n(misc_frame_info, meta::kMaxUserFields, frame.misc_frame_info);
  return Status::Ok();
}

void write_object_row(const meta::ObjectFields& object, double* row) {
  row[L::kObjClassId] = object.class_id;
  row[L::kObjObjectId] = uint64_or_none(object.object_id);
  row[L::kObjUniqueComponentId] = object.unique_component_id;
  row[L::kObjConfidence] = object.confidence;
  row[L::kObjTrackerConfidence] = object.tracker_confidence;
  row[L::kObjRectParamsLeft] = object.rect_params.left;
  row[L::kObjRectParamsTop] = object.rect_params.top;
  row[L::kObjRectParamsWidth] = object.rect_params.width;
  row[L::kObjRectParamsHeight] = object.rect_params.height;
  row[L::kObjRectParamsBorderWidth] = object.rect_params.border_width;
  row[L::kObjRectParamsBorderColor + 0] = object.rect_params.border_color.red;
  row[L::kObjRectParamsBorderColor + 1] = object.rect_params.border_color.green;
  row[L::kObjRectParamsBorderColor + 2] = object.rect_params.border_color.blue;
  row[L::kObjRectParamsBorderColor + 3] = object.rect_params.border_color.alpha;
  row[L::kObjRectParamsHasBgColor] = object.rect_params.has_bg_color != 0 ? 1.0 : 0.0;
  row[L::kObjRectParamsBgColor + 0] = object.rect_params.bg_color.red;
  row[L::kObjRectParamsBgColor + 1] = object.rect_params.bg_color.green;
  row[L::kObjRectParamsBgColor + 2] = object.rect_params.bg_color.blue;
  row[L::kObjRectParamsBgColor + 3] = object.rect_params.bg_color.alpha;
  row[L::kObjRectParamsHasColorInfo] = object.rect_params.has_color_info != 0 ? 1.0 : 0.0;
  row[L::kObjRectParamsColorId] = object.rect_params.color_id;
  row[L::kObjRectParamsRotationAngle] = object.rect_params.rotation_angle;
  row[L::kObjDetectorBboxInfoLeft] = object.detector_bbox_info.left;
  row[L::kObjDetectorBboxInfoTop] = object.detector_bbox_info.top;
  row[L::kObjDetectorBboxInfoWidth] = object.detector_bbox_info.width;
  row[L::kObjDetectorBboxInfoHeight] = object.detector_bbox_info.height;
  row[L::kObjTrackerBboxInfoLeft] = object.tracker_bbox_info.left;
  row[L::kObjTrackerBboxInfoTop] = object.tracker_bbox_info.top;
  row[L::kObjTrackerBboxInfoWidth] = object.tracker_bbox_info.width;
  row[L::kObjTrackerBboxInfoHeight] = object.tracker_bbox_info.height;
  for (size_t i = 0; i < meta::kMaxUserFields; ++i) row[L::kObjMiscObjInfo + i] = static_cast<double>(object.misc_obj_info[i]);
}

Status read_object_row(const double* row, meta::ObjectFields* fields) {
  meta::ObjectFields& object = *fields;
  IntegerReader in{row, Status::Ok()};
  int32_t class_id = 0;
  in.i32(L::kObjClassId, "NvDsObjectMeta.class_id", &class_id);
  int32_t unique_component_id = 0;
  in.i32(L::kObjUniqueComponentId, "NvDsObjectMeta.unique_component_id", &unique_component_id);
  uint32_t rect_params_border_width = 0;
  in.u32(L::kObjRectParamsBorderWidth, "NvDsObjectMeta.rect_params.border_width", &rect_params_border_width);
  uint32_t rect_params_has_bg_color = 0;
  in.read(L::kObjRectParamsHasBgColor, 0, 1, "NvDsObjectMeta.rect_params.has_bg_color", &rect_params_has_bg_color);
  int32_t rect_params_has_color_info = 0;
  in.read(L::kObjRectParamsHasColorInfo, 0, 1, "NvDsObjectMeta.rect_params.has_color_info", &rect_params_has_color_info);
  int32_t rect_params_color_id = 0;
  in.i32(L::kObjRectParamsColorId, "NvDsObjectMeta.rect_params.color_id", &rect_params_color_id);
  int64_t misc_obj_info[meta::kMaxUserFields] = {};
  static const char* const kMiscObjInfo[] = {"NvDsObjectMeta.misc_obj_info[0]", "NvDsObjectMeta.misc_obj_info[1]", "NvDsObjectMeta.misc_obj_info[2]", "NvDsObjectMeta.misc_obj_info[3]"};
  for (size_t i = 0; i < meta::kMaxUserFields; ++i) in.i64(L::kObjMiscObjInfo + i, kMiscObjInfo[i], &misc_obj_info[i]);
  if (!in.status.ok()) return in.status;
  uint64_t object_id = 0;
  if (Status status = read_uint64_or_none(row[L::kObjObjectId], "NvDsObjectMeta.object_id", "untracked", &object_id); !status.ok()) return status;
  object.class_id = class_id;
  object.object_id = object_id;
  object.unique_component_id = unique_component_id;
  object.confidence = static_cast<float>(row[L::kObjConfidence]);
  object.tracker_confidence = static_cast<float>(row[L::kObjTrackerConfidence]);
  object.rect_params.left = static_cast<float>(row[L::kObjRectParamsLeft]);
  object.rect_params.top = static_cast<float>(row[L::kObjRectParamsTop]);
  object.rect_params.width = static_cast<float>(row[L::kObjRectParamsWidth]);
  object.rect_params.height = static_cast<float>(row[L::kObjRectParamsHeight]);
  object.rect_params.border_width = rect_params_border_width;
  object.rect_params.border_color.red = row[L::kObjRectParamsBorderColor + 0];
  object.rect_params.border_color.green = row[L::kObjRectParamsBorderColor + 1];
  object.rect_params.border_color.blue = row[L::kObjRectParamsBorderColor + 2];
  object.rect_params.border_color.alpha = row[L::kObjRectParamsBorderColor + 3];
  object.rect_params.has_bg_color = rect_params_has_bg_color;
  object.rect_params.bg_color.red = row[L::kObjRectParamsBgColor + 0];
  object.rect_params.bg_color.green = row[L::kObjRectParamsBgColor + 1];
  object.rect_params.bg_color.blue = row[L::kObjRectParamsBgColor + 2];
  object.rect_params.bg_color.alpha = row[L::kObjRectParamsBgColor + 3];
  object.rect_params.has_color_info = rect_params_has_color_info;
  object.rect_params.color_id = rect_params_color_id;
  object.rect_params.rotation_angle = static_cast<float>(row[L::kObjRectParamsRotationAngle]);
  object.detector_bbox_info.left = static_cast<float>(row[L::kObjDetectorBboxInfoLeft]);
  object.detector_bbox_info.top = static_cast<float>(row[L::kObjDetectorBboxInfoTop]);
  object.detector_bbox_info.width = static_cast<float>(row[L::kObjDetectorBboxInfoWidth]);
  object.detector_bbox_info.height = static_cast<float>(row[L::kObjDetectorBboxInfoHeight]);
  object.tracker_bbox_info.left = static_cast<float>(row[L::kObjTrackerBboxInfoLeft]);
  object.tracker_bbox_info.top = static_cast<float>(row[L::kObjTrackerBboxInfoTop]);
  object.tracker_bbox_info.width = static_cast<float>(row[L::kObjTrackerBboxInfoWidth]);
  object.tracker_bbox_info.height = static_cast<float>(row[L::kObjTrackerBboxInfoHeight]);
  std::copy_n(misc_obj_info, meta::kMaxUserFields, object.misc_obj_info);
  return Status::Ok();
}
// end generated: record codec

}  // namespace dsnode::metabind
