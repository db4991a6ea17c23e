// Reads nvtracker's and nvdspreprocess's structs through NVIDIA's headers (nvds_tracker_meta.h,
// nvdspreprocess_meta.h: C++ std::vector/std::string members, read with the same compiler's
// standard library as the plugin that attached them) into component_meta.h's values, member by
// member as the table says (sdk/src/protocol/meta-fields.mjs: the generated read_component
// overloads); the frame's sensor information is written back the same way.
#include "meta/component_meta_deepstream.h"

#include <glib.h>

#include <algorithm>
#include <cstring>

#include "nvds_roi_meta.h"
#include "nvds_tracker_meta.h"
#include "nvdspreprocess_meta.h"

namespace dsnode::meta {

namespace {

BboxCoords bbox_of(const NvOSD_RectParams &rect) { return BboxCoords{rect.left, rect.top, rect.width, rect.height}; }

std::optional<std::string> text_or_null(const gchar *text) {
  return text != nullptr ? std::optional<std::string>(text) : std::nullopt;
}

void replace_text(const gchar **slot, const std::optional<std::string> &text) {
  g_free(const_cast<gchar *>(*slot));
  *slot = text.has_value() ? g_strdup(text->c_str()) : nullptr;
}

// The embeddings a re-ID meta holds: a batch's numFilled, an object's one.
uint32_t vector_count(const NvDsReidTensorBatch &batch) { return batch.numFilled; }
uint32_t vector_count(const NvDsObjReid &) { return 1; }

// generated: component reads (npm run generate)
void read_component(const NvDsTargetMiscDataFrame &from, TrackerTargetFrame *to) {
  to->frame_num = from.frameNum;
  to->bbox = bbox_of(from.tBbox);
  to->confidence = from.confidence;
  to->age = from.age;
  to->tracker_state = static_cast<int32_t>(from.trackerState);
  to->visibility = from.visibility;
  std::copy_n(from.ptWorldFeet, 2, to->world_feet);
}

void read_component(const NvDsTargetMiscDataObject &from, TrackerTarget *to) {
  to->unique_id = from.uniqueId;
  to->class_id = from.classId;
  to->obj_label = std::string(from.objLabel, strnlen(from.objLabel, MAX_LABEL_SIZE));
  if (from.list != nullptr)
    for (uint32_t i = 0; i < from.numObj; ++i) read_component(from.list[i], &to->frames.emplace_back());
}

void read_component(const NvDsTargetMiscDataStream &from, TrackerStream *to) {
  to->stream_id = from.streamID;
  to->surface_stream_id = from.surfaceStreamID;
  if (from.list != nullptr)
    for (uint32_t i = 0; i < from.numFilled; ++i) read_component(from.list[i], &to->targets.emplace_back());
}

void read_component(const NvDsTargetMiscDataBatch &from, TrackerTargetBatch *to) {
  if (from.list != nullptr)
    for (uint32_t i = 0; i < from.numFilled; ++i) read_component(from.list[i], &to->streams.emplace_back());
}

// NvDsReidTensorBatch, NvDsObjReid
template <typename From>
void read_component(const From &from, ReidTensor *to) {
  to->feature_size = from.featureSize;
  to->num_vectors = vector_count(from);
  to->host = from.ptr_host;
  to->device = from.ptr_dev;
}

void read_component(const NvDsRoiMeta &from, RoiMeta *to) {
  to->roi = bbox_of(from.roi);
  to->has_frame = from.frame_meta != nullptr;
  to->frame_batch_id = from.frame_meta != nullptr ? from.frame_meta->batch_id : 0;
  to->frame_source_id = from.frame_meta != nullptr ? from.frame_meta->source_id : 0;
  to->has_object = from.object_meta != nullptr;
  to->object_id = from.object_meta != nullptr ? from.object_meta->object_id : 0;
  to->scale_ratio_x = from.scale_ratio_x;
  to->scale_ratio_y = from.scale_ratio_y;
  to->offset_left = from.offset_left;
  to->offset_top = from.offset_top;
}

void read_component(const NvDsPreProcessTensorMeta &from, PreprocessTensor *to) {
  to->raw_tensor_buffer = from.raw_tensor_buffer;
  to->buffer_size = from.buffer_size;
  to->tensor_shape.assign(from.tensor_shape.begin(), from.tensor_shape.end());
  to->data_type = static_cast<PreprocessDataType>(from.data_type);
  to->tensor_name = from.tensor_name;
  to->gpu_id = from.gpu_id;
  to->meta_id = from.meta_id;
  to->maintain_aspect_ratio = from.maintain_aspect_ratio != FALSE;
}

void read_component(const GstNvDsPreProcessBatchMeta &from, PreprocessBatch *to) {
  to->target_unique_ids.assign(from.target_unique_ids.begin(), from.target_unique_ids.end());
  to->has_tensor = from.tensor_meta != nullptr;
  if (from.tensor_meta != nullptr) read_component(*from.tensor_meta, &to->tensor);
  for (const auto &item : from.roi_vector) read_component(item, &to->rois.emplace_back());
}

void read_component(const NvDsSensorInfo_meta &from, SensorInfo *to) {
  to->source_id = from.source_id;
  to->uri = text_or_null(from.uri);
  to->sensor_id = text_or_null(from.sensor_id);
  to->sensor_name = text_or_null(from.sensor_name);
}

void write_component(const SensorInfo &from, NvDsSensorInfo_meta *to) {
  to->source_id = from.source_id;
  replace_text(&to->uri, from.uri);
  replace_text(&to->sensor_id, from.sensor_id);
  replace_text(&to->sensor_name, from.sensor_name);
}
// end generated: component reads

}  // namespace

bool read_deepstream_tracker_targets(const NvDsUserMeta &user, TrackerTargetBatch *out) {
  if (!is_tracker_target_kind(component_payload_kind(user.base_meta.meta_type)) || user.user_meta_data == nullptr)
    return false;
  *out = TrackerTargetBatch();
  read_component(*static_cast<const NvDsTargetMiscDataBatch *>(user.user_meta_data), out);
  return true;
}

bool read_deepstream_reid(const NvDsUserMeta &user, ReidTensor *out) {
  const int32_t type = user.base_meta.meta_type;
  if ((type != NVDS_TRACKER_BATCH_REID_META && type != NVDS_TRACKER_OBJ_REID_META) || user.user_meta_data == nullptr)
    return false;
  *out = ReidTensor();
  if (type == NVDS_TRACKER_BATCH_REID_META)
    read_component(*static_cast<const NvDsReidTensorBatch *>(user.user_meta_data), out);
  else
    read_component(*static_cast<const NvDsObjReid *>(user.user_meta_data), out);
  return true;
}

bool read_deepstream_preprocess_batch(const NvDsUserMeta &user, PreprocessBatch *out) {
  if (user.base_meta.meta_type != NVDS_PREPROCESS_BATCH_META || user.user_meta_data == nullptr) return false;
  *out = PreprocessBatch();
  read_component(*static_cast<const GstNvDsPreProcessBatchMeta *>(user.user_meta_data), out);
  return true;
}

bool read_deepstream_roi(const NvDsUserMeta &user, RoiMeta *out) {
  if (user.base_meta.meta_type != NVDS_ROI_META || user.user_meta_data == nullptr) return false;
  *out = RoiMeta();
  read_component(*static_cast<const NvDsRoiMeta *>(user.user_meta_data), out);
  return true;
}

void read_deepstream_sensor_info(const NvDsFrameMeta &frame, SensorInfo *out) { read_component(frame.sensorInfo_meta, out); }

void write_deepstream_sensor_info(const SensorInfo &info, NvDsFrameMeta *frame) { write_component(info, &frame->sensorInfo_meta); }

}  // namespace dsnode::meta
