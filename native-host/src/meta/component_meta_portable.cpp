// The portable backend's component metas (component_meta.h): read from the ComponentMeta a
// user meta carries, written by the testing harness.
#include <utility>

#include "meta/portable_backend.h"

namespace dsnode::meta {

namespace {

const ComponentMeta *component_of(UserHandle user, PayloadKind kind) {
  return static_cast<const PortableUserMeta *>(user.ptr)->typed_as<ComponentMeta>(kind);
}

}  // namespace

bool PortableBackend::read_tracker_targets(UserHandle user, TrackerTargetBatch *out) const {
  const PayloadKind kind = static_cast<const PortableUserMeta *>(user.ptr)->fields.kind;
  const ComponentMeta *meta = is_tracker_target_kind(kind) ? component_of(user, kind) : nullptr;
  if (meta == nullptr) return false;
  *out = meta->targets;
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
  const PayloadKind kind = meta->kind;
  add_typed(level, owner, kind, meta_type, std::move(meta), created);
  return Status::Ok();
}

void PortableBackend::write_sensor_info(FrameHandle frame, const SensorInfo &info) {
  modified_ = true;
  static_cast<PortableFrame *>(frame.ptr)->sensor_info = info;
}

}  // namespace dsnode::meta
