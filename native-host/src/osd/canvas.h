// The pixels an overlay draws on: one packed 8-bit RGB-family frame in host memory, and the
// blending every drawing primitive ends in. No Cairo, Node or GStreamer here.
//
// Colours are blended over the frame ("source over"): dst = dst + (src - dst) × alpha × coverage,
// per colour channel, in 8-bit fixed point. The alpha/x byte of RGBA and BGRx frames is left
// as it is: the overlay changes colours only, as nvdsosd does on RGBA.
#ifndef DSNODE_OSD_CANVAS_H
#define DSNODE_OSD_CANVAS_H

#include <cstdint>

namespace dsnode::osd {

// GStreamer's names for the packed formats the overlay draws on.
enum class PixelFormat : int32_t { kRGB = 0, kRGBA = 1, kBGR = 2, kBGRx = 3 };

// One frame. `stride` is the distance in bytes between the starts of two rows.
struct Image {
  uint8_t *data = nullptr;
  int32_t width = 0;
  int32_t height = 0;
  int64_t stride = 0;
  PixelFormat format = PixelFormat::kRGB;
};

// A colour ready to blend: 8-bit components and an alpha from 0 (invisible) to 256 (opaque).
struct Paint {
  uint8_t red = 0, green = 0, blue = 0;
  uint32_t alpha = 256;
  bool visible() const { return alpha != 0; }
};

// Components from 0 to 1 (callers validate them), rounded to 8 bits; alpha scaled by `opacity`.
Paint make_paint(double red, double green, double blue, double alpha, double opacity = 1.0);

// An 8-bit coverage map (0: untouched, 255: fully covered), as Cairo's A8 surfaces hold it.
struct Coverage {
  const uint8_t *data = nullptr;
  int32_t width = 0;
  int32_t height = 0;
  int32_t pitch = 0;
};

class Canvas {
 public:
  explicit Canvas(const Image &image);

  int32_t width() const { return image_.width; }
  int32_t height() const { return image_.height; }

  // Blends `paint` over the pixels [x0, x1) × [y0, y1), clipped to the frame. 64-bit
  // coordinates: callers pass boxes far outside the frame as they are.
  void fill(int64_t x0, int64_t y0, int64_t x1, int64_t y1, const Paint &paint);

  // Blends `paint` over the frame where `coverage` (placed with its top-left at x, y) covers
  // it, in proportion to the coverage; clipped to the frame.
  void blend(int64_t x, int64_t y, const Coverage &coverage, const Paint &paint);

  // One pixel, for masks; (x, y) must be inside the frame.
  void blend_pixel(int32_t x, int32_t y, const Paint &paint) { blend_at(row(y) + x * channels_, paint.alpha, paint); }

 private:
  uint8_t *row(int32_t y) const { return image_.data + y * image_.stride; }
  // alpha: 0..256. Non-negative arithmetic: full alpha gives the paint exactly.
  void blend_at(uint8_t *pixel, uint32_t alpha, const Paint &paint) const {
    const uint32_t keep = 256 - alpha;
    pixel[red_] = static_cast<uint8_t>((pixel[red_] * keep + paint.red * alpha + 128) >> 8);
    pixel[green_] = static_cast<uint8_t>((pixel[green_] * keep + paint.green * alpha + 128) >> 8);
    pixel[blue_] = static_cast<uint8_t>((pixel[blue_] * keep + paint.blue * alpha + 128) >> 8);
  }

  Image image_;
  int32_t channels_ = 3;
  int32_t red_ = 0, green_ = 1, blue_ = 2;  // byte offsets within a pixel
};

}  // namespace dsnode::osd

#endif
