// The portable backend's component metas (component_meta.h): read from the ComponentMeta a
// user meta carries, written by the testing harness.
#include <utility>

#include "meta/portable_backend.h"

namespace dsnode::meta {

namespace {

const ComponentMeta *component_of(UserHandle user, PayloadKind kind) {
  const auto *meta = static_cast<const PortableUserMeta *>(user.ptr);
  return meta->component != nullptr && meta->fields.kind == kind ? meta->component.get() : nullptr;
}

}  // namespace

bool PortableBackend::read_tracker_targets(UserHandle user, TrackerTargetBatch *out) const {
  const auto *meta = static_cast<const PortableUserMeta *>(user.ptr);
  if (meta->component == nullptr || !is_tracker_target_kind(meta->fields.kind)) return false;
  *out = meta->component->targets;
  return true;
}

bool PortableBackend::read_reid(UserHandle user, ReidTensor *out) const {
  const ComponentMeta *meta = component_of(user, PayloadKind::kTrackerBatchReid);
  if (meta == nullptr) meta = component_of(user, PayloadKind::kTrackerObjectReid);
  if (meta == nullptr) return false;
  *out = meta->reid;
  return true;
}

bool PortableBackend::read_preprocess_batch(UserHandle user, PreprocessBatch *out) const {
  const ComponentMeta *meta = component_of(user, PayloadKind::kPreprocessBatch);
  if (meta == nullptr) return false;
  *out = meta->preprocess;
  return true;
}

bool PortableBackend::read_roi(UserHandle user, RoiMeta *out) const {
  const ComponentMeta *meta = component_of(user, PayloadKind::kRoi);
  if (meta == nullptr) return false;
  *out = meta->roi;
  return true;
}

void PortableBackend::read_sensor_info(FrameHandle frame, SensorInfo *out) const {
  *out = static_cast<const PortableFrame *>(frame.ptr)->sensor_info;
}

Status PortableBackend::add_component_meta(UserMetaLevel level, void *owner, std::shared_ptr<const ComponentMeta> meta,
    UserHandle *created) {
  const int32_t meta_type = component_meta_type(meta->kind);
  if (meta_type < 0) return Status::Invalid("Expected a component meta kind for addComponentMeta but received another");
  modified_ = true;
  PortableUserMeta *user = batch_->user_pool.acquire();
  user->fields.kind = meta->kind;
  user->fields.meta_type_id = meta_type;
  user->component = std::move(meta);
  user->state = MetaState::kAdded;
  user_list(level, owner)->push_back(user);
  if (created != nullptr) *created = UserHandle{user};
  return Status::Ok();
}

void PortableBackend::write_sensor_info(FrameHandle frame, const SensorInfo &info) {
  modified_ = true;
  static_cast<PortableFrame *>(frame.ptr)->sensor_info = info;
}

}  // namespace dsnode::meta
