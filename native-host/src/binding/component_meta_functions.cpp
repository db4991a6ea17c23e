// The `meta` functions that read NVIDIA components' metas (meta/component_meta.h):
// readTrackerTargets, readReid, readPreprocessBatch, readRoi and readSensorInfo
// (sdk/src/native/meta-binding.ts documents each). Values are copied, except the re-ID
// embeddings' host floats: a zero-copy view detached when the call ends, as tensor outputs'.
#include "binding/meta_kind_functions.h"

namespace dsnode::metabind {

namespace {

napi_value bigint_value(napi_env env, uint64_t value) {
  napi_value out = nullptr;
  return napi_create_bigint_uint64(env, value, &out) == napi_ok ? out : nullptr;
}

napi_value pointer_value(napi_env env, const void* pointer) {
  return bigint_value(env, static_cast<uint64_t>(reinterpret_cast<uintptr_t>(pointer)));
}

napi_value text_or_null(napi_env env, const std::optional<std::string>& text) {
  return text.has_value() ? make_string(env, text->data(), text->size()) : make_null(env);
}

ObjectBuilder& with_bbox(ObjectBuilder& builder, const meta::BboxCoords& box) {
  return builder.number("left", box.left).number("top", box.top).number("width", box.width).number("height", box.height);
}

napi_value target_frame_value(napi_env env, const meta::TrackerTargetFrame& frame) {
  ObjectBuilder builder(env);
  builder.number("frameNum", frame.frame_num);
  return with_bbox(builder, frame.bbox)
      .number("confidence", frame.confidence).number("age", frame.age).number("trackerState", frame.tracker_state)
      .number("visibility", frame.visibility).number("worldFeetX", frame.world_feet[0])
      .number("worldFeetY", frame.world_feet[1])
      .value();
}

napi_value target_value(napi_env env, const meta::TrackerTarget& target) {
  return ObjectBuilder(env)
      .set("uniqueId", bigint_value(env, target.unique_id)).number("classId", target.class_id)
      .string("objLabel", target.obj_label)
      .set("frames", array_of(env, target.frames, [env](const auto& f) { return target_frame_value(env, f); }))
      .value();
}

napi_value stream_value(napi_env env, const meta::TrackerStream& stream) {
  return ObjectBuilder(env)
      .number("streamId", stream.stream_id).set("surfaceStreamId", bigint_value(env, stream.surface_stream_id))
      .set("targets", array_of(env, stream.targets, [env](const auto& t) { return target_value(env, t); }))
      .value();
}

napi_value roi_value(napi_env env, const meta::RoiMeta& roi) {
  ObjectBuilder builder(env);
  with_bbox(builder, roi.roi)
      .set("frameBatchId", roi.has_frame ? make_number(env, roi.frame_batch_id) : make_null(env))
      .set("frameSourceId", roi.has_frame ? make_number(env, roi.frame_source_id) : make_null(env))
      .set("objectId", roi.has_object ? bigint_value(env, roi.object_id) : make_null(env))
      .number("scaleRatioX", roi.scale_ratio_x).number("scaleRatioY", roi.scale_ratio_y)
      .number("offsetLeft", roi.offset_left).number("offsetTop", roi.offset_top);
  return builder.value();
}

napi_value preprocess_tensor_value(napi_env env, const meta::PreprocessTensor& tensor) {
  return ObjectBuilder(env)
      .string("tensorName", tensor.tensor_name).number("dataType", static_cast<int32_t>(tensor.data_type))
      .set("tensorShape", array_of(env, tensor.tensor_shape, [env](int32_t d) { return make_number(env, d); }))
      .number("bufferSize", static_cast<double>(tensor.buffer_size)).number("gpuId", tensor.gpu_id)
      .number("metaId", tensor.meta_id).boolean("maintainAspectRatio", tensor.maintain_aspect_ratio)
      .set("devicePointer", pointer_value(env, tensor.raw_tensor_buffer))
      .value();
}

// The kind each reader reads, as its errors name it.
UserMetaKind component_kind(const char* operation, const char* what) { return {operation, what, Received::kType}; }

napi_value read_tracker_targets(napi_env env, napi_callback_info info) {
  return read_user_meta_as(env, info, component_kind("readTrackerTargets",
      "a tracker target list (NVDS_TRACKER_PAST_FRAME_META, _TERMINATED_LIST_META, _SHADOW_LIST_META)"),
      &meta::Batch::read_tracker_targets, [env](MetaFunction& f, const meta::TrackerTargetBatch& targets) {
        f.unlock();
        return ObjectBuilder(env)
            .set("streams", array_of(env, targets.streams, [env](const auto& s) { return stream_value(env, s); }))
            .value();
      });
}

napi_value read_reid(napi_env env, napi_callback_info info) {
  return read_user_meta_as(env, info,
      component_kind("readReid", "a re-ID meta (NVDS_TRACKER_BATCH_REID_META, NVDS_TRACKER_OBJ_REID_META)"),
      &meta::Batch::read_reid, [env](MetaFunction& f, const meta::ReidTensor& reid) -> napi_value {
        napi_value host = make_null(env);
        if (reid.host != nullptr &&
            (host = host_view(env, f.call(), reid.host,
                 static_cast<size_t>(reid.feature_size) * reid.num_vectors * sizeof(float))) == nullptr) {
          return nullptr;
        }
        f.unlock();
        return ObjectBuilder(env)
            .number("featureSize", reid.feature_size).number("numVectors", reid.num_vectors).set("host", host)
            .set("devicePointer", pointer_value(env, reid.device))
            .value();
      });
}

napi_value read_preprocess_batch(napi_env env, napi_callback_info info) {
  return read_user_meta_as(env, info,
      component_kind("readPreprocessBatch", "a preprocess batch meta (NVDS_PREPROCESS_BATCH_META)"),
      &meta::Batch::read_preprocess_batch, [env](MetaFunction& f, const meta::PreprocessBatch& batch) {
        f.unlock();
        return ObjectBuilder(env)
            .set("targetUniqueIds", array_of(env, batch.target_unique_ids,
                [env](uint64_t id) { return make_number(env, static_cast<double>(id)); }))
            .set("tensor", batch.has_tensor ? preprocess_tensor_value(env, batch.tensor) : make_null(env))
            .set("rois", array_of(env, batch.rois, [env](const auto& roi) { return roi_value(env, roi); }))
            .value();
      });
}

napi_value read_roi(napi_env env, napi_callback_info info) {
  return read_user_meta_copy(env, info, component_kind("readRoi", "an ROI meta (NVDS_ROI_META)"), &meta::Batch::read_roi,
      roi_value);
}

napi_value read_sensor_info(napi_env env, napi_callback_info info) {
  MetaFunction f(env, info, "readSensorInfo");
  uint32_t frame = 0;
  if (!f.enter() || !f.frame(1, &frame)) return nullptr;
  meta::SensorInfo sensor;
  f.batch().read_sensor_info(f.call().frames[frame], &sensor);
  f.unlock();
  return ObjectBuilder(env)
      .number("sourceId", sensor.source_id).set("uri", text_or_null(env, sensor.uri))
      .set("sensorId", text_or_null(env, sensor.sensor_id)).set("sensorName", text_or_null(env, sensor.sensor_name))
      .value();
}

}  // namespace

const Export kComponentMetaExports[5] = {
    {"readTrackerTargets", read_tracker_targets},
    {"readReid", read_reid},
    {"readPreprocessBatch", read_preprocess_batch},
    {"readRoi", read_roi},
    {"readSensorInfo", read_sensor_info},
};

}  // namespace dsnode::metabind
