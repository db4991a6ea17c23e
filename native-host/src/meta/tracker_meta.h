// nvtracker's user metas (nvds_tracker_meta.h) as plain values: the past-frame, terminated and
// shadow track lists (NvDsTargetMiscDataBatch, batch level) and the re-identification
// embeddings (NvDsReidTensorBatch at batch level, NvDsObjReid per object). Read-only: ds-element
// reads what nvtracker attached; the portable backend carries what the testing harness writes.
// The members are rows of sdk/src/protocol/meta-fields.mjs (TRACKER_STRUCTS).
#ifndef DSNODE_META_TRACKER_META_H
#define DSNODE_META_TRACKER_META_H

#include <cstdint>
#include <string>
#include <vector>

#include "meta/model.h"

namespace dsnode::meta {

// NvDsMetaType values of nvtracker's metas (nvdsmeta.h; checked in tracker_meta_deepstream.cpp).
inline constexpr int32_t kMetaTypeTrackerPastFrame = 15;       // NVDS_TRACKER_PAST_FRAME_META
inline constexpr int32_t kMetaTypeTrackerBatchReid = 16;       // NVDS_TRACKER_BATCH_REID_META
inline constexpr int32_t kMetaTypeTrackerObjectReid = 17;      // NVDS_TRACKER_OBJ_REID_META
inline constexpr int32_t kMetaTypeTrackerTerminatedList = 18;  // NVDS_TRACKER_TERMINATED_LIST_META
inline constexpr int32_t kMetaTypeTrackerShadowList = 19;      // NVDS_TRACKER_SHADOW_LIST_META

// generated: tracker structs (npm run generate)
struct TrackerTargetFrame {  // NvDsTargetMiscDataFrame
  uint32_t frame_num = 0;
  BboxCoords bbox;  // tBbox's geometry (nvtracker fills only left/top/width/height)
  float confidence = 0;
  uint32_t age = 0;
  int32_t tracker_state = 0;  // TRACKER_STATE
  float visibility = 0;
  float world_feet[2] = {0, 0};  // ptWorldFeet
};

struct TrackerTarget {  // NvDsTargetMiscDataObject
  uint64_t unique_id = 0;
  uint16_t class_id = 0;
  std::string obj_label;
  std::vector<TrackerTargetFrame> frames;  // list[0..numObj)
};

struct TrackerStream {  // NvDsTargetMiscDataStream
  uint32_t stream_id = 0;  // streamID
  uint64_t surface_stream_id = 0;  // surfaceStreamID
  std::vector<TrackerTarget> targets;  // list[0..numFilled)
};

// The past-frame, terminated and shadow metas share this shape.
struct TrackerTargetBatch {  // NvDsTargetMiscDataBatch
  std::vector<TrackerStream> streams;  // list[0..numFilled)
};

// num_vectors: numFilled of a batch's, 1 for an object's. Pointers not owned: the meta's.
struct ReidTensor {  // NvDsReidTensorBatch / NvDsObjReid
  uint32_t feature_size = 0, num_vectors = 0;
  const float *host = nullptr;  // ptr_host, not owned
  const void *device = nullptr;  // ptr_dev, not owned
};
// end generated: tracker structs

}  // namespace dsnode::meta

#endif
