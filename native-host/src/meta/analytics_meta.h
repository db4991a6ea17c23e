// nvdsanalytics' metadata (nvds_analytics_meta.h) as plain C++ values: NvDsAnalyticsFrameMeta on
// a frame, NvDsAnalyticsObjInfo on an object, each an NvDsUserMeta of NVIDIA's type
// (NVDS_USER_FRAME_META_NVDSANALYTICS, NVDS_USER_OBJ_META_NVDSANALYTICS). nvdsanalytics writes
// them; ds-element reads them on both backends, and the testing harness writes them so element
// logic that consumes them runs without the plugin.
//
// The members, with NVIDIA's names and C++ types, are rows of sdk/src/protocol/meta-fields.mjs
// (ANALYTICS_FRAME, ANALYTICS_OBJECT), generated as the DSNODE_ANALYTICS_* lists below: they
// declare the structs here, copy them to and from NVIDIA's structs (deepstream_typed_metas.cpp)
// and convert them to and from JS (binding/analytics_functions.cpp).
// The JS names are NVIDIA's (already camelCase) except unique_id -> uniqueId.
#ifndef DSNODE_META_ANALYTICS_META_H
#define DSNODE_META_ANALYTICS_META_H

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace dsnode::meta {

// NvDsMetaType values of DeepStream 8.0 and later (nvdsmeta.h: NVDS_FRAME_META_NVDSANALYTICS,
// NVDS_OBJ_META_NVDSANALYTICS; checked by static_assert in deepstream_typed_metas.cpp). The
// portable backend gives its analytics metas the same numbers.
inline constexpr int32_t kMetaTypeAnalyticsFrame = 32;
inline constexpr int32_t kMetaTypeAnalyticsObject = 33;

// The member types, named so that the lists below can carry them.
using AnalyticsLabels = std::vector<std::string>;                          // labels an object is in
using AnalyticsFlags = std::unordered_map<std::string, bool>;              // per ROI label
using AnalyticsCounts = std::unordered_map<std::string, uint32_t>;         // per ROI label
using AnalyticsTotals = std::unordered_map<std::string, uint64_t>;         // per line label
using AnalyticsClassCounts = std::unordered_map<int, uint32_t>;            // per class id

// X(type, NVIDIA's member, JS name, what it holds)
// generated: analytics members (npm run generate)
#define DSNODE_ANALYTICS_FRAME_MEMBERS(X) \
  X(AnalyticsFlags, ocStatus, "ocStatus", "Whether each ROI is overcrowded, by ROI label.") \
  X(AnalyticsCounts, objInROIcnt, "objInROIcnt", "Objects in each ROI, by ROI label.") \
  X(AnalyticsTotals, objLCCurrCnt, "objLCCurrCnt", "Line crossings in this frame, by line label.") \
  X(AnalyticsTotals, objLCCumCnt, "objLCCumCnt", "Line crossings since the stream started, by line label.") \
  X(uint32_t, unique_id, "uniqueId", "The nvdsanalytics instance's unique-id.") \
  X(AnalyticsClassCounts, objCnt, "objCnt", "Objects of each class in the frame, by class id.")

#define DSNODE_ANALYTICS_OBJECT_MEMBERS(X) \
  X(AnalyticsLabels, roiStatus, "roiStatus", "Labels of the ROIs the object is in.") \
  X(AnalyticsLabels, ocStatus, "ocStatus", "Labels of the overcrowded ROIs the object is in.") \
  X(AnalyticsLabels, lcStatus, "lcStatus", "Labels of the lines it crossed in this frame.") \
  X(std::string, dirStatus, "dirStatus", "Its direction, as the configured direction label says.") \
  X(uint32_t, unique_id, "uniqueId", "The nvdsanalytics instance's unique-id.") \
  X(std::string, objStatus, "objStatus", "Its status text.")
// end generated: analytics members

#define DSNODE_DECLARE_MEMBER(type, member, js, what) type member{};

struct AnalyticsFrameMeta {  // NvDsAnalyticsFrameMeta
  DSNODE_ANALYTICS_FRAME_MEMBERS(DSNODE_DECLARE_MEMBER)
};

struct AnalyticsObjectInfo {  // NvDsAnalyticsObjInfo
  DSNODE_ANALYTICS_OBJECT_MEMBERS(DSNODE_DECLARE_MEMBER)
};

#undef DSNODE_DECLARE_MEMBER

}  // namespace dsnode::meta

#endif
