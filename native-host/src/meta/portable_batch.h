// The portable backend's data: DeepStream's batch → frame → object → classifier → label info
// hierarchy, display and user metas, held in pools owned by the batch (as NvDsBatchMeta owns
// its NvDsMetaPools). Carried on a GstBuffer by portable_gst_meta.h; read and written through
// the Batch interface by PortableBackend.
#ifndef DSNODE_META_PORTABLE_BATCH_H
#define DSNODE_META_PORTABLE_BATCH_H

#include <cstdint>
#include <memory>
#include <vector>

#include "meta/event_msg.h"
#include "meta/component_meta.h"
#include "meta/model.h"
#include "meta/pool.h"

namespace dsnode::meta {

struct PortableFrame;
struct PortableObject;
struct PortableClassifier;

// nvinfer-shaped output tensors carried by the portable backend (the testing harness attaches
// them); immutable once made, so buffer copies share them.
struct TensorOutputStorage {
  TensorOutput output;  // layers[i].host_buffer points into bytes[i]
  std::vector<std::vector<uint8_t>> bytes;
};

struct PortableUserMeta {
  MetaState state = MetaState::kFree;
  UserMetaFields fields;
  // The typed payload of every kind but bytes/JSON/foreign, by fields.kind: TensorOutputStorage,
  // EventMsg, AnalyticsFrameMeta, AnalyticsObjectInfo, Segmentation or ComponentMeta (the
  // component kinds); immutable once added, so buffer copies share it.
  std::shared_ptr<const void> typed;
  void reset() { fields = UserMetaFields(); typed.reset(); }
  // The typed payload as T when this meta is of `kind`; null otherwise.
  template <typename T>
  const T *typed_as(PayloadKind kind) const {
    return fields.kind == kind && typed ? static_cast<const T *>(typed.get()) : nullptr;
  }
};

struct PortableLabelInfo {
  MetaState state = MetaState::kFree;
  PortableClassifier *owner = nullptr;
  LabelInfoFields fields;
  void reset() { owner = nullptr; fields = LabelInfoFields(); }
};

struct PortableClassifier {
  MetaState state = MetaState::kFree;
  PortableObject *owner = nullptr;
  ClassifierFields fields;
  std::vector<PortableLabelInfo *> label_info_list;
  void reset() { owner = nullptr; fields = ClassifierFields(); label_info_list.clear(); }
};

struct PortableObject {
  MetaState state = MetaState::kFree;
  PortableFrame *owner = nullptr;
  PortableObject *parent = nullptr;
  uint32_t num_children = 0;  // objects whose parent is this one (cleared on removal)
  ObjectFields fields;
  std::vector<PortableClassifier *> classifier_meta_list;
  std::vector<PortableUserMeta *> obj_user_meta_list;
  void reset();
};

struct PortableDisplay {
  MetaState state = MetaState::kFree;
  PortableFrame *owner = nullptr;
  DisplayFields fields;
  void reset();
};

struct PortableFrame {
  MetaState state = MetaState::kFree;
  FrameFields fields;
  std::vector<PortableObject *> obj_meta_list;
  std::vector<PortableDisplay *> display_meta_list;
  std::vector<PortableUserMeta *> frame_user_meta_list;
  SensorInfo sensor_info;  // sensorInfo_meta
  void reset() {
    fields = FrameFields(); obj_meta_list.clear(); display_meta_list.clear(); frame_user_meta_list.clear();
    sensor_info = SensorInfo();
  }
};

class PortableBatchMeta {
 public:
  explicit PortableBatchMeta(uint32_t max_frames_in_batch) : max_frames_in_batch(max_frames_in_batch) {}
  ~PortableBatchMeta() = default;
  PortableBatchMeta(const PortableBatchMeta &) = delete;
  PortableBatchMeta &operator=(const PortableBatchMeta &) = delete;

  // A deep copy as NVIDIA's nvds_batch_meta_copy_func makes one (portable_batch.cpp says what
  // that keeps): every meta, string and payload is duplicated (tensor outputs are shared: they
  // are immutable); kept parent links point into the copy.
  std::unique_ptr<PortableBatchMeta> deep_copy() const;

  // Adds a frame (the host does, when it makes a batch). Null past max_frames_in_batch.
  PortableFrame *add_frame(const FrameFields &fields);

  // Empties the batch for reuse by another buffer: every frame and meta goes back to its pool,
  // whose storage stays (no allocation for the next buffer's frame and metas).
  void clear(uint32_t new_max_frames_in_batch);
  // Metas the pools hold, in use or free (what a cleared batch keeps allocated).
  size_t pooled_metas() const;

  uint32_t max_frames_in_batch;
  std::vector<PortableFrame *> frame_meta_list;
  std::vector<PortableUserMeta *> batch_user_meta_list;
  int64_t misc_batch_info[kMaxUserFields] = {};

  Pool<PortableFrame> frame_pool;
  Pool<PortableObject> object_pool;
  Pool<PortableClassifier> classifier_pool;
  Pool<PortableLabelInfo> label_info_pool;
  Pool<PortableDisplay> display_pool;
  Pool<PortableUserMeta> user_pool;

  // Return a meta and everything under it to the pools (the caller unlinked it).
  void release_object(PortableObject *object);
  void release_classifier(PortableClassifier *classifier);
  void release_label_info(PortableLabelInfo *label) { label_info_pool.release(label); }
  void release_display(PortableDisplay *display) { display_pool.release(display); }
  void release_user(PortableUserMeta *user) { user_pool.release(user); }
};

}  // namespace dsnode::meta

#endif
