// The Batch interface over one NvDsBatchMeta (meta/deepstream_batch.h). Every DeepStream call
// here is part of the documented metadata API (nvdsmeta.h, gstnvdsmeta.h). Lists are GLists
// owned by DeepStream; pools are NvDsBatchMeta's; structural changes and list walks hold the
// batch's meta lock (nvds_acquire_meta_lock), as DeepStream asks of components that may share a
// batch with other threads (probes).
#include "meta/deepstream_batch.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <utility>

#include "meta/deepstream_backend.h"
#include "meta/deepstream_copies.h"
#include "meta/deepstream_library.h"
#include "meta/deepstream_tensor_output.h"
#include "meta/deepstream_user_payload.h"
#include "meta/component_meta_deepstream.h"
#include "meta/deepstream_typed_metas.h"
#include "meta/event_msg_deepstream.h"
#include "meta/meta_list.h"
#include "meta/validate.h"

namespace dsnode::meta {

namespace {

class MetaLock {
 public:
  explicit MetaLock(NvDsBatchMeta *batch) : batch_(batch) { ds().nvds_acquire_meta_lock(batch_); }
  ~MetaLock() { ds().nvds_release_meta_lock(batch_); }
  MetaLock(const MetaLock &) = delete;
  MetaLock &operator=(const MetaLock &) = delete;
 private:
  NvDsBatchMeta *batch_;
};

template <typename T, typename H>
T *as(H handle) { return static_cast<T *>(handle.ptr); }

// DeepStream appends frames and batch user metas but prepends every other list
// (nvds_add_meta_to_parent): the newest object, classifier, label info, display meta and
// frame/object user meta comes first. Those lists are read from their end, so that the
// Batch interface sees them in the order they were added, as the portable backend keeps
// them; NVIDIA's copy (a tee, gst_buffer_make_writable) reverses them on both backends
// (portable_batch.cpp, docs/internals/metadata-design.md §2.4).
template <typename H>
void collect(GList *list, std::vector<H> *out, bool prepended = true) {
  out->clear();
  for (GList *node = list; node != nullptr; node = node->next) out->push_back(H{node->data});
  if (prepended) std::reverse(out->begin(), out->end());
}

bool contains(GList *list, const void *item) { return g_list_find(list, item) != nullptr; }

// The portable backend's words for a meta that is not newly acquired (portable_backend.cpp).
Status not_pending(const char *what, const char *operation, bool added) {
  return not_newly_acquired(what, operation,
      added ? "one already added" : "one already returned to its pool (removed, or its call ended)");
}

// Whether `item` is anywhere in the batch's tree (only on error paths: it walks everything).
bool in_batch(NvDsBatchMeta *batch, const void *item) {
  if (contains(batch->batch_user_meta_list, item)) return true;
  for (GList *f = batch->frame_meta_list; f != nullptr; f = f->next) {
    auto *frame = static_cast<NvDsFrameMeta *>(f->data);
    if (frame == item || contains(frame->obj_meta_list, item) || contains(frame->display_meta_list, item) ||
        contains(frame->frame_user_meta_list, item))
      return true;
    for (GList *o = frame->obj_meta_list; o != nullptr; o = o->next) {
      auto *object = static_cast<NvDsObjectMeta *>(o->data);
      if (contains(object->classifier_meta_list, item) || contains(object->obj_user_meta_list, item)) return true;
      for (GList *c = object->classifier_meta_list; c != nullptr; c = c->next)
        if (contains(static_cast<NvDsClassifierMeta *>(c->data)->label_info_list, item)) return true;
    }
  }
  return false;
}

// What a write checks first: the value's ranges (`validated`), then that this DeepStream has
// every member the value sets (check_supported: refused, never dropped).
template <typename Fields>
Status writable(const Status &validated, const Fields &fields) {
  return validated.ok() ? check_supported(fields) : validated;
}

class DeepStreamBatch final : public Batch {
 public:
  explicit DeepStreamBatch(NvDsBatchMeta *batch) : batch_(batch) { refresh_frames(); }
  ~DeepStreamBatch() override { end_call(); }

  BackendKind backend() const override { return BackendKind::kDeepStream; }
  // Whether this call acquired, added, removed or wrote anything (a detached batch then goes
  // onto the buffer).
  bool modified() const { return modified_; }
  // The detached spare's one frame, for the next buffer (not a change the call made).
  void reset_first_frame(const FrameFields &fields) { write_frame_fields(fields, frames_.at(0)); }
  NvDsBatchMeta *raw() const { return batch_; }

  void refresh_frames() {
    MetaLock lock(batch_);
    frames_.clear();
    for (GList *node = batch_->frame_meta_list; node != nullptr; node = node->next)
      frames_.push_back(static_cast<NvDsFrameMeta *>(node->data));
  }

  FrameHandle add_frame(const FrameFields &fields) {
    if (frames_.size() >= batch_->max_frames_in_batch)
      return {};
    MetaLock lock(batch_);
    NvDsFrameMeta *frame = ds().nvds_acquire_frame_meta_from_pool(batch_);
    FrameHandle handle{frame};
    write_frame_fields(fields, frame);
    ds().nvds_add_frame_meta_to_batch(batch_, frame);
    frames_.push_back(frame);
    return handle;
  }

  uint32_t max_frames_in_batch() const override { return batch_->max_frames_in_batch; }
  uint32_t num_frames() const override { return static_cast<uint32_t>(frames_.size()); }
  FrameHandle frame_at(uint32_t index) const override {
    return index < frames_.size() ? FrameHandle{frames_[index]} : FrameHandle{};
  }

  void read_frame(FrameHandle handle, FrameFields *out) const override {
    read_frame_fields(*as<NvDsFrameMeta>(handle), out);
  }

  Status write_frame(FrameHandle handle, const FrameFields &fields) override {
    modified_ = true;
    const Status status = writable(validate_frame(fields), fields);
    if (status.ok())
      write_frame_fields(fields, as<NvDsFrameMeta>(handle));
    return status;
  }

  // --- metas in a parent's list

  void *acquire_listed(ListedKind kind) override {
    modified_ = true;
    MetaLock lock(batch_);
    void *item = nullptr;
    switch (kind) {
      case ListedKind::kObject: {
        NvDsObjectMeta *object = ds().nvds_acquire_obj_meta_from_pool(batch_);
        object->object_id = UNTRACKED_OBJECT_ID;
        object->parent = nullptr;
        item = object;
        break;
      }
      case ListedKind::kClassifier: item = ds().nvds_acquire_classifier_meta_from_pool(batch_); break;
      case ListedKind::kLabelInfo: item = ds().nvds_acquire_label_info_meta_from_pool(batch_); break;
      case ListedKind::kDisplay: item = ds().nvds_acquire_display_meta_from_pool(batch_); break;
    }
    pending(kind).push_back(item);
    return item;
  }

  Status add_listed(ListedKind kind, void *parent, void *item) override {
    if (kind == ListedKind::kObject)
      return add_object(FrameHandle{parent}, ObjectHandle{item}, {});
    modified_ = true;
    if (!erase_last(pending(kind), item))
      return not_pending(names_of(kind).meta, names_of(kind).add, in_batch(batch_, item));
    MetaLock lock(batch_);
    change_list(kind, parent, item, /*add=*/true);
    return Status::Ok();
  }

  Status remove_listed(ListedKind kind, void *parent, void *item) override {
    modified_ = true;
    MetaLock lock(batch_);
    if (!contains(list_of(kind, parent), item))
      return not_in(names_of(kind).a_meta, names_of(kind).parent, names_of(kind).remove);
    change_list(kind, parent, item, /*add=*/false);
    return Status::Ok();
  }

  void list_listed(ListedKind kind, void *parent, std::vector<void *> *out) const override {
    MetaLock lock(batch_);
    collect(list_of(kind, parent), out);
  }

  // --- objects

  Status add_object(FrameHandle frame, ObjectHandle object, ObjectHandle parent) override {
    modified_ = true;
    auto *parent_meta = as<NvDsObjectMeta>(parent);
    std::vector<void *> &pending_objects = pending(ListedKind::kObject);
    if (parent_meta != nullptr && !in_a_frame(parent_meta))
      return Status::State(std::string("Expected an ObjectMeta added to a frame for parent but received ") +
          (std::find(pending_objects.begin(), pending_objects.end(), parent_meta) != pending_objects.end()
              ? "one acquired but never added" : "one already returned to its pool (removed, or its call ended)"));
    if (!erase_last(pending_objects, object.ptr))
      return not_pending(names_of(ListedKind::kObject).meta, names_of(ListedKind::kObject).add, in_batch(batch_, object.ptr));
    MetaLock lock(batch_);
    ds().nvds_add_obj_meta_to_frame(as<NvDsFrameMeta>(frame), as<NvDsObjectMeta>(object), parent_meta);
    return Status::Ok();
  }

  size_t num_objects(FrameHandle frame) const override {
    MetaLock lock(batch_);
    return g_list_length(as<NvDsFrameMeta>(frame)->obj_meta_list);
  }

  void read_object(ObjectHandle handle, ObjectFields *out) const override {
    const auto *o = as<NvDsObjectMeta>(handle);
    read_object_fields(*o, out);
    const NvOSD_MaskParams &mask = o->mask_params;
    const size_t cells = static_cast<size_t>(mask.width) * mask.height;
    if (mask.data != nullptr && cells > 0 && mask.size >= cells * sizeof(float))
      out->mask_params.data.assign(mask.data, mask.data + cells);
    else
      out->mask_params.data.clear();
    out->mask_params.threshold = mask.threshold;
    out->mask_params.width = out->mask_params.data.empty() ? 0 : mask.width;
    out->mask_params.height = out->mask_params.data.empty() ? 0 : mask.height;
    out->text_params = from_ds(o->text_params);
    std::memcpy(out->obj_label, o->obj_label, kMaxLabelSize);
    out->obj_label[kMaxLabelSize - 1] = '\0';
  }

  Status write_object(ObjectHandle handle, const ObjectFields &fields, const ObjectFields *before = nullptr) override {
    modified_ = true;
    const Status status = writable(validate_object(fields, before), fields);
    if (!status.ok())
      return status;
    auto *o = as<NvDsObjectMeta>(handle);
    write_object_fields(fields, o);
    // nvinfer g_malloc()s the mask and DeepStream g_free()s it on release: same here.
    g_free(o->mask_params.data);
    o->mask_params.data = nullptr;
    o->mask_params.size = 0;
    if (!fields.mask_params.data.empty()) {
      const size_t bytes = fields.mask_params.data.size() * sizeof(float);
      o->mask_params.data = static_cast<float *>(g_memdup2(fields.mask_params.data.data(), bytes));
      o->mask_params.size = static_cast<unsigned int>(bytes);
    }
    o->mask_params.threshold = fields.mask_params.threshold;
    o->mask_params.width = fields.mask_params.width;
    o->mask_params.height = fields.mask_params.height;
    to_ds(fields.text_params, &o->text_params);
    std::memcpy(o->obj_label, fields.obj_label, kMaxLabelSize);
    return Status::Ok();
  }

  bool in_a_frame(NvDsObjectMeta *object) const {
    MetaLock lock(batch_);
    for (NvDsFrameMeta *frame : frames_)
      if (contains(frame->obj_meta_list, object)) return true;
    return false;
  }

  ObjectHandle parent_of(ObjectHandle object) const override {
    return ObjectHandle{as<NvDsObjectMeta>(object)->parent};
  }

  // --- classifiers and label infos

  void read_classifier(ClassifierHandle handle, ClassifierFields *out) const override {
    copy_classifier_fields(*as<NvDsClassifierMeta>(handle), out);
  }

  Status write_classifier(ClassifierHandle handle, const ClassifierFields &fields) override {
    modified_ = true;
    const Status status = writable(validate_classifier(fields), fields);
    if (!status.ok())
      return status;
    copy_classifier_fields(fields, as<NvDsClassifierMeta>(handle));
    return Status::Ok();
  }

  void read_label_info(LabelInfoHandle handle, LabelInfoFields *out) const override {
    const auto *l = as<NvDsLabelInfo>(handle);
    copy_label_info_fields(*l, out);
    // nvinfer keeps a label of MAX_LABEL_SIZE bytes or more here, whole.
    out->long_label = l->pResult_label != nullptr ? l->pResult_label : "";
  }

  Status write_label_info(LabelInfoHandle handle, const LabelInfoFields &fields) override {
    modified_ = true;
    const Status status = writable(validate_label_info(fields), fields);
    if (!status.ok())
      return status;
    auto *l = as<NvDsLabelInfo>(handle);
    copy_label_info_fields(fields, l);
    // DeepStream owns it (g_free when the label goes back to its pool, g_strdup when copied).
    g_free(l->pResult_label);
    l->pResult_label = fields.long_label.empty() ? nullptr : g_strdup(fields.long_label.c_str());
    return Status::Ok();
  }

  // --- display metas

  void read_display(DisplayHandle handle, DisplayFields *out) const override {
    const auto *d = as<NvDsDisplayMeta>(handle);
    const auto bounded = [](guint count) { return std::min<uint32_t>(count, kMaxElementsInDisplayMeta); };
    out->num_rects = bounded(d->num_rects); out->num_labels = bounded(d->num_labels);
    out->num_lines = bounded(d->num_lines); out->num_arrows = bounded(d->num_arrows);
    out->num_circles = bounded(d->num_circles);
    for (uint32_t i = 0; i < out->num_rects; ++i) out->rect_params[i] = from_ds(d->rect_params[i]);
    for (uint32_t i = 0; i < out->num_labels; ++i) out->text_params[i] = from_ds(d->text_params[i]);
    for (uint32_t i = 0; i < out->num_lines; ++i) out->line_params[i] = from_ds(d->line_params[i]);
    for (uint32_t i = 0; i < out->num_arrows; ++i) out->arrow_params[i] = from_ds(d->arrow_params[i]);
    for (uint32_t i = 0; i < out->num_circles; ++i) out->circle_params[i] = from_ds(d->circle_params[i]);
    std::memcpy(out->misc_osd_data, d->misc_osd_data, sizeof out->misc_osd_data);
  }

  Status write_display(DisplayHandle handle, const DisplayFields &fields) override {
    modified_ = true;
    Status status = validate_display(fields);
    for (uint32_t i = 0; status.ok() && i < fields.num_rects; ++i)
      status = check_supported(fields.rect_params[i], "rect_params[]", " of a display meta");
    if (!status.ok())
      return status;
    auto *d = as<NvDsDisplayMeta>(handle);
    // Texts past the new count would keep strings DeepStream frees only up to num_labels.
    for (uint32_t i = fields.num_labels; i < d->num_labels && i < kMaxElementsInDisplayMeta; ++i) {
      g_free(d->text_params[i].display_text);
      d->text_params[i].display_text = nullptr;
    }
    d->num_rects = fields.num_rects; d->num_labels = fields.num_labels; d->num_lines = fields.num_lines;
    d->num_arrows = fields.num_arrows; d->num_circles = fields.num_circles;
    for (uint32_t i = 0; i < fields.num_rects; ++i) d->rect_params[i] = to_ds(fields.rect_params[i]);
    for (uint32_t i = 0; i < fields.num_labels; ++i) to_ds(fields.text_params[i], &d->text_params[i]);
    for (uint32_t i = 0; i < fields.num_lines; ++i) d->line_params[i] = to_ds(fields.line_params[i]);
    for (uint32_t i = 0; i < fields.num_arrows; ++i) d->arrow_params[i] = to_ds(fields.arrow_params[i]);
    for (uint32_t i = 0; i < fields.num_circles; ++i) d->circle_params[i] = to_ds(fields.circle_params[i]);
    std::memcpy(d->misc_osd_data, fields.misc_osd_data, sizeof d->misc_osd_data);
    return Status::Ok();
  }

  // --- user metas

  UserHandle acquire_user_meta() override {
    modified_ = true;
    MetaLock lock(batch_);
    NvDsUserMeta *user = ds().nvds_acquire_user_meta_from_pool(batch_);
    // The user meta pool has no release function of its own: a meta comes back with the
    // previous user's data pointer and callbacks (nvds_acquire_meta_from_pool keeps them).
    user->user_meta_data = nullptr;
    user->base_meta.meta_type = NVDS_INVALID_META;
    user->base_meta.copy_func = nullptr;
    user->base_meta.release_func = nullptr;
    user->base_meta.uContext = nullptr;
    pending_users_.push_back(user);
    return UserHandle{user};
  }

  Status add_user_meta(UserMetaLevel level, void *owner, UserHandle handle) override {
    modified_ = true;
    auto *user = as<NvDsUserMeta>(handle);
    if (std::find(pending_users_.begin(), pending_users_.end(), user) == pending_users_.end())
      return not_pending("UserMeta", "addUserMeta", in_batch(batch_, user));
    if (own_payload(user) == nullptr)
      return Status::State("Expected a UserMeta with a type (ORG.COMPONENT.DESCRIPTION) for addUserMeta "
          "but received one never written");
    erase_last(pending_users_, user);
    MetaLock lock(batch_);
    add_to(level, owner, user);
    return Status::Ok();
  }

  Status remove_user_meta(UserMetaLevel level, void *owner, UserHandle handle) override {
    modified_ = true;
    auto *user = as<NvDsUserMeta>(handle);
    MetaLock lock(batch_);
    GList *list = *user_list(level, owner);
    if (!contains(list, user))
      return not_in("a UserMeta", level == UserMetaLevel::kBatch ? "batch" :
          level == UserMetaLevel::kFrame ? "frame" : "object", "removeUserMeta");
    switch (level) {
      case UserMetaLevel::kBatch: ds().nvds_remove_user_meta_from_batch(batch_, user); break;
      case UserMetaLevel::kFrame: ds().nvds_remove_user_meta_from_frame(static_cast<NvDsFrameMeta *>(owner), user); break;
      case UserMetaLevel::kObject: ds().nvds_remove_user_meta_from_object(static_cast<NvDsObjectMeta *>(owner), user); break;
    }
    return Status::Ok();
  }

  void user_metas(UserMetaLevel level, void *owner, std::vector<UserHandle> *out) const override {
    MetaLock lock(batch_);
    collect(*user_list(level, owner), out, /*prepended=*/level != UserMetaLevel::kBatch);
  }

  void read_user_meta(UserHandle handle, UserMetaFields *out) const override {
    const auto *user = as<NvDsUserMeta>(handle);
    out->meta_type_id = user->base_meta.meta_type;
    if (const PayloadHeader *payload = own_payload(user)) {
      out->meta_type = payload->type;
      out->kind = payload->kind;
      const auto *bytes = static_cast<const uint8_t *>(user->user_meta_data);
      out->payload.assign(bytes, bytes + payload->size);
    } else {
      out->meta_type.clear();
      out->kind = nvds::kind_of_nvidia_meta(user);
      out->payload.clear();
    }
  }

  Status write_user_meta(UserHandle handle, const UserMetaFields &fields) override {
    modified_ = true;
    auto *user = as<NvDsUserMeta>(handle);
    const bool pending = std::find(pending_users_.begin(), pending_users_.end(), user) != pending_users_.end();
    if (!pending && own_payload(user) == nullptr) {
      UserMetaFields current;
      read_user_meta(handle, &current);
      return validate_user_meta(current);  // the read-only error
    }
    Status status = validate_user_meta(fields);
    if (!status.ok())
      return status;
    write_payload(user, fields);
    return Status::Ok();
  }

  bool read_tensor_output(UserHandle handle, TensorOutput *out) const override {
    return read_tensor_output_meta(as<NvDsUserMeta>(handle), out);
  }

  Status add_event_msg(UserMetaLevel level, void *owner, const EventMsg &msg, UserHandle *created) override {
    Status status = validate_event_msg(msg);
    if (!status.ok())
      return status;
    return add_filled(level, owner, created, [&](NvDsUserMeta *user) {
      user->user_meta_data = new_event_msg_meta(msg);
      user->base_meta.meta_type = NVDS_EVENT_MSG_META;
      user->base_meta.copy_func = event_msg_meta_copy;
      user->base_meta.release_func = event_msg_meta_release;
      return Status::Ok();
    });
  }

  bool read_event_msg(UserHandle handle, EventMsg *out) const override {
    const auto *user = as<NvDsUserMeta>(handle);
    if (user->base_meta.meta_type != NVDS_EVENT_MSG_META || user->user_meta_data == nullptr)
      return false;
    read_event_msg_meta(*static_cast<const NvDsEventMsgMeta *>(user->user_meta_data), out);
    return true;
  }

  bool read_tracker_targets(UserHandle handle, TrackerTargetBatch *out) const override {
    return read_deepstream_tracker_targets(*as<NvDsUserMeta>(handle), out);
  }
  bool read_reid(UserHandle handle, ReidTensor *out) const override { return read_deepstream_reid(*as<NvDsUserMeta>(handle), out); }
  bool read_preprocess_batch(UserHandle handle, PreprocessBatch *out) const override {
    return read_deepstream_preprocess_batch(*as<NvDsUserMeta>(handle), out);
  }
  bool read_roi(UserHandle handle, RoiMeta *out) const override { return read_deepstream_roi(*as<NvDsUserMeta>(handle), out); }
  void read_sensor_info(FrameHandle handle, SensorInfo *out) const override {
    read_deepstream_sensor_info(*as<NvDsFrameMeta>(handle), out);
  }

  // --- NVIDIA's typed user metas (deepstream_typed_metas.cpp)

  bool read_analytics_frame(UserHandle handle, AnalyticsFrameMeta *out) const override {
    return nvds::read_analytics_frame(as<NvDsUserMeta>(handle), out);
  }
  bool read_analytics_object(UserHandle handle, AnalyticsObjectInfo *out) const override {
    return nvds::read_analytics_object(as<NvDsUserMeta>(handle), out);
  }
  bool read_segmentation(UserHandle handle, SegmentationView *out) const override {
    return nvds::read_segmentation(as<NvDsUserMeta>(handle), out);
  }
  Status add_segmentation(UserMetaLevel level, void *owner, Segmentation value, UserHandle *created) override {
    Status status = validate_segmentation(value);
    if (!status.ok()) return status;
    return add_filled(level, owner, created, [&](NvDsUserMeta *user) { nvds::fill_segmentation(user, value); return Status::Ok(); });
  }
  Status add_analytics_frame(UserMetaLevel level, void *owner, const AnalyticsFrameMeta &value, UserHandle *created) override {
    return add_filled(level, owner, created, [&](NvDsUserMeta *user) { return nvds::fill_analytics_frame(user, value); });
  }
  Status add_analytics_object(UserMetaLevel level, void *owner, const AnalyticsObjectInfo &value, UserHandle *created) override {
    return add_filled(level, owner, created, [&](NvDsUserMeta *user) { return nvds::fill_analytics_object(user, value); });
  }

  // Acquires a user meta, has `fill` set its data, type and callbacks, and adds it at level/owner.
  template <typename Fill>
  Status add_filled(UserMetaLevel level, void *owner, UserHandle *created, Fill fill) {
    modified_ = true;
    MetaLock lock(batch_);
    NvDsUserMeta *user = ds().nvds_acquire_user_meta_from_pool(batch_);
    user->base_meta.uContext = nullptr;
    Status status = fill(user);
    if (!status.ok()) {  // back to the pool through a parent, as end_call returns leftovers
      user->user_meta_data = nullptr;
      user->base_meta.copy_func = nullptr;
      user->base_meta.release_func = nullptr;
      ds().nvds_add_user_meta_to_batch(batch_, user);
      ds().nvds_remove_user_meta_from_batch(batch_, user);
      return status;
    }
    add_to(level, owner, user);
    if (created != nullptr)
      *created = UserHandle{user};
    return Status::Ok();
  }

  Status add_tensor_output(UserMetaLevel level, void *owner, const TensorOutput &output,
      std::vector<std::vector<uint8_t>> bytes, UserHandle *created) {
    Status status = validate_tensor_output(output, bytes);
    if (!status.ok())
      return status;
    MetaLock lock(batch_);
    NvDsUserMeta *user = ds().nvds_acquire_user_meta_from_pool(batch_);
    write_tensor_output_meta(user, output, std::move(bytes));
    add_to(level, owner, user);
    if (created != nullptr)
      *created = UserHandle{user};
    return Status::Ok();
  }

  // DeepStream has no "give back un-added" call: add each leftover to a parent and remove it,
  // which returns it to its pool (remove releases). Classifiers and labels go back through a
  // scratch object that carries them. With no frame to borrow, they stay in the batch's full
  // list and are freed with the batch.
  void end_call() override {
    const bool none_pending = pending_users_.empty() &&
        std::all_of(pending_.begin(), pending_.end(), [](const std::vector<void *> &list) { return list.empty(); });
    if (frames_.empty() || none_pending)
      return clear_pending();
    MetaLock lock(batch_);
    NvDsFrameMeta *frame = frames_.front();
    for (NvDsUserMeta *user : pending_users_) {
      ds().nvds_add_user_meta_to_batch(batch_, user);
      ds().nvds_remove_user_meta_from_batch(batch_, user);
    }
    for (void *item : pending(ListedKind::kDisplay)) {
      auto *display = static_cast<NvDsDisplayMeta *>(item);
      ds().nvds_add_display_meta_to_frame(frame, display);
      ds().nvds_remove_display_meta_from_frame(frame, display);
    }
    const std::vector<void *> &labels = pending(ListedKind::kLabelInfo);
    const std::vector<void *> &classifiers = pending(ListedKind::kClassifier);
    if (!classifiers.empty() || !labels.empty()) {
      NvDsObjectMeta *scratch = ds().nvds_acquire_obj_meta_from_pool(batch_);
      if (!labels.empty()) {
        NvDsClassifierMeta *holder = ds().nvds_acquire_classifier_meta_from_pool(batch_);
        for (void *label : labels) ds().nvds_add_label_info_meta_to_classifier(holder, static_cast<NvDsLabelInfo *>(label));
        ds().nvds_add_classifier_meta_to_object(scratch, holder);
      }
      for (void *classifier : classifiers)
        ds().nvds_add_classifier_meta_to_object(scratch, static_cast<NvDsClassifierMeta *>(classifier));
      pending(ListedKind::kObject).push_back(scratch);
    }
    for (void *item : pending(ListedKind::kObject)) {
      auto *object = static_cast<NvDsObjectMeta *>(item);
      ds().nvds_add_obj_meta_to_frame(frame, object, nullptr);
      ds().nvds_remove_obj_meta_from_frame(frame, object);
    }
    clear_pending();
  }

 private:
  void clear_pending() {
    for (std::vector<void *> &list : pending_) list.clear();
    pending_users_.clear();
  }

  std::vector<void *> &pending(ListedKind kind) { return pending_[static_cast<size_t>(kind)]; }

  static GList *list_of(ListedKind kind, void *parent) {
    switch (kind) {
      case ListedKind::kObject: return static_cast<NvDsFrameMeta *>(parent)->obj_meta_list;
      case ListedKind::kClassifier: return static_cast<NvDsObjectMeta *>(parent)->classifier_meta_list;
      case ListedKind::kLabelInfo: return static_cast<NvDsClassifierMeta *>(parent)->label_info_list;
      case ListedKind::kDisplay: return static_cast<NvDsFrameMeta *>(parent)->display_meta_list;
    }
    return nullptr;
  }

  // Adds `item` to its parent's list or removes it, through NVIDIA's calls (the caller holds
  // the meta lock).
  void change_list(ListedKind kind, void *parent, void *item, bool add) {
    switch (kind) {
      case ListedKind::kObject:
        if (add) {
          ds().nvds_add_obj_meta_to_frame(static_cast<NvDsFrameMeta *>(parent), static_cast<NvDsObjectMeta *>(item), nullptr);
        } else {
          forget_parent(item);
          call(ds().nvds_remove_obj_meta_from_frame, parent, item);
        }
        break;
      case ListedKind::kClassifier:
        call(add ? ds().nvds_add_classifier_meta_to_object : ds().nvds_remove_classifier_meta_from_obj, parent, item);
        break;
      case ListedKind::kLabelInfo: {
        // NVIDIA's add and remove count the label into num_labels; ours was written with the
        // classifier (ClassifierMeta.numLabels, by default the number of labels): keep it as written.
        auto *classifier = static_cast<NvDsClassifierMeta *>(parent);
        const guint num_labels = classifier->num_labels;
        call(add ? ds().nvds_add_label_info_meta_to_classifier : ds().nvds_remove_label_info_meta_from_classifier, parent, item);
        classifier->num_labels = num_labels;
        break;
      }
      case ListedKind::kDisplay:
        call(add ? ds().nvds_add_display_meta_to_frame : ds().nvds_remove_display_meta_from_frame, parent, item);
        break;
    }
  }

  // Calls one of NVIDIA's list functions with the parent and item as their types.
  template <typename Parent, typename Item>
  static void call(void (*function)(Parent *, Item *), void *parent, void *item) {
    function(static_cast<Parent *>(parent), static_cast<Item *>(item));
  }

  // Children keep their parent pointer in DeepStream; clear it so it never dangles (the object
  // goes back to the pool, and the next one acquired may reuse it). A parent may be in another
  // frame of the batch, so every frame is looked at, as the portable backend does.
  void forget_parent(void *object) {
    for (GList *frames = batch_->frame_meta_list; frames != nullptr; frames = frames->next) {
      auto *any_frame = static_cast<NvDsFrameMeta *>(frames->data);
      for (GList *node = any_frame->obj_meta_list; node != nullptr; node = node->next) {
        auto *other = static_cast<NvDsObjectMeta *>(node->data);
        if (other->parent == object) other->parent = nullptr;
      }
    }
  }

  void add_to(UserMetaLevel level, void *owner, NvDsUserMeta *user) {
    switch (level) {
      case UserMetaLevel::kBatch: ds().nvds_add_user_meta_to_batch(batch_, user); break;
      case UserMetaLevel::kFrame: ds().nvds_add_user_meta_to_frame(static_cast<NvDsFrameMeta *>(owner), user); break;
      case UserMetaLevel::kObject: ds().nvds_add_user_meta_to_obj(static_cast<NvDsObjectMeta *>(owner), user); break;
    }
  }

  GList **user_list(UserMetaLevel level, void *owner) const {
    switch (level) {
      case UserMetaLevel::kBatch: return &batch_->batch_user_meta_list;
      case UserMetaLevel::kFrame: return &static_cast<NvDsFrameMeta *>(owner)->frame_user_meta_list;
      case UserMetaLevel::kObject: return &static_cast<NvDsObjectMeta *>(owner)->obj_user_meta_list;
    }
    return nullptr;
  }


  NvDsBatchMeta *batch_;
  bool modified_ = false;
  std::vector<NvDsFrameMeta *> frames_;
  // Acquired in this call and not added yet, by ListedKind.
  std::array<std::vector<void *>, 4> pending_;
  std::vector<NvDsUserMeta *> pending_users_;
};

}  // namespace

std::unique_ptr<Batch> open_batch_meta(NvDsBatchMeta *batch) { return std::make_unique<DeepStreamBatch>(batch); }

NvDsBatchMeta *batch_meta_of(const Batch &batch) {
  return batch.backend() == BackendKind::kDeepStream ? static_cast<const DeepStreamBatch &>(batch).raw() : nullptr;
}

FrameHandle append_frame(Batch &batch, const FrameFields &fields) {
  return static_cast<DeepStreamBatch &>(batch).add_frame(fields);
}

void reset_first_frame(Batch &batch, const FrameFields &fields) {
  static_cast<DeepStreamBatch &>(batch).reset_first_frame(fields);
}

bool deepstream_batch_modified(const Batch &batch) {
  return batch.backend() == BackendKind::kDeepStream && static_cast<const DeepStreamBatch &>(batch).modified();
}

Status add_deepstream_tensor_output(Batch &batch, UserMetaLevel level, void *owner, const TensorOutput &output,
    std::vector<std::vector<uint8_t>> bytes, UserHandle *created) {
  if (batch.backend() != BackendKind::kDeepStream)
    return Status::State("Expected a DeepStream batch for a tensor output");
  return static_cast<DeepStreamBatch &>(batch).add_tensor_output(level, owner, output, std::move(bytes), created);
}

FrameHandle add_deepstream_frame(Batch &batch, const FrameFields &fields) {
  if (batch.backend() != BackendKind::kDeepStream || !writable(validate_frame(fields), fields).ok())
    return {};
  return static_cast<DeepStreamBatch &>(batch).add_frame(fields);
}

}  // namespace dsnode::meta
