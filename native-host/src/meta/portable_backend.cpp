#include "meta/portable_backend.h"

#include <algorithm>

#include "meta/meta_list.h"
#include "meta/validate.h"

namespace dsnode::meta {

namespace {

template <typename T, typename H>
T *as(H handle) { return static_cast<T *>(handle.ptr); }

template <typename H, typename T>
H handle_of(T *item) { return H{item}; }

const char *state_name(MetaState state) {
  switch (state) {
    case MetaState::kFree: return "one already returned to its pool (removed, or its call ended)";
    case MetaState::kAcquired: return "one acquired but never added";
    case MetaState::kAdded: return "one already added";
  }
  return "?";
}

Status not_acquired(const char *what, const char *operation, MetaState state) {
  return not_newly_acquired(what, operation, state_name(state));
}

// Takes a meta from its pool for this call (end_call returns it when it is never added).
template <typename T>
T *take(Pool<T> &pool, std::vector<T *> *acquired) {
  T *item = pool.acquire();
  acquired->push_back(item);
  return item;
}

// Adds an acquired meta at the end of its parent's list.
template <typename Parent, typename T>
Status link(ListedKind kind, Parent *parent, std::vector<T *> Parent::*list, T *item) {
  if (item->state != MetaState::kAcquired)
    return not_acquired(names_of(kind).meta, names_of(kind).add, item->state);
  item->state = MetaState::kAdded;
  item->owner = parent;
  (parent->*list).push_back(item);
  return Status::Ok();
}

// Takes an added meta out of its parent's list; `release` returns it to its pool.
template <typename Parent, typename T, typename Release>
Status unlink(ListedKind kind, Parent *parent, std::vector<T *> Parent::*list, T *item, Release release) {
  if (item->state != MetaState::kAdded || item->owner != parent || !erase_last(parent->*list, item))
    return not_in(names_of(kind).a_meta, names_of(kind).parent, names_of(kind).remove);
  release(item);
  return Status::Ok();
}

template <typename T>
void items_of(const std::vector<T *> &list, std::vector<void *> *out) {
  out->assign(list.begin(), list.end());
}

// The number a portable user meta carries for its type: stable per type string and in the
// user range, like nvds_get_user_meta_type (whose values differ: compare the strings).
int32_t portable_user_meta_type_id(const std::string &type) {
  uint32_t hash = 2166136261u;  // FNV-1a
  for (unsigned char c : type) hash = (hash ^ c) * 16777619u;
  const uint32_t span = 0x7FFFFFFFu - static_cast<uint32_t>(kMetaTypeStartUser);
  return kMetaTypeStartUser + static_cast<int32_t>(hash % span);
}

}  // namespace

FrameHandle PortableBackend::frame_at(uint32_t index) const {
  if (index >= batch_->frame_meta_list.size())
    return {};
  return handle_of<FrameHandle>(batch_->frame_meta_list[index]);
}

void PortableBackend::read_frame(FrameHandle frame, FrameFields *out) const {
  *out = as<PortableFrame>(frame)->fields;
}

Status PortableBackend::write_frame(FrameHandle frame, const FrameFields &fields) {
  return write_fields(as<PortableFrame>(frame), fields, validate_frame(fields));
}

// --- metas in a parent's list

void *PortableBackend::acquire_listed(ListedKind kind) {
  modified_ = true;
  switch (kind) {
    case ListedKind::kObject: return take(batch_->object_pool, &acquired_objects_);
    case ListedKind::kClassifier: return take(batch_->classifier_pool, &acquired_classifiers_);
    case ListedKind::kLabelInfo: return take(batch_->label_info_pool, &acquired_labels_);
    case ListedKind::kDisplay: return take(batch_->display_pool, &acquired_displays_);
  }
  return nullptr;
}

Status PortableBackend::add_listed(ListedKind kind, void *parent, void *item) {
  modified_ = true;
  switch (kind) {
    case ListedKind::kObject:
      return add_object(FrameHandle{parent}, ObjectHandle{item}, {});
    case ListedKind::kClassifier:
      return link(kind, static_cast<PortableObject *>(parent), &PortableObject::classifier_meta_list,
          static_cast<PortableClassifier *>(item));
    case ListedKind::kLabelInfo:
      return link(kind, static_cast<PortableClassifier *>(parent), &PortableClassifier::label_info_list,
          static_cast<PortableLabelInfo *>(item));
    case ListedKind::kDisplay:
      return link(kind, static_cast<PortableFrame *>(parent), &PortableFrame::display_meta_list,
          static_cast<PortableDisplay *>(item));
  }
  return Status::Ok();
}

Status PortableBackend::remove_listed(ListedKind kind, void *parent, void *item) {
  modified_ = true;
  PortableBatchMeta *batch = batch_;
  switch (kind) {
    case ListedKind::kObject:
      return unlink(kind, static_cast<PortableFrame *>(parent), &PortableFrame::obj_meta_list,
          static_cast<PortableObject *>(item), [this](PortableObject *object) { release_removed_object(object); });
    case ListedKind::kClassifier:
      return unlink(kind, static_cast<PortableObject *>(parent), &PortableObject::classifier_meta_list,
          static_cast<PortableClassifier *>(item), [batch](PortableClassifier *meta) { batch->release_classifier(meta); });
    case ListedKind::kLabelInfo:
      return unlink(kind, static_cast<PortableClassifier *>(parent), &PortableClassifier::label_info_list,
          static_cast<PortableLabelInfo *>(item), [batch](PortableLabelInfo *meta) { batch->release_label_info(meta); });
    case ListedKind::kDisplay:
      return unlink(kind, static_cast<PortableFrame *>(parent), &PortableFrame::display_meta_list,
          static_cast<PortableDisplay *>(item), [batch](PortableDisplay *meta) { batch->release_display(meta); });
  }
  return Status::Ok();
}

void PortableBackend::list_listed(ListedKind kind, void *parent, std::vector<void *> *out) const {
  switch (kind) {
    case ListedKind::kObject: return items_of(static_cast<PortableFrame *>(parent)->obj_meta_list, out);
    case ListedKind::kClassifier: return items_of(static_cast<PortableObject *>(parent)->classifier_meta_list, out);
    case ListedKind::kLabelInfo: return items_of(static_cast<PortableClassifier *>(parent)->label_info_list, out);
    case ListedKind::kDisplay: return items_of(static_cast<PortableFrame *>(parent)->display_meta_list, out);
  }
}

// --- objects

Status PortableBackend::add_object(FrameHandle frame_handle, ObjectHandle object_handle, ObjectHandle parent_handle) {
  modified_ = true;
  auto *object = as<PortableObject>(object_handle);
  if (object->state != MetaState::kAcquired)
    return not_acquired(names_of(ListedKind::kObject).meta, names_of(ListedKind::kObject).add, object->state);
  auto *parent = as<PortableObject>(parent_handle);
  if (parent != nullptr && parent->state != MetaState::kAdded)
    return Status::State(std::string("Expected an ObjectMeta added to a frame for parent but received ") +
        state_name(parent->state));
  object->parent = parent;
  if (parent != nullptr)
    ++parent->num_children;
  return link(ListedKind::kObject, as<PortableFrame>(frame_handle), &PortableFrame::obj_meta_list, object);
}

void PortableBackend::release_removed_object(PortableObject *object) {
  if (object->parent != nullptr)
    --object->parent->num_children;
  if (object->num_children > 0) {
    // Children keep living; DeepStream would leave them a dangling parent, we clear it.
    for (PortableFrame *any_frame : batch_->frame_meta_list)
      for (PortableObject *child : any_frame->obj_meta_list)
        if (child->parent == object) child->parent = nullptr;
  }
  batch_->release_object(object);
}

size_t PortableBackend::num_objects(FrameHandle frame) const {
  return as<PortableFrame>(frame)->obj_meta_list.size();
}

ObjectHandle PortableBackend::parent_of(ObjectHandle object) const {
  return handle_of<ObjectHandle>(as<PortableObject>(object)->parent);
}

// --- the metas' fields (write_fields: portable_backend.h)

void PortableBackend::read_object(ObjectHandle object, ObjectFields *out) const { *out = as<PortableObject>(object)->fields; }
void PortableBackend::read_classifier(ClassifierHandle classifier, ClassifierFields *out) const { *out = as<PortableClassifier>(classifier)->fields; }
void PortableBackend::read_label_info(LabelInfoHandle label, LabelInfoFields *out) const { *out = as<PortableLabelInfo>(label)->fields; }
void PortableBackend::read_display(DisplayHandle display, DisplayFields *out) const { *out = as<PortableDisplay>(display)->fields; }

Status PortableBackend::write_object(ObjectHandle object, const ObjectFields &fields, const ObjectFields *before) {
  return write_fields(as<PortableObject>(object), fields, validate_object(fields, before));
}
Status PortableBackend::write_classifier(ClassifierHandle classifier, const ClassifierFields &fields) {
  return write_fields(as<PortableClassifier>(classifier), fields, validate_classifier(fields));
}
Status PortableBackend::write_label_info(LabelInfoHandle label, const LabelInfoFields &fields) {
  return write_fields(as<PortableLabelInfo>(label), fields, validate_label_info(fields));
}
Status PortableBackend::write_display(DisplayHandle display, const DisplayFields &fields) {
  return write_fields(as<PortableDisplay>(display), fields, validate_display(fields));
}

// --- user metas

std::vector<PortableUserMeta *> *PortableBackend::user_list(UserMetaLevel level, void *owner) const {
  switch (level) {
    case UserMetaLevel::kBatch: return &batch_->batch_user_meta_list;
    case UserMetaLevel::kFrame: return &static_cast<PortableFrame *>(owner)->frame_user_meta_list;
    case UserMetaLevel::kObject: return &static_cast<PortableObject *>(owner)->obj_user_meta_list;
  }
  return nullptr;
}

UserHandle PortableBackend::acquire_user_meta() {
  modified_ = true;
  return handle_of<UserHandle>(take(batch_->user_pool, &acquired_users_));
}

Status PortableBackend::add_user_meta(UserMetaLevel level, void *owner, UserHandle user_handle) {
  modified_ = true;
  auto *user = as<PortableUserMeta>(user_handle);
  if (user->state != MetaState::kAcquired)
    return not_acquired("UserMeta", "addUserMeta", user->state);
  if (user->fields.meta_type.empty() && (user->fields.kind == PayloadKind::kBytes || user->fields.kind == PayloadKind::kJson))
    return Status::State("Expected a UserMeta with a type (ORG.COMPONENT.DESCRIPTION) for addUserMeta "
        "but received one never written");
  user->state = MetaState::kAdded;
  user_list(level, owner)->push_back(user);
  return Status::Ok();
}

Status PortableBackend::remove_user_meta(UserMetaLevel level, void *owner, UserHandle user_handle) {
  modified_ = true;
  auto *user = as<PortableUserMeta>(user_handle);
  if (user->state != MetaState::kAdded || !erase_last(*user_list(level, owner), user))
    return not_in("a UserMeta", level == UserMetaLevel::kBatch ? "batch" :
        level == UserMetaLevel::kFrame ? "frame" : "object", "removeUserMeta");
  batch_->release_user(user);
  return Status::Ok();
}

void PortableBackend::user_metas(UserMetaLevel level, void *owner, std::vector<UserHandle> *out) const {
  out->clear();
  for (PortableUserMeta *user : *user_list(level, owner))
    out->push_back(handle_of<UserHandle>(user));
}

void PortableBackend::read_user_meta(UserHandle user, UserMetaFields *out) const {
  *out = as<PortableUserMeta>(user)->fields;
}

Status PortableBackend::write_user_meta(UserHandle user_handle, const UserMetaFields &fields) {
  modified_ = true;
  auto *user = as<PortableUserMeta>(user_handle);
  if (user->fields.kind != PayloadKind::kBytes && user->fields.kind != PayloadKind::kJson)
    return validate_user_meta(user->fields);  // the read-only error
  Status status = validate_user_meta(fields);
  if (!status.ok())
    return status;
  user->fields = fields;
  user->fields.meta_type_id = portable_user_meta_type_id(fields.meta_type);
  return Status::Ok();
}

void PortableBackend::add_typed(UserMetaLevel level, void *owner, PayloadKind kind, int32_t type_id,
    std::shared_ptr<const void> typed, UserHandle *created) {
  modified_ = true;
  PortableUserMeta *user = batch_->user_pool.acquire();
  user->fields.kind = kind;
  user->fields.meta_type_id = type_id;
  user->typed = std::move(typed);
  user->state = MetaState::kAdded;
  user_list(level, owner)->push_back(user);
  if (created != nullptr)
    *created = handle_of<UserHandle>(user);
}

bool PortableBackend::read_tensor_output(UserHandle user, TensorOutput *out) const {
  const auto *storage = as<PortableUserMeta>(user)->typed_as<TensorOutputStorage>(PayloadKind::kTensorOutput);
  if (storage == nullptr)
    return false;
  *out = storage->output;
  return true;
}

Status PortableBackend::add_tensor_output(UserMetaLevel level, void *owner, const TensorOutput &output,
    std::vector<std::vector<uint8_t>> bytes, UserHandle *created) {
  modified_ = true;
  Status status = validate_tensor_output(output, bytes);
  if (!status.ok())
    return status;
  auto storage = std::make_shared<TensorOutputStorage>();
  storage->output = output;
  storage->bytes = std::move(bytes);
  for (size_t i = 0; i < storage->output.layers.size(); ++i) {
    storage->output.layers[i].host_buffer = storage->bytes[i].data();
    storage->output.layers[i].device_buffer = nullptr;
  }
  add_typed(level, owner, PayloadKind::kTensorOutput, kMetaTypeTensorOutput, std::move(storage), created);
  return Status::Ok();
}

Status PortableBackend::add_event_msg(UserMetaLevel level, void *owner, const EventMsg &msg, UserHandle *created) {
  modified_ = true;
  Status status = validate_event_msg(msg);
  if (!status.ok())
    return status;
  add_typed(level, owner, PayloadKind::kEventMsg, kMetaTypeEventMsg, std::make_shared<const EventMsg>(msg), created);
  return Status::Ok();
}

bool PortableBackend::read_event_msg(UserHandle user, EventMsg *out) const {
  const auto *msg = as<PortableUserMeta>(user)->typed_as<EventMsg>(PayloadKind::kEventMsg);
  if (msg == nullptr)
    return false;
  *out = *msg;
  return true;
}

void PortableBackend::end_call() {
  if (!modified_) return;  // nothing was acquired (every acquire_* marks the call modified)
  // A meta may be acquired, added, removed (back in the pool: kFree) and re-acquired within
  // one call, so it can be listed twice: release only what is still kAcquired, once.
  for (PortableObject *object : acquired_objects_)
    if (object->state == MetaState::kAcquired) batch_->release_object(object);
  for (PortableClassifier *classifier : acquired_classifiers_)
    if (classifier->state == MetaState::kAcquired) batch_->release_classifier(classifier);
  for (PortableLabelInfo *label : acquired_labels_)
    if (label->state == MetaState::kAcquired) batch_->release_label_info(label);
  for (PortableDisplay *display : acquired_displays_)
    if (display->state == MetaState::kAcquired) batch_->release_display(display);
  for (PortableUserMeta *user : acquired_users_)
    if (user->state == MetaState::kAcquired) batch_->release_user(user);
  acquired_objects_.clear();
  acquired_classifiers_.clear();
  acquired_labels_.clear();
  acquired_displays_.clear();
  acquired_users_.clear();
}

}  // namespace dsnode::meta
