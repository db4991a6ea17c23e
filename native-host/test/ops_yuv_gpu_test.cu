// Frames in every format on a CUDA device: preprocess_cuda against preprocess_cpu for the
// packed 4-byte formats and planar NV12/NV21/I420 under every matrix and range, then the
// bench of a 16 × 1920×1080 NV12 batch beside the same frames as RGBA.
//
//   dsnode-ops-yuv-gpu-test [--json PATH] [--iterations N]
//
// Correctness (TAP lines, "N passed, M failed"): random frames (odd sizes, padded pitches,
// chroma planes at their own offsets and pitches, as NvBufSurface planeParams lay them out)
// through both ops, every output dtype and layout; both share sampling.h's conversion
// (yuv_pixel, one coefficient table) and interpolation, so the expected difference is none.
//
// Bench (JSON on stdout's last line and in --json): letterbox + normalise to 16 × 3 × 640 × 640
// float16 NCHW of 16 1080p frames, NV12 (one allocation per frame, Y then UV, pitch 2048 as
// nvstreammux allocates) and RGBA (pitch 7680): median milliseconds, frames per second and
// the NV12/RGBA ratio. Extract on NVMM is descriptor arithmetic on the host (no pixel is
// touched), so preprocess is what a batch costs on the GPU.
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "check.h"
#include "cuda_check.h"
#include "ops/ops.h"

using namespace dsnode::ops;
using namespace dsnode_test;  // check, passed, failed, median, require_cuda_device, copy_to_device

namespace {

// One frame in one host allocation (planes at their offsets) and its device copy.
struct Frame {
  std::vector<uint8_t> bytes;
  size_t plane_offset[3] = {};
  ImageView host;
  uint8_t *device_allocation = nullptr;
  ImageView device;
};

Frame make_frame(std::mt19937 &random, int width, int height, PixelFormat format, ColorMatrix matrix, ColorRange range,
    bool random_bytes) {
  Frame frame;
  const int planes = plane_count(format);
  const int chroma_width = (width + 1) / 2, chroma_height = (height + 1) / 2;
  const int luma_pitch = std::max(2048, width * bytes_per_pixel(format)) + (random_bytes ? static_cast<int>(random() % 29) : 0);
  const int chroma_pitch = format == PixelFormat::kI420 ? luma_pitch / 2 + 3 : luma_pitch;
  frame.plane_offset[1] = static_cast<size_t>(luma_pitch) * height + 64;
  frame.plane_offset[2] = frame.plane_offset[1] + static_cast<size_t>(chroma_pitch) * chroma_height + 64;
  const size_t size = planes == 1 ? static_cast<size_t>(luma_pitch) * height : frame.plane_offset[planes - 1] +
      static_cast<size_t>(chroma_pitch) * chroma_height;
  frame.bytes.resize(size);
  for (uint8_t &byte : frame.bytes) byte = random_bytes ? static_cast<uint8_t>(random()) : 128;
  (void)chroma_width;
  CUDA_OK(cudaMalloc(&frame.device_allocation, size));
  copy_to_device(frame.device_allocation, frame.bytes.data(), size);
  auto view = [&](const uint8_t *base) {
    ImageView image;
    image.data = base;
    image.width = width;
    image.height = height;
    image.pitch = luma_pitch;
    image.format = format;
    for (int p = 1; p < planes; ++p) {
      image.chroma[p - 1] = base + frame.plane_offset[p];
      image.chroma_pitch[p - 1] = chroma_pitch;
    }
    image.matrix = matrix;
    image.range = range;
    return image;
  };
  frame.host = view(frame.bytes.data());
  frame.device = view(frame.device_allocation);
  return frame;
}

void release(std::vector<Frame> &frames) {
  for (Frame &frame : frames) cudaFree(frame.device_allocation);
  frames.clear();
}

const char *dtype_name(DType dtype) { return dtype == DType::kUint8 ? "uint8" : dtype == DType::kFloat32 ? "float32" : "float16"; }

// Both ops on `frames`; the outputs must be the same bytes.
void compare(const std::string &name, std::vector<Frame> &frames, const PreprocessParams &params) {
  const int32_t count = static_cast<int32_t>(frames.size());
  std::vector<ImageView> host_views, device_views;
  for (const Frame &frame : frames) {
    host_views.push_back(frame.host);
    device_views.push_back(frame.device);
  }
  const size_t bytes = output_size_bytes(params, count);
  std::vector<uint8_t> cpu(bytes), gpu(bytes);
  const Status cpu_status = preprocess_cpu(host_views.data(), count, params, cpu.data(), nullptr);
  void *out = nullptr;
  CUDA_OK(cudaMalloc(&out, bytes));
  const Status gpu_status = preprocess_cuda(device_views.data(), count, params, out, nullptr, nullptr);
  CUDA_OK(cudaDeviceSynchronize());
  CUDA_OK(cudaMemcpy(gpu.data(), out, bytes, cudaMemcpyDeviceToHost));
  CUDA_OK(cudaFree(out));
  if (!cpu_status.ok() || !gpu_status.ok()) {
    check(false, name, cpu_status.message + " / " + gpu_status.message);
    return;
  }
  size_t differing = 0;
  for (size_t i = 0; i < bytes; ++i) differing += cpu[i] != gpu[i];
  check(differing == 0, name, std::to_string(differing) + " of " + std::to_string(bytes) + " bytes differ");
}

// The region (left, top, width, height) of a planar view, as TensorHandle.crop narrows a frame:
// chroma from the sample covering the first pixel, the phase for an odd column or row.
ImageView crop_view(ImageView view, int left, int top, int width, int height) {
  const int samples = view.format == PixelFormat::kI420 ? 1 : 2;
  view.data += static_cast<size_t>(top) * view.pitch + left;
  for (int p = 0; p < 2 && view.chroma[p] != nullptr; ++p) {
    view.chroma[p] += static_cast<size_t>(top >> 1) * view.chroma_pitch[p] + static_cast<size_t>(left >> 1) * samples;
  }
  view.chroma_phase_x = left & 1;
  view.chroma_phase_y = top & 1;
  view.width = width;
  view.height = height;
  return view;
}

// Crops of planar frames from odd and even columns and rows (secondary models on NV12).
void test_planar_crops() {
  std::mt19937 random(27);
  const int regions[][4] = {{0, 0, 64, 48}, {7, 3, 41, 29}, {1, 2, 120, 70}, {50, 21, 1, 1}, {131, 73, 2, 2}};
  for (PixelFormat format : {PixelFormat::kNV12, PixelFormat::kNV21, PixelFormat::kI420}) {
    for (DType dtype : {DType::kUint8, DType::kFloat32}) {
      PreprocessParams params;
      params.out_width = 67;
      params.out_height = 45;
      params.out_dtype = dtype;
      std::vector<Frame> frames;
      for (const auto &region : regions) {
        frames.push_back(make_frame(random, 133, 75, format, ColorMatrix::kBT709, ColorRange::kLimited, true));
        Frame &frame = frames.back();
        frame.host = crop_view(frame.host, region[0], region[1], region[2], region[3]);
        frame.device = crop_view(frame.device, region[0], region[1], region[2], region[3]);
      }
      compare(std::string(pixel_format_name(format)) + " crops from odd and even columns/rows, " + dtype_name(dtype), frames, params);
      release(frames);
    }
  }
}

void test_formats() {
  std::mt19937 random(26);
  const PixelFormat packed[] = {PixelFormat::kRGBx, PixelFormat::kBGRA, PixelFormat::kARGB, PixelFormat::kABGR};
  const PixelFormat planar[] = {PixelFormat::kNV12, PixelFormat::kNV21, PixelFormat::kI420};
  for (DType dtype : {DType::kUint8, DType::kFloat32, DType::kFloat16}) {
    for (Layout layout : {Layout::kNCHW, Layout::kNHWC}) {
      PreprocessParams params;
      params.out_width = 97;  // odd: scalar stores too
      params.out_height = 61;
      params.out_dtype = dtype;
      params.layout = layout;
      params.out_order = layout == Layout::kNHWC ? ChannelOrder::kBGR : ChannelOrder::kRGB;
      std::vector<Frame> frames;
      for (PixelFormat format : packed) {
        frames.push_back(make_frame(random, 131, 77, format, ColorMatrix::kBT601, ColorRange::kLimited, true));
      }
      compare(std::string("packed 4-byte formats, ") + dtype_name(dtype) + (layout == Layout::kNCHW ? " NCHW" : " NHWC"),
          frames, params);
      release(frames);
      for (PixelFormat format : planar) {
        for (int m = 0; m < 3; ++m) {
          for (int r = 0; r < 2; ++r) {
            frames.push_back(make_frame(random, 133, 75, format, static_cast<ColorMatrix>(m), static_cast<ColorRange>(r), true));
          }
        }
        compare(std::string(pixel_format_name(format)) + " × BT.601/709/2020 × limited/full, " + dtype_name(dtype) +
                (layout == Layout::kNCHW ? " NCHW" : " NHWC"),
            frames, params);
        release(frames);
      }
    }
  }
  // A 1080p NV12 batch of 16 at the bench's size, and 70 frames (two launches of 40).
  PreprocessParams params;
  params.out_dtype = DType::kFloat16;
  std::vector<Frame> frames;
  for (int i = 0; i < 16; ++i) frames.push_back(make_frame(random, 1920, 1080, PixelFormat::kNV12, ColorMatrix::kBT709, ColorRange::kLimited, true));
  compare("16 × 1080p NV12 → 640×640 float16", frames, params);
  release(frames);
  for (int i = 0; i < 70; ++i) frames.push_back(make_frame(random, 37 + i, 29, PixelFormat::kI420, ColorMatrix::kBT601, ColorRange::kFull, true));
  compare("70 I420 frames (two launches)", frames, params);
  release(frames);
}

double time_batch(std::vector<Frame> &frames, const PreprocessParams &params, int iterations) {
  std::vector<ImageView> views;
  for (const Frame &frame : frames) views.push_back(frame.device);
  void *out = nullptr;
  CUDA_OK(cudaMalloc(&out, output_size_bytes(params, static_cast<int32_t>(views.size()))));
  cudaStream_t stream = nullptr;
  CUDA_OK(cudaStreamCreate(&stream));
  cudaEvent_t start, stop;
  CUDA_OK(cudaEventCreate(&start));
  CUDA_OK(cudaEventCreate(&stop));
  std::vector<double> times;
  for (int i = 0; i < iterations + 5; ++i) {
    CUDA_OK(cudaEventRecord(start, stream));
    const Status status = preprocess_cuda(views.data(), static_cast<int32_t>(views.size()), params, out, nullptr, stream);
    if (!status.ok()) {
      std::fprintf(stderr, "preprocess_cuda: %s\n", status.message.c_str());
      std::exit(2);
    }
    CUDA_OK(cudaEventRecord(stop, stream));
    CUDA_OK(cudaEventSynchronize(stop));
    float ms = 0;
    CUDA_OK(cudaEventElapsedTime(&ms, start, stop));
    if (i >= 5) times.push_back(ms);  // the first launches warm up
  }
  CUDA_OK(cudaEventDestroy(start));
  CUDA_OK(cudaEventDestroy(stop));
  CUDA_OK(cudaStreamDestroy(stream));
  CUDA_OK(cudaFree(out));
  return median(times);
}

std::string bench(int iterations) {
  std::mt19937 random(7);
  PreprocessParams params;  // 640×640 letterbox, RGB, /255, NCHW
  params.out_dtype = DType::kFloat16;
  std::vector<Frame> nv12, rgba;
  for (int i = 0; i < 16; ++i) {
    nv12.push_back(make_frame(random, 1920, 1080, PixelFormat::kNV12, ColorMatrix::kBT709, ColorRange::kLimited, false));
    rgba.push_back(make_frame(random, 1920, 1080, PixelFormat::kRGBA, ColorMatrix::kBT601, ColorRange::kLimited, false));
  }
  const double nv12_ms = time_batch(nv12, params, iterations);
  const double rgba_ms = time_batch(rgba, params, iterations);
  release(nv12);
  release(rgba);
  cudaDeviceProp properties{};
  int device = 0;
  CUDA_OK(cudaGetDevice(&device));
  CUDA_OK(cudaGetDeviceProperties(&properties, device));
  char text[512];
  std::snprintf(text, sizeof text,
      "{\"device\": \"%s\", \"batch\": \"16 x 1920x1080 -> 16 x 3 x 640 x 640 float16 NCHW letterbox\", "
      "\"nv12_median_ms\": %.4f, \"rgba_median_ms\": %.4f, \"nv12_frames_per_s\": %.0f, \"rgba_frames_per_s\": %.0f, "
      "\"nv12_over_rgba_time\": %.3f, \"iterations\": %d, \"correctness\": {\"passed\": %d, \"failed\": %d}}",
      properties.name, nv12_ms, rgba_ms, 16000.0 / nv12_ms, 16000.0 / rgba_ms, nv12_ms / rgba_ms, iterations, passed, failed);
  return text;
}

}  // namespace

int main(int argc, char **argv) {
  const char *json_path = nullptr;
  int iterations = 100;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--json") == 0 && i + 1 < argc) {
      json_path = argv[++i];
    } else if (std::strcmp(argv[i], "--iterations") == 0 && i + 1 < argc) {
      iterations = std::max(1, std::atoi(argv[++i]));
    } else {
      std::fprintf(stderr, "usage: %s [--json PATH] [--iterations N]\n", argv[0]);
      return 2;
    }
  }
  require_cuda_device();
  test_formats();
  test_planar_crops();
  std::printf("%d passed, %d failed\n", passed, failed);
  const std::string report = bench(iterations);
  std::printf("%s\n", report.c_str());
  if (json_path != nullptr) {
    if (FILE *file = std::fopen(json_path, "w")) {
      std::fprintf(file, "%s\n", report.c_str());
      std::fclose(file);
    }
  }
  return failed == 0 ? 0 : 1;
}
