#include "meta/portable_batch.h"

#include <unordered_map>

namespace dsnode::meta {

void PortableObject::reset() {
  owner = nullptr;
  parent = nullptr;
  num_children = 0;
  fields = ObjectFields();
  classifier_meta_list.clear();
  obj_user_meta_list.clear();
}

void PortableDisplay::reset() {
  owner = nullptr;
  // Only the counted entries are meaningful; clearing them keeps reuse cheap (~10 KB struct).
  for (uint32_t i = 0; i < fields.num_labels; ++i) fields.text_params[i] = TextParams();
  fields.num_rects = fields.num_labels = fields.num_lines = fields.num_arrows = fields.num_circles = 0;
  for (int64_t &value : fields.misc_osd_data) value = 0;
}

PortableFrame *PortableBatchMeta::add_frame(const FrameFields &fields) {
  if (frame_meta_list.size() >= max_frames_in_batch)
    return nullptr;
  PortableFrame *frame = frame_pool.acquire();
  frame->fields = fields;
  frame->state = MetaState::kAdded;
  frame_meta_list.push_back(frame);
  return frame;
}

void PortableBatchMeta::clear(uint32_t new_max_frames_in_batch) {
  for (PortableFrame *frame : frame_meta_list) {
    for (PortableObject *object : frame->obj_meta_list) release_object(object);
    for (PortableDisplay *display : frame->display_meta_list) release_display(display);
    for (PortableUserMeta *user : frame->frame_user_meta_list) release_user(user);
    frame->reset();
    frame_pool.release(frame);
  }
  frame_meta_list.clear();
  for (PortableUserMeta *user : batch_user_meta_list) release_user(user);
  batch_user_meta_list.clear();
  for (int64_t &value : misc_batch_info) value = 0;
  max_frames_in_batch = new_max_frames_in_batch;
}

size_t PortableBatchMeta::pooled_metas() const {
  return frame_pool.allocated() + object_pool.allocated() + classifier_pool.allocated() +
         label_info_pool.allocated() + display_pool.allocated() + user_pool.allocated();
}

void PortableBatchMeta::release_classifier(PortableClassifier *classifier) {
  for (PortableLabelInfo *label : classifier->label_info_list)
    release_label_info(label);
  classifier->label_info_list.clear();
  classifier_pool.release(classifier);
}

void PortableBatchMeta::release_object(PortableObject *object) {
  for (PortableClassifier *classifier : object->classifier_meta_list)
    release_classifier(classifier);
  for (PortableUserMeta *user : object->obj_user_meta_list)
    release_user(user);
  object->classifier_meta_list.clear();
  object->obj_user_meta_list.clear();
  object_pool.release(object);
}

namespace {

PortableUserMeta *copy_user(PortableBatchMeta &to, const PortableUserMeta &from) {
  PortableUserMeta *user = to.user_pool.acquire();
  user->fields = from.fields;
  user->typed = from.typed;
  user->state = MetaState::kAdded;
  return user;
}

}  // namespace

// What NVIDIA's nvds_batch_meta_copy_func (nvdsmeta_copy.c) makes of a batch, so that a tee
// copy reads the same on both backends (docs/internals/metadata-design.md §2.4):
// - it walks each list in DeepStream's order and adds every copy with the usual add calls, so
//   the lists DeepStream prepends to (all but frames and batch user metas) come out reversed:
//   here, where lists are kept in added order, those are walked from their end;
// - an object keeps its parent only when the parent, in the same frame, was copied before it;
// - it drops a frame's pipeline_width/height and a classifier's classifier_type, and counts
//   num_labels anew from the labels it copies.
std::unique_ptr<PortableBatchMeta> PortableBatchMeta::deep_copy() const {
  auto copy = std::make_unique<PortableBatchMeta>(max_frames_in_batch);
  for (int i = 0; i < static_cast<int>(kMaxUserFields); ++i) copy->misc_batch_info[i] = misc_batch_info[i];
  for (const PortableUserMeta *user : batch_user_meta_list)
    copy->batch_user_meta_list.push_back(copy_user(*copy, *user));

  std::unordered_map<const PortableObject *, PortableObject *> copied;  // this frame's, so far
  for (const PortableFrame *frame : frame_meta_list) {
    FrameFields fields = frame->fields;
    fields.pipeline_width = fields.pipeline_height = 0;
    PortableFrame *new_frame = copy->add_frame(fields);
    new_frame->sensor_info = frame->sensor_info;  // nvds_copy_frame_meta duplicates the strings
    new_frame->obj_meta_list.reserve(frame->obj_meta_list.size());
    copied.clear();
    for (auto o = frame->obj_meta_list.rbegin(); o != frame->obj_meta_list.rend(); ++o) {
      const PortableObject *object = *o;
      PortableObject *new_object = copy->object_pool.acquire();
      new_object->fields = object->fields;
      new_object->owner = new_frame;
      new_object->state = MetaState::kAdded;
      for (auto u = object->obj_user_meta_list.rbegin(); u != object->obj_user_meta_list.rend(); ++u)
        new_object->obj_user_meta_list.push_back(copy_user(*copy, **u));
      for (auto c = object->classifier_meta_list.rbegin(); c != object->classifier_meta_list.rend(); ++c) {
        PortableClassifier *new_classifier = copy->classifier_pool.acquire();
        new_classifier->fields.unique_component_id = (*c)->fields.unique_component_id;
        new_classifier->owner = new_object;
        new_classifier->state = MetaState::kAdded;
        for (auto l = (*c)->label_info_list.rbegin(); l != (*c)->label_info_list.rend(); ++l) {
          PortableLabelInfo *new_label = copy->label_info_pool.acquire();
          new_label->fields = (*l)->fields;
          new_label->owner = new_classifier;
          new_label->state = MetaState::kAdded;
          new_classifier->label_info_list.push_back(new_label);
        }
        new_classifier->fields.num_labels = static_cast<uint32_t>(new_classifier->label_info_list.size());
        new_object->classifier_meta_list.push_back(new_classifier);
      }
      if (object->parent != nullptr) {
        auto found = copied.find(object->parent);
        if (found != copied.end()) {
          new_object->parent = found->second;
          ++found->second->num_children;
        }
      }
      copied.emplace(object, new_object);
      new_frame->obj_meta_list.push_back(new_object);
    }
    for (auto d = frame->display_meta_list.rbegin(); d != frame->display_meta_list.rend(); ++d) {
      PortableDisplay *new_display = copy->display_pool.acquire();
      new_display->fields = (*d)->fields;
      new_display->owner = new_frame;
      new_display->state = MetaState::kAdded;
      new_frame->display_meta_list.push_back(new_display);
    }
    for (auto u = frame->frame_user_meta_list.rbegin(); u != frame->frame_user_meta_list.rend(); ++u)
      new_frame->frame_user_meta_list.push_back(copy_user(*copy, **u));
  }
  return copy;
}

}  // namespace dsnode::meta
