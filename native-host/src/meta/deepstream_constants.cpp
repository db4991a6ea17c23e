// The model keeps its own copies of NVIDIA's numbers (meta/model.h, event_msg.h, tracker_meta.h,
// preprocess_meta.h, segmentation_meta.h) so that the portable backend builds without
// DeepStream. Here, once, every copy is checked against NVIDIA's headers: a DeepStream release
// that changes one fails the build. DeepStream build only; nothing to link.
#include <cstddef>
#include <cstdint>

#include "meta/component_meta.h"
#include "meta/event_msg.h"
#include "meta/model.h"
#include "meta/segmentation_meta.h"

// GStreamer and nvdsmeta.h first: NVIDIA's headers use them without including them.
#include <gst/gst.h>

#include "nvdsmeta.h"
#include "gstnvdsinfer.h"
#include "nvds_roi_meta.h"
#include "nvds_tracker_meta.h"
#include "nvdsmeta_schema.h"
#include "nvdspreprocess_meta.h"

namespace dsnode::meta {
namespace {

// A number the model copies, and NVIDIA's.
struct CopiedNumber {
  uint64_t ours;
  uint64_t theirs;
};

constexpr CopiedNumber kCopiedNumbers[] = {
    {kMaxLabelSize, MAX_LABEL_SIZE},
    {kMaxElementsInDisplayMeta, MAX_ELEMENTS_IN_DISPLAY_META},
    {kMaxUserFields, MAX_USER_FIELDS},
    {kUntrackedObjectId, UNTRACKED_OBJECT_ID},
    {kMaxTensorDims, NVDSINFER_MAX_DIMS},
    {static_cast<uint64_t>(ArrowHead::kBoth), BOTH_HEAD},                // NvOSD_Arrow_Head_Direction
    {static_cast<uint64_t>(TensorDataType::kUint8), UINT8},              // NvDsInferDataType
    {static_cast<uint64_t>(PreprocessDataType::kFp16), NvDsDataType_FP16},  // NvDsDataType
    {kObjectTypeVehicle, NVDS_OBJECT_TYPE_VEHICLE},                       // NvDsObjectType
    {kObjectTypePerson, NVDS_OBJECT_TYPE_PERSON},
    {kObjectTypeFace, NVDS_OBJECT_TYPE_FACE},
    // NvDsMetaType (the analytics types, enum values since DeepStream 8.0, are checked in
    // deepstream_typed_metas.cpp)
    {kMetaTypeStartUser, NVDS_START_USER_META},
    {kMetaTypeUser, NVDS_USER_META},
    {kMetaTypeEventMsg, NVDS_EVENT_MSG_META},
    {kMetaTypeTensorOutput, NVDSINFER_TENSOR_OUTPUT_META},
    {kMetaTypeSegmentation, NVDSINFER_SEGMENTATION_META},
    {kMetaTypeTrackerPastFrame, NVDS_TRACKER_PAST_FRAME_META},
    {kMetaTypeTrackerBatchReid, NVDS_TRACKER_BATCH_REID_META},
    {kMetaTypeTrackerObjectReid, NVDS_TRACKER_OBJ_REID_META},
    {kMetaTypeTrackerTerminatedList, NVDS_TRACKER_TERMINATED_LIST_META},
    {kMetaTypeTrackerShadowList, NVDS_TRACKER_SHADOW_LIST_META},
    {kMetaTypePreprocessBatch, NVDS_PREPROCESS_BATCH_META},
    {kMetaTypeRoi, NVDS_ROI_META},
};

// The index of the first number that differs, -1 when none does.
template <size_t N>
constexpr int first_difference(const CopiedNumber (&numbers)[N]) {
  for (size_t i = 0; i < N; ++i)
    if (numbers[i].ours != numbers[i].theirs) return static_cast<int>(i);
  return -1;
}

// On failure the compiler shows the comparison it reduced, with the index of the row.
static_assert(first_difference(kCopiedNumbers) == -1, "a number of kCopiedNumbers differs from NVIDIA's headers");

}  // namespace
}  // namespace dsnode::meta
