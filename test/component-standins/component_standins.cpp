/*
 * Stand-ins for what three NVIDIA components attach to a batch (DeepStream build only), for
 * test/component-meta.test.ts. The components themselves link unpublished NVIDIA libraries and
 * cannot be built here: these attach only the metadata, NVIDIA's structs through NVIDIA's
 * headers and libnvds_meta, with the meta types, levels, copy and release semantics of the
 * real writers. No pixels or GPU memory are touched: the device pointers they carry are
 * sentinels nothing dereferences.
 *
 * - `dstrackerstandin`: nvtracker with enablePastFrame, outputReidTensor, outputTerminatedTracks
 *   and outputShadowTracks (nvtracker_proc.cpp updatePastFrameMeta, updateBatchReidMeta,
 *   updateTerminatedTrackMeta, updateShadowTrackMeta, updateObjectReidMeta): one GstMiniObject
 *   per buffer owns the NvDsTargetMiscDataBatch lists and the NvDsReidTensorBatch; each batch
 *   user meta holds a ref on it (priv_data; copy refs, release unrefs); each frame gets a
 *   tracked object (object_id 7) with an NvDsObjReid pointing into the batch's embeddings
 *   (copied as nvtracker's copy_nvtracker2_obj_reid_meta does, deleted on release).
 *   Per buffer of first-frame number n, with the tracker's history counted from frame 10 so that no
 *   number wraps: past frames n+8 and n+9 of target 7 ("car", class 2),
 *   boxes (10+k, 20+k, 30, 40), confidence 0.5, age 3+k, INACTIVE then ACTIVE, visibility 0.75,
 *   feet (1.5, -2.5); embeddings of 4 floats [n, n + 0.5, n + 0.25, -n - 1] per frame; terminated:
 *   target 5 (class 0, "person") last seen at n+5; no shadow tracks.
 * - `dspreprocessstandin`: nvdspreprocess's GstNvDsPreProcessBatchMeta (NVDS_PREPROCESS_BATCH_META,
 *   batch level: target ids {2, 3}, a float32 [frames, 3, 16, 16] tensor "input_1", one ROI
 *   (8, 4, 64, 32) per frame scaled 0.25 x 0.5 offset (2, 3)) and, as nvinfer attaches it when it
 *   infers on that tensor (input-tensor-meta=1, gstnvinfer_meta_utils.cpp attach_tensor_output_meta),
 *   the frame's NVDS_ROI_META (a copy of its ROI, object_meta NULL).
 * - `dssensorinfostandin`: nvmultiurisrcbin's probe on the muxer's output
 *   (gst-nvmultiurisrcbincreator.cpp): each frame's sensorInfo_meta g_strdup'd from the source's
 *   configuration (sensor id "cam-<source_id>", name "Camera <source_id>", uri
 *   "rtsp://10.0.0.<source_id>/stream"), which the frame's release g_free's.
 *
 *   videotestsrc ! mux.sink_0 nvstreammux name=mux ! dssensorinfostandin ! dstrackerstandin ! dspreprocessstandin ! <element>
 *
 * C++ because nvdspreprocess_meta.h is (std::vector, std::string members). Built by
 * native-host/CMakeLists.txt (target dsnode-component-standins) into test-plugins/. In the
 * repository only: the package does not ship test/.
 */
#include <gst/base/gstbasetransform.h>
#include <gst/gst.h>

#include <cstring>
#include <vector>

#include "gstnvdsmeta.h"
#include "nvds_roi_meta.h"
#include "nvds_tracker_meta.h"
#include "nvdsmeta.h"
#include "nvdspreprocess_meta.h"

namespace {

// A device address for the fields that hold one; never dereferenced (no GPU here).
void *sentinel_device_pointer(uintptr_t offset) { return reinterpret_cast<void *>(0xd0000000u + offset); }

GstStaticPadTemplate any_sink = GST_STATIC_PAD_TEMPLATE("sink", GST_PAD_SINK, GST_PAD_ALWAYS, GST_STATIC_CAPS_ANY);
GstStaticPadTemplate any_src = GST_STATIC_PAD_TEMPLATE("src", GST_PAD_SRC, GST_PAD_ALWAYS, GST_STATIC_CAPS_ANY);

std::vector<NvDsFrameMeta *> frames_of(NvDsBatchMeta *batch) {
  std::vector<NvDsFrameMeta *> frames;
  for (NvDsMetaList *l = batch->frame_meta_list; l != nullptr; l = l->next) frames.push_back(static_cast<NvDsFrameMeta *>(l->data));
  return frames;
}

void add_batch_user_meta(NvDsBatchMeta *batch, NvDsMetaType type, void *data, NvDsMetaCopyFunc copy, NvDsMetaReleaseFunc release) {
  NvDsUserMeta *user = nvds_acquire_user_meta_from_pool(batch);
  user->user_meta_data = data;
  user->base_meta.meta_type = type;
  user->base_meta.copy_func = copy;
  user->base_meta.release_func = release;
  user->base_meta.batch_meta = batch;
  nvds_add_user_meta_to_batch(batch, user);
}

/* --- dstrackerstandin ------------------------------------------------------------------------ */

// nvtracker's GstNvTrackerMiscDataObject: the buffer every batch meta points into.
struct TrackerData {
  GstMiniObject parent;
  NvDsTargetMiscDataBatch past_frame, terminated, shadow;
  std::vector<NvDsTargetMiscDataStream> past_streams, terminated_streams, shadow_streams;
  std::vector<NvDsTargetMiscDataObject> past_objects, terminated_objects;
  std::vector<NvDsTargetMiscDataFrame> past_frames, terminated_frames;
  NvDsReidTensorBatch reid;
  std::vector<float> reid_host;
};

void free_tracker_data(GstMiniObject *object) { delete reinterpret_cast<TrackerData *>(object); }

gpointer copy_shared(gpointer data, gpointer) {  // copy_nvtracker2_past_frame_meta & co.
  auto *user = static_cast<NvDsUserMeta *>(data);
  auto *batch = static_cast<NvDsTargetMiscDataBatch *>(user->user_meta_data);
  gst_mini_object_ref(static_cast<GstMiniObject *>(batch->priv_data));
  return user->user_meta_data;
}

void release_shared(gpointer data, gpointer) {
  auto *user = static_cast<NvDsUserMeta *>(data);
  auto *batch = static_cast<NvDsTargetMiscDataBatch *>(user->user_meta_data);
  gst_mini_object_unref(static_cast<GstMiniObject *>(batch->priv_data));
}

gpointer copy_reid_batch(gpointer data, gpointer) {
  auto *user = static_cast<NvDsUserMeta *>(data);
  gst_mini_object_ref(static_cast<GstMiniObject *>(static_cast<NvDsReidTensorBatch *>(user->user_meta_data)->priv_data));
  return user->user_meta_data;
}

void release_reid_batch(gpointer data, gpointer) {
  auto *user = static_cast<NvDsUserMeta *>(data);
  gst_mini_object_unref(static_cast<GstMiniObject *>(static_cast<NvDsReidTensorBatch *>(user->user_meta_data)->priv_data));
}

gpointer copy_object_reid(gpointer data, gpointer) {  // copy_nvtracker2_obj_reid_meta
  auto *from = static_cast<NvDsObjReid *>(static_cast<NvDsUserMeta *>(data)->user_meta_data);
  if (from->featureSize == 0 || from->ptr_dev == nullptr || from->ptr_host == nullptr) return nullptr;
  return new NvDsObjReid(*from);
}

void release_object_reid(gpointer data, gpointer) { delete static_cast<NvDsObjReid *>(static_cast<NvDsUserMeta *>(data)->user_meta_data); }

void fill_frame(NvDsTargetMiscDataFrame *frame, uint32_t frame_num, int k, TRACKER_STATE state) {
  std::memset(frame, 0, sizeof *frame);
  frame->frameNum = frame_num;
  frame->tBbox.left = 10.0f + k;
  frame->tBbox.top = 20.0f + k;
  frame->tBbox.width = 30;
  frame->tBbox.height = 40;
  frame->confidence = 0.5f;
  frame->age = 3 + k;
  frame->trackerState = state;
  frame->visibility = 0.75f;
  frame->ptWorldFeet[0] = 1.5f;
  frame->ptWorldFeet[1] = -2.5f;
}

NvDsTargetMiscDataObject target(uint64_t id, uint16_t class_id, const char *label, NvDsTargetMiscDataFrame *frames, uint32_t count) {
  NvDsTargetMiscDataObject object;
  std::memset(&object, 0, sizeof object);
  object.list = frames;
  object.numObj = object.numAllocated = count;
  object.uniqueId = id;
  object.classId = class_id;
  g_strlcpy(object.objLabel, label, MAX_LABEL_SIZE);
  return object;
}

void fill_batch(NvDsTargetMiscDataBatch *batch, std::vector<NvDsTargetMiscDataStream> &streams, TrackerData *owner) {
  batch->list = streams.data();
  batch->numAllocated = batch->numFilled = static_cast<uint32_t>(streams.size());
  batch->priv_data = owner;
}

GstFlowReturn tracker_transform_ip(GstBaseTransform *, GstBuffer *buffer) {
  NvDsBatchMeta *batch = gst_buffer_get_nvds_batch_meta(buffer);
  if (batch == nullptr) return GST_FLOW_OK;
  std::vector<NvDsFrameMeta *> frames = frames_of(batch);
  if (frames.empty()) return GST_FLOW_OK;
  const uint32_t n = static_cast<uint32_t>(frames[0]->frame_num) + 10;
  constexpr uint32_t kFeatureSize = 4;

  auto *data = new TrackerData();
  gst_mini_object_init(GST_MINI_OBJECT_CAST(data), 0, G_TYPE_POINTER, nullptr, nullptr, free_tracker_data);
  data->past_frames.resize(2);
  fill_frame(&data->past_frames[0], n - 2, 0, INACTIVE);
  fill_frame(&data->past_frames[1], n - 1, 1, ACTIVE);
  data->past_objects.push_back(target(7, 2, "car", data->past_frames.data(), 2));
  data->terminated_frames.resize(1);
  fill_frame(&data->terminated_frames[0], n - 5, 0, ACTIVE);
  data->terminated_objects.push_back(target(5, 0, "person", data->terminated_frames.data(), 1));
  for (NvDsFrameMeta *frame : frames) {
    NvDsTargetMiscDataStream stream;
    std::memset(&stream, 0, sizeof stream);
    stream.streamID = frame->pad_index;
    stream.surfaceStreamID = (static_cast<uint64_t>(frame->source_id) << 32) | 1u;
    stream.list = data->past_objects.data();
    stream.numAllocated = stream.numFilled = 1;
    data->past_streams.push_back(stream);
    stream.list = data->terminated_objects.data();
    data->terminated_streams.push_back(stream);
    stream.list = nullptr;
    stream.numFilled = 0;
    data->shadow_streams.push_back(stream);
    const float base = static_cast<float>(frame->frame_num);
    data->reid_host.insert(data->reid_host.end(), {base, base + 0.5f, base + 0.25f, -base - 1});
  }
  fill_batch(&data->past_frame, data->past_streams, data);
  fill_batch(&data->terminated, data->terminated_streams, data);
  fill_batch(&data->shadow, data->shadow_streams, data);
  data->reid.featureSize = kFeatureSize;
  data->reid.numFilled = static_cast<uint32_t>(frames.size());
  data->reid.ptr_host = data->reid_host.data();
  data->reid.ptr_dev = static_cast<float *>(sentinel_device_pointer(0));
  data->reid.priv_data = data;

  // One ref per batch meta (nvtracker refs pGstObj for each); the creator's ref is dropped last.
  struct Shared {
    NvDsMetaType type;
    void *meta;
  } shared[] = {
      {NVDS_TRACKER_PAST_FRAME_META, &data->past_frame},
      {NVDS_TRACKER_TERMINATED_LIST_META, &data->terminated},
      {NVDS_TRACKER_SHADOW_LIST_META, &data->shadow},
  };
  for (const Shared &entry : shared) {
    gst_mini_object_ref(GST_MINI_OBJECT_CAST(data));
    add_batch_user_meta(batch, entry.type, entry.meta, copy_shared, release_shared);
  }
  gst_mini_object_ref(GST_MINI_OBJECT_CAST(data));
  add_batch_user_meta(batch, NVDS_TRACKER_BATCH_REID_META, &data->reid, copy_reid_batch, release_reid_batch);

  for (size_t i = 0; i < frames.size(); ++i) {
    NvDsObjectMeta *object = nvds_acquire_obj_meta_from_pool(batch);
    object->object_id = 7;
    object->class_id = 2;
    object->confidence = 0.9f;
    object->rect_params.left = 11;
    object->rect_params.top = 21;
    object->rect_params.width = 30;
    object->rect_params.height = 40;
    g_strlcpy(object->obj_label, "car", MAX_LABEL_SIZE);
    nvds_add_obj_meta_to_frame(frames[i], object, nullptr);
    auto *reid = new NvDsObjReid;
    reid->featureSize = kFeatureSize;
    reid->ptr_host = data->reid_host.data() + i * kFeatureSize;
    reid->ptr_dev = static_cast<float *>(sentinel_device_pointer(i * kFeatureSize * sizeof(float)));
    NvDsUserMeta *user = nvds_acquire_user_meta_from_pool(batch);
    user->user_meta_data = reid;
    user->base_meta.meta_type = NVDS_TRACKER_OBJ_REID_META;
    user->base_meta.copy_func = copy_object_reid;
    user->base_meta.release_func = release_object_reid;
    nvds_add_user_meta_to_obj(object, user);
  }
  gst_mini_object_unref(GST_MINI_OBJECT_CAST(data));
  return GST_FLOW_OK;
}

/* --- dspreprocessstandin --------------------------------------------------------------------- */

NvDsRoiMeta roi_of(NvDsFrameMeta *frame) {
  NvDsRoiMeta roi;
  std::memset(&roi, 0, sizeof roi);
  roi.roi.left = 8;
  roi.roi.top = 4;
  roi.roi.width = 64;
  roi.roi.height = 32;
  roi.frame_meta = frame;
  roi.scale_ratio_x = 0.25;
  roi.scale_ratio_y = 0.5;
  roi.offset_left = 2;
  roi.offset_top = 3;
  return roi;
}

void release_preprocess(gpointer data, gpointer) {
  auto *meta = static_cast<GstNvDsPreProcessBatchMeta *>(static_cast<NvDsUserMeta *>(data)->user_meta_data);
  delete meta->tensor_meta;
  delete meta;
}

gpointer copy_preprocess(gpointer data, gpointer) {
  auto *from = static_cast<GstNvDsPreProcessBatchMeta *>(static_cast<NvDsUserMeta *>(data)->user_meta_data);
  auto *meta = new GstNvDsPreProcessBatchMeta(*from);
  if (from->tensor_meta != nullptr) meta->tensor_meta = new NvDsPreProcessTensorMeta(*from->tensor_meta);
  return meta;
}

void release_roi(gpointer data, gpointer) { delete static_cast<NvDsRoiMeta *>(static_cast<NvDsUserMeta *>(data)->user_meta_data); }

gpointer copy_roi(gpointer data, gpointer) {  // copy_roi_meta (lists left empty: none here)
  return new NvDsRoiMeta(*static_cast<NvDsRoiMeta *>(static_cast<NvDsUserMeta *>(data)->user_meta_data));
}

GstFlowReturn preprocess_transform_ip(GstBaseTransform *, GstBuffer *buffer) {
  NvDsBatchMeta *batch = gst_buffer_get_nvds_batch_meta(buffer);
  if (batch == nullptr) return GST_FLOW_OK;
  std::vector<NvDsFrameMeta *> frames = frames_of(batch);
  auto *meta = new GstNvDsPreProcessBatchMeta();
  meta->target_unique_ids = {2, 3};
  meta->private_data = nullptr;
  auto *tensor = new NvDsPreProcessTensorMeta();
  tensor->raw_tensor_buffer = sentinel_device_pointer(0x10000);
  tensor->tensor_shape = {static_cast<int>(frames.size()), 3, 16, 16};
  tensor->buffer_size = static_cast<guint64>(frames.size()) * 3 * 16 * 16 * sizeof(float);
  tensor->data_type = NvDsDataType_FP32;
  tensor->tensor_name = "input_1";
  tensor->gpu_id = 0;
  tensor->private_data = nullptr;
  tensor->meta_id = 0;
  tensor->maintain_aspect_ratio = TRUE;
  meta->tensor_meta = tensor;
  for (NvDsFrameMeta *frame : frames) meta->roi_vector.push_back(roi_of(frame));
  add_batch_user_meta(batch, NVDS_PREPROCESS_BATCH_META, meta, copy_preprocess, release_preprocess);
  for (NvDsFrameMeta *frame : frames) {
    NvDsUserMeta *user = nvds_acquire_user_meta_from_pool(batch);
    user->user_meta_data = new NvDsRoiMeta(roi_of(frame));
    user->base_meta.meta_type = NVDS_ROI_META;
    user->base_meta.copy_func = copy_roi;
    user->base_meta.release_func = release_roi;
    user->base_meta.batch_meta = batch;
    nvds_add_user_meta_to_frame(frame, user);
  }
  return GST_FLOW_OK;
}

/* --- dssensorinfostandin --------------------------------------------------------------------- */

GstFlowReturn sensor_info_transform_ip(GstBaseTransform *, GstBuffer *buffer) {
  NvDsBatchMeta *batch = gst_buffer_get_nvds_batch_meta(buffer);
  if (batch == nullptr) return GST_FLOW_OK;
  for (NvDsFrameMeta *frame : frames_of(batch)) {
    NvDsSensorInfo_meta &info = frame->sensorInfo_meta;
    g_free(const_cast<gchar *>(info.sensor_id));
    g_free(const_cast<gchar *>(info.sensor_name));
    g_free(const_cast<gchar *>(info.uri));
    info.source_id = frame->source_id;
    info.sensor_id = g_strdup_printf("cam-%u", frame->source_id);
    info.sensor_name = g_strdup_printf("Camera %u", frame->source_id);
    info.uri = g_strdup_printf("rtsp://10.0.0.%u/stream", frame->source_id);
  }
  return GST_FLOW_OK;
}

/* --- the three types ------------------------------------------------------------------------- */

GType standin_type(const char *type_name, const char *long_name, const char *description,
    GstFlowReturn (*transform_ip)(GstBaseTransform *, GstBuffer *)) {
  struct ClassData {
    const char *long_name, *description;
    GstFlowReturn (*transform_ip)(GstBaseTransform *, GstBuffer *);
  };
  GTypeInfo info;
  std::memset(&info, 0, sizeof info);
  info.class_size = sizeof(GstBaseTransformClass);
  info.instance_size = sizeof(GstBaseTransform);
  info.class_data = new ClassData{long_name, description, transform_ip};  // for the process's life, as the type
  info.class_init = [](gpointer klass, gpointer class_data) {
    auto *data = static_cast<ClassData *>(class_data);
    GstElementClass *element_class = GST_ELEMENT_CLASS(klass);
    GST_BASE_TRANSFORM_CLASS(klass)->transform_ip = data->transform_ip;
    gst_element_class_add_static_pad_template(element_class, &any_sink);
    gst_element_class_add_static_pad_template(element_class, &any_src);
    gst_element_class_set_static_metadata(element_class, data->long_name, "Filter/Metadata", data->description, "ds-element tests");
  };
  info.instance_init = [](GTypeInstance *instance, gpointer) {
    gst_base_transform_set_in_place(GST_BASE_TRANSFORM(instance), TRUE);
  };
  return g_type_register_static(GST_TYPE_BASE_TRANSFORM, type_name, &info, GTypeFlags(0));
}

gboolean plugin_init(GstPlugin *plugin) {
  return gst_element_register(plugin, "dstrackerstandin", GST_RANK_NONE,
             standin_type("DsTrackerStandin", "nvtracker stand-in (ds-element tests)",
                 "Attaches nvtracker's past-frame, terminated, shadow and re-ID metas", tracker_transform_ip)) &&
         gst_element_register(plugin, "dspreprocessstandin", GST_RANK_NONE,
             standin_type("DsPreprocessStandin", "nvdspreprocess stand-in (ds-element tests)",
                 "Attaches nvdspreprocess's batch meta and nvinfer's frame ROI metas", preprocess_transform_ip)) &&
         gst_element_register(plugin, "dssensorinfostandin", GST_RANK_NONE,
             standin_type("DsSensorInfoStandin", "nvmultiurisrcbin sensor info stand-in (ds-element tests)",
                 "Sets each frame's sensorInfo_meta as nvmultiurisrcbin's probe does", sensor_info_transform_ip));
}

}  // namespace

#define PACKAGE "ds-element-tests"
GST_PLUGIN_DEFINE(GST_VERSION_MAJOR, GST_VERSION_MINOR, dscomponentstandins,
    "nvtracker, nvdspreprocess and source-bin stand-ins for ds-element's tests", plugin_init, "0.1", "Apache 2.0",
    PACKAGE, "https://github.com/ds-element")
