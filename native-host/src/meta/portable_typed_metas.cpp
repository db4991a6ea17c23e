// NVIDIA's typed user metas on the portable backend: the value itself (AnalyticsFrameMeta,
// AnalyticsObjectInfo, Segmentation) behind PortableUserMeta::typed (PortableBackend::add_typed),
// immutable, so a buffer copy shares it and the last holder frees it. The type numbers are
// DeepStream's (kMetaType*), so a reader comparing numbers sees the same on both backends.
#include "meta/analytics_meta.h"
#include "meta/portable_backend.h"
#include "meta/segmentation_meta.h"

namespace dsnode::meta {

namespace {

template <typename T>
const T *typed_value(UserHandle user, PayloadKind kind) {
  return static_cast<const PortableUserMeta *>(user.ptr)->typed_as<T>(kind);
}

}  // namespace

bool PortableBackend::read_analytics_frame(UserHandle user, AnalyticsFrameMeta *out) const {
  const auto *value = typed_value<AnalyticsFrameMeta>(user, PayloadKind::kAnalyticsFrame);
  if (value != nullptr) *out = *value;
  return value != nullptr;
}

bool PortableBackend::read_analytics_object(UserHandle user, AnalyticsObjectInfo *out) const {
  const auto *value = typed_value<AnalyticsObjectInfo>(user, PayloadKind::kAnalyticsObject);
  if (value != nullptr) *out = *value;
  return value != nullptr;
}

bool PortableBackend::read_segmentation(UserHandle user, SegmentationView *out) const {
  const auto *value = typed_value<Segmentation>(user, PayloadKind::kSegmentation);
  if (value == nullptr) return false;
  static_cast<SegmentationFields &>(*out) = *value;
  out->class_map = value->class_map.data();
  out->class_probabilities_map =
      value->class_probabilities_map.empty() ? nullptr : value->class_probabilities_map.data();
  return true;
}

Status PortableBackend::add_segmentation(UserMetaLevel level, void *owner, Segmentation value, UserHandle *created) {
  Status status = validate_segmentation(value);
  if (!status.ok()) return status;
  add_typed(level, owner, PayloadKind::kSegmentation, kMetaTypeSegmentation,
      std::make_shared<const Segmentation>(std::move(value)), created);
  return Status::Ok();
}

Status PortableBackend::add_analytics_frame(UserMetaLevel level, void *owner, const AnalyticsFrameMeta &value,
    UserHandle *created) {
  add_typed(level, owner, PayloadKind::kAnalyticsFrame, kMetaTypeAnalyticsFrame,
      std::make_shared<const AnalyticsFrameMeta>(value), created);
  return Status::Ok();
}

Status PortableBackend::add_analytics_object(UserMetaLevel level, void *owner, const AnalyticsObjectInfo &value,
    UserHandle *created) {
  add_typed(level, owner, PayloadKind::kAnalyticsObject, kMetaTypeAnalyticsObject,
      std::make_shared<const AnalyticsObjectInfo>(value), created);
  return Status::Ok();
}

}  // namespace dsnode::meta
