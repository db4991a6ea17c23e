// What both implementations compute from, so that they agree bit for bit: per-frame sampling
// descriptors and per-channel normalisation constants (built once on the host, transform.cpp),
// and the per-pixel maths as inline functions compiled by both g++ and nvcc.
//
// Both compilers must keep a × b + c as two roundings: the CPU sources build with
// -ffp-contract=off and the CUDA source with --fmad=false (native-host/CMakeLists.txt). A fused
// multiply-add on one side only moves results by an ulp, which the GPU test would report.
#ifndef DSNODE_OPS_SAMPLING_H
#define DSNODE_OPS_SAMPLING_H

#include <cstddef>
#include <cstdint>

#include "ops/ops.h"

#if defined(__CUDACC__)
#define DSNODE_OPS_HOST_DEVICE __host__ __device__ __forceinline__
#else
#define DSNODE_OPS_HOST_DEVICE inline
#endif

namespace dsnode::ops::detail {

// What a pixel format is (params.cpp holds the table, one row per PixelFormat).
struct FormatFacts {
  const char *name;         // GStreamer's
  uint8_t bytes_per_pixel;  // of the first plane
  uint8_t planes;
  uint8_t rgb_offset[3];    // packed: byte of red, green, blue within a pixel
};
const FormatFacts *format_facts(PixelFormat format);  // null outside the enum

// No YUV conversion: a packed frame (FrameSampling::yuv).
constexpr uint8_t kPackedPixels = 0xff;

// One frame as the resampler sees it. 80 bytes: 40 of them (and the YUV table) fit in a
// kernel's 4 KiB of parameters, which is why preprocess_cuda launches once per 40 frames.
struct FrameSampling {
  const uint8_t *data;            // packed pixels, or the Y plane
  const uint8_t *u, *v;           // YUV: first U and V sample (NV12/NV21: within the pair plane)
  int32_t width, height, pitch;
  int32_t u_pitch, v_pitch;
  int32_t pad_x, pad_y, resized_width, resized_height;
  float ratio_x, ratio_y;  // source side / resized side, divided in float32
  uint8_t bytes_per_pixel;
  // Packed: byte of output channel c within a pixel. YUV: 0, 1, 2 for R, G, B.
  uint8_t channel_offset[3];
  uint8_t chroma_step;  // YUV: bytes from one U (V) sample to the next: 2 interleaved, 1 planar
  uint8_t yuv;          // YUV: the row of the YUV table (yuv_table_index); kPackedPixels otherwise
  uint8_t chroma_phase_x, chroma_phase_y;  // YUV: ImageView's (a crop from an odd column/row)
};
static_assert(sizeof(FrameSampling) == 80, "FrameSampling is packed into kernel parameters");

// R = Y' + red_v × V', G = Y' − green_u × U' − green_v × V', B = Y' + blue_u × U', with
// Y' = (Y − y_offset) × y_scale, U' = (U − 128) × chroma_scale, V' likewise, all in 0..255 units.
struct YuvCoefficients {
  float y_offset, y_scale, chroma_scale;
  float red_v, green_u, green_v, blue_u;
};
// One row per matrix and range: BT.601 limited, BT.601 full, BT.709 limited, ..., BT.2020 full.
constexpr int32_t kYuvTableSize = 6;
inline int32_t yuv_table_index(ColorMatrix matrix, ColorRange range) {
  return static_cast<int32_t>(matrix) * 2 + static_cast<int32_t>(range);
}
// The table both implementations convert with (transform.cpp), computed in double from the
// matrices' Kr and Kb, rounded once to float.
void build_yuv_table(YuvCoefficients (&table)[kYuvTableSize]);

// out[c] = value × alpha[c] + beta[c], value the interpolated pixel (0..255). uint8 output:
// alpha = 1, beta = 0. pad[c] is what a padding pixel becomes (already normalised).
struct ChannelMaths {
  float alpha[3];
  float beta[3];
  float pad[3];
};

FrameSampling build_sampling(const ImageView &frame, const FrameTransform &transform, const PreprocessParams &params);
ChannelMaths build_channel_maths(const PreprocessParams &params);

// The two source pixels and the weight of the second for output index `dst` on one axis:
// src = (dst − pad + 0.5) × ratio − 0.5, clamped to [0, size − 1]; i0 = floor(src),
// i1 = min(i0 + 1, size − 1), weight = src − i0 (exact in float32).
struct Tap {
  int32_t i0;
  int32_t i1;
  float weight;
};

DSNODE_OPS_HOST_DEVICE Tap source_tap(int32_t dst, int32_t pad, int32_t size, float ratio) {
  float src = (static_cast<float>(dst - pad) + 0.5f) * ratio - 0.5f;
  const float last = static_cast<float>(size - 1);
  src = src < 0.0f ? 0.0f : (src > last ? last : src);
  Tap tap;
  tap.i0 = static_cast<int32_t>(src);
  tap.weight = src - static_cast<float>(tap.i0);
  tap.i1 = tap.i0 + 1 < size ? tap.i0 + 1 : size - 1;
  return tap;
}

// a + (b − a) × w: exact at w = 0 (returns a), so a zero-weight tap may be skipped unread.
DSNODE_OPS_HOST_DEVICE float lerp(float a, float b, float w) { return a + (b - a) * w; }

DSNODE_OPS_HOST_DEVICE float normalise(float value, float alpha, float beta) { return value * alpha + beta; }

// uint8 output: round half up (values are in 0..255, so no clamp is needed).
DSNODE_OPS_HOST_DEVICE uint8_t round_to_uint8(float value) { return static_cast<uint8_t>(static_cast<int32_t>(value + 0.5f)); }

// A converted colour value as an 8-bit frame holds it: clamped to 0..255, rounded half up.
DSNODE_OPS_HOST_DEVICE float to_whole_8bit(float value) {
  value = value < 0.0f ? 0.0f : (value > 255.0f ? 255.0f : value);
  return static_cast<float>(static_cast<int32_t>(value + 0.5f));
}

// Pixel (x, y) of a YUV frame as R, G, B (rgb[0..2]): its Y, the chroma sample ((x + phase) / 2,
// (y + phase) / 2),
// converted by `k`. Both implementations call this, so the conversion is the same bits.
DSNODE_OPS_HOST_DEVICE void yuv_pixel(const FrameSampling &frame, const YuvCoefficients &k, int32_t x, int32_t y,
    float (&rgb)[3]) {
  const float luma = (static_cast<float>(frame.data[static_cast<ptrdiff_t>(y) * frame.pitch + x]) - k.y_offset) * k.y_scale;
  const int32_t chroma_x = ((x + frame.chroma_phase_x) >> 1) * frame.chroma_step;
  const int32_t chroma_y = (y + frame.chroma_phase_y) >> 1;
  const float u = (static_cast<float>(frame.u[static_cast<ptrdiff_t>(chroma_y) * frame.u_pitch + chroma_x]) - 128.0f) *
      k.chroma_scale;
  const float v = (static_cast<float>(frame.v[static_cast<ptrdiff_t>(chroma_y) * frame.v_pitch + chroma_x]) - 128.0f) *
      k.chroma_scale;
  rgb[0] = to_whole_8bit(luma + k.red_v * v);
  rgb[1] = to_whole_8bit(luma - k.green_u * u - k.green_v * v);
  rgb[2] = to_whole_8bit(luma + k.blue_u * u);
}

// The bilinear sample of output channel `channel` (0..2: R, G, B before channel order) between
// four converted pixels, in the order the packed path interpolates: columns, then rows.
DSNODE_OPS_HOST_DEVICE float lerp_quad(const float (&top_left)[3], const float (&top_right)[3],
    const float (&bottom_left)[3], const float (&bottom_right)[3], int channel, float weight_x, float weight_y) {
  const float top = lerp(top_left[channel], top_right[channel], weight_x);
  const float bottom = lerp(bottom_left[channel], bottom_right[channel], weight_x);
  return lerp(top, bottom, weight_y);
}

}  // namespace dsnode::ops::detail

#endif
