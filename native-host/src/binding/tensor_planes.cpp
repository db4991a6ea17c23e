// Planar frames (NV12, NV21, I420) in the tensor binding (tensor_binding_internal.h): the
// planes and colorimetry a frame's NativeTensorInfo carries, and the plane a frame source
// names ({ kind: "frame", ..., plane }), each plane a tensor of its own over the same memory.
#include "binding/tensor_binding_internal.h"

#include <string>

namespace dsnode::tensorbind {

bool add_planes(napi_env env, const Desc& desc, metabind::ObjectBuilder* info) {
  if (desc.plane_count == 0) return true;
  napi_value planes = nullptr;
  if (napi_create_array_with_length(env, static_cast<size_t>(desc.plane_count), &planes) != napi_ok) return false;
  for (int32_t p = 0; p < desc.plane_count; ++p) {
    Desc plane;
    tensor::plane_view(desc, p, &plane);
    metabind::ObjectBuilder entry(env);
    entry.set("shape", make_dims(env, plane.shape, plane.ndim))
        .set("strides", make_dims(env, plane.strides, plane.ndim))
        .number("byteOffset", static_cast<double>(plane.byte_offset))
        .number("byteLength", static_cast<double>(tensor::span_bytes(plane)));
    if (entry.value() == nullptr || napi_set_element(env, planes, static_cast<uint32_t>(p), entry.value()) != napi_ok) {
      return false;
    }
  }
  metabind::ObjectBuilder colorimetry(env);
  colorimetry.string("matrix", tensor::color_matrix_name(desc.color_matrix))
      .string("range", tensor::color_range_name(desc.color_range));
  info->set("planes", planes).set("colorimetry", colorimetry.value());
  return info->ok();
}

bool apply_plane(napi_env env, napi_value source, const char* name, Desc* desc) {
  napi_value plane_value = nullptr;
  if (!get_property(env, source, "plane", &plane_value)) return false;
  if (metabind::is_nullish(env, plane_value)) return true;  // the whole frame
  const std::string plane_name = std::string(name) + ".plane";
  uint32_t plane = 0;
  if (!metabind::read_int<uint32_t>(env, plane_value, FieldName(plane_name.c_str()), &plane)) return false;
  if (!tensor::plane_view(*desc, static_cast<int32_t>(plane), desc)) {
    throw_error(env, ErrorKind::kRange,
        "Expected a plane of the frame (it has " + std::to_string(desc->plane_count) + ") for " + plane_name +
            " but received " + std::to_string(plane));
    return false;
  }
  return true;
}

void write_frame_info(const Desc& desc, double* out) {
  // Shape, strides, byte offset and length: eight slots, laid out alike for the frame and each plane.
  const auto dims = [](const Desc& from, double* to) {
    for (int32_t d = 0; d < 3; ++d) {
      to[d] = d < from.ndim ? static_cast<double>(from.shape[d]) : 0;
      to[3 + d] = d < from.ndim ? static_cast<double>(from.strides[d]) : 0;
    }
    to[6] = static_cast<double>(from.byte_offset);
    to[7] = static_cast<double>(tensor::span_bytes(from));
  };
  const auto address = static_cast<uint64_t>(reinterpret_cast<uintptr_t>(desc.data));
  out[kFrameInfoDevice] = static_cast<double>(desc.device);
  out[kFrameInfoDeviceId] = desc.device_id;
  out[kFrameInfoDType] = static_cast<double>(desc.dtype);
  out[kFrameInfoFormat] = static_cast<double>(desc.format);
  out[kFrameInfoNdim] = desc.ndim;
  dims(desc, out + kFrameInfoShape);
  out[kFrameInfoDataHigh] = static_cast<double>(address >> 32);
  out[kFrameInfoDataLow] = static_cast<double>(address & 0xffffffffu);
  out[kFrameInfoPlaneCount] = desc.plane_count;
  out[kFrameInfoColorMatrix] = static_cast<double>(desc.color_matrix);
  out[kFrameInfoColorRange] = static_cast<double>(desc.color_range);
  for (int32_t p = 0; p < desc.plane_count; ++p) {
    Desc plane;
    tensor::plane_view(desc, p, &plane);
    dims(plane, out + kFrameInfoPlanes + static_cast<size_t>(p) * kFrameInfoPlaneStride);
  }
}

}  // namespace dsnode::tensorbind
