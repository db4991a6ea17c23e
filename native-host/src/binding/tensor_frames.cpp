// Frames of a running call (tensor_binding_internal.h): the first access maps the call's buffer
// (tensor/frame_access.h) and keeps the mapping as the call's attachment
// (meta_binding_internal.h), so it is unmapped when the call closes, after the views handed out
// over it are detached. `extract` hands a frame to JS.
#include "binding/tensor_binding_internal.h"

#include <memory>
#include <string>
#include <utility>

namespace dsnode::tensorbind {

namespace {

// The call's buffer, mapped for the rest of the call.
struct FrameAttachment final : metabind::CallAttachment {
  std::unique_ptr<tensor::FrameMapping> mapping;
};
constexpr int kFrameKey = 0;  // its address is the attachment's key

}  // namespace

tensor::FrameMapping* call_frames(napi_env env, metabind::LiveCall& call, const char* caller) {
  if (auto* attached = static_cast<FrameAttachment*>(call.attachment(&kFrameKey))) return attached->mapping.get();
  tensor::FrameError error;
  std::unique_ptr<tensor::FrameMapping> mapping = tensor::FrameMapping::open(call.buffer(), call.stream(), caller, &error);
  if (mapping == nullptr) {
    throw_frame_error(env, error);
    return nullptr;
  }
  auto attachment = std::make_unique<FrameAttachment>();
  tensor::FrameMapping* raw = mapping.get();
  attachment->mapping = std::move(mapping);
  call.attach(&kFrameKey, std::move(attachment));
  return raw;
}

bool call_frame(napi_env env, metabind::LiveCall& call, uint32_t batch_id, const char* caller,
    tensor::FrameMapping** mapping, Desc* desc) {
  *mapping = call_frames(env, call, caller);
  if (*mapping == nullptr) return false;
  const uint32_t num_frames = call.batch() != nullptr ? call.batch()->num_frames() : 0;
  tensor::FrameError error;
  if (!(*mapping)->frame(batch_id, num_frames, caller, desc, &error)) {
    throw_frame_error(env, error);
    return false;
  }
  return true;
}

namespace {

// The planes of a planar (4:2:0) frame narrowed to the region starting at (left, top): the Y
// plane moves as the frame does; each chroma plane moves to the sample covering the first pixel,
// and the phase says whether that pixel is the second of the sample's pair (odd column or row),
// so every pixel keeps the chroma sample it has in the whole frame.
void crop_planes(int64_t left, int64_t top, Desc* desc) {
  desc->planes[0].byte_offset = desc->byte_offset;
  const int64_t x = desc->chroma_phase_x + left, y = desc->chroma_phase_y + top;
  const int64_t sample_bytes = desc->format == tensor::PixelFormat::kI420 ? 1 : 2;
  for (int32_t p = 1; p < desc->plane_count; ++p) {
    desc->planes[p].byte_offset += static_cast<uint64_t>((y >> 1) * desc->planes[p].pitch + (x >> 1) * sample_bytes);
  }
  desc->chroma_phase_x = static_cast<int32_t>(x & 1);
  desc->chroma_phase_y = static_cast<int32_t>(y & 1);
}

}  // namespace

// A frame source may name a region of the frame (TensorHandle.crop): [left, top, width, height]
// in pixels, inside the frame. The descriptor (and a planar frame's planes) then starts at the
// region's first pixel and keeps the frame's strides, so every consumer (preprocess on the CPU or in CUDA, toHost, DLPack)
// reads the crop in place. TS checks the region first; this is the check C++ owes anyway.
bool apply_region(napi_env env, napi_value source, const char* name, Desc* desc) {
  napi_value region = nullptr;
  if (!get_property(env, source, "region", &region)) return false;
  return narrow_to_region(env, region, std::string(name) + ".region", desc);
}

// `region` (undefined: the whole frame) applied to `desc`; apply_region's work.
bool narrow_to_region(napi_env env, napi_value region, const std::string& region_name, Desc* desc) {
  napi_valuetype type = napi_undefined;
  if (napi_typeof(env, region, &type) != napi_ok) return false;
  if (type == napi_undefined) return true;
  int64_t values[tensor::kMaxDims] = {};
  int32_t count = 0;
  if (!read_dims(env, region, region_name, values, &count)) return false;
  const int64_t left = values[0], top = values[1], width = values[2], height = values[3];
  if (count != 4 || desc->ndim != 3 || width < 1 || height < 1 || left + width > desc->shape[1] ||
      top + height > desc->shape[0]) {
    throw_error(env, ErrorKind::kRange,
        "Expected [left, top, width, height] inside the frame (" + std::to_string(desc->shape[1]) + "x" +
            std::to_string(desc->shape[0]) + ") for " + region_name + " but received " +
            metabind::describe_value(env, region));
    return false;
  }
  const size_t element = tensor::dtype_size(desc->dtype);
  desc->byte_offset += static_cast<uint64_t>(top * desc->strides[0] + left * desc->strides[1]) * element;
  desc->shape[0] = height;
  desc->shape[1] = width;
  if (desc->plane_count > 0) crop_planes(left, top, desc);
  return true;
}

// extract(callId, batchId, region?): the frame of slot `batchId`, or the region of it a crop
// covers ([left, top, width, height]: TensorHandle.crop of a planar frame reads its planes here).
napi_value extract(napi_env env, napi_callback_info info) {
  Args args(env, info);
  uint32_t call_id = 0, batch_id = 0;
  if (!args.ok || !metabind::read_int<uint32_t>(env, args[0], FieldName("callId"), &call_id) ||
      !metabind::read_int<uint32_t>(env, args[1], FieldName("batchId"), &batch_id)) {
    return nullptr;
  }
  metabind::LiveCall call(env, call_id, "Buffer");
  if (!call) return nullptr;
  tensor::FrameMapping* mapping = nullptr;
  Desc desc;
  if (!call_frame(env, call, batch_id, "Buffer.extract", &mapping, &desc) ||
      !narrow_to_region(env, args[2], "TensorHandle.crop() region", &desc)) {
    return nullptr;
  }
  napi_value buffer = nullptr;
  size_t size = 0;
  if (mapping->host_range(desc, &size) && (buffer = call.view(desc.data, size)) == nullptr) return nullptr;
  return make_info(env, desc, buffer, nullptr);
}

// extractInto(callId, batchId, out): what extract(callId, batchId) describes, written as numbers
// into the Float64Array `out` (kFrameInfo*, tensor_binding_internal.h; the SDK reads them in
// native/tensor-binding.ts) instead of an object built property by property: building that
// object was most of an extract's cost. Returns the host view (extract's `buffer`), or undefined
// for device memory.
napi_value extract_into(napi_env env, napi_callback_info info) {
  Args args(env, info);
  uint32_t call_id = 0, batch_id = 0;
  double* out = nullptr;
  size_t length = 0;
  if (!args.ok || !metabind::read_int<uint32_t>(env, args[0], FieldName("callId"), &call_id) ||
      !metabind::read_int<uint32_t>(env, args[1], FieldName("batchId"), &batch_id) ||
      !metabind::read_typed_array(env, args[2], FieldName("out"), &out, &length)) {
    return nullptr;
  }
  if (length < kFrameInfoLength) {
    return throw_error(env, ErrorKind::kRange,
        "Expected a Float64Array of at least " + std::to_string(kFrameInfoLength) + " for out but received " +
            std::to_string(length));
  }
  metabind::LiveCall call(env, call_id, "Buffer");
  if (!call) return nullptr;
  tensor::FrameMapping* mapping = nullptr;
  Desc desc;
  if (!call_frame(env, call, batch_id, "Buffer.extract", &mapping, &desc)) return nullptr;
  write_frame_info(desc, out);
  size_t size = 0;
  if (mapping->host_range(desc, &size)) return call.view(desc.data, size);
  return metabind::make_undefined(env);
}
}  // namespace dsnode::tensorbind
