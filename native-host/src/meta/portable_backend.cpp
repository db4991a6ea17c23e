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
  return Status::State(std::string("Expected a newly acquired ") + what + " for " + operation +
      " but received " + state_name(state));
}

Status not_in(const char *what, const char *parent, const char *operation) {
  return Status::State(std::string("Expected ") + what + " of this " + parent + " for " + operation +
      " but received one that is not in it");
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
  modified_ = true;
  Status status = validate_frame(fields);
  if (status.ok())
    as<PortableFrame>(frame)->fields = fields;
  return status;
}

// --- objects

ObjectHandle PortableBackend::acquire_object() {
  modified_ = true;
  PortableObject *object = batch_->object_pool.acquire();
  acquired_objects_.push_back(object);
  return handle_of<ObjectHandle>(object);
}

Status PortableBackend::add_object(FrameHandle frame_handle, ObjectHandle object_handle, ObjectHandle parent_handle) {
  modified_ = true;
  auto *frame = as<PortableFrame>(frame_handle);
  auto *object = as<PortableObject>(object_handle);
  if (object->state != MetaState::kAcquired)
    return not_acquired("ObjectMeta", "addObjectMeta", object->state);
  auto *parent = as<PortableObject>(parent_handle);
  if (parent != nullptr && parent->state != MetaState::kAdded)
    return Status::State(std::string("Expected an ObjectMeta added to a frame for parent but received ") +
        state_name(parent->state));
  object->state = MetaState::kAdded;
  object->owner = frame;
  object->parent = parent;
  if (parent != nullptr)
    ++parent->num_children;
  frame->obj_meta_list.push_back(object);
  return Status::Ok();
}

Status PortableBackend::remove_object(FrameHandle frame_handle, ObjectHandle object_handle) {
  modified_ = true;
  auto *frame = as<PortableFrame>(frame_handle);
  auto *object = as<PortableObject>(object_handle);
  if (object->state != MetaState::kAdded || object->owner != frame || !erase_last(frame->obj_meta_list, object))
    return not_in("an ObjectMeta", "frame", "removeObjectMeta");
  if (object->parent != nullptr)
    --object->parent->num_children;
  if (object->num_children > 0) {
    // Children keep living; DeepStream would leave them a dangling parent, we clear it.
    for (PortableFrame *any_frame : batch_->frame_meta_list)
      for (PortableObject *child : any_frame->obj_meta_list)
        if (child->parent == object) child->parent = nullptr;
  }
  batch_->release_object(object);
  return Status::Ok();
}

void PortableBackend::objects(FrameHandle frame, std::vector<ObjectHandle> *out) const {
  const auto &list = as<PortableFrame>(frame)->obj_meta_list;
  out->clear();
  out->reserve(list.size());
  for (PortableObject *object : list) out->push_back(handle_of<ObjectHandle>(object));
}

size_t PortableBackend::num_objects(FrameHandle frame) const {
  return as<PortableFrame>(frame)->obj_meta_list.size();
}

void PortableBackend::read_object(ObjectHandle object, ObjectFields *out) const {
  *out = as<PortableObject>(object)->fields;
}

Status PortableBackend::write_object(ObjectHandle object, const ObjectFields &fields, const ObjectFields *before) {
  modified_ = true;
  Status status = validate_object(fields, before);
  if (status.ok())
    as<PortableObject>(object)->fields = fields;
  return status;
}

ObjectHandle PortableBackend::parent_of(ObjectHandle object) const {
  return handle_of<ObjectHandle>(as<PortableObject>(object)->parent);
}

// --- classifiers and label infos

ClassifierHandle PortableBackend::acquire_classifier() {
  modified_ = true;
  PortableClassifier *classifier = batch_->classifier_pool.acquire();
  acquired_classifiers_.push_back(classifier);
  return handle_of<ClassifierHandle>(classifier);
}

Status PortableBackend::add_classifier(ObjectHandle object_handle, ClassifierHandle classifier_handle) {
  modified_ = true;
  auto *object = as<PortableObject>(object_handle);
  auto *classifier = as<PortableClassifier>(classifier_handle);
  if (classifier->state != MetaState::kAcquired)
    return not_acquired("ClassifierMeta", "addClassifierMeta", classifier->state);
  classifier->state = MetaState::kAdded;
  classifier->owner = object;
  object->classifier_meta_list.push_back(classifier);
  return Status::Ok();
}

Status PortableBackend::remove_classifier(ObjectHandle object_handle, ClassifierHandle classifier_handle) {
  modified_ = true;
  auto *object = as<PortableObject>(object_handle);
  auto *classifier = as<PortableClassifier>(classifier_handle);
  if (classifier->state != MetaState::kAdded || classifier->owner != object ||
      !erase_last(object->classifier_meta_list, classifier))
    return not_in("a ClassifierMeta", "object", "removeClassifierMeta");
  batch_->release_classifier(classifier);
  return Status::Ok();
}

void PortableBackend::classifiers(ObjectHandle object, std::vector<ClassifierHandle> *out) const {
  out->clear();
  for (PortableClassifier *classifier : as<PortableObject>(object)->classifier_meta_list)
    out->push_back(handle_of<ClassifierHandle>(classifier));
}

void PortableBackend::read_classifier(ClassifierHandle classifier, ClassifierFields *out) const {
  *out = as<PortableClassifier>(classifier)->fields;
}

Status PortableBackend::write_classifier(ClassifierHandle classifier, const ClassifierFields &fields) {
  modified_ = true;
  Status status = validate_classifier(fields);
  if (status.ok())
    as<PortableClassifier>(classifier)->fields = fields;
  return status;
}

LabelInfoHandle PortableBackend::acquire_label_info() {
  modified_ = true;
  PortableLabelInfo *label = batch_->label_info_pool.acquire();
  acquired_labels_.push_back(label);
  return handle_of<LabelInfoHandle>(label);
}

Status PortableBackend::add_label_info(ClassifierHandle classifier_handle, LabelInfoHandle label_handle) {
  modified_ = true;
  auto *classifier = as<PortableClassifier>(classifier_handle);
  auto *label = as<PortableLabelInfo>(label_handle);
  if (label->state != MetaState::kAcquired)
    return not_acquired("LabelInfo", "addLabelInfo", label->state);
  label->state = MetaState::kAdded;
  label->owner = classifier;
  classifier->label_info_list.push_back(label);
  return Status::Ok();
}

Status PortableBackend::remove_label_info(ClassifierHandle classifier_handle, LabelInfoHandle label_handle) {
  modified_ = true;
  auto *classifier = as<PortableClassifier>(classifier_handle);
  auto *label = as<PortableLabelInfo>(label_handle);
  if (label->state != MetaState::kAdded || label->owner != classifier ||
      !erase_last(classifier->label_info_list, label))
    return not_in("a LabelInfo", "classifier", "removeLabelInfo");
  batch_->release_label_info(label);
  return Status::Ok();
}

void PortableBackend::label_infos(ClassifierHandle classifier, std::vector<LabelInfoHandle> *out) const {
  out->clear();
  for (PortableLabelInfo *label : as<PortableClassifier>(classifier)->label_info_list)
    out->push_back(handle_of<LabelInfoHandle>(label));
}

void PortableBackend::read_label_info(LabelInfoHandle label, LabelInfoFields *out) const {
  *out = as<PortableLabelInfo>(label)->fields;
}

Status PortableBackend::write_label_info(LabelInfoHandle label, const LabelInfoFields &fields) {
  modified_ = true;
  Status status = validate_label_info(fields);
  if (status.ok())
    as<PortableLabelInfo>(label)->fields = fields;
  return status;
}

// --- display metas

DisplayHandle PortableBackend::acquire_display() {
  modified_ = true;
  PortableDisplay *display = batch_->display_pool.acquire();
  acquired_displays_.push_back(display);
  return handle_of<DisplayHandle>(display);
}

Status PortableBackend::add_display(FrameHandle frame_handle, DisplayHandle display_handle) {
  modified_ = true;
  auto *frame = as<PortableFrame>(frame_handle);
  auto *display = as<PortableDisplay>(display_handle);
  if (display->state != MetaState::kAcquired)
    return not_acquired("DisplayMeta", "addDisplayMeta", display->state);
  display->state = MetaState::kAdded;
  display->owner = frame;
  frame->display_meta_list.push_back(display);
  return Status::Ok();
}

Status PortableBackend::remove_display(FrameHandle frame_handle, DisplayHandle display_handle) {
  modified_ = true;
  auto *frame = as<PortableFrame>(frame_handle);
  auto *display = as<PortableDisplay>(display_handle);
  if (display->state != MetaState::kAdded || display->owner != frame ||
      !erase_last(frame->display_meta_list, display))
    return not_in("a DisplayMeta", "frame", "removeDisplayMeta");
  batch_->release_display(display);
  return Status::Ok();
}

void PortableBackend::displays(FrameHandle frame, std::vector<DisplayHandle> *out) const {
  out->clear();
  for (PortableDisplay *display : as<PortableFrame>(frame)->display_meta_list)
    out->push_back(handle_of<DisplayHandle>(display));
}

void PortableBackend::read_display(DisplayHandle display, DisplayFields *out) const {
  *out = as<PortableDisplay>(display)->fields;
}

Status PortableBackend::write_display(DisplayHandle display, const DisplayFields &fields) {
  modified_ = true;
  Status status = validate_display(fields);
  if (status.ok())
    as<PortableDisplay>(display)->fields = fields;
  return status;
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
  PortableUserMeta *user = batch_->user_pool.acquire();
  acquired_users_.push_back(user);
  return handle_of<UserHandle>(user);
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
