#include "protocol/records.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>

#include "protocol/state_layout.h"
#include "meta/validate.h"

namespace dsnode::protocol {

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

// uint64 values that use all-ones for "none" (buf_pts, object_id) travel as -1.
double uint64_or_none(uint64_t value) {
  return value == UINT64_MAX ? -1.0 : static_cast<double>(value);
}

// The buffer's own times in a frame record (not DeepStream fields).
enum class BufferTime { kDts, kDuration };

// A record's fields are walked by the generated visit_frame_record / visit_object_row below,
// one call per field of the table, with one of these visitors: each says once what a kind of
// field is in the record.

// Model → record.
struct RecordWriter {
  double* slots;
  GstBuffer* buffer = nullptr;
  template <typename T> void int32(size_t slot, const char*, const T& value) { slots[slot] = value; }
  template <typename T> void uint32(size_t slot, const char*, const T& value) { slots[slot] = value; }
  template <typename T> void flag(size_t slot, const char*, const T& value) { slots[slot] = value != 0 ? 1.0 : 0.0; }
  template <typename T> void real(size_t slot, const char*, const T& value) { slots[slot] = value; }
  void object_id(size_t slot, const char*, const uint64_t& value) { slots[slot] = uint64_or_none(value); }
  void clock_time(size_t slot, const char*, const uint64_t& value) { slots[slot] = uint64_or_none(value); }
  // Two exact 32-bit halves, high first: a uint64 does not fit a double's 53 bits.
  void uint64(size_t slot, const char*, const uint64_t& value) {
    slots[slot] = static_cast<double>(value >> 32);
    slots[slot + 1] = static_cast<double>(value & 0xFFFFFFFFull);
  }
  void misc(size_t slot, const char*, const int64_t (&values)[meta::kMaxUserFields]) {
    for (size_t i = 0; i < meta::kMaxUserFields; ++i) slots[slot + i] = static_cast<double>(values[i]);
  }
  void buffer_time(size_t slot, BufferTime which) {
    const GstClockTime time = buffer == nullptr ? GST_CLOCK_TIME_NONE
        : which == BufferTime::kDts ? GST_BUFFER_DTS(buffer) : GST_BUFFER_DURATION(buffer);
    slots[slot] = clock_slot(time);
  }
};

// Record, checked: the integers a model field can hold, named by their DeepStream field. The
// first failure wins; nothing is written (ranges of floats are validate.h's).
struct RecordChecker {
  const double* slots;
  Status status = Status::Ok();
  // `field` + `suffix` names the value; the name is built only when the check fails.
  void integer(size_t slot, double minimum, double maximum, const char* field, const std::string& suffix = {}) {
    if (!status.ok() || is_integer_in(slots[slot], minimum, maximum)) return;
    int64_t ignored = 0;
    status = meta::checked_integer(slots[slot], minimum, maximum, (field + suffix).c_str(), &ignored);
  }
  void uint64_or_none(size_t slot, const char* field, const char* none) {
    const double value = slots[slot];
    if (!status.ok() || value == -1 || is_integer_in(value, 0, kMaxSafe)) return;
    status = Status::Invalid(std::string("Expected an integer from 0 to 9007199254740991 (or -1 for ") + none +
        ") for " + field + " but received " + meta::describe_number(value));
  }
  template <typename T> void int32(size_t slot, const char* field, const T&) { integer(slot, kInt32Min, kInt32Max, field); }
  template <typename T> void uint32(size_t slot, const char* field, const T&) { integer(slot, 0, kUint32Max, field); }
  template <typename T> void flag(size_t slot, const char* field, const T&) { integer(slot, 0, 1, field); }
  template <typename T> void real(size_t, const char*, const T&) {}
  void object_id(size_t slot, const char* field, const uint64_t&) { uint64_or_none(slot, field, "untracked"); }
  void clock_time(size_t slot, const char* field, const uint64_t&) { uint64_or_none(slot, field, "none"); }
  void uint64(size_t slot, const char* field, const uint64_t&) {
    if (!is_integer_in(slots[slot], 0, kUint32Max)) integer(slot, 0, kUint32Max, field, " (high 32 bits)");
    if (!is_integer_in(slots[slot + 1], 0, kUint32Max)) integer(slot + 1, 0, kUint32Max, field, " (low 32 bits)");
  }
  void misc(size_t slot, const char* field, const int64_t (&)[meta::kMaxUserFields]) {
    for (size_t i = 0; i < meta::kMaxUserFields; ++i) {
      if (!is_integer_in(slots[slot + i], -kMaxSafe, kMaxSafe))
        integer(slot + i, -kMaxSafe, kMaxSafe, field, "[" + std::to_string(i) + "]");
    }
  }
  void buffer_time(size_t, BufferTime) {}
};

// Record → model, once RecordChecker passed.
struct RecordReader {
  const double* slots;
  template <typename T> void int32(size_t slot, const char*, T& value) { value = static_cast<T>(slots[slot]); }
  template <typename T> void uint32(size_t slot, const char*, T& value) { value = static_cast<T>(slots[slot]); }
  template <typename T> void flag(size_t slot, const char*, T& value) { value = static_cast<T>(slots[slot]); }
  template <typename T> void real(size_t slot, const char*, T& value) { value = static_cast<T>(slots[slot]); }
  void object_id(size_t slot, const char*, uint64_t& value) { value = none_or(slots[slot]); }
  void clock_time(size_t slot, const char*, uint64_t& value) { value = none_or(slots[slot]); }
  void uint64(size_t slot, const char*, uint64_t& value) {
    value = (static_cast<uint64_t>(slots[slot]) << 32) | static_cast<uint64_t>(slots[slot + 1]);
  }
  void misc(size_t slot, const char*, int64_t (&values)[meta::kMaxUserFields]) {
    for (size_t i = 0; i < meta::kMaxUserFields; ++i) values[i] = static_cast<int64_t>(slots[slot + i]);
  }
  void buffer_time(size_t, BufferTime) {}
  static uint64_t none_or(double value) { return value == -1 ? UINT64_MAX : static_cast<uint64_t>(value); }
};

// generated: record fields (npm run generate)
// NvDsFrameMeta's fields in its record, one visitor call each.
template <typename Visitor, typename Fields>
void visit_frame_record(Visitor& v, Fields& frame) {
  v.int32(L::kFrameNum, "NvDsFrameMeta.frame_num", frame.frame_num);
  v.uint32(L::kFrameSourceId, "NvDsFrameMeta.source_id", frame.source_id);
  v.uint32(L::kFramePadIndex, "NvDsFrameMeta.pad_index", frame.pad_index);
  v.uint32(L::kFrameBatchId, "NvDsFrameMeta.batch_id", frame.batch_id);
  v.clock_time(L::kFrameBufPts, "NvDsFrameMeta.buf_pts", frame.buf_pts);
  v.buffer_time(L::kFrameBufDts, BufferTime::kDts);
  v.buffer_time(L::kFrameBufDuration, BufferTime::kDuration);
  v.uint64(L::kFrameNtpTimestamp, "NvDsFrameMeta.ntp_timestamp", frame.ntp_timestamp);
  v.uint32(L::kFrameSourceFrameWidth, "NvDsFrameMeta.source_frame_width", frame.source_frame_width);
  v.uint32(L::kFrameSourceFrameHeight, "NvDsFrameMeta.source_frame_height", frame.source_frame_height);
  v.uint32(L::kFramePipelineWidth, "NvDsFrameMeta.pipeline_width", frame.pipeline_width);
  v.uint32(L::kFramePipelineHeight, "NvDsFrameMeta.pipeline_height", frame.pipeline_height);
  v.uint32(L::kFrameSurfaceType, "NvDsFrameMeta.surface_type", frame.surface_type);
  v.uint32(L::kFrameSurfaceIndex, "NvDsFrameMeta.surface_index", frame.surface_index);
  v.int32(L::kFrameNumSurfacesPerFrame, "NvDsFrameMeta.num_surfaces_per_frame", frame.num_surfaces_per_frame);
  v.flag(L::kFrameInferDone, "NvDsFrameMeta.bInferDone", frame.bInferDone);
  v.misc(L::kFrameMiscFrameInfo, "NvDsFrameMeta.misc_frame_info", frame.misc_frame_info);
}

// NvDsObjectMeta's fields in its record, one visitor call each.
template <typename Visitor, typename Fields>
void visit_object_row(Visitor& v, Fields& object) {
  v.int32(L::kObjClassId, "NvDsObjectMeta.class_id", object.class_id);
  v.object_id(L::kObjObjectId, "NvDsObjectMeta.object_id", object.object_id);
  v.int32(L::kObjUniqueComponentId, "NvDsObjectMeta.unique_component_id", object.unique_component_id);
  v.real(L::kObjConfidence, "NvDsObjectMeta.confidence", object.confidence);
  v.real(L::kObjTrackerConfidence, "NvDsObjectMeta.tracker_confidence", object.tracker_confidence);
  v.real(L::kObjRectParamsLeft, "NvDsObjectMeta.rect_params.left", object.rect_params.left);
  v.real(L::kObjRectParamsTop, "NvDsObjectMeta.rect_params.top", object.rect_params.top);
  v.real(L::kObjRectParamsWidth, "NvDsObjectMeta.rect_params.width", object.rect_params.width);
  v.real(L::kObjRectParamsHeight, "NvDsObjectMeta.rect_params.height", object.rect_params.height);
  v.uint32(L::kObjRectParamsBorderWidth, "NvDsObjectMeta.rect_params.border_width", object.rect_params.border_width);
  v.real(L::kObjRectParamsBorderColor + 0, "NvDsObjectMeta.rect_params.border_color.red", object.rect_params.border_color.red);
  v.real(L::kObjRectParamsBorderColor + 1, "NvDsObjectMeta.rect_params.border_color.green", object.rect_params.border_color.green);
  v.real(L::kObjRectParamsBorderColor + 2, "NvDsObjectMeta.rect_params.border_color.blue", object.rect_params.border_color.blue);
  v.real(L::kObjRectParamsBorderColor + 3, "NvDsObjectMeta.rect_params.border_color.alpha", object.rect_params.border_color.alpha);
  v.flag(L::kObjRectParamsHasBgColor, "NvDsObjectMeta.rect_params.has_bg_color", object.rect_params.has_bg_color);
  v.real(L::kObjRectParamsBgColor + 0, "NvDsObjectMeta.rect_params.bg_color.red", object.rect_params.bg_color.red);
  v.real(L::kObjRectParamsBgColor + 1, "NvDsObjectMeta.rect_params.bg_color.green", object.rect_params.bg_color.green);
  v.real(L::kObjRectParamsBgColor + 2, "NvDsObjectMeta.rect_params.bg_color.blue", object.rect_params.bg_color.blue);
  v.real(L::kObjRectParamsBgColor + 3, "NvDsObjectMeta.rect_params.bg_color.alpha", object.rect_params.bg_color.alpha);
  v.flag(L::kObjRectParamsHasColorInfo, "NvDsObjectMeta.rect_params.has_color_info", object.rect_params.has_color_info);
  v.int32(L::kObjRectParamsColorId, "NvDsObjectMeta.rect_params.color_id", object.rect_params.color_id);
  v.real(L::kObjRectParamsRotationAngle, "NvDsObjectMeta.rect_params.rotation_angle", object.rect_params.rotation_angle);
  v.real(L::kObjDetectorBboxInfoLeft, "NvDsObjectMeta.detector_bbox_info.org_bbox_coords.left", object.detector_bbox_info.left);
  v.real(L::kObjDetectorBboxInfoTop, "NvDsObjectMeta.detector_bbox_info.org_bbox_coords.top", object.detector_bbox_info.top);
  v.real(L::kObjDetectorBboxInfoWidth, "NvDsObjectMeta.detector_bbox_info.org_bbox_coords.width", object.detector_bbox_info.width);
  v.real(L::kObjDetectorBboxInfoHeight, "NvDsObjectMeta.detector_bbox_info.org_bbox_coords.height", object.detector_bbox_info.height);
  v.real(L::kObjTrackerBboxInfoLeft, "NvDsObjectMeta.tracker_bbox_info.org_bbox_coords.left", object.tracker_bbox_info.left);
  v.real(L::kObjTrackerBboxInfoTop, "NvDsObjectMeta.tracker_bbox_info.org_bbox_coords.top", object.tracker_bbox_info.top);
  v.real(L::kObjTrackerBboxInfoWidth, "NvDsObjectMeta.tracker_bbox_info.org_bbox_coords.width", object.tracker_bbox_info.width);
  v.real(L::kObjTrackerBboxInfoHeight, "NvDsObjectMeta.tracker_bbox_info.org_bbox_coords.height", object.tracker_bbox_info.height);
  v.misc(L::kObjMiscObjInfo, "NvDsObjectMeta.misc_obj_info", object.misc_obj_info);
}
// end generated: record fields

// Checks a record, then reads it over `fields`: nothing is written when a value is refused.
template <typename Fields, typename Visit>
Status read_record(const double* record, Fields* fields, Visit visit) {
  RecordChecker check{record};
  visit(check, std::as_const(*fields));
  if (!check.status.ok()) return check.status;
  RecordReader read{record};
  visit(read, *fields);
  return Status::Ok();
}

}  // namespace

double clock_slot(GstClockTime time) {
  return time == GST_CLOCK_TIME_NONE ? -1.0 : static_cast<double>(time);
}

void write_frame_record(const meta::FrameFields& frame, GstBuffer* buffer, double* record) {
  RecordWriter write{record, buffer};
  visit_frame_record(write, frame);
  for (size_t i = L::kFrameSlotsUsed; i < L::kStateFrameStride; ++i) record[i] = 0.0;
}

Status read_frame_record(const double* record, meta::FrameFields* out) {
  return read_record(record, out, [](auto& visitor, auto& frame) { visit_frame_record(visitor, frame); });
}

void write_object_row(const meta::ObjectFields& object, double* row) {
  RecordWriter write{row};
  visit_object_row(write, object);
}

Status read_object_row(const double* row, meta::ObjectFields* fields) {
  return read_record(row, fields, [](auto& visitor, auto& object) { visit_object_row(visitor, object); });
}

}  // namespace dsnode::protocol
