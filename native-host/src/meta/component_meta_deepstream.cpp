// Reads nvtracker's and nvdspreprocess's structs through NVIDIA's headers (nvds_tracker_meta.h,
// nvdspreprocess_meta.h: C++ std::vector/std::string members, read with the same compiler's
// standard library as the plugin that attached them) into component_meta.h's values.
#include "meta/component_meta_deepstream.h"

#include <glib.h>

#include "nvds_roi_meta.h"
#include "nvds_tracker_meta.h"
#include "nvdspreprocess_meta.h"

namespace dsnode::meta {

namespace {

BboxCoords bbox_of(const NvOSD_RectParams &rect) { return BboxCoords{rect.left, rect.top, rect.width, rect.height}; }

TrackerTarget target_of(const NvDsTargetMiscDataObject &object) {
  TrackerTarget target;
  target.unique_id = object.uniqueId;
  target.class_id = object.classId;
  target.obj_label.assign(object.objLabel, strnlen(object.objLabel, MAX_LABEL_SIZE));
  if (object.list == nullptr) return target;
  target.frames.reserve(object.numObj);
  for (uint32_t i = 0; i < object.numObj; ++i) {
    const NvDsTargetMiscDataFrame &from = object.list[i];
    TrackerTargetFrame frame;
    frame.frame_num = from.frameNum;
    frame.bbox = bbox_of(from.tBbox);
    frame.confidence = from.confidence;
    frame.age = from.age;
    frame.tracker_state = static_cast<int32_t>(from.trackerState);
    frame.visibility = from.visibility;
    frame.world_feet[0] = from.ptWorldFeet[0];
    frame.world_feet[1] = from.ptWorldFeet[1];
    target.frames.push_back(frame);
  }
  return target;
}

RoiMeta roi_of(const NvDsRoiMeta &from) {
  RoiMeta roi;
  roi.roi = bbox_of(from.roi);
  roi.has_frame = from.frame_meta != nullptr;
  if (roi.has_frame) {
    roi.frame_batch_id = from.frame_meta->batch_id;
    roi.frame_source_id = from.frame_meta->source_id;
  }
  roi.has_object = from.object_meta != nullptr;
  if (roi.has_object) roi.object_id = from.object_meta->object_id;
  roi.scale_ratio_x = from.scale_ratio_x;
  roi.scale_ratio_y = from.scale_ratio_y;
  roi.offset_left = from.offset_left;
  roi.offset_top = from.offset_top;
  return roi;
}

std::optional<std::string> text_or_null(const gchar *text) {
  return text != nullptr ? std::optional<std::string>(text) : std::nullopt;
}

void replace_text(const gchar **slot, const std::optional<std::string> &text) {
  g_free(const_cast<gchar *>(*slot));
  *slot = text.has_value() ? g_strdup(text->c_str()) : nullptr;
}

}  // namespace

bool read_deepstream_tracker_targets(const NvDsUserMeta &user, TrackerTargetBatch *out) {
  if (!is_tracker_target_kind(component_payload_kind(user.base_meta.meta_type)) || user.user_meta_data == nullptr)
    return false;
  const auto *batch = static_cast<const NvDsTargetMiscDataBatch *>(user.user_meta_data);
  out->streams.clear();
  if (batch->list == nullptr) return true;
  for (uint32_t s = 0; s < batch->numFilled; ++s) {
    const NvDsTargetMiscDataStream &from = batch->list[s];
    TrackerStream stream;
    stream.stream_id = from.streamID;
    stream.surface_stream_id = from.surfaceStreamID;
    if (from.list != nullptr)
      for (uint32_t t = 0; t < from.numFilled; ++t) stream.targets.push_back(target_of(from.list[t]));
    out->streams.push_back(std::move(stream));
  }
  return true;
}

bool read_deepstream_reid(const NvDsUserMeta &user, ReidTensor *out) {
  if (user.user_meta_data == nullptr) return false;
  if (user.base_meta.meta_type == NVDS_TRACKER_BATCH_REID_META) {
    const auto *batch = static_cast<const NvDsReidTensorBatch *>(user.user_meta_data);
    *out = ReidTensor{batch->featureSize, batch->numFilled, batch->ptr_host, batch->ptr_dev};
    return true;
  }
  if (user.base_meta.meta_type == NVDS_TRACKER_OBJ_REID_META) {
    const auto *object = static_cast<const NvDsObjReid *>(user.user_meta_data);
    *out = ReidTensor{object->featureSize, 1, object->ptr_host, object->ptr_dev};
    return true;
  }
  return false;
}

bool read_deepstream_preprocess_batch(const NvDsUserMeta &user, PreprocessBatch *out) {
  if (user.base_meta.meta_type != NVDS_PREPROCESS_BATCH_META || user.user_meta_data == nullptr) return false;
  const auto *batch = static_cast<const GstNvDsPreProcessBatchMeta *>(user.user_meta_data);
  out->target_unique_ids.assign(batch->target_unique_ids.begin(), batch->target_unique_ids.end());
  out->has_tensor = batch->tensor_meta != nullptr;
  out->tensor = PreprocessTensor();
  if (out->has_tensor) {
    const NvDsPreProcessTensorMeta &tensor = *batch->tensor_meta;
    out->tensor.raw_tensor_buffer = tensor.raw_tensor_buffer;
    out->tensor.buffer_size = tensor.buffer_size;
    out->tensor.tensor_shape.assign(tensor.tensor_shape.begin(), tensor.tensor_shape.end());
    out->tensor.data_type = static_cast<PreprocessDataType>(tensor.data_type);
    out->tensor.tensor_name = tensor.tensor_name;
    out->tensor.gpu_id = tensor.gpu_id;
    out->tensor.meta_id = tensor.meta_id;
    out->tensor.maintain_aspect_ratio = tensor.maintain_aspect_ratio != FALSE;
  }
  out->rois.clear();
  for (const NvDsRoiMeta &roi : batch->roi_vector) out->rois.push_back(roi_of(roi));
  return true;
}

bool read_deepstream_roi(const NvDsUserMeta &user, RoiMeta *out) {
  if (user.base_meta.meta_type != NVDS_ROI_META || user.user_meta_data == nullptr) return false;
  *out = roi_of(*static_cast<const NvDsRoiMeta *>(user.user_meta_data));
  return true;
}

void read_deepstream_sensor_info(const NvDsFrameMeta &frame, SensorInfo *out) {
  const NvDsSensorInfo_meta &info = frame.sensorInfo_meta;
  out->source_id = info.source_id;
  out->uri = text_or_null(info.uri);
  out->sensor_id = text_or_null(info.sensor_id);
  out->sensor_name = text_or_null(info.sensor_name);
}

void write_deepstream_sensor_info(const SensorInfo &info, NvDsFrameMeta *frame) {
  NvDsSensorInfo_meta &to = frame->sensorInfo_meta;
  to.source_id = info.source_id;
  replace_text(&to.uri, info.uri);
  replace_text(&to.sensor_id, info.sensor_id);
  replace_text(&to.sensor_name, info.sensor_name);
}

}  // namespace dsnode::meta
