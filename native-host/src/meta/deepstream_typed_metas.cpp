// deepstream_typed_metas.h. The analytics structs hold C++ containers: they are read and made
// through NVIDIA's header, compiled here with the same standard library nvdsanalytics uses, and
// copied member by member from the one list of members (DSNODE_ANALYTICS_*_MEMBERS).
#include "meta/deepstream_typed_metas.h"

#include "meta/component_meta.h"

#include <gst/gst.h>

#include <atomic>
#include <string>

#include "gstnvdsinfer.h"
#include "nvds_analytics_meta.h"
#include "nvds_version.h"

namespace dsnode::meta::nvds {

// DeepStream 8.0 made the analytics types enum values; before, they were strings
// (nvds_get_user_meta_type("NVIDIA.DSANALYTICSFRAME.USER_META")) this backend does not resolve.
#if NVDS_VERSION_MAJOR >= 8
#define DSNODE_HAVE_ANALYTICS_TYPES 1
static_assert(kMetaTypeAnalyticsFrame == NVDS_USER_FRAME_META_NVDSANALYTICS, "NvDsMetaType order changed");
static_assert(kMetaTypeAnalyticsObject == NVDS_USER_OBJ_META_NVDSANALYTICS, "NvDsMetaType order changed");
#else
#define DSNODE_HAVE_ANALYTICS_TYPES 0
#endif

namespace {

std::atomic<size_t> live_segmentations{0};

// Member-for-member copies between NVIDIA's structs and the model (same names, same types).
#define DSNODE_COPY_MEMBER(type, member, js, what) to->member = from.member;
template <typename From, typename To>
void copy_analytics_frame(const From &from, To *to) { DSNODE_ANALYTICS_FRAME_MEMBERS(DSNODE_COPY_MEMBER) }
template <typename From, typename To>
void copy_analytics_object(const From &from, To *to) { DSNODE_ANALYTICS_OBJECT_MEMBERS(DSNODE_COPY_MEMBER) }
#undef DSNODE_COPY_MEMBER

// Ours are made with new and freed with delete, as nvdsanalytics makes its own; copies too.
template <typename T>
gpointer copy_with_new(gpointer data, gpointer) {
  return new T(*static_cast<const T *>(static_cast<NvDsUserMeta *>(data)->user_meta_data));
}

template <typename T>
void release_with_delete(gpointer data, gpointer) {
  auto *user = static_cast<NvDsUserMeta *>(data);
  delete static_cast<T *>(user->user_meta_data);
  user->user_meta_data = nullptr;
}

// Segmentation metas we write hold their maps in g_malloc'd memory and no priv_data, as the
// copies nvinfer's own copy function makes (gstnvinfer_meta_utils.cpp copy_segmentation_meta),
// so a reader cannot tell ours from a copy of nvinfer's.
NvDsInferSegmentationMeta *new_segmentation(const SegmentationFields &fields, const int32_t *class_map,
    const float *probabilities) {
  auto *meta = g_new0(NvDsInferSegmentationMeta, 1);
  meta->classes = fields.classes;
  meta->width = fields.width;
  meta->height = fields.height;
  meta->unique_id = fields.unique_id;
  const size_t pixels = static_cast<size_t>(fields.width) * fields.height;
  meta->class_map = static_cast<gint *>(g_memdup2(class_map, pixels * sizeof(gint)));
  meta->class_probabilities_map = probabilities == nullptr ? nullptr
      : static_cast<gfloat *>(g_memdup2(probabilities, pixels * fields.classes * sizeof(gfloat)));
  meta->priv_data = nullptr;
  live_segmentations.fetch_add(1, std::memory_order_relaxed);
  return meta;
}

SegmentationFields fields_of(const NvDsInferSegmentationMeta &meta) {
  SegmentationFields fields;
  fields.classes = meta.classes;
  fields.width = meta.width;
  fields.height = meta.height;
  fields.unique_id = meta.unique_id;
  return fields;
}

gpointer segmentation_copy(gpointer data, gpointer) {
  const auto *from = static_cast<const NvDsInferSegmentationMeta *>(static_cast<NvDsUserMeta *>(data)->user_meta_data);
  return new_segmentation(fields_of(*from), from->class_map, from->class_probabilities_map);
}

void segmentation_release(gpointer data, gpointer) {
  auto *user = static_cast<NvDsUserMeta *>(data);
  auto *meta = static_cast<NvDsInferSegmentationMeta *>(user->user_meta_data);
  if (meta != nullptr) {
    g_free(meta->class_map);
    g_free(meta->class_probabilities_map);
    g_free(meta);
    live_segmentations.fetch_sub(1, std::memory_order_relaxed);
  }
  user->user_meta_data = nullptr;
}

template <typename T>
const T *data_of(const NvDsUserMeta *user, int type) {
  return user->base_meta.meta_type == type && user->user_meta_data != nullptr
      ? static_cast<const T *>(user->user_meta_data) : nullptr;
}

Status no_analytics_types() {
  return Status::State("Expected DeepStream 8.0 or later for nvdsanalytics metadata but received DeepStream " +
      std::to_string(NVDS_VERSION_MAJOR) + "." + std::to_string(NVDS_VERSION_MINOR));
}

// A new NVIDIA struct `Nv` filled from `value` by `copy`, with its type and callbacks.
template <typename Nv, typename Model, typename Copy>
Status fill_analytics(NvDsUserMeta *user, const Model &value, int32_t type, Copy copy) {
  if (!DSNODE_HAVE_ANALYTICS_TYPES) return no_analytics_types();
  auto *meta = new Nv();
  copy(value, meta);
  user->user_meta_data = meta;
  user->base_meta.meta_type = static_cast<NvDsMetaType>(type);
  user->base_meta.copy_func = copy_with_new<Nv>;
  user->base_meta.release_func = release_with_delete<Nv>;
  return Status::Ok();
}

}  // namespace

PayloadKind kind_of_nvidia_meta(const NvDsUserMeta *user) {
  switch (static_cast<int>(user->base_meta.meta_type)) {
    case NVDSINFER_TENSOR_OUTPUT_META: return PayloadKind::kTensorOutput;
    case NVDSINFER_SEGMENTATION_META: return PayloadKind::kSegmentation;
    case NVDS_EVENT_MSG_META: return user->user_meta_data != nullptr ? PayloadKind::kEventMsg : PayloadKind::kForeign;
#if DSNODE_HAVE_ANALYTICS_TYPES
    case kMetaTypeAnalyticsFrame: return PayloadKind::kAnalyticsFrame;
    case kMetaTypeAnalyticsObject: return PayloadKind::kAnalyticsObject;
#endif
    default: return component_payload_kind(user->base_meta.meta_type);  // kForeign when none
  }
}

bool read_analytics_frame(const NvDsUserMeta *user, AnalyticsFrameMeta *out) {
  const auto *meta = data_of<NvDsAnalyticsFrameMeta>(user, kMetaTypeAnalyticsFrame);
  if (!DSNODE_HAVE_ANALYTICS_TYPES || meta == nullptr) return false;
  copy_analytics_frame(*meta, out);
  return true;
}

bool read_analytics_object(const NvDsUserMeta *user, AnalyticsObjectInfo *out) {
  const auto *meta = data_of<NvDsAnalyticsObjInfo>(user, kMetaTypeAnalyticsObject);
  if (!DSNODE_HAVE_ANALYTICS_TYPES || meta == nullptr) return false;
  copy_analytics_object(*meta, out);
  return true;
}

bool read_segmentation(const NvDsUserMeta *user, SegmentationView *out) {
  const auto *meta = data_of<NvDsInferSegmentationMeta>(user, NVDSINFER_SEGMENTATION_META);
  if (meta == nullptr) return false;
  static_cast<SegmentationFields &>(*out) = fields_of(*meta);
  out->class_map = meta->class_map;
  out->class_probabilities_map = meta->class_probabilities_map;
  return true;
}

Status fill_analytics_frame(NvDsUserMeta *user, const AnalyticsFrameMeta &value) {
  return fill_analytics<NvDsAnalyticsFrameMeta>(user, value, kMetaTypeAnalyticsFrame,
      [](const AnalyticsFrameMeta &from, NvDsAnalyticsFrameMeta *to) { copy_analytics_frame(from, to); });
}

Status fill_analytics_object(NvDsUserMeta *user, const AnalyticsObjectInfo &value) {
  return fill_analytics<NvDsAnalyticsObjInfo>(user, value, kMetaTypeAnalyticsObject,
      [](const AnalyticsObjectInfo &from, NvDsAnalyticsObjInfo *to) { copy_analytics_object(from, to); });
}

void fill_segmentation(NvDsUserMeta *user, const Segmentation &value) {
  user->user_meta_data = new_segmentation(value, value.class_map.data(),
      value.class_probabilities_map.empty() ? nullptr : value.class_probabilities_map.data());
  user->base_meta.meta_type = NVDSINFER_SEGMENTATION_META;
  user->base_meta.copy_func = segmentation_copy;
  user->base_meta.release_func = segmentation_release;
}

size_t live_segmentation_metas() { return live_segmentations.load(std::memory_order_relaxed); }

}  // namespace dsnode::meta::nvds
