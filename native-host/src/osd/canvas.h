// The pixels an overlay draws on: one 8-bit frame in host memory, packed RGB-family or planar
// 4:2:0 YUV, and the blending every drawing primitive ends in. No Cairo, Node or GStreamer here.
//
// Colours are blended over the frame ("source over"): dst = dst + (src - dst) × alpha × coverage,
// per colour channel, in 8-bit fixed point. The alpha/x byte of 4-byte frames is left as it is:
// the overlay changes colours only, as nvdsosd does on RGBA.
//
// YUV frames (NV12, NV21, I420, as nvdsosd draws on NV12): the paint is converted to Y'CbCr
// (the frame's matrix and range) and blended per pixel like a packed frame's, Y in the frame,
// U and V in a per-pixel copy of the chroma of each 2×2 block drawing touches (made from the
// block's sample when first touched); finish() writes each touched block's sample as the mean
// of its pixels there. So a block takes exactly the mean chroma of what its four pixels became,
// as a picture drawn in RGB and then converted would, whatever primitives covered which pixel;
// untouched samples are never written.
#ifndef DSNODE_OSD_CANVAS_H
#define DSNODE_OSD_CANVAS_H

#include <cstdint>
#include <vector>

namespace dsnode::osd {

// GStreamer's names for the formats the overlay draws on.
enum class PixelFormat : int32_t {
  kRGB = 0, kRGBA = 1, kBGR = 2, kBGRx = 3, kRGBx = 4, kBGRA = 5, kARGB = 6, kABGR = 7,
  kNV12 = 8, kNV21 = 9, kI420 = 10,
};

// One frame. `stride` is the distance in bytes between the starts of two rows.
struct Image {
  uint8_t *data = nullptr;  // packed pixels, or the Y plane
  int32_t width = 0;
  int32_t height = 0;
  int64_t stride = 0;
  PixelFormat format = PixelFormat::kRGB;
  // YUV: chroma[0] is the U,V (NV21: V,U) pair plane of NV12/NV21 or the U plane of I420, with
  // chroma[1] I420's V plane; ceil(height / 2) rows of ceil(width / 2) samples, chroma_stride
  // bytes apart. kr, kb: the matrix (BT.601 0.299, 0.114; BT.709 0.2126, 0.0722; BT.2020
  // 0.2627, 0.0593); full_range: Y'CbCr in 0..255 rather than 16..235 / 16..240.
  uint8_t *chroma[2] = {nullptr, nullptr};
  int64_t chroma_stride[2] = {0, 0};
  double kr = 0.299, kb = 0.114;
  bool full_range = false;
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
  ~Canvas() { finish(); }
  Canvas(const Canvas &) = delete;
  Canvas &operator=(const Canvas &) = delete;

  // YUV: writes the chroma of the blocks drawn on since the last call (the destructor does it
  // too). Nothing to do for packed frames.
  void finish();

  int32_t width() const { return image_.width; }
  int32_t height() const { return image_.height; }

  // Blends `paint` over the pixels [x0, x1) × [y0, y1), clipped to the frame. 64-bit
  // coordinates: callers pass boxes far outside the frame as they are.
  void fill(int64_t x0, int64_t y0, int64_t x1, int64_t y1, const Paint &paint);

  // Blends `paint` over the frame where `coverage` (placed with its top-left at x, y) covers
  // it, in proportion to the coverage; clipped to the frame.
  void blend(int64_t x, int64_t y, const Coverage &coverage, const Paint &paint);

  // One pixel, for masks; (x, y) must be inside the frame.
  void blend_pixel(int32_t x, int32_t y, const Paint &paint);

 private:
  // A paint as Y'CbCr for a YUV frame (red = Y, green = U, blue = V), alpha kept.
  Paint to_yuv(const Paint &paint) const;
  // YUV: pixel (x, y) (inside the frame) blended with a converted paint.
  void blend_yuv(int32_t x, int32_t y, uint32_t alpha, const Paint &yuv);
  uint8_t *chroma_sample(uint8_t *plane, int64_t stride, int32_t cx, int32_t cy) const {
    return plane + cy * stride + static_cast<int64_t>(cx) * chroma_step_;
  }
  static uint8_t blend_byte(uint8_t dst, uint8_t src, uint32_t alpha) {
    return static_cast<uint8_t>((dst * (256 - alpha) + src * alpha + 128) >> 8);
  }
  uint8_t *row(int32_t y) const { return image_.data + y * image_.stride; }
  // alpha: 0..256. Non-negative arithmetic: full alpha gives the paint exactly.
  void blend_at(uint8_t *pixel, uint32_t alpha, const Paint &paint) const {
    pixel[red_] = blend_byte(pixel[red_], paint.red, alpha);
    pixel[green_] = blend_byte(pixel[green_], paint.green, alpha);
    pixel[blue_] = blend_byte(pixel[blue_], paint.blue, alpha);
  }

  Image image_;
  int32_t channels_ = 3;
  int32_t red_ = 0, green_ = 1, blue_ = 2;  // byte offsets within a pixel; YUV: the Y plane's only byte
  bool yuv_ = false;
  uint8_t *u_ = nullptr, *v_ = nullptr;     // YUV: first U and V sample
  int64_t u_stride_ = 0, v_stride_ = 0;
  int32_t chroma_step_ = 1;                 // bytes between two U (V) samples of a row
  mutable Paint last_paint_, last_yuv_;     // to_yuv's last conversion (masks blend pixel by pixel)
  mutable bool converted_ = false;
  // YUV: U,V of every pixel of the touched blocks (2 bytes a pixel, frame-sized, written only
  // in touched blocks; the drawing thread's buffer, kept from frame to frame rather than
  // allocated per frame), and which blocks those are.
  uint8_t *chroma_pixels_ = nullptr;
  std::vector<uint64_t> touched_;           // one bit per block, row-major, blocks_x_ a row
  std::vector<int32_t> touched_list_;       // the touched blocks, in touch order
  int32_t blocks_x_ = 0;
};

}  // namespace dsnode::osd

#endif
