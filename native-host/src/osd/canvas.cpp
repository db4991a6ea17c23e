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
    case PixelFormat::kRGBA: channels_ = 4; red_ = 0; green_ = 1; blue_ = 2; break;
    case PixelFormat::kBGRx: channels_ = 4; red_ = 2; green_ = 1; blue_ = 0; break;
  }
}

void Canvas::fill(int64_t x0, int64_t y0, int64_t x1, int64_t y1, const Paint &paint) {
  if (!paint.visible()) return;
  const int32_t left = static_cast<int32_t>(std::clamp<int64_t>(x0, 0, image_.width));
  const int32_t right = static_cast<int32_t>(std::clamp<int64_t>(x1, 0, image_.width));
  const int32_t top = static_cast<int32_t>(std::clamp<int64_t>(y0, 0, image_.height));
  const int32_t bottom = static_cast<int32_t>(std::clamp<int64_t>(y1, 0, image_.height));
  for (int32_t y = top; y < bottom; ++y) {
    uint8_t *pixel = row(y) + static_cast<int64_t>(left) * channels_;
    for (int32_t x = left; x < right; ++x, pixel += channels_) blend_at(pixel, paint.alpha, paint);
  }
}

void Canvas::blend(int64_t x, int64_t y, const Coverage &coverage, const Paint &paint) {
  if (!paint.visible()) return;
  const int64_t left = std::max<int64_t>(x, 0), right = std::min<int64_t>(x + coverage.width, image_.width);
  const int64_t top = std::max<int64_t>(y, 0), bottom = std::min<int64_t>(y + coverage.height, image_.height);
  for (int64_t frame_y = top; frame_y < bottom; ++frame_y) {
    const uint8_t *cover = coverage.data + (frame_y - y) * coverage.pitch + (left - x);
    uint8_t *pixel = row(static_cast<int32_t>(frame_y)) + left * channels_;
    for (int64_t frame_x = left; frame_x < right; ++frame_x, ++cover, pixel += channels_) {
      if (*cover == 0) continue;
      // coverage 255 × alpha 256 → 256: a fully covered pixel gets the paint exactly.
      blend_at(pixel, (paint.alpha * *cover + 127) / 255, paint);
    }
  }
}

}  // namespace dsnode::osd
