// preprocess_cuda: one kernel launch per 40 frames. A block makes one output row of one frame;
// each thread makes 4 neighbouring output pixels, every channel, and writes them as one vector
// per plane (NCHW) or per 4 elements (NHWC), so consecutive threads write consecutive memory.
//
// Reads: straight from global memory through __ldg, byte by byte; a block's threads sample
// neighbouring pixels of the same one or two source rows, so the sectors they share are
// fetched once into L1/L2. A source row or column with zero weight is not read at all (exact:
// lerp(a, b, 0) == a), so a 3:1 downscale reads a third of the rows and one pixel per tap.
//
// Frame descriptors travel as a __grid_constant__ kernel parameter (no device allocation, no
// copy, nothing shared between concurrent calls on different streams). The maths is
// sampling.h's, shared with the CPU; this file builds with --fmad=false to keep it bit-exact.
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <string>
#include <vector>

#include "ops/ops.h"
#include "ops/sampling.h"

namespace dsnode::ops {

namespace {

using detail::ChannelMaths;
using detail::FrameSampling;

constexpr int32_t kFramesPerLaunch = 40;
constexpr int32_t kPixelsPerThread = 4;
constexpr int32_t kMaxThreads = 256;

struct LaunchArgs {
  FrameSampling frames[kFramesPerLaunch];
  ChannelMaths maths;
  detail::YuvCoefficients yuv[detail::kYuvTableSize];  // sampling.h's table, as the CPU uses it
  void *out;             // first element of this launch's first frame
  int32_t out_width;
  int32_t out_height;
  bool vector_stores;    // out_width % 4 == 0 and `out` aligned to 4 elements
};
static_assert(sizeof(LaunchArgs) <= 4000, "kernel parameters are limited to 4 KiB");

template <typename T>
__device__ __forceinline__ T convert(float value);
template <>
__device__ __forceinline__ uint8_t convert<uint8_t>(float value) { return detail::round_to_uint8(value); }
template <>
__device__ __forceinline__ float convert<float>(float value) { return value; }
template <>
__device__ __forceinline__ __half convert<__half>(float value) { return __float2half_rn(value); }

// Four consecutive elements in one store (the caller guarantees the alignment).
__device__ __forceinline__ void store4(uint8_t *out, float a, float b, float c, float d) {
  *reinterpret_cast<uint32_t *>(out) = static_cast<uint32_t>(convert<uint8_t>(a)) |
      static_cast<uint32_t>(convert<uint8_t>(b)) << 8 | static_cast<uint32_t>(convert<uint8_t>(c)) << 16 |
      static_cast<uint32_t>(convert<uint8_t>(d)) << 24;
}
__device__ __forceinline__ void store4(float *out, float a, float b, float c, float d) {
  *reinterpret_cast<float4 *>(out) = make_float4(a, b, c, d);
}
__device__ __forceinline__ void store4(__half *out, float a, float b, float c, float d) {
  const uint32_t low = static_cast<uint32_t>(__half_as_ushort(__float2half_rn(a))) |
      static_cast<uint32_t>(__half_as_ushort(__float2half_rn(b))) << 16;
  const uint32_t high = static_cast<uint32_t>(__half_as_ushort(__float2half_rn(c))) |
      static_cast<uint32_t>(__half_as_ushort(__float2half_rn(d))) << 16;
  *reinterpret_cast<uint2 *>(out) = make_uint2(low, high);
}

__device__ __forceinline__ float load(const uint8_t *pointer) { return static_cast<float>(__ldg(pointer)); }

// Writes 4 pixels × kChannels values starting at column x of row y of one frame's output.
template <typename T, bool kNCHW, int kChannels>
__device__ __forceinline__ void store_pixels(T *frame_out, int32_t width, int32_t height, int32_t y, int32_t x,
    bool vector_stores, const float (&values)[kPixelsPerThread][kChannels]) {
  if (kNCHW) {
#pragma unroll
    for (int c = 0; c < kChannels; ++c) {
      T *plane_row = frame_out + (static_cast<size_t>(c) * height + y) * width + x;
      if (vector_stores) {
        store4(plane_row, values[0][c], values[1][c], values[2][c], values[3][c]);
      } else {
#pragma unroll
        for (int i = 0; i < kPixelsPerThread; ++i) {
          if (x + i < width) plane_row[i] = convert<T>(values[i][c]);
        }
      }
    }
  } else {
    T *pixels = frame_out + (static_cast<size_t>(y) * width + x) * kChannels;
    if (vector_stores) {
      // 4 × kChannels consecutive elements: kChannels stores of 4.
#pragma unroll
      for (int j = 0; j < kChannels; ++j) {
        const int k = 4 * j;
        store4(pixels + k, values[k / kChannels][k % kChannels], values[(k + 1) / kChannels][(k + 1) % kChannels],
            values[(k + 2) / kChannels][(k + 2) % kChannels], values[(k + 3) / kChannels][(k + 3) % kChannels]);
      }
    } else {
#pragma unroll
      for (int i = 0; i < kPixelsPerThread; ++i) {
        if (x + i >= width) break;
#pragma unroll
        for (int c = 0; c < kChannels; ++c) pixels[i * kChannels + c] = convert<T>(values[i][c]);
      }
    }
  }
}

// One output pixel of a YUV frame: the source pixels with a weight converted (sampling.h's
// yuv_pixel, as the CPU converts them) and interpolated; zero-weight ones are not read.
template <int kChannels>
__device__ __forceinline__ void yuv_sample(const FrameSampling &frame, const detail::YuvCoefficients &k,
    const ChannelMaths &maths, const detail::Tap &tap, const detail::Tap &row_tap, bool two_rows,
    float (&values)[kChannels]) {
  const bool two_columns = tap.weight != 0.0f;
  float top_left[3], top_right[3], bottom_left[3], bottom_right[3];
  detail::yuv_pixel(frame, k, tap.i0, row_tap.i0, top_left);
  if (two_columns) detail::yuv_pixel(frame, k, tap.i1, row_tap.i0, top_right);
  if (two_rows) {
    detail::yuv_pixel(frame, k, tap.i0, row_tap.i1, bottom_left);
    if (two_columns) detail::yuv_pixel(frame, k, tap.i1, row_tap.i1, bottom_right);
  }
#pragma unroll
  for (int c = 0; c < kChannels; ++c) {
    const int channel = frame.channel_offset[c];
    float value = two_columns ? detail::lerp(top_left[channel], top_right[channel], tap.weight) : top_left[channel];
    if (two_rows) {
      const float bottom =
          two_columns ? detail::lerp(bottom_left[channel], bottom_right[channel], tap.weight) : bottom_left[channel];
      value = detail::lerp(value, bottom, row_tap.weight);
    }
    values[c] = detail::normalise(value, maths.alpha[c], maths.beta[c]);
  }
}

// grid: (out_height, frames in this launch); block: up to 256 threads, 4 columns each, looping
// across rows wider than 1024. Reads as the file's header says. (Staging each source row in
// shared memory first was 1.4x slower on an H200: docs/internals/ops.md.)
template <typename T, bool kNCHW, int kChannels>
__global__ void __launch_bounds__(kMaxThreads) preprocess_kernel(const __grid_constant__ LaunchArgs args) {
  const int32_t y = static_cast<int32_t>(blockIdx.x);
  const FrameSampling &frame = args.frames[blockIdx.y];
  const ChannelMaths &maths = args.maths;
  const int32_t width = args.out_width, height = args.out_height;
  T *frame_out = static_cast<T *>(args.out) + static_cast<size_t>(blockIdx.y) * kChannels * height * width;
  const int32_t step = static_cast<int32_t>(blockDim.x) * kPixelsPerThread;

  if (y < frame.pad_y || y >= frame.pad_y + frame.resized_height) {
    float values[kPixelsPerThread][kChannels];
#pragma unroll
    for (int i = 0; i < kPixelsPerThread; ++i) {
#pragma unroll
      for (int c = 0; c < kChannels; ++c) values[i][c] = maths.pad[c];
    }
    for (int32_t x = static_cast<int32_t>(threadIdx.x) * kPixelsPerThread; x < width; x += step) {
      store_pixels<T, kNCHW, kChannels>(frame_out, width, height, y, x, args.vector_stores, values);
    }
    return;
  }

  const detail::Tap row_tap = detail::source_tap(y, frame.pad_y, frame.height, frame.ratio_y);
  const bool two_rows = row_tap.weight != 0.0f && row_tap.i1 != row_tap.i0;
  const uint8_t *top_row = frame.data + static_cast<ptrdiff_t>(row_tap.i0) * frame.pitch;
  const uint8_t *bottom_row = frame.data + static_cast<ptrdiff_t>(row_tap.i1) * frame.pitch;

  const int32_t pixel_bytes = frame.bytes_per_pixel;
  for (int32_t x = static_cast<int32_t>(threadIdx.x) * kPixelsPerThread; x < width; x += step) {
    float values[kPixelsPerThread][kChannels];
#pragma unroll
    for (int i = 0; i < kPixelsPerThread; ++i) {
      const int32_t column = x + i;
      if (column < frame.pad_x || column >= frame.pad_x + frame.resized_width) {
#pragma unroll
        for (int c = 0; c < kChannels; ++c) values[i][c] = maths.pad[c];
        continue;
      }
      const detail::Tap tap = detail::source_tap(column, frame.pad_x, frame.width, frame.ratio_x);
      if (frame.yuv != detail::kPackedPixels) {
        yuv_sample(frame, args.yuv[frame.yuv], maths, tap, row_tap, two_rows, values[i]);
        continue;
      }
      // A zero weight (exact sampling, e.g. a 3x downscale) reads one pixel: lerp is exact at
      // w = 0, so the result is the same bits. As for rows.
      const bool two_columns = tap.weight != 0.0f;
      const int32_t byte0 = tap.i0 * pixel_bytes, byte1 = tap.i1 * pixel_bytes;
#pragma unroll
      for (int c = 0; c < kChannels; ++c) {
        const int32_t offset = frame.channel_offset[c];
        const auto sample = [&](const uint8_t *row) {
          const float left = load(row + byte0 + offset);
          return two_columns ? detail::lerp(left, load(row + byte1 + offset), tap.weight) : left;
        };
        float value = sample(top_row);
        if (two_rows) value = detail::lerp(value, sample(bottom_row), row_tap.weight);
        values[i][c] = detail::normalise(value, maths.alpha[c], maths.beta[c]);
      }
    }
    store_pixels<T, kNCHW, kChannels>(frame_out, width, height, y, x, args.vector_stores, values);
  }
}

using Kernel = void (*)(LaunchArgs);

template <typename T, bool kNCHW>
Kernel pick_channels(int32_t channels) {
  return channels == 1 ? preprocess_kernel<T, kNCHW, 1> : preprocess_kernel<T, kNCHW, 3>;
}

template <typename T>
Kernel pick_layout(Layout layout, int32_t channels) {
  return layout == Layout::kNCHW ? pick_channels<T, true>(channels) : pick_channels<T, false>(channels);
}

Kernel pick_kernel(const PreprocessParams &params) {
  switch (params.out_dtype) {
    case DType::kUint8: return pick_layout<uint8_t>(params.layout, params.out_channels);
    case DType::kFloat32: return pick_layout<float>(params.layout, params.out_channels);
    case DType::kFloat16: return pick_layout<__half>(params.layout, params.out_channels);
  }
  return nullptr;
}

Status cuda_failure(cudaError_t error, const char *doing) {
  return {ErrorCode::kCudaError,
      std::string("CUDA error ") + cudaGetErrorName(error) + " (" + cudaGetErrorString(error) + ") " + doing};
}

}  // namespace

Status preprocess_cuda(const ImageView *frames, int32_t count, const PreprocessParams &params, void *out,
    FrameTransform *transforms, CUstream_st *stream) {
  Status status = validate(frames, count, params);
  if (!status.ok()) return status;
  if (count == 0) return Status::Ok();
  if (out == nullptr) return Status::Invalid("Expected an output pointer for out but received null");

  LaunchArgs args{};
  args.maths = detail::build_channel_maths(params);
  detail::build_yuv_table(args.yuv);
  args.out_width = params.out_width;
  args.out_height = params.out_height;
  const size_t element_bytes = dtype_size(params.out_dtype);
  args.vector_stores = params.out_width % kPixelsPerThread == 0 &&
      reinterpret_cast<uintptr_t>(out) % (kPixelsPerThread * element_bytes) == 0;
  const size_t frame_bytes = output_size_bytes(params, 1);
  const int32_t threads = std::min(kMaxThreads,
      ((params.out_width + kPixelsPerThread - 1) / kPixelsPerThread + 31) / 32 * 32);
  const Kernel kernel = pick_kernel(params);

  for (int32_t first = 0; first < count; first += kFramesPerLaunch) {
    const int32_t frames_now = std::min(kFramesPerLaunch, count - first);
    for (int32_t i = 0; i < frames_now; ++i) {
      const ImageView &frame = frames[first + i];
      const FrameTransform transform = compute_transform(frame.width, frame.height, params);
      if (transforms != nullptr) transforms[first + i] = transform;
      args.frames[i] = detail::build_sampling(frame, transform, params);
    }
    args.out = static_cast<uint8_t *>(out) + static_cast<size_t>(first) * frame_bytes;
    kernel<<<dim3(static_cast<unsigned>(params.out_height), static_cast<unsigned>(frames_now)),
        dim3(static_cast<unsigned>(threads)), 0, stream>>>(args);
    const cudaError_t error = cudaGetLastError();
    if (error != cudaSuccess) return cuda_failure(error, "launching the pre-processing kernel");
  }
  return Status::Ok();
}

bool cuda_compiled() { return true; }

Status cuda_device_status() {
  int devices = 0;
  const cudaError_t error = cudaGetDeviceCount(&devices);
  if (error != cudaSuccess) return cuda_failure(error, "counting CUDA devices");
  if (devices == 0) return {ErrorCode::kCudaError, "CUDA error: no CUDA device"};
  return Status::Ok();
}

}  // namespace dsnode::ops
