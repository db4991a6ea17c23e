// The metadata of NVIDIA's components that ds-element reads (read-only): nvtracker's
// (tracker_meta.h), nvdspreprocess's (preprocess_meta.h) and the frame's sensor information
// (NvDsSensorInfo_meta). Which user meta kind each NvDsMetaType is read as, and how the portable
// backend carries them (immutable once made, so buffer copies share them).
#ifndef DSNODE_META_COMPONENT_META_H
#define DSNODE_META_COMPONENT_META_H

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "meta/model.h"
#include "meta/preprocess_meta.h"
#include "meta/tracker_meta.h"

namespace dsnode::meta {

// generated: struct SensorInfo (npm run generate)
// DeepStream's frame owns the strings (g_strdup'd by the source bin, g_free'd by its release).
struct SensorInfo {  // NvDsSensorInfo_meta
  uint32_t source_id = 0;
  std::optional<std::string> uri, sensor_id, sensor_name;
};
// end generated: struct SensorInfo

// The payload kind a user meta of NvDsMetaType `meta_type` is read as; kForeign for the types
// ds-element does not read.
inline PayloadKind component_payload_kind(int32_t meta_type) {
  switch (meta_type) {
    case kMetaTypeTrackerPastFrame: return PayloadKind::kTrackerPastFrame;
    case kMetaTypeTrackerBatchReid: return PayloadKind::kTrackerBatchReid;
    case kMetaTypeTrackerObjectReid: return PayloadKind::kTrackerObjectReid;
    case kMetaTypeTrackerTerminatedList: return PayloadKind::kTrackerTerminatedList;
    case kMetaTypeTrackerShadowList: return PayloadKind::kTrackerShadowList;
    case kMetaTypePreprocessBatch: return PayloadKind::kPreprocessBatch;
    case kMetaTypeRoi: return PayloadKind::kRoi;
    default: return PayloadKind::kForeign;
  }
}

// The NvDsMetaType of a component kind; -1 for other kinds.
inline int32_t component_meta_type(PayloadKind kind) {
  switch (kind) {
    case PayloadKind::kTrackerPastFrame: return kMetaTypeTrackerPastFrame;
    case PayloadKind::kTrackerBatchReid: return kMetaTypeTrackerBatchReid;
    case PayloadKind::kTrackerObjectReid: return kMetaTypeTrackerObjectReid;
    case PayloadKind::kTrackerTerminatedList: return kMetaTypeTrackerTerminatedList;
    case PayloadKind::kTrackerShadowList: return kMetaTypeTrackerShadowList;
    case PayloadKind::kPreprocessBatch: return kMetaTypePreprocessBatch;
    case PayloadKind::kRoi: return kMetaTypeRoi;
    default: return -1;
  }
}

inline bool is_tracker_target_kind(PayloadKind kind) {
  return kind == PayloadKind::kTrackerPastFrame || kind == PayloadKind::kTrackerTerminatedList ||
         kind == PayloadKind::kTrackerShadowList;
}

// A component meta as the portable backend carries it (the testing harness writes them): the
// member of its kind is set. ReidTensor's host pointer points into reid_values.
struct ComponentMeta {
  PayloadKind kind = PayloadKind::kForeign;
  TrackerTargetBatch targets;
  std::vector<float> reid_values;
  ReidTensor reid;
  PreprocessBatch preprocess;
  RoiMeta roi;
};

}  // namespace dsnode::meta

#endif
