// The CPU overlay (osd/overlay.h) on a running call's frame (tensor_binding_internal.h).
#include "binding/tensor_binding_internal.h"

#include <algorithm>
#include <iterator>
#include <string>

#include "osd/overlay.h"

namespace dsnode::tensorbind {

namespace {

// The frame as the overlay draws on it; false for a format it does not draw on (GRAY8).
bool overlay_image(const Desc& desc, osd::Image* image) {
  struct Row {
    PixelFormat from;
    osd::PixelFormat to;
  };
  constexpr Row kFormats[] = {
      {PixelFormat::kRGB, osd::PixelFormat::kRGB}, {PixelFormat::kRGBA, osd::PixelFormat::kRGBA},
      {PixelFormat::kBGR, osd::PixelFormat::kBGR}, {PixelFormat::kBGRx, osd::PixelFormat::kBGRx},
      {PixelFormat::kRGBx, osd::PixelFormat::kRGBx}, {PixelFormat::kBGRA, osd::PixelFormat::kBGRA},
      {PixelFormat::kARGB, osd::PixelFormat::kARGB}, {PixelFormat::kABGR, osd::PixelFormat::kABGR},
      {PixelFormat::kNV12, osd::PixelFormat::kNV12}, {PixelFormat::kNV21, osd::PixelFormat::kNV21},
      {PixelFormat::kI420, osd::PixelFormat::kI420},
  };
  const Row* row = std::find_if(std::begin(kFormats), std::end(kFormats), [&](const Row& r) { return r.from == desc.format; });
  if (row == std::end(kFormats)) return false;
  image->format = row->to;
  image->data = desc.first();
  image->height = static_cast<int32_t>(desc.shape[0]);
  image->width = static_cast<int32_t>(desc.shape[1]);
  image->stride = desc.strides[0];
  for (int32_t p = 1; p < desc.plane_count; ++p) {
    image->chroma[p - 1] = static_cast<uint8_t*>(desc.data) + desc.planes[p].byte_offset;
    image->chroma_stride[p - 1] = desc.planes[p].pitch;
  }
  const ops::LumaWeights weights = ops::luma_weights(desc.color_matrix);
  image->kr = weights.kr;
  image->kb = weights.kb;
  image->full_range = desc.color_range == ops::ColorRange::kFull;
  return true;
}

}  // namespace

// drawOverlay(callId, frameIndex, options): draws frame `frameIndex`'s objects and display
// metas (osd/overlay.h) on its pixels, in place, on the calling (JS) thread. options: the TS
// side's checked OverlayOptions (booleans). Returns what was drawn.
napi_value draw_overlay(napi_env env, napi_callback_info info) {
  Args args(env, info);
  uint32_t call_id = 0, frame_index = 0;
  if (!args.ok || !metabind::read_int<uint32_t>(env, args[0], FieldName("callId"), &call_id) ||
      !metabind::read_int<uint32_t>(env, args[1], FieldName("frameIndex"), &frame_index) ||
      !metabind::read_object(env, args[2], FieldName("options"))) {
    return nullptr;
  }
  osd::OverlayOptions options;
  const std::pair<const char*, bool*> switches[] = {
      {"boxes", &options.boxes}, {"text", &options.text}, {"masks", &options.masks}, {"displayMeta", &options.display_meta}};
  for (const auto& [key, flag] : switches) {
    napi_value value = nullptr;
    const std::string name = std::string("options.") + key;
    if (!get_property(env, args[2], key, &value) || !metabind::read_bool(env, value, FieldName(name.c_str()), flag)) return nullptr;
  }
  metabind::LiveCall call(env, call_id, "FrameMeta");
  if (!call) return nullptr;
  meta::Batch* batch = call.batch();
  if (batch == nullptr || frame_index >= batch->num_frames()) {
    return throw_error(env, ErrorKind::kRange, "Expected a frame index below " + std::to_string(batch != nullptr ? batch->num_frames() : 0) +
        " for drawOverlay but received " + std::to_string(frame_index));
  }
  const meta::FrameHandle frame = batch->frame_at(frame_index);
  meta::FrameFields fields;
  batch->read_frame(frame, &fields);
  tensor::FrameMapping* mapping = nullptr;
  Desc desc;
  if (!call_frame(env, call, fields.batch_id, "drawOverlay", &mapping, &desc)) return nullptr;
  if (!tensor::host_visible(desc.device)) {
    return throw_tensor_error(env, "drawOverlay draws on frames in host memory but received " +
        tensor::describe_device(desc.device, desc.device_id) + " memory (" + std::string(call.stream() != nullptr ? call.stream()->caps_string : "") +
        "): on DeepStream use nvdsosd, or convert to system memory first (nvvideoconvert ! video/x-raw,format=RGBA)");
  }
  osd::Image image;
  if (!overlay_image(desc, &image)) {
    return throw_tensor_error(env, std::string("drawOverlay draws on packed RGB-family frames (RGB, BGR, RGBA, BGRA, ARGB, ABGR, "
        "RGBx, BGRx) and on NV12, NV21 and I420 but received ") + tensor::format_name(desc.format) +
        ": put videoconvert ! video/x-raw,format=RGBA before the element");
  }
  osd::OverlayStats stats;
  const meta::Status status = osd::draw_frame_overlay(*batch, frame, image, options,
      "frameItems[" + std::to_string(frame_index) + "]", &stats);
  if (!status.ok()) return metabind::throw_status(env, status);
  metabind::ObjectBuilder out(env);
  out.number("objects", stats.objects).number("boxes", stats.boxes).number("labels", stats.labels)
      .number("masks", stats.masks).number("rects", stats.rects).number("texts", stats.texts)
      .number("lines", stats.lines).number("arrows", stats.arrows).number("circles", stats.circles);
  return out.value();
}
}  // namespace dsnode::tensorbind
