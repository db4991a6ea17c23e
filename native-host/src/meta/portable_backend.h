// The Batch interface over a PortableBatchMeta (the portable backend). One per transform call.
#ifndef DSNODE_META_PORTABLE_BACKEND_H
#define DSNODE_META_PORTABLE_BACKEND_H

#include <vector>

#include "meta/batch.h"
#include "meta/portable_batch.h"

namespace dsnode::meta {

class PortableBackend final : public Batch {
 public:
  explicit PortableBackend(PortableBatchMeta *batch) : batch_(batch) {}
  ~PortableBackend() override { end_call(); }

  BackendKind backend() const override { return BackendKind::kPortable; }
  PortableBatchMeta *data() const { return batch_; }

  uint32_t max_frames_in_batch() const override { return batch_->max_frames_in_batch; }
  uint32_t num_frames() const override { return static_cast<uint32_t>(batch_->frame_meta_list.size()); }
  FrameHandle frame_at(uint32_t index) const override;
  void read_frame(FrameHandle frame, FrameFields *out) const override;
  Status write_frame(FrameHandle frame, const FrameFields &fields) override;

  void *acquire_listed(ListedKind kind) override;
  Status add_listed(ListedKind kind, void *parent, void *item) override;
  Status remove_listed(ListedKind kind, void *parent, void *item) override;
  void list_listed(ListedKind kind, void *parent, std::vector<void *> *out) const override;

  Status add_object(FrameHandle frame, ObjectHandle object, ObjectHandle parent) override;
  size_t num_objects(FrameHandle frame) const override;
  ObjectHandle parent_of(ObjectHandle object) const override;
  void read_object(ObjectHandle object, ObjectFields *out) const override;
  Status write_object(ObjectHandle object, const ObjectFields &fields, const ObjectFields *before = nullptr) override;
  void read_classifier(ClassifierHandle classifier, ClassifierFields *out) const override;
  Status write_classifier(ClassifierHandle classifier, const ClassifierFields &fields) override;
  void read_label_info(LabelInfoHandle label, LabelInfoFields *out) const override;
  Status write_label_info(LabelInfoHandle label, const LabelInfoFields &fields) override;
  void read_display(DisplayHandle display, DisplayFields *out) const override;
  Status write_display(DisplayHandle display, const DisplayFields &fields) override;

  UserHandle acquire_user_meta() override;
  Status add_user_meta(UserMetaLevel level, void *owner, UserHandle user) override;
  Status remove_user_meta(UserMetaLevel level, void *owner, UserHandle user) override;
  void user_metas(UserMetaLevel level, void *owner, std::vector<UserHandle> *out) const override;
  void read_user_meta(UserHandle user, UserMetaFields *out) const override;
  Status write_user_meta(UserHandle user, const UserMetaFields &fields) override;
  bool read_tensor_output(UserHandle user, TensorOutput *out) const override;
  Status add_event_msg(UserMetaLevel level, void *owner, const EventMsg &msg, UserHandle *created) override;
  bool read_event_msg(UserHandle user, EventMsg *out) const override;
  // NVIDIA's typed user metas (portable_typed_metas.cpp).
  bool read_analytics_frame(UserHandle user, AnalyticsFrameMeta *out) const override;
  bool read_analytics_object(UserHandle user, AnalyticsObjectInfo *out) const override;
  bool read_segmentation(UserHandle user, SegmentationView *out) const override;
  Status add_segmentation(UserMetaLevel level, void *owner, Segmentation value, UserHandle *created) override;
  Status add_analytics_frame(UserMetaLevel level, void *owner, const AnalyticsFrameMeta &value,
      UserHandle *created) override;
  Status add_analytics_object(UserMetaLevel level, void *owner, const AnalyticsObjectInfo &value,
      UserHandle *created) override;
  bool read_tracker_targets(UserHandle user, TrackerTargetBatch *out) const override;
  bool read_reid(UserHandle user, ReidTensor *out) const override;
  bool read_preprocess_batch(UserHandle user, PreprocessBatch *out) const override;
  bool read_roi(UserHandle user, RoiMeta *out) const override;
  void read_sensor_info(FrameHandle frame, SensorInfo *out) const override;

  // Portable only (testing harness): attaches nvinfer-shaped output tensors, as nvinfer with
  // output-tensor-meta=1 would. `bytes[i]` holds layer i's host data.
  Status add_tensor_output(UserMetaLevel level, void *owner, const TensorOutput &output,
      std::vector<std::vector<uint8_t>> bytes, UserHandle *created = nullptr);
  // Portable only (testing harness; component_meta_portable.cpp): attaches a component meta as
  // its NVIDIA writer would (nvtracker, nvdspreprocess, nvinfer's ROI meta), and the frame's
  // sensor information as the source bin does.
  Status add_component_meta(UserMetaLevel level, void *owner, std::shared_ptr<const ComponentMeta> meta,
      UserHandle *created = nullptr);
  void write_sensor_info(FrameHandle frame, const SensorInfo &info);

  void end_call() override;

  // Whether this call changed the batch, or took a meta from its pools (a method other than
  // the frame reads and the object/classifier/... reads ran).
  bool modified() const { return modified_; }

 private:
  std::vector<PortableUserMeta *> *user_list(UserMetaLevel level, void *owner) const;
  // An added object leaves: its parent counts one child less, its children lose their parent,
  // it goes back to its pool with everything under it.
  void release_removed_object(PortableObject *object);
  // Adds a new user meta of `kind` (type number `type_id`) carrying `typed` at level/owner: the
  // one path of every typed kind (tensor output, event message, analytics, segmentation, component).
  void add_typed(UserMetaLevel level, void *owner, PayloadKind kind, int32_t type_id,
      std::shared_ptr<const void> typed, UserHandle *created);

  // A meta's fields, replaced when `validity` (of the new ones) is ok.
  template <typename T, typename Fields>
  Status write_fields(T *item, const Fields &fields, Status validity) {
    modified_ = true;
    if (validity.ok())
      item->fields = fields;
    return validity;
  }

  PortableBatchMeta *batch_;
  // Acquired through this call; whichever are still kAcquired at end_call go back.
  std::vector<PortableObject *> acquired_objects_;
  std::vector<PortableClassifier *> acquired_classifiers_;
  std::vector<PortableLabelInfo *> acquired_labels_;
  std::vector<PortableDisplay *> acquired_displays_;
  std::vector<PortableUserMeta *> acquired_users_;
  bool modified_ = false;
};

}  // namespace dsnode::meta

#endif
