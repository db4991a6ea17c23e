// One C++ interface over a buffer's batch metadata, two backends: portable (our GstMeta) and
// DeepStream (NvDsBatchMeta). The Node binding talks only to this interface.
//
// A Batch object lives for one transform call. Handles are opaque pointers into the backend's
// own structs: valid until the meta is removed or the call ends (end_call). The binding turns
// them into small integers of a per-call table and never gives JS a pointer.
#ifndef DSNODE_META_BATCH_H
#define DSNODE_META_BATCH_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "meta/component_meta.h"
#include "meta/model.h"

namespace dsnode::meta {

enum class ErrorCode {
  kOk = 0,
  kInvalidValue,  // a value out of range, NaN, too long a string (message names the field)
  kInvalidState,  // added twice, removed from the wrong parent, unknown handle
};

struct Status {
  ErrorCode code = ErrorCode::kOk;
  std::string message;
  bool ok() const { return code == ErrorCode::kOk; }
  static Status Ok() { return {}; }
  static Status Invalid(std::string text) { return {ErrorCode::kInvalidValue, std::move(text)}; }
  static Status State(std::string text) { return {ErrorCode::kInvalidState, std::move(text)}; }
};

template <typename Tag>
struct Handle {
  void *ptr = nullptr;
  explicit operator bool() const { return ptr != nullptr; }
  bool operator==(const Handle &other) const { return ptr == other.ptr; }
  bool operator!=(const Handle &other) const { return ptr != other.ptr; }
};
using FrameHandle = Handle<struct FrameTag>;
using ObjectHandle = Handle<struct ObjectTag>;
using ClassifierHandle = Handle<struct ClassifierTag>;
using LabelInfoHandle = Handle<struct LabelInfoTag>;
using DisplayHandle = Handle<struct DisplayTag>;
using UserHandle = Handle<struct UserTag>;

// NVIDIA's typed user metas (meta/analytics_meta.h, meta/segmentation_meta.h).
struct AnalyticsFrameMeta;
struct AnalyticsObjectInfo;
struct SegmentationView;
struct Segmentation;

enum class BackendKind { kPortable, kDeepStream };

struct EventMsg;  // meta/event_msg.h

// The text params nvinfer gives an object (gstnvinfer_meta_utils.cpp ~194-206): font "Serif" 11
// white on black, no text yet.
TextParams nvinfer_text_params();
// Where nvinfer puts an object's label: x_offset = left, y_offset = top - 10 (clamped at 0
// here: nvinfer converts a negative float to an unsigned int).
void place_label(const RectParams &rect, TextParams *text);

// Where a user meta hangs.
enum class UserMetaLevel { kBatch, kFrame, kObject };

// Columns of N detections for add_objects (the bulk path). Null columns take the default.
struct ObjectColumns {
  size_t count = 0;
  const float *left = nullptr, *top = nullptr, *width = nullptr, *height = nullptr;  // required
  const float *confidence = nullptr;
  const int32_t *class_id = nullptr;
  int32_t unique_component_id = 0;
  // Applied to every object: DeepStream elements read the border from rect_params. nvinfer's
  // by default (3 px red).
  uint32_t border_width = kNvinferBorderWidth;
  ColorParams border_color = kNvinferBorderColor;
  // Every object's text params, with display_text = its label and the offsets nvinfer gives
  // (above the box's top left corner); nvinfer's font by default. label_text false: none.
  bool label_text = true;
  TextParams text = nvinfer_text_params();
  // Optional labels, one per class id (obj_label = labels[class_id] when in range).
  const std::vector<std::string> *labels_by_class = nullptr;
};

// The metas that hang in a parent's list and come from the batch's pools: objects (in a frame),
// classifiers (in an object), label infos (in a classifier), display metas (in a frame).
enum class ListedKind { kObject, kClassifier, kLabelInfo, kDisplay };

// A listed kind's handle: its kind and its parent's handle.
template <typename H>
struct Listed;
template <> struct Listed<ObjectHandle> { static constexpr ListedKind kind = ListedKind::kObject; using Parent = FrameHandle; };
template <> struct Listed<ClassifierHandle> { static constexpr ListedKind kind = ListedKind::kClassifier; using Parent = ObjectHandle; };
template <> struct Listed<LabelInfoHandle> { static constexpr ListedKind kind = ListedKind::kLabelInfo; using Parent = ClassifierHandle; };
template <> struct Listed<DisplayHandle> { static constexpr ListedKind kind = ListedKind::kDisplay; using Parent = FrameHandle; };

// What both backends' messages call a listed kind.
struct ListedKindNames {
  const char *meta;    // "ClassifierMeta"
  const char *a_meta;  // "a ClassifierMeta"
  const char *parent;  // "object"
  const char *add;     // "addClassifierMeta"
  const char *remove;  // "removeClassifierMeta"
};
const ListedKindNames &names_of(ListedKind kind);

// The messages of both backends for a meta in the wrong place: "Expected a newly acquired
// <meta> for <operation> but received <received>" and "Expected <a_meta> of this <parent> for
// <operation> but received one that is not in it".
Status not_newly_acquired(const char *meta, const char *operation, const char *received);
Status not_in(const char *a_meta, const char *parent, const char *operation);

class Batch {
 public:
  virtual ~Batch() = default;
  virtual BackendKind backend() const = 0;

  // --- batch and frames
  virtual uint32_t max_frames_in_batch() const = 0;
  virtual uint32_t num_frames() const = 0;
  virtual FrameHandle frame_at(uint32_t index) const = 0;
  virtual void read_frame(FrameHandle frame, FrameFields *out) const = 0;
  virtual Status write_frame(FrameHandle frame, const FrameFields &fields) = 0;

  // --- metas in a parent's list (ListedKind): taken from the batch's pools, added to and
  // removed from their parent, listed in the order they were added. `parent` and `item` are
  // the ptr of a handle of the kind's parent and of the kind (the typed calls below pass them).
  virtual void *acquire_listed(ListedKind kind) = 0;
  // An object added this way has no parent object (add_object gives it one).
  virtual Status add_listed(ListedKind kind, void *parent, void *item) = 0;
  virtual Status remove_listed(ListedKind kind, void *parent, void *item) = 0;
  virtual void list_listed(ListedKind kind, void *parent, std::vector<void *> *out) const = 0;

  // The same four calls, typed: the kind and its parent's handle come from Listed<H>.
  template <typename H>
  H acquire() { return H{acquire_listed(Listed<H>::kind)}; }
  template <typename H>
  Status add(typename Listed<H>::Parent parent, H item) { return add_listed(Listed<H>::kind, parent.ptr, item.ptr); }
  template <typename H>
  Status remove(typename Listed<H>::Parent parent, H item) { return remove_listed(Listed<H>::kind, parent.ptr, item.ptr); }
  template <typename H>
  void list(typename Listed<H>::Parent parent, std::vector<H> *out) const {
    std::vector<void *> items;
    list_listed(Listed<H>::kind, parent.ptr, &items);
    out->clear();
    out->reserve(items.size());
    for (void *item : items) out->push_back(H{item});
  }

  // The typed names the binding calls, by operation.
  ObjectHandle acquire_object() { return acquire<ObjectHandle>(); }
  ClassifierHandle acquire_classifier() { return acquire<ClassifierHandle>(); }
  LabelInfoHandle acquire_label_info() { return acquire<LabelInfoHandle>(); }
  DisplayHandle acquire_display() { return acquire<DisplayHandle>(); }
  Status add_classifier(ObjectHandle object, ClassifierHandle classifier) { return add(object, classifier); }
  Status add_label_info(ClassifierHandle classifier, LabelInfoHandle label) { return add(classifier, label); }
  Status add_display(FrameHandle frame, DisplayHandle display) { return add(frame, display); }
  Status remove_object(FrameHandle frame, ObjectHandle object) { return remove(frame, object); }
  Status remove_classifier(ObjectHandle object, ClassifierHandle classifier) { return remove(object, classifier); }
  Status remove_label_info(ClassifierHandle classifier, LabelInfoHandle label) { return remove(classifier, label); }
  Status remove_display(FrameHandle frame, DisplayHandle display) { return remove(frame, display); }
  void objects(FrameHandle frame, std::vector<ObjectHandle> *out) const { list(frame, out); }
  void classifiers(ObjectHandle object, std::vector<ClassifierHandle> *out) const { list(object, out); }
  void label_infos(ClassifierHandle classifier, std::vector<LabelInfoHandle> *out) const { list(classifier, out); }
  void displays(FrameHandle frame, std::vector<DisplayHandle> *out) const { list(frame, out); }

  // --- objects: added with an optional parent object (added to a frame already)
  virtual Status add_object(FrameHandle frame, ObjectHandle object, ObjectHandle parent) = 0;
  virtual size_t num_objects(FrameHandle frame) const = 0;
  virtual ObjectHandle parent_of(ObjectHandle object) const = 0;
  virtual void read_object(ObjectHandle object, ObjectFields *out) const = 0;
  // `before`: what the object held when read for this write (null: check every value). Values
  // equal to it are upstream's and kept as they are; only what differs is validated.
  virtual Status write_object(ObjectHandle object, const ObjectFields &fields,
      const ObjectFields *before = nullptr) = 0;

  // --- classifiers, their label infos, display metas (physical: at most 16 of a kind each;
  // see add_display_content)
  virtual void read_classifier(ClassifierHandle classifier, ClassifierFields *out) const = 0;
  virtual Status write_classifier(ClassifierHandle classifier, const ClassifierFields &fields) = 0;
  virtual void read_label_info(LabelInfoHandle label, LabelInfoFields *out) const = 0;
  virtual Status write_label_info(LabelInfoHandle label, const LabelInfoFields &fields) = 0;
  virtual void read_display(DisplayHandle display, DisplayFields *out) const = 0;
  virtual Status write_display(DisplayHandle display, const DisplayFields &fields) = 0;

  // --- user metas. `owner` is ignored for kBatch, a FrameHandle/ObjectHandle's ptr otherwise.
  virtual UserHandle acquire_user_meta() = 0;
  virtual Status add_user_meta(UserMetaLevel level, void *owner, UserHandle user) = 0;
  virtual Status remove_user_meta(UserMetaLevel level, void *owner, UserHandle user) = 0;
  virtual void user_metas(UserMetaLevel level, void *owner, std::vector<UserHandle> *out) const = 0;
  virtual void read_user_meta(UserHandle user, UserMetaFields *out) const = 0;
  // Sets type + payload of an acquired (or own) user meta; foreign metas are read-only.
  virtual Status write_user_meta(UserHandle user, const UserMetaFields &fields) = 0;
  // nvinfer's NVDSINFER_TENSOR_OUTPUT_META; false when `user` is not one.
  virtual bool read_tensor_output(UserHandle user, TensorOutput *out) const = 0;
  // An event message (NVDS_EVENT_MSG_META, meta/event_msg.h): validated, then added at `level`
  // of `owner` in a new user meta that copies with the buffer; read back, ours or another
  // component's (false when `user` is not one).
  virtual Status add_event_msg(UserMetaLevel level, void *owner, const EventMsg &msg, UserHandle *created) = 0;
  virtual bool read_event_msg(UserHandle user, EventMsg *out) const = 0;

  // --- NVIDIA's typed user metas: false when `user` is not one of that kind. A segmentation
  // view points into the meta: valid until it is removed or the call ends.
  virtual bool read_analytics_frame(UserHandle user, AnalyticsFrameMeta *out) const = 0;
  virtual bool read_analytics_object(UserHandle user, AnalyticsObjectInfo *out) const = 0;
  virtual bool read_segmentation(UserHandle user, SegmentationView *out) const = 0;
  // Attach a new one at `level` of `owner` (added, read-only afterwards), copied with the buffer
  // and freed with it. Segmentation: what an element writes for nvsegvisual (validated first);
  // analytics: what the testing harness writes in nvdsanalytics' place.
  virtual Status add_segmentation(UserMetaLevel level, void *owner, Segmentation value, UserHandle *created) = 0;
  virtual Status add_analytics_frame(UserMetaLevel level, void *owner, const AnalyticsFrameMeta &value,
      UserHandle *created) = 0;
  virtual Status add_analytics_object(UserMetaLevel level, void *owner, const AnalyticsObjectInfo &value,
      UserHandle *created) = 0;

  // NVIDIA components' metas, read-only (component_meta.h); false when `user` is not one of
  // that kind: nvtracker's past-frame, terminated and shadow lists; its re-ID embeddings (batch
  // or object); nvdspreprocess's batch meta; an NvDsRoiMeta.
  virtual bool read_tracker_targets(UserHandle user, TrackerTargetBatch *out) const = 0;
  virtual bool read_reid(UserHandle user, ReidTensor *out) const = 0;
  virtual bool read_preprocess_batch(UserHandle user, PreprocessBatch *out) const = 0;
  virtual bool read_roi(UserHandle user, RoiMeta *out) const = 0;
  // The frame's NvDsSensorInfo_meta.
  virtual void read_sensor_info(FrameHandle frame, SensorInfo *out) const = 0;

  // Ends the transform call: metas acquired through this Batch and never added go back to
  // their pool. Handles are invalid afterwards.
  virtual void end_call() = 0;

  // --- helpers built on the interface (same behaviour on both backends)

  // Adds one logical display meta of any size to `frame`, chaining physical metas of at most
  // 16 per kind. Validates everything first: on error nothing is added.
  Status add_display_content(FrameHandle frame, const DisplayContent &content,
      std::vector<DisplayHandle> *created = nullptr);

  // Adds N objects from columns in one call. Validates every row first (all or nothing).
  Status add_objects(FrameHandle frame, const ObjectColumns &columns,
      std::vector<ObjectHandle> *created = nullptr);
};

}  // namespace dsnode::meta

#endif
