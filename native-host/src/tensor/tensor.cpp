#include "tensor/tensor.h"

namespace dsnode::tensor {

namespace {

struct DTypeInfo {
  const char* name;
  size_t size;
  DLDataType dlpack;
};

constexpr DTypeInfo kDTypes[] = {
    {"uint8", 1, {kDLUInt, 8, 1}},   {"int8", 1, {kDLInt, 8, 1}},      {"int32", 4, {kDLInt, 32, 1}},
    {"int64", 8, {kDLInt, 64, 1}},   {"float16", 2, {kDLFloat, 16, 1}}, {"float32", 4, {kDLFloat, 32, 1}},
};

bool valid(DType dtype) {
  return static_cast<int32_t>(dtype) >= 0 && static_cast<size_t>(dtype) < sizeof kDTypes / sizeof kDTypes[0];
}

}  // namespace

size_t dtype_size(DType dtype) { return valid(dtype) ? kDTypes[static_cast<int32_t>(dtype)].size : 0; }
const char* dtype_name(DType dtype) { return valid(dtype) ? kDTypes[static_cast<int32_t>(dtype)].name : "unknown"; }
DLDataType dlpack_dtype(DType dtype) {
  return valid(dtype) ? kDTypes[static_cast<int32_t>(dtype)].dlpack : DLDataType{kDLOpaqueHandle, 0, 0};
}

bool parse_dtype(const std::string& name, DType* out) {
  for (size_t i = 0; i < sizeof kDTypes / sizeof kDTypes[0]; ++i) {
    if (name == kDTypes[i].name) {
      *out = static_cast<DType>(i);
      return true;
    }
  }
  return false;
}

const char* device_name(Device device) {
  switch (device) {
    case Device::kCpu:
      return "cpu";
    case Device::kCuda:
      return "cuda";
    case Device::kCudaHost:
      return "cuda_host";
  }
  return "unknown";
}

bool parse_device(const std::string& name, Device* out) {
  for (Device device : {Device::kCpu, Device::kCuda, Device::kCudaHost}) {
    if (name == device_name(device)) {
      *out = device;
      return true;
    }
  }
  return false;
}

const char* format_name(PixelFormat format) {
  return format == PixelFormat::kNone ? "" : ops::pixel_format_name(format);
}

bool parse_format(const std::string& name, PixelFormat* out) {
  for (int32_t i = 0; i < ops::kPixelFormatCount; ++i) {
    if (name == ops::pixel_format_name(static_cast<PixelFormat>(i))) {
      *out = static_cast<PixelFormat>(i);
      return true;
    }
  }
  return false;
}

int32_t format_channels(PixelFormat format) { return ops::bytes_per_pixel(format); }
int32_t format_planes(PixelFormat format) { return ops::plane_count(format); }

const char* color_matrix_name(ops::ColorMatrix matrix) {
  switch (matrix) {
    case ops::ColorMatrix::kBT601: return "bt601";
    case ops::ColorMatrix::kBT709: return "bt709";
    case ops::ColorMatrix::kBT2020: return "bt2020";
  }
  return "unknown";
}
const char* color_range_name(ops::ColorRange range) { return range == ops::ColorRange::kFull ? "full" : "limited"; }

int64_t element_count(const Desc& desc) {
  int64_t count = 1;
  for (int32_t d = 0; d < desc.ndim; ++d) count *= desc.shape[d];
  return count;
}

uint64_t span_bytes(const Desc& desc) {
  if (element_count(desc) == 0) return 0;
  uint64_t last = 0;  // index of the last element, in elements
  for (int32_t d = 0; d < desc.ndim; ++d) last += static_cast<uint64_t>(desc.shape[d] - 1) * static_cast<uint64_t>(desc.strides[d]);
  return (last + 1) * dtype_size(desc.dtype);
}

void set_dense_strides(Desc* desc) {
  int64_t stride = 1;
  for (int32_t d = desc->ndim - 1; d >= 0; --d) {
    desc->strides[d] = stride;
    stride *= desc->shape[d];
  }
}

bool is_dense(const Desc& desc) {
  int64_t stride = 1;
  for (int32_t d = desc.ndim - 1; d >= 0; --d) {
    if (desc.shape[d] != 1 && desc.strides[d] != stride) return false;
    stride *= desc.shape[d];
  }
  return true;
}

bool is_frame_layout(const Desc& desc) {
  const int32_t channels = format_channels(desc.format);
  const int32_t planes = format_planes(desc.format);
  return channels > 0 && desc.dtype == DType::kUint8 && desc.ndim == 3 && desc.shape[2] == channels &&
         desc.strides[2] == 1 && desc.strides[1] == channels && desc.strides[0] >= desc.shape[1] * channels &&
         (planes == 1 || desc.plane_count == planes);
}

bool plane_view(const Desc& frame, int32_t plane, Desc* out) {
  if (plane < 0 || plane >= frame.plane_count) return false;
  const int64_t height = frame.shape[0], width = frame.shape[1];
  const int64_t samples = plane == 0 ? 1 : (frame.format == PixelFormat::kI420 ? 1 : 2);
  Desc view = frame;
  view.format = PixelFormat::kNone;
  view.plane_count = 0;
  view.shape[0] = plane == 0 ? height : (height + frame.chroma_phase_y + 1) / 2;
  view.shape[1] = plane == 0 ? width : (width + frame.chroma_phase_x + 1) / 2;
  view.shape[2] = samples;
  view.strides[0] = frame.planes[plane].pitch;
  view.strides[1] = samples;
  view.strides[2] = 1;
  view.byte_offset = frame.planes[plane].byte_offset;
  *out = view;
  return true;
}

ops::ImageView image_view(const Desc& frame) {
  ops::ImageView view;
  view.data = frame.first();
  view.width = static_cast<int32_t>(frame.shape[1]);
  view.height = static_cast<int32_t>(frame.shape[0]);
  view.pitch = static_cast<int32_t>(frame.strides[0]);
  view.format = frame.format;
  for (int32_t p = 1; p < frame.plane_count; ++p) {
    view.chroma[p - 1] = static_cast<const uint8_t*>(frame.data) + frame.planes[p].byte_offset;
    view.chroma_pitch[p - 1] = static_cast<int32_t>(frame.planes[p].pitch);
  }
  view.matrix = frame.color_matrix;
  view.range = frame.color_range;
  view.chroma_phase_x = frame.chroma_phase_x;
  view.chroma_phase_y = frame.chroma_phase_y;
  return view;
}

std::string describe_device(Device device, int32_t device_id) {
  if (device == Device::kCpu) return "cpu";
  return std::string(device_name(device)) + ":" + std::to_string(device_id);
}

}  // namespace dsnode::tensor
