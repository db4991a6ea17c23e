#include "osd/canvas.h"

#include <algorithm>
#include <cmath>

namespace dsnode::osd {

namespace {

uint8_t to_byte(double component) {
  return static_cast<uint8_t>(std::lround(std::clamp(component, 0.0, 1.0) * 255.0));
}

}  // namespace

Paint make_paint(double red, double green, double blue, double alpha, double opacity) {
  Paint paint;
  paint.red = to_byte(red);
  paint.green = to_byte(green);
  paint.blue = to_byte(blue);
  paint.alpha = static_cast<uint32_t>(std::lround(std::clamp(alpha * opacity, 0.0, 1.0) * 256.0));
  return paint;
}

Canvas::Canvas(const Image &image) : image_(image) {
  switch (image.format) {
    case PixelFormat::kRGB: channels_ = 3; red_ = 0; green_ = 1; blue_ = 2; break;
    case PixelFormat::kBGR: channels_ = 3; red_ = 2; green_ = 1; blue_ = 0; break;
    case PixelFormat::kRGBA: case PixelFormat::kRGBx: channels_ = 4; red_ = 0; green_ = 1; blue_ = 2; break;
    case PixelFormat::kBGRx: case PixelFormat::kBGRA: channels_ = 4; red_ = 2; green_ = 1; blue_ = 0; break;
    case PixelFormat::kARGB: channels_ = 4; red_ = 1; green_ = 2; blue_ = 3; break;
    case PixelFormat::kABGR: channels_ = 4; red_ = 3; green_ = 2; blue_ = 1; break;
    case PixelFormat::kNV12: case PixelFormat::kNV21: case PixelFormat::kI420: {
      yuv_ = true;
      channels_ = 1;
      red_ = green_ = blue_ = 0;
      const bool i420 = image.format == PixelFormat::kI420, nv21 = image.format == PixelFormat::kNV21;
      chroma_step_ = i420 ? 1 : 2;
      u_ = i420 ? image.chroma[0] : image.chroma[0] + (nv21 ? 1 : 0);
      v_ = i420 ? image.chroma[1] : image.chroma[0] + (nv21 ? 0 : 1);
      u_stride_ = image.chroma_stride[0];
      v_stride_ = i420 ? image.chroma_stride[1] : image.chroma_stride[0];
      blocks_x_ = (image.width + 1) / 2;
      break;
    }
  }
}

Paint Canvas::to_yuv(const Paint &paint) const {
  if (converted_ && paint.red == last_paint_.red && paint.green == last_paint_.green && paint.blue == last_paint_.blue) {
    Paint yuv = last_yuv_;
    yuv.alpha = paint.alpha;
    return yuv;
  }
  const double kr = image_.kr, kb = image_.kb, kg = 1.0 - kr - kb;
  const double luma = kr * paint.red + kg * paint.green + kb * paint.blue;
  const double u = (paint.blue - luma) / (2.0 * (1.0 - kb)), v = (paint.red - luma) / (2.0 * (1.0 - kr));
  const double y_scale = image_.full_range ? 1.0 : 219.0 / 255.0, c_scale = image_.full_range ? 1.0 : 224.0 / 255.0;
  const auto byte = [](double value) { return static_cast<uint8_t>(std::lround(std::clamp(value, 0.0, 255.0))); };
  Paint yuv = paint;
  yuv.red = byte((image_.full_range ? 0.0 : 16.0) + luma * y_scale);
  yuv.green = byte(128.0 + u * c_scale);
  yuv.blue = byte(128.0 + v * c_scale);
  last_paint_ = paint;
  last_yuv_ = yuv;
  converted_ = true;
  return yuv;
}

void Canvas::blend_yuv(int32_t x, int32_t y, uint32_t alpha, const Paint &yuv) {
  uint8_t *luma = row(y) + x;
  *luma = blend_byte(*luma, yuv.red, alpha);
  const int32_t cx = x >> 1, cy = y >> 1, block = cy * blocks_x_ + cx;
  if (chroma_pixels_ == nullptr) {
    thread_local std::vector<uint8_t> buffer;
    const size_t bytes = static_cast<size_t>(image_.width) * image_.height * 2;
    if (buffer.size() < bytes) buffer.resize(bytes);
    chroma_pixels_ = buffer.data();
    touched_.assign((static_cast<size_t>(blocks_x_) * ((image_.height + 1) / 2) + 63) / 64, 0);
  }
  uint64_t &word = touched_[static_cast<size_t>(block) >> 6];
  const uint64_t bit = uint64_t{1} << (block & 63);
  if ((word & bit) == 0) {
    // First touch: every in-frame pixel of the block starts with the block's sample.
    word |= bit;
    touched_list_.push_back(block);
    const uint8_t u = *chroma_sample(u_, u_stride_, cx, cy), v = *chroma_sample(v_, v_stride_, cx, cy);
    for (int32_t py = 2 * cy; py < std::min(2 * cy + 2, image_.height); ++py) {
      for (int32_t px = 2 * cx; px < std::min(2 * cx + 2, image_.width); ++px) {
        uint8_t *pixel = chroma_pixels_ + (static_cast<size_t>(py) * image_.width + px) * 2;
        pixel[0] = u;
        pixel[1] = v;
      }
    }
  }
  uint8_t *pixel = chroma_pixels_ + (static_cast<size_t>(y) * image_.width + x) * 2;
  pixel[0] = blend_byte(pixel[0], yuv.green, alpha);
  pixel[1] = blend_byte(pixel[1], yuv.blue, alpha);
}

void Canvas::finish() {
  for (const int32_t block : touched_list_) {
    const int32_t cx = block % blocks_x_, cy = block / blocks_x_;
    uint32_t u = 0, v = 0, count = 0;
    for (int32_t py = 2 * cy; py < std::min(2 * cy + 2, image_.height); ++py) {
      for (int32_t px = 2 * cx; px < std::min(2 * cx + 2, image_.width); ++px, ++count) {
        const uint8_t *pixel = chroma_pixels_ + (static_cast<size_t>(py) * image_.width + px) * 2;
        u += pixel[0];
        v += pixel[1];
      }
    }
    *chroma_sample(u_, u_stride_, cx, cy) = static_cast<uint8_t>((u + count / 2) / count);
    *chroma_sample(v_, v_stride_, cx, cy) = static_cast<uint8_t>((v + count / 2) / count);
    touched_[static_cast<size_t>(block) >> 6] &= ~(uint64_t{1} << (block & 63));
  }
  touched_list_.clear();
}

void Canvas::fill(int64_t x0, int64_t y0, int64_t x1, int64_t y1, const Paint &paint) {
  if (!paint.visible()) return;
  const int32_t left = static_cast<int32_t>(std::clamp<int64_t>(x0, 0, image_.width));
  const int32_t right = static_cast<int32_t>(std::clamp<int64_t>(x1, 0, image_.width));
  const int32_t top = static_cast<int32_t>(std::clamp<int64_t>(y0, 0, image_.height));
  const int32_t bottom = static_cast<int32_t>(std::clamp<int64_t>(y1, 0, image_.height));
  if (!yuv_) {
    for (int32_t y = top; y < bottom; ++y) {
      uint8_t *pixel = row(y) + static_cast<int64_t>(left) * channels_;
      for (int32_t x = left; x < right; ++x, pixel += channels_) blend_at(pixel, paint.alpha, paint);
    }
    return;
  }
  const Paint yuv = to_yuv(paint);
  for (int32_t y = top; y < bottom; ++y)
    for (int32_t x = left; x < right; ++x) blend_yuv(x, y, paint.alpha, yuv);
}

void Canvas::blend(int64_t x, int64_t y, const Coverage &coverage, const Paint &paint) {
  if (!paint.visible()) return;
  const int64_t left = std::max<int64_t>(x, 0), right = std::min<int64_t>(x + coverage.width, image_.width);
  const int64_t top = std::max<int64_t>(y, 0), bottom = std::min<int64_t>(y + coverage.height, image_.height);
  // coverage 255 × alpha 256 → 256: a fully covered pixel gets the paint exactly.
  const auto alpha_at = [&](int64_t frame_x, int64_t frame_y) -> uint32_t {
    const uint8_t cover = coverage.data[(frame_y - y) * coverage.pitch + (frame_x - x)];
    return (paint.alpha * cover + 127) / 255;
  };
  if (!yuv_) {
    for (int64_t frame_y = top; frame_y < bottom; ++frame_y) {
      const uint8_t *cover = coverage.data + (frame_y - y) * coverage.pitch + (left - x);
      uint8_t *pixel = row(static_cast<int32_t>(frame_y)) + left * channels_;
      for (int64_t frame_x = left; frame_x < right; ++frame_x, ++cover, pixel += channels_) {
        if (*cover == 0) continue;
        blend_at(pixel, (paint.alpha * *cover + 127) / 255, paint);
      }
    }
    return;
  }
  const Paint yuv = to_yuv(paint);
  for (int64_t frame_y = top; frame_y < bottom; ++frame_y) {
    for (int64_t frame_x = left; frame_x < right; ++frame_x) {
      if (const uint32_t alpha = alpha_at(frame_x, frame_y)) blend_yuv(static_cast<int32_t>(frame_x), static_cast<int32_t>(frame_y), alpha, yuv);
    }
  }
}

void Canvas::blend_pixel(int32_t x, int32_t y, const Paint &paint) {
  if (!yuv_) {
    blend_at(row(y) + x * channels_, paint.alpha, paint);
    return;
  }
  blend_yuv(x, y, paint.alpha, to_yuv(paint));
}

}  // namespace dsnode::osd
