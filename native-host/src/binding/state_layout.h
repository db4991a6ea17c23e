// The per-call state Float64Array and the object-row layout shared with the SDK
// (sdk/src/protocol/transform-state.ts, which documents every slot). Change both together and
// bump kMetaLayoutVersion.
#ifndef DSNODE_BINDING_STATE_LAYOUT_H
#define DSNODE_BINDING_STATE_LAYOUT_H

#include <cstddef>

namespace dsnode::layout {

inline constexpr int kMetaLayoutVersion = 2;

// header
inline constexpr size_t kStatePts = 0, kStateDts = 1, kStateDuration = 2, kStateSize = 3,
                        kStateNumFrames = 4, kStateMaxFrames = 5, kStateCallId = 6,
                        kStateBackend = 7;
inline constexpr size_t kStateFramesBase = 8;
inline constexpr size_t kStateFrameStride = 24;

// one frame record
inline constexpr size_t kFrameNum = 0, kFrameBufPts = 1, kFrameBufDts = 2, kFrameBufDuration = 3,
                        kFrameSourceId = 4, kFramePadIndex = 5, kFrameBatchId = 6,
                        kFrameSourceWidth = 7, kFrameSourceHeight = 8, kFramePipelineWidth = 9,
                        kFramePipelineHeight = 10, kFrameNtpHi = 11, kFrameNtpLo = 12,
                        kFrameSurfaceType = 13, kFrameSurfaceIndex = 14, kFrameNumSurfaces = 15,
                        kFrameInferDone = 16, kFrameMisc = 17;

inline constexpr size_t state_length(size_t num_frames) {
  return kStateFramesBase + num_frames * kStateFrameStride;
}

// object rows
inline constexpr size_t kObjStride = 40;
inline constexpr size_t kObjClassId = 0, kObjObjectId = 1, kObjUniqueComponentId = 2,
                        kObjConfidence = 3, kObjTrackerConfidence = 4, kObjRect = 5,
                        kObjBorderWidth = 9, kObjBorderColor = 10, kObjHasBgColor = 14,
                        kObjBgColor = 15, kObjHasColorInfo = 19, kObjColorId = 20,
                        kObjRotationAngle = 21, kObjDetectorBbox = 22, kObjTrackerBbox = 26,
                        kObjMisc = 30, kObjParentRow = 34, kObjFrameIndex = 35;

}  // namespace dsnode::layout

#endif
