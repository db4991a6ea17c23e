// The stand-in model's kernel: see standin_yolo.h.
#include <cuda_fp16.h>
#include <cuda_runtime_api.h>

#include "standin_yolo.h"

namespace dsbench {
namespace {

constexpr int32_t kThreads = 256;

__host__ __device__ uint32_t mix(uint32_t x) {
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  x *= 0x846ca68bu;
  x ^= x >> 16;
  return x;
}
// A number in [0, 1) from a hash.
__host__ __device__ float unit(uint32_t h) { return (h >> 8) * (1.0f / 16777216.0f); }

struct Object {
  int32_t class_id;
  float cx, cy, w, h;  // input pixels
};

// Object `k` of image `slot`: class, size and a start position from the slot, moving with `seed`.
__host__ __device__ Object object_of(int32_t slot, int32_t k, uint32_t seed, int32_t width, int32_t height) {
  const uint32_t h = mix(static_cast<uint32_t>(slot) * 131u + static_cast<uint32_t>(k) * 7919u + 17u);
  Object o;
  o.class_id = static_cast<int32_t>(mix(h) % kStandinClasses);
  o.w = 24.0f + 120.0f * unit(mix(h + 1u));
  o.h = 24.0f + 160.0f * unit(mix(h + 2u));
  // Starts anywhere, moves 1..3 px per seed in x and y, bouncing inside the margins.
  const float span_x = width - 2.0f * 48.0f, span_y = height - 2.0f * 48.0f;
  const float vx = 1.0f + 2.0f * unit(mix(h + 3u)), vy = 1.0f + 2.0f * unit(mix(h + 4u));
  float px = fmodf(unit(mix(h + 5u)) * span_x + vx * static_cast<float>(seed), 2.0f * span_x);
  float py = fmodf(unit(mix(h + 6u)) * span_y + vy * static_cast<float>(seed), 2.0f * span_y);
  if (px > span_x) px = 2.0f * span_x - px;
  if (py > span_y) py = 2.0f * span_y - py;
  o.cx = 48.0f + px;
  o.cy = 48.0f + py;
  return o;
}

__host__ __device__ float pixel(const float *image, size_t at) { return image[at]; }
__host__ __device__ float pixel(const __half *image, size_t at) { return __half2float(image[at]); }

// The 84 values of anchor `anchor` of image `slot`: one GPU thread's work, and the host loop's.
template <typename T>
__host__ __device__ void write_anchor(const T *input, int32_t width, int32_t height, int32_t anchors, uint32_t seed,
    int32_t slot, int32_t anchor, float *output) {
  // The anchor's grid: stride 8, then 16, then 32.
  const int32_t g8 = (width / 8) * (height / 8), g16 = (width / 16) * (height / 16);
  int32_t stride = 8, index = anchor;
  if (index >= g8) {
    index -= g8;
    stride = 16;
    if (index >= g16) {
      index -= g16;
      stride = 32;
    }
  }
  const int32_t columns = width / stride;
  const int32_t gx = index % columns, gy = index / columns;
  float cx = (gx + 0.5f) * stride, cy = (gy + 0.5f) * stride, w = 2.0f * stride, h = 2.0f * stride;
  int32_t hit_class = -1;
  float hit_score = 0.0f;
  if (stride == 16) {
    for (int32_t k = 0; k < kStandinObjects; ++k) {
      const Object o = object_of(slot, k, seed, width, height);
      const int32_t ox = static_cast<int32_t>(o.cx) / 16 < columns - 2 ? static_cast<int32_t>(o.cx) / 16 : columns - 2;
      const int32_t oy = static_cast<int32_t>(o.cy) / 16 < height / 16 - 2 ? static_cast<int32_t>(o.cy) / 16 : height / 16 - 2;
      // The anchor under the centre, the one right of it and the one below it.
      const int32_t which = gx == ox && gy == oy ? 0 : gx == ox + 1 && gy == oy ? 1 : gx == ox && gy == oy + 1 ? 2 : -1;
      if (which < 0) continue;
      const T *image = input + static_cast<size_t>(slot) * 3 * width * height;
      const float under = pixel(image, static_cast<size_t>(o.cy) * width + static_cast<size_t>(o.cx));
      hit_class = o.class_id;
      hit_score = 0.9f - 0.1f * which + 0.0005f * fminf(fmaxf(under, 0.0f), 1.0f);
      cx = o.cx + 2.0f * which;
      cy = o.cy - 1.5f * which;
      w = o.w * (1.0f - 0.03f * which);
      h = o.h * (1.0f + 0.02f * which);
      break;
    }
  }
  float *out = output + static_cast<size_t>(slot) * (4 + kStandinClasses) * anchors + anchor;
  out[0] = cx;
  out[static_cast<size_t>(anchors)] = cy;
  out[2 * static_cast<size_t>(anchors)] = w;
  out[3 * static_cast<size_t>(anchors)] = h;
  const uint32_t base = mix(static_cast<uint32_t>(anchor) * 2654435761u + seed * 40503u + static_cast<uint32_t>(slot));
  for (int32_t c = 0; c < kStandinClasses; ++c) {
    const float background = 0.02f * unit(mix(base + static_cast<uint32_t>(c)));
    out[(4 + static_cast<size_t>(c)) * anchors] = c == hit_class ? hit_score : background;
  }
}

// One thread per anchor of one image: each of the 84 rows written coalesced across the warp.
template <typename T>
__global__ void standin_kernel(const T *input, int32_t width, int32_t height, int32_t anchors, uint32_t seed, float *output) {
  const int32_t anchor = blockIdx.x * blockDim.x + threadIdx.x;
  if (anchor < anchors) write_anchor(input, width, height, anchors, seed, static_cast<int32_t>(blockIdx.y), anchor, output);
}

template <typename T>
void host_loop(const T *input, const StandinShape &shape, int32_t anchors, uint32_t seed, float *output) {
  for (int32_t slot = 0; slot < shape.batch; ++slot)
    for (int32_t anchor = 0; anchor < anchors; ++anchor)
      write_anchor(input, shape.width, shape.height, anchors, seed, slot, anchor, output);
}

}  // namespace

int32_t standin_anchors(const StandinShape &shape) {
  int32_t anchors = 0;
  for (int32_t stride : {8, 16, 32}) anchors += (shape.width / stride) * (shape.height / stride);
  return anchors;
}

size_t standin_output_bytes(const StandinShape &shape) {
  return static_cast<size_t>(shape.batch) * (4 + kStandinClasses) * standin_anchors(shape) * sizeof(float);
}

namespace {
const char *check_shape(const StandinShape &shape) {
  if (shape.width % 32 != 0 || shape.height % 32 != 0 || shape.width < 64 || shape.height < 64) {
    return "the stand-in model needs an input of at least 64x64 whose sides are multiples of 32";
  }
  return "";
}
}  // namespace

const char *standin_yolo_host(const void *input, const StandinShape &shape, uint32_t seed, float *output) {
  if (shape.batch <= 0) return "";
  if (*check_shape(shape) != '\0') return check_shape(shape);
  if (shape.fp16) host_loop(static_cast<const __half *>(input), shape, standin_anchors(shape), seed, output);
  else host_loop(static_cast<const float *>(input), shape, standin_anchors(shape), seed, output);
  return "";
}

const char *standin_yolo_launch(const void *input, const StandinShape &shape, uint32_t seed, float *output, CUstream_st *stream) {
  if (shape.batch <= 0) return "";
  if (*check_shape(shape) != '\0') return check_shape(shape);
  const int32_t anchors = standin_anchors(shape);
  const dim3 grid((anchors + kThreads - 1) / kThreads, static_cast<unsigned>(shape.batch));
  if (shape.fp16) {
    standin_kernel<<<grid, kThreads, 0, stream>>>(static_cast<const __half *>(input), shape.width, shape.height, anchors, seed, output);
  } else {
    standin_kernel<<<grid, kThreads, 0, stream>>>(static_cast<const float *>(input), shape.width, shape.height, anchors, seed, output);
  }
  const cudaError_t status = cudaGetLastError();
  return status == cudaSuccess ? "" : cudaGetErrorString(status);
}

}  // namespace dsbench
