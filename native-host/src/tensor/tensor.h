// What a tensor is on the native side (docs/internals/tensors.md): a DLPack-shaped descriptor
// over memory someone else owns (a mapped frame, a pooled block, JS memory). No Node, no
// N-API: the binding, runners and plain C++ tests include it.
#ifndef DSNODE_TENSOR_TENSOR_H
#define DSNODE_TENSOR_TENSOR_H

#include <cstddef>
#include <cstdint>
#include <string>

#include "ops/ops.h"
#include "tensor/dlpack.h"

namespace dsnode::tensor {

// DLPack's device codes, so a Desc converts to a DLTensor as is.
enum class Device : int32_t { kCpu = kDLCPU, kCuda = kDLCUDA, kCudaHost = kDLCUDAHost };

enum class DType : int32_t { kUint8 = 0, kInt8 = 1, kInt32 = 2, kInt64 = 3, kFloat16 = 4, kFloat32 = 5 };

// The frame formats Buffer.extract supports: ops' own (whose table, ops/params.cpp, gives their
// names and sizes); kNone for a tensor that is not a frame.
using PixelFormat = ops::PixelFormat;

// One plane of a planar frame (NV12, NV21, I420), within the frame's allocation: its first
// byte at data + byte_offset, rows `pitch` bytes apart.
struct Plane {
  uint64_t byte_offset = 0;
  int64_t pitch = 0;
};
constexpr int32_t kMaxPlanes = 3;

constexpr int32_t kMaxDims = 8;

struct Desc {
  Device device = Device::kCpu;
  int32_t device_id = 0;
  DType dtype = DType::kUint8;
  int32_t ndim = 0;
  int64_t shape[kMaxDims] = {};
  int64_t strides[kMaxDims] = {};  // in elements, as DLPack's
  // Base of the allocation or mapping (DLPack's `data`); the first element is at
  // data + byte_offset.
  void* data = nullptr;
  uint64_t byte_offset = 0;
  PixelFormat format = PixelFormat::kNone;
  // For device memory made by GStreamer's CUDA library (GstCudaMemory): its GstCudaContext*,
  // whose CUDA context (not the device's primary one) must be current to touch `data`. Null
  // for everything else: memory of the device's primary context (the CUDA runtime's, and
  // DeepStream's NVMM).
  void* cuda_context = nullptr;
  // Planar frames: every plane (plane 0 is the Y plane the shape, strides and byte_offset
  // above describe), and how their YUV becomes RGB. 0 planes for anything else.
  int32_t plane_count = 0;
  Plane planes[kMaxPlanes] = {};
  // A crop of a planar frame (TensorHandle.crop) may start on an odd column or row: 1 when the
  // first pixel is the second of its chroma sample's pair (planes[1..] start at that sample).
  int32_t chroma_phase_x = 0;
  int32_t chroma_phase_y = 0;
  ops::ColorMatrix color_matrix = ops::ColorMatrix::kBT601;
  ops::ColorRange color_range = ops::ColorRange::kLimited;

  uint8_t* first() const { return static_cast<uint8_t*>(data) + byte_offset; }
};

size_t dtype_size(DType dtype);
const char* dtype_name(DType dtype);        // "uint8", "int8", "int32", "int64", "float16", "float32"
bool parse_dtype(const std::string& name, DType* out);
DLDataType dlpack_dtype(DType dtype);

const char* device_name(Device device);     // "cpu", "cuda", "cuda_host"
bool parse_device(const std::string& name, Device* out);
// Whether the CPU may read and write the memory (cpu, cuda_host).
inline bool host_visible(Device device) { return device != Device::kCuda; }

const char* format_name(PixelFormat format);  // GStreamer's names; "" for kNone
bool parse_format(const std::string& name, PixelFormat* out);
// Bytes of a pixel in the first plane: 3, 4, 3, 4, 1, ...; 1 for planar YUV; 0 for kNone.
int32_t format_channels(PixelFormat format);
// Planes of the format: 1 packed, 2 NV12/NV21, 3 I420; 0 for kNone.
int32_t format_planes(PixelFormat format);
const char* color_matrix_name(ops::ColorMatrix matrix);  // "bt601", "bt709", "bt2020" (GStreamer's)
const char* color_range_name(ops::ColorRange range);     // "limited", "full"

int64_t element_count(const Desc& desc);
// Bytes from the first element to one past the last (what a view of it must cover); 0 when
// the tensor has no element.
uint64_t span_bytes(const Desc& desc);
// Compact row-major strides for desc.shape.
void set_dense_strides(Desc* desc);
bool is_dense(const Desc& desc);
// A frame: [height, width, channels] uint8 of `format`, channels and pixels contiguous (the
// row pitch in strides[0], at least width × channels), with its planes if the format has
// several. What preprocess reads.
bool is_frame_layout(const Desc& desc);

// Plane `plane` of a planar frame as a tensor of its own: [rows, columns, bytes a sample]
// uint8 (NV12/NV21 chroma: [ceil(h/2), ceil(w/2), 2]; I420 U and V: [ceil(h/2), ceil(w/2), 1]),
// strides [pitch, bytes a sample, 1], no format. False when `frame` has no such plane.
bool plane_view(const Desc& frame, int32_t plane, Desc* out);

// What preprocess reads of a frame (is_frame_layout): its planes, matrix and range.
ops::ImageView image_view(const Desc& frame);

// "cuda:0", "cpu"
std::string describe_device(Device device, int32_t device_id);

}  // namespace dsnode::tensor

#endif
