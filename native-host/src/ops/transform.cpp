// Frame ↔ network geometry: the letterbox/stretch transform, box mapping, and the per-frame
// sampling descriptors and channel constants both implementations run from.
#include <algorithm>
#include <cmath>

#include "ops/ops.h"
#include "ops/sampling.h"

namespace dsnode::ops {

FrameTransform compute_transform(int32_t source_width, int32_t source_height, const PreprocessParams &params) {
  FrameTransform transform;
  transform.source_width = source_width;
  transform.source_height = source_height;
  if (params.mode == ResizeMode::kStretch) {
    transform.resized_width = params.out_width;
    transform.resized_height = params.out_height;
  } else {
    // In double, so that the limiting side lands on the output size exactly (w × (out/w)).
    const double factor = std::min(static_cast<double>(params.out_width) / source_width,
        static_cast<double>(params.out_height) / source_height);
    transform.resized_width =
        static_cast<int32_t>(std::clamp<long>(std::lround(source_width * factor), 1, params.out_width));
    transform.resized_height =
        static_cast<int32_t>(std::clamp<long>(std::lround(source_height * factor), 1, params.out_height));
    if (params.center) {
      transform.pad_x = static_cast<float>((params.out_width - transform.resized_width) / 2);
      transform.pad_y = static_cast<float>((params.out_height - transform.resized_height) / 2);
    }
  }
  transform.scale_x = static_cast<float>(static_cast<double>(transform.resized_width) / source_width);
  transform.scale_y = static_cast<float>(static_cast<double>(transform.resized_height) / source_height);
  return transform;
}

Point network_to_frame(const FrameTransform &transform, Point point) {
  return {(point.x - transform.pad_x) / transform.scale_x, (point.y - transform.pad_y) / transform.scale_y};
}

Point frame_to_network(const FrameTransform &transform, Point point) {
  return {point.x * transform.scale_x + transform.pad_x, point.y * transform.scale_y + transform.pad_y};
}

Box network_to_frame(const FrameTransform &transform, const Box &box) {
  const Point top_left = network_to_frame(transform, Point{box.left, box.top});
  const Point bottom_right = network_to_frame(transform, Point{box.left + box.width, box.top + box.height});
  return {top_left.x, top_left.y, bottom_right.x - top_left.x, bottom_right.y - top_left.y};
}

Box frame_to_network(const FrameTransform &transform, const Box &box) {
  const Point top_left = frame_to_network(transform, Point{box.left, box.top});
  const Point bottom_right = frame_to_network(transform, Point{box.left + box.width, box.top + box.height});
  return {top_left.x, top_left.y, bottom_right.x - top_left.x, bottom_right.y - top_left.y};
}

Box clip_to_frame(const FrameTransform &transform, const Box &box) {
  const float width = static_cast<float>(transform.source_width);
  const float height = static_cast<float>(transform.source_height);
  const float left = std::clamp(box.left, 0.0f, width);
  const float top = std::clamp(box.top, 0.0f, height);
  const float right = std::clamp(box.left + box.width, 0.0f, width);
  const float bottom = std::clamp(box.top + box.height, 0.0f, height);
  return {left, top, std::max(right - left, 0.0f), std::max(bottom - top, 0.0f)};
}

LumaWeights luma_weights(ColorMatrix matrix) {
  switch (matrix) {
    case ColorMatrix::kBT709: return {0.2126, 0.0722};
    case ColorMatrix::kBT2020: return {0.2627, 0.0593};
    case ColorMatrix::kBT601: break;
  }
  return {0.299, 0.114};
}

namespace detail {

FrameSampling build_sampling(const ImageView &frame, const FrameTransform &transform, const PreprocessParams &params) {
  FrameSampling sampling{};
  sampling.data = frame.data;
  sampling.width = frame.width;
  sampling.height = frame.height;
  sampling.pitch = frame.pitch;
  sampling.pad_x = static_cast<int32_t>(transform.pad_x);
  sampling.pad_y = static_cast<int32_t>(transform.pad_y);
  sampling.resized_width = transform.resized_width;
  sampling.resized_height = transform.resized_height;
  sampling.ratio_x = static_cast<float>(frame.width) / static_cast<float>(transform.resized_width);
  sampling.ratio_y = static_cast<float>(frame.height) / static_cast<float>(transform.resized_height);
  sampling.bytes_per_pixel = static_cast<uint8_t>(bytes_per_pixel(frame.format));
  sampling.yuv = kPackedPixels;
  // Where red, green and blue come from: bytes within a packed pixel, or the converted R, G, B.
  const FormatFacts &facts = *format_facts(frame.format);
  uint8_t red = facts.rgb_offset[0], green = facts.rgb_offset[1], blue = facts.rgb_offset[2];
  if (is_yuv(frame.format)) {
    red = 0, green = 1, blue = 2;
    sampling.yuv = static_cast<uint8_t>(yuv_table_index(frame.matrix, frame.range));
    const bool planar = frame.format == PixelFormat::kI420;
    const bool swapped = frame.format == PixelFormat::kNV21;  // V,U pairs
    sampling.chroma_step = planar ? 1 : 2;
    sampling.u = planar ? frame.chroma[0] : frame.chroma[0] + (swapped ? 1 : 0);
    sampling.v = planar ? frame.chroma[1] : frame.chroma[0] + (swapped ? 0 : 1);
    sampling.u_pitch = frame.chroma_pitch[0];
    sampling.v_pitch = planar ? frame.chroma_pitch[1] : frame.chroma_pitch[0];
    sampling.chroma_phase_x = static_cast<uint8_t>(frame.chroma_phase_x);
    sampling.chroma_phase_y = static_cast<uint8_t>(frame.chroma_phase_y);
  }
  const bool bgr = params.out_order == ChannelOrder::kBGR;
  sampling.channel_offset[0] = bgr ? blue : red;
  sampling.channel_offset[1] = green;
  sampling.channel_offset[2] = bgr ? red : blue;
  return sampling;
}

void build_yuv_table(YuvCoefficients (&table)[kYuvTableSize]) {
  for (int32_t m = 0; m < 3; ++m) {
    const auto [kr, kb] = luma_weights(static_cast<ColorMatrix>(m));
    const double kg = 1.0 - kr - kb;
    for (int32_t r = 0; r < 2; ++r) {
      const bool full = r == static_cast<int32_t>(ColorRange::kFull);
      YuvCoefficients &k = table[yuv_table_index(static_cast<ColorMatrix>(m), static_cast<ColorRange>(r))];
      k.y_offset = full ? 0.0f : 16.0f;
      k.y_scale = static_cast<float>(full ? 1.0 : 255.0 / 219.0);
      k.chroma_scale = static_cast<float>(full ? 1.0 : 255.0 / 224.0);
      k.red_v = static_cast<float>(2.0 * (1.0 - kr));
      k.green_u = static_cast<float>(2.0 * kb * (1.0 - kb) / kg);
      k.green_v = static_cast<float>(2.0 * kr * (1.0 - kr) / kg);
      k.blue_u = static_cast<float>(2.0 * (1.0 - kb));
    }
  }
}

ChannelMaths build_channel_maths(const PreprocessParams &params) {
  ChannelMaths maths{};
  for (int c = 0; c < 3; ++c) {
    if (params.out_dtype == DType::kUint8 || c >= params.out_channels) {
      maths.alpha[c] = 1.0f;
      maths.beta[c] = 0.0f;
    } else {
      // (p × scale − mean) / std as one multiply and one add per value.
      maths.alpha[c] = params.scale / params.std[c];
      maths.beta[c] = -params.mean[c] / params.std[c];
    }
    maths.pad[c] = normalise(params.pad_value, maths.alpha[c], maths.beta[c]);
  }
  return maths;
}

}  // namespace detail

}  // namespace dsnode::ops
