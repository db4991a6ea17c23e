// What both implementations compute from, so that they agree bit for bit: per-frame sampling
// descriptors and per-channel normalisation constants (built once on the host, transform.cpp),
// and the per-pixel maths as inline functions compiled by both g++ and nvcc.
//
// Both compilers must keep a × b + c as two roundings: the CPU sources build with
// -ffp-contract=off and the CUDA source with --fmad=false (native-host/CMakeLists.txt). A fused
// multiply-add on one side only moves results by an ulp, which the GPU test would report.
#ifndef DSNODE_OPS_SAMPLING_H
#define DSNODE_OPS_SAMPLING_H

#include <cstdint>

#include "ops/ops.h"

#if defined(__CUDACC__)
#define DSNODE_OPS_HOST_DEVICE __host__ __device__ __forceinline__
#else
#define DSNODE_OPS_HOST_DEVICE inline
#endif

namespace dsnode::ops::detail {

// One frame as the resampler sees it. 48 bytes: 64 of them fit in a kernel's 4 KiB of
// parameters, which is why preprocess_cuda launches once per 64 frames.
struct FrameSampling {
  const uint8_t *data;
  int32_t width, height, pitch;
  int32_t pad_x, pad_y, resized_width, resized_height;
  float ratio_x, ratio_y;  // source side / resized side, divided in float32
  uint8_t bytes_per_pixel;
  uint8_t channel_offset[3];  // byte of output channel c within a pixel
};
static_assert(sizeof(FrameSampling) == 48, "FrameSampling is packed into kernel parameters");

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

}  // namespace dsnode::ops::detail

#endif
