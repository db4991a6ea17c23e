// The testing harness's writers of NVIDIA components' metas (meta_kind_functions.h;
// sdk/src/native/meta-binding.ts, StandaloneHarness, documents each): addComponentMeta(callId,
// level, owner, kind, value), what nvtracker, nvdspreprocess and nvinfer's ROI path attach
// (portable backend only: on DeepStream their stand-ins attach NVIDIA's structs), and
// setSensorInfo(callId, frameIndex, { sourceId, uri, sensorId, sensorName }), the frame's sensor
// information as the source bin writes it (both backends). The harness's TS
// (sdk/src/testing/component-meta-init.ts) has checked the values; these read them into
// meta/component_meta.h's structs, naming NVIDIA's fields when a check fails.
#include <memory>

#include "binding/meta_kind_functions.h"
#include "meta/portable_backend.h"
#ifdef DSNODE_HAVE_DEEPSTREAM
#include "meta/component_meta_deepstream.h"
#endif

namespace dsnode::metabind {

namespace {

// A guint64 given as a bigint or a safe integer.
bool read_u64(napi_env env, napi_value value, const FieldName& name, uint64_t* out) {
  napi_valuetype type;
  if (napi_typeof(env, value, &type) == napi_ok && type == napi_bigint) {
    bool lossless = false;
    return napi_get_value_bigint_uint64(env, value, out, &lossless) == napi_ok;
  }
  return read_int<uint64_t>(env, value, name, out);
}

template <typename F>
bool each(napi_env env, napi_value array, const FieldName& name, F read_item) {
  uint32_t count = 0;
  if (!read_array(env, array, name, &count)) return false;
  for (uint32_t i = 0; i < count; ++i) {
    napi_value item;
    if (napi_get_element(env, array, i, &item) != napi_ok || !read_item(item, static_cast<long>(i))) return false;
  }
  return true;
}

bool read_bbox(FieldReader& in, const char* field, meta::BboxCoords* out) {
  return in.real("left", field, &out->left) && in.real("top", field, &out->top) &&
         in.real("width", field, &out->width) && in.real("height", field, &out->height);
}

bool read_target_frame(napi_env env, napi_value value, long index, meta::TrackerTargetFrame* out) {
  const Path path{"NvDsTargetMiscDataObject.list", index};
  FieldReader in(env, value, path);
  return read_object(env, value, FieldName(path, nullptr)) && in.integer("frameNum", "frameNum", &out->frame_num) &&
         read_bbox(in, "tBbox", &out->bbox) && in.real("confidence", "confidence", &out->confidence) &&
         in.integer("age", "age", &out->age) && in.integer("trackerState", "trackerState", &out->tracker_state) &&
         in.real("visibility", "visibility", &out->visibility) &&
         in.real("worldFeetX", "ptWorldFeet[0]", &out->world_feet[0]) &&
         in.real("worldFeetY", "ptWorldFeet[1]", &out->world_feet[1]);
}

bool read_target(napi_env env, napi_value value, long index, meta::TrackerTarget* out) {
  const Path path{"NvDsTargetMiscDataStream.list", index};
  FieldReader in(env, value, path);
  napi_value unique_id, frames;
  if (!read_object(env, value, FieldName(path, nullptr)) || !in.get("uniqueId", &unique_id) ||
      !read_u64(env, unique_id, FieldName(path, "uniqueId"), &out->unique_id) ||
      !in.integer("classId", "classId", &out->class_id) || !in.string("objLabel", "objLabel", &out->obj_label) ||
      !in.get("frames", &frames)) {
    return false;
  }
  return each(env, frames, FieldName(path, "list"), [&](napi_value item, long i) {
    out->frames.emplace_back();
    return read_target_frame(env, item, i, &out->frames.back());
  });
}

bool read_targets(napi_env env, napi_value value, meta::TrackerTargetBatch* out) {
  static const Path batch_path{"NvDsTargetMiscDataBatch"};
  FieldReader batch(env, value, batch_path);
  napi_value streams;
  if (!batch.get("streams", &streams)) return false;
  return each(env, streams, FieldName(batch_path, "list"), [&](napi_value item, long s) {
    const Path path{"NvDsTargetMiscDataBatch.list", s};
    FieldReader in(env, item, path);
    meta::TrackerStream stream;
    napi_value surface, targets;
    if (!read_object(env, item, FieldName(path, nullptr)) || !in.integer("streamId", "streamID", &stream.stream_id) ||
        !in.get("surfaceStreamId", &surface) ||
        !read_u64(env, surface, FieldName(path, "surfaceStreamID"), &stream.surface_stream_id) ||
        !in.get("targets", &targets)) {
      return false;
    }
    if (!each(env, targets, FieldName(path, "list"), [&](napi_value target, long t) {
          stream.targets.emplace_back();
          return read_target(env, target, t, &stream.targets.back());
        })) {
      return false;
    }
    out->streams.push_back(std::move(stream));
    return true;
  });
}

bool read_reid(napi_env env, napi_value value, meta::ComponentMeta* out) {
  static const Path path{"NvDsReidTensorBatch"};
  FieldReader in(env, value, path);
  if (!in.integer("featureSize", "featureSize", &out->reid.feature_size) ||
      !in.vector("data", "ptr_host", &out->reid_values)) {
    return false;
  }
  const size_t length = out->reid_values.size();
  out->reid.num_vectors = out->reid.feature_size == 0 ? 0 : static_cast<uint32_t>(length / out->reid.feature_size);
  out->reid.host = out->reid_values.empty() ? nullptr : out->reid_values.data();
  out->reid.device = nullptr;
  return true;
}

bool read_roi(napi_env env, napi_value value, long index, meta::RoiMeta* out) {
  const Path path{index < 0 ? "NvDsRoiMeta" : "GstNvDsPreProcessBatchMeta.roi_vector", index};
  FieldReader in(env, value, path);
  napi_value batch_id, source_id, object_id;
  if (!read_object(env, value, FieldName(path, nullptr)) || !read_bbox(in, "roi", &out->roi) ||
      !in.number("scaleRatioX", "scale_ratio_x", &out->scale_ratio_x) ||
      !in.number("scaleRatioY", "scale_ratio_y", &out->scale_ratio_y) ||
      !in.number("offsetLeft", "offset_left", &out->offset_left) ||
      !in.number("offsetTop", "offset_top", &out->offset_top) || !in.get("frameBatchId", &batch_id) ||
      !in.get("frameSourceId", &source_id) || !in.get("objectId", &object_id)) {
    return false;
  }
  out->has_frame = !is_nullish(env, batch_id);
  if (out->has_frame && (!read_int<uint32_t>(env, batch_id, FieldName(path, "frame_meta", "batch_id"), &out->frame_batch_id) ||
                         !read_int<uint32_t>(env, source_id, FieldName(path, "frame_meta", "source_id"), &out->frame_source_id))) {
    return false;
  }
  out->has_object = !is_nullish(env, object_id);
  return !out->has_object || read_u64(env, object_id, FieldName(path, "object_meta", "object_id"), &out->object_id);
}

bool read_preprocess(napi_env env, napi_value value, meta::PreprocessBatch* out) {
  static const Path path{"GstNvDsPreProcessBatchMeta"};
  static const Path tensor_path{"NvDsPreProcessTensorMeta"};
  FieldReader in(env, value, path);
  napi_value ids, tensor, rois;
  if (!in.get("targetUniqueIds", &ids) || !in.get("tensor", &tensor) || !in.get("rois", &rois)) return false;
  if (!each(env, ids, FieldName(path, "target_unique_ids"), [&](napi_value id, long) {
        out->target_unique_ids.emplace_back();
        return read_u64(env, id, FieldName(path, "target_unique_ids"), &out->target_unique_ids.back());
      })) {
    return false;
  }
  out->has_tensor = !is_nullish(env, tensor);
  if (out->has_tensor) {
    FieldReader t(env, tensor, tensor_path);
    napi_value shape, pointer;
    int32_t data_type = 0;
    uint64_t address = 0;
    if (!t.string("tensorName", "tensor_name", &out->tensor.tensor_name) ||
        !t.integer("dataType", "data_type", &data_type) || !t.get("tensorShape", &shape) ||
        !t.integer("bufferSize", "buffer_size", &out->tensor.buffer_size) || !t.integer("gpuId", "gpu_id", &out->tensor.gpu_id) ||
        !t.integer("metaId", "meta_id", &out->tensor.meta_id) ||
        !t.flag("maintainAspectRatio", "maintain_aspect_ratio", &out->tensor.maintain_aspect_ratio) ||
        !t.get("devicePointer", &pointer) || !read_u64(env, pointer, FieldName(tensor_path, "raw_tensor_buffer"), &address)) {
      return false;
    }
    out->tensor.data_type = static_cast<meta::PreprocessDataType>(data_type);
    out->tensor.raw_tensor_buffer = reinterpret_cast<const void*>(static_cast<uintptr_t>(address));
    if (!each(env, shape, FieldName(tensor_path, "tensor_shape"), [&](napi_value d, long) {
          out->tensor.tensor_shape.emplace_back();
          return read_int<int32_t>(env, d, FieldName(tensor_path, "tensor_shape"), &out->tensor.tensor_shape.back());
        })) {
      return false;
    }
  }
  return each(env, rois, FieldName(path, "roi_vector"), [&](napi_value roi, long i) {
    out->rois.emplace_back();
    return read_roi(env, roi, i, &out->rois.back());
  });
}

bool read_component(napi_env env, napi_value kind_value, napi_value value, meta::ComponentMeta* out) {
  int32_t kind = 0;
  if (!read_int<int32_t>(env, kind_value, FieldName("kind"), &kind) || !read_object(env, value, FieldName("value")))
    return false;
  out->kind = static_cast<meta::PayloadKind>(kind);
  if (meta::is_tracker_target_kind(out->kind)) return read_targets(env, value, &out->targets);
  switch (out->kind) {
    case meta::PayloadKind::kTrackerBatchReid:
    case meta::PayloadKind::kTrackerObjectReid: return read_reid(env, value, out);
    case meta::PayloadKind::kPreprocessBatch: return read_preprocess(env, value, &out->preprocess);
    case meta::PayloadKind::kRoi: return read_roi(env, value, -1, &out->roi);
    default:
      throw_error(env, ErrorKind::kRange, "Expected a component meta kind (" +
          std::to_string(static_cast<int>(meta::PayloadKind::kTrackerPastFrame)) + ".." +
          std::to_string(static_cast<int>(meta::PayloadKind::kRoi)) + ") for kind but received " + std::to_string(kind));
      return false;
  }
}

bool read_sensor_text(napi_env env, FieldReader& in, const char* key, const char* field, std::optional<std::string>* out) {
  napi_value value;
  if (!in.get(key, &value)) return false;
  if (is_nullish(env, value)) {
    out->reset();
    return true;
  }
  std::string text;
  if (!read_string(env, value, FieldName(in.path(), field), &text)) return false;
  *out = std::move(text);
  return true;
}

napi_value harness_add_component_meta(napi_env env, napi_callback_info info) {
  Args args(env, info);
  uint32_t id = 0;
  auto component = std::make_shared<meta::ComponentMeta>();
  if (!args.ok || !read_int<uint32_t>(env, args[0], FieldName("callId"), &id) ||
      !read_component(env, args[3], args[4], component.get())) {
    return nullptr;
  }
  return attach_user_meta(env, id, args[1], args[2],
      [&](meta::Batch* batch, meta::UserMetaLevel level, void* owner, meta::UserHandle* created) {
        if (batch->backend() != meta::BackendKind::kPortable) {
          return meta::Status::State(
              "Expected the portable backend for addComponentMeta but received a DeepStream batch: on DeepStream, "
              "nvtracker and nvdspreprocess attach these metas (test/component-meta.test.ts runs stand-ins of them)");
        }
        return static_cast<meta::PortableBackend*>(batch)->add_component_meta(level, owner, component, created);
      }, "addComponentMeta");
}

napi_value harness_set_sensor_info(napi_env env, napi_callback_info info) {
  Args args(env, info);
  uint32_t id = 0;
  static const Path path{"NvDsFrameMeta.sensorInfo_meta"};
  meta::SensorInfo sensor;
  if (!args.ok || !read_int<uint32_t>(env, args[0], FieldName("callId"), &id) ||
      !read_object(env, args[2], FieldName("sensorInfo"))) {
    return nullptr;
  }
  FieldReader in(env, args[2], path);
  if (!in.integer("sourceId", "source_id", &sensor.source_id) || !read_sensor_text(env, in, "uri", "uri", &sensor.uri) ||
      !read_sensor_text(env, in, "sensorId", "sensor_id", &sensor.sensor_id) ||
      !read_sensor_text(env, in, "sensorName", "sensor_name", &sensor.sensor_name)) {
    return nullptr;
  }
  CallScope scope(env, id, "setSensorInfo");
  uint32_t frame = 0;
  if (!scope || !read_frame(env, scope.call(), args[1], "frameIndex", &frame)) return nullptr;
  meta::FrameHandle handle = scope.call().frames[frame];
  if (scope.batch().backend() == meta::BackendKind::kPortable) {
    static_cast<meta::PortableBackend&>(scope.batch()).write_sensor_info(handle, sensor);
  } else {
#ifdef DSNODE_HAVE_DEEPSTREAM
    meta::write_deepstream_sensor_info(sensor, static_cast<NvDsFrameMeta*>(handle.ptr));
#endif
  }
  return make_undefined(env);
}

}  // namespace

const Export kComponentHarnessExports[2] = {
    {"addComponentMeta", harness_add_component_meta},
    {"setSensorInfo", harness_set_sensor_info},
};

}  // namespace dsnode::metabind
