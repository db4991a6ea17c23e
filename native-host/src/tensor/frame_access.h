// Frame access (Buffer.extract): a buffer's memory mapped once per transform call, and the
// DLPack-shaped descriptor of each frame in it. No Node, no N-API.
//
// - System memory (video/x-raw): mapped read/write (the element transforms in place); frame b
//   of a batch lies at the first plane's offset + b × (stride × height) — one frame for a plain
//   buffer, consecutive frames for a portable multi-frame batch. Stride and offset come from
//   the buffer's GstVideoMeta when it has one, else from the caps.
// - GstCudaMemory (video/x-raw(memory:CUDAMemory)): mapped with GST_MAP_CUDA, so the device
//   pointer comes back and nothing is copied to the host; stride from the GstVideoMeta, else
//   the memory's own video info (its rows are pitch-aligned). The descriptor carries the
//   memory's GstCudaContext (see Desc::cuda_context).
// - NVMM (video/x-raw(memory:NVMM), builds with DeepStream): the NvBufSurface in the mapped
//   memory; frame b is surfaceList[b] (dataPtr, pitch, colorFormat, gpuId).
// Packed RGB, RGBA, BGR, BGRx, RGBx, BGRA, ARGB, ABGR and GRAY8, and planar NV12, NV21 and
// I420 (one descriptor with its planes, Desc::planes, and the YUV matrix and range: from the
// caps' colorimetry, or from the NvBufSurface colour format); anything else is an error that
// names the caps and the conversion to put before the element. Planar frames of a portable
// multi-frame batch follow each other at the size of one frame (last plane's end).
#ifndef DSNODE_TENSOR_FRAME_ACCESS_H
#define DSNODE_TENSOR_FRAME_ACCESS_H

#include <gst/gst.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "common/runtime_api.h"
#include "tensor/tensor.h"

namespace dsnode::tensor {

struct FrameError {
  enum class Kind {
    kUnsupported,  // the format or memory cannot be extracted (ERR_DS_ELEMENT_TENSOR)
    kRange,        // batchId out of range (RangeError, ERR_DS_ELEMENT_INVALID_VALUE)
    kState,        // no caps, no memory, a mapping that failed (ERR_DS_ELEMENT_TENSOR)
  };
  Kind kind = Kind::kState;
  std::string message;
};

class FrameMapping {
 public:
  // Maps `buffer` as `stream` describes it. `caller` names the operation in messages
  // ("Buffer.extract"). Null with *error set when the frames cannot be had.
  static std::unique_ptr<FrameMapping> open(GstBuffer* buffer, const DsnodeStreamInfo* stream, const char* caller,
      FrameError* error);
  ~FrameMapping();
  FrameMapping(const FrameMapping&) = delete;
  FrameMapping& operator=(const FrameMapping&) = delete;

  // Frame `batch_id`: [height, width, channels] uint8, strides [pitch, channels, 1]; planar
  // frames: the Y plane ([height, width, 1]) with every plane in desc.planes.
  // num_frames: the frames of the call's batch (0 when unknown: one). False with *error set.
  bool frame(uint32_t batch_id, uint32_t num_frames, const char* caller, Desc* out, FrameError* error) const;

  // For host-visible frames: the memory a zero-copy view covers, starting at desc.data (the
  // whole mapping, or the NVMM surface). False for device memory.
  bool host_range(const Desc& desc, size_t* size) const;

  // The mapped GstMemory (a DLPack capsule of a frame holds a reference on it, so the memory
  // outlives the call as long as the capsule does).
  GstMemory* memory() const { return info_.memory; }

 private:
  FrameMapping() = default;

  GstMapInfo info_ = GST_MAP_INFO_INIT;
  // The call's buffer when gst_buffer_map mapped it (system memory), unmapped by gst_buffer_unmap:
  // from GStreamer 1.28 the map info gst_buffer_map fills is its own, and unmapping its memory
  // by hand (gst_memory_unmap + unref, as gst_buffer_unmap did up to 1.26) dropped a reference
  // the buffer still held. Null for NVMM and CUDA memory, mapped with gst_memory_map.
  GstBuffer* mapped_buffer_ = nullptr;
  DsnodeMemoryKind kind_ = DSNODE_MEMORY_SYSTEM;
  GstVideoInfo video_{};
  std::string caps_;
  // Geometry of system and CUDA memory frames: each plane's row stride and offset (frame 0).
  int32_t width_ = 0, height_ = 0;
  int32_t planes_ = 1;
  int32_t stride_[kMaxPlanes] = {};
  size_t offset_[kMaxPlanes] = {};
  PixelFormat format_ = PixelFormat::kNone;
  ops::ColorMatrix matrix_ = ops::ColorMatrix::kBT601;
  ops::ColorRange range_ = ops::ColorRange::kLimited;
  int32_t device_id_ = 0;
  void* cuda_context_ = nullptr;
};

}  // namespace dsnode::tensor

#endif
