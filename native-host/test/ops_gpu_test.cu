// preprocess_cuda against preprocess_cpu on a CUDA device, then the bandwidth bench.
//
//   dsnode-ops-gpu-test [--json PATH] [--dump DIR] [--iterations N]
//
// Correctness (TAP lines, "N passed, M failed"): the same random inputs through both ops — every
// format × mode × layout × dtype × channel order, odd and multiple-of-4 output widths, odd
// frame sizes, random pitches and unaligned row starts, wide rows, 70 frames (two
// launches), a misaligned output (scalar stores), the 16 × 1920×1080 RGB batch — plus
// __float2half_rn against the CPU's float → half on 2^26 float bit patterns. Both ops share
// sampling.h's maths and round the same way, so the expected difference is none; the
// tolerances (uint8 ±1, float32 1e-5 relative, float16 one ulp) only keep a stray ulp from
// hiding the report of how many values were bit-identical.
//
// Bench (JSON on stdout's last line and in --json): device-to-device cudaMemcpy bandwidth
// ((read + written bytes) / time), then letterbox + normalise of 16 × 1920×1080 RGB (one
// nvstreammux-like batch allocation) to 16 × 3 × 640 × 640 float16 NCHW: median time and its
// bandwidth, (input bytes read once + output bytes written) / time, as a % of the copy's. With
// a 3:1 downscale, bilinear sampling at half-pixel centres lands on whole source rows, and the
// op reads only the 360 of 1080 rows that carry weight: "touched" reports bandwidth on the
// bytes actually moved. A 1280×720 case (2:1, every row carries weight) is reported too.
//
// --dump DIR writes frame 0 of the bench batch (1080×1920×3 uint8) and its output
// (3×640×640 float16) for bench/gpu/torch_peer.py --check.
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "check.h"
#include "cuda_check.h"
#include "ops/half.h"
#include "ops/ops.h"

using namespace dsnode::ops;
using dsnode_test::check;
using dsnode_test::median;
using dsnode_test::failed;
using dsnode_test::passed;
using dsnode_test::copy_to_device;

namespace {

// --- Frames on both sides.

struct HostFrame {
  std::vector<uint8_t> bytes;
  ImageView view;  // host pointer
};

struct DeviceFrame {
  uint8_t *allocation = nullptr;
  ImageView view;  // device pointer, possibly offset from the allocation's alignment
};

HostFrame random_frame(std::mt19937 &random, int width, int height, PixelFormat format) {
  HostFrame frame;
  const int pitch = width * bytes_per_pixel(format) + static_cast<int>(random() % 37);
  frame.bytes.resize(static_cast<size_t>(pitch) * height);
  for (uint8_t &byte : frame.bytes) byte = static_cast<uint8_t>(random());
  frame.view = {frame.bytes.data(), width, height, pitch, format};
  return frame;
}

// A device copy starting `misalign` bytes past a 256-byte boundary, so that the kernel meets
// unaligned row starts.
DeviceFrame upload(const HostFrame &frame, int misalign) {
  DeviceFrame device;
  CUDA_OK(cudaMalloc(&device.allocation, frame.bytes.size() + static_cast<size_t>(misalign)));
  copy_to_device(device.allocation + misalign, frame.bytes.data(), frame.bytes.size());
  device.view = frame.view;
  device.view.data = device.allocation + misalign;
  return device;
}

const char *dtype_name(DType dtype) {
  return dtype == DType::kUint8 ? "uint8" : dtype == DType::kFloat32 ? "float32" : "float16";
}

std::string describe(const PreprocessParams &params) {
  std::string text = std::to_string(params.out_width) + "x" + std::to_string(params.out_height) + " ";
  text += params.mode == ResizeMode::kStretch ? "stretch" : params.center ? "letterbox-centred" : "letterbox-top-left";
  text += params.layout == Layout::kNCHW ? " NCHW " : " NHWC ";
  text += dtype_name(params.out_dtype);
  text += params.out_order == ChannelOrder::kRGB ? " RGB" : " BGR";
  if (params.out_channels == 1) text += " 1-channel";
  return text;
}

double element(const std::vector<uint8_t> &bytes, DType dtype, size_t index) {
  switch (dtype) {
    case DType::kUint8: return bytes[index];
    case DType::kFloat32: {
      float value;
      std::memcpy(&value, bytes.data() + index * 4, 4);
      return value;
    }
    case DType::kFloat16: {
      uint16_t bits;
      std::memcpy(&bits, bytes.data() + index * 2, 2);
      return dsnode::ops::detail::half_bits_to_float(bits);
    }
  }
  return 0;
}

struct Totals {
  size_t values = 0;
  size_t identical = 0;
} totals;

// Runs both ops on `frames` and compares. `output_offset` shifts the device output off its
// allocation's alignment (to exercise the scalar stores).
void compare_ops(const std::string &name, const std::vector<HostFrame> &frames, const PreprocessParams &params,
    std::mt19937 &random, size_t output_offset = 0) {
  const int32_t count = static_cast<int32_t>(frames.size());
  std::vector<ImageView> host_views;
  std::vector<DeviceFrame> device_frames;
  std::vector<ImageView> device_views;
  for (const HostFrame &frame : frames) {
    host_views.push_back(frame.view);
    device_frames.push_back(upload(frame, static_cast<int>(random() % 16)));
    device_views.push_back(device_frames.back().view);
  }
  const size_t bytes = output_size_bytes(params, count);
  constexpr size_t kCanary = 256;
  std::vector<uint8_t> cpu(bytes), gpu(bytes + kCanary);
  std::vector<FrameTransform> cpu_transforms(frames.size()), gpu_transforms(frames.size());
  const Status cpu_status = preprocess_cpu(host_views.data(), count, params, cpu.data(), cpu_transforms.data());

  uint8_t *device_out = nullptr;
  CUDA_OK(cudaMalloc(&device_out, bytes + kCanary + output_offset));
  CUDA_OK(cudaMemset(device_out, 0xA5, bytes + kCanary + output_offset));
  cudaStream_t stream;
  CUDA_OK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  const Status gpu_status =
      preprocess_cuda(device_views.data(), count, params, device_out + output_offset, gpu_transforms.data(), stream);
  CUDA_OK(cudaStreamSynchronize(stream));
  CUDA_OK(cudaGetLastError());
  CUDA_OK(cudaMemcpy(gpu.data(), device_out + output_offset, bytes + kCanary, cudaMemcpyDeviceToHost));
  CUDA_OK(cudaStreamDestroy(stream));
  CUDA_OK(cudaFree(device_out));
  for (DeviceFrame &frame : device_frames) CUDA_OK(cudaFree(frame.allocation));

  if (!cpu_status.ok() || !gpu_status.ok()) {
    check(false, name, "cpu: " + cpu_status.message + "; gpu: " + gpu_status.message);
    return;
  }
  std::string detail;
  for (size_t i = bytes; i < bytes + kCanary && detail.empty(); ++i) {
    if (gpu[i] != 0xA5) detail = "wrote past the end of the output";
  }
  for (size_t f = 0; f < frames.size() && detail.empty(); ++f) {
    const FrameTransform &a = cpu_transforms[f], &b = gpu_transforms[f];
    if (std::memcmp(&a, &b, sizeof a) != 0) detail = "transforms differ for frame " + std::to_string(f);
  }
  const size_t elements = output_element_count(params, count);
  size_t identical = 0;
  double worst = 0;
  for (size_t i = 0; i < elements; ++i) {
    const size_t size = dtype_size(params.out_dtype);
    if (std::memcmp(cpu.data() + i * size, gpu.data() + i * size, size) == 0) {
      ++identical;
      continue;
    }
    const double expected = element(cpu, params.out_dtype, i), actual = element(gpu, params.out_dtype, i);
    const double error = std::fabs(actual - expected);
    worst = std::max(worst, error);
    const double tolerance = params.out_dtype == DType::kUint8 ? 1.0
        : params.out_dtype == DType::kFloat32 ? 1e-5 * (1 + std::fabs(expected))
                                              : std::max(std::fabs(expected) * std::ldexp(1.0, -10), std::ldexp(1.0, -24));
    if (!(error <= tolerance) && detail.empty()) {
      char text[200];
      std::snprintf(text, sizeof text, "element %zu: gpu %.7g, cpu %.7g", i, actual, expected);
      detail = text;
    }
  }
  totals.values += elements;
  totals.identical += identical;
  char summary[96];
  std::snprintf(summary, sizeof summary, " (%zu/%zu identical, max diff %.3g)", identical, elements, worst);
  check(detail.empty(), name + summary, detail);
}

PreprocessParams random_params(std::mt19937 &random, bool multiple_of_four) {
  PreprocessParams params;
  if (multiple_of_four) {
    params.out_width = 16 + 4 * static_cast<int>(random() % 30);
    params.out_height = 16 + 4 * static_cast<int>(random() % 30);
  } else {
    params.out_width = 17 + 2 * static_cast<int>(random() % 48);
    params.out_height = 17 + 2 * static_cast<int>(random() % 48);
  }
  params.pad_value = static_cast<float>(random() % 256);
  std::uniform_real_distribution<float> mean(-1.0f, 1.0f), deviation(0.1f, 2.0f);
  for (int c = 0; c < 3; ++c) {
    params.mean[c] = mean(random);
    params.std[c] = deviation(random);
  }
  return params;
}

std::vector<HostFrame> random_batch(std::mt19937 &random, const PreprocessParams &params, PixelFormat format) {
  auto odd = [&](int low, int high) {
    return low + 2 * static_cast<int>(random() % static_cast<unsigned>(std::max(high - low, 0) / 2 + 1));
  };
  std::vector<HostFrame> frames;
  frames.push_back(random_frame(random, odd(3, params.out_width - 2), odd(3, params.out_height - 2), format));
  frames.push_back(random_frame(random, odd(params.out_width + 2, std::max(801, params.out_width + 202)),
      odd(params.out_height + 2, std::max(601, params.out_height + 202)), format));
  frames.push_back(random_frame(random, odd(151, 333), odd(1, 7), format));
  return frames;
}

void test_matrix() {
  std::mt19937 random(90);
  const PixelFormat formats[] = {PixelFormat::kRGB, PixelFormat::kRGBA, PixelFormat::kBGR, PixelFormat::kBGRx, PixelFormat::kGRAY8};
  const ResizeMode modes[] = {ResizeMode::kLetterbox, ResizeMode::kLetterbox, ResizeMode::kStretch};
  const bool centres[] = {true, false, true};
  for (PixelFormat format : formats) {
    for (int m = 0; m < 3; ++m) {
      for (Layout layout : {Layout::kNCHW, Layout::kNHWC}) {
        for (DType dtype : {DType::kUint8, DType::kFloat32, DType::kFloat16}) {
          for (ChannelOrder order : {ChannelOrder::kRGB, ChannelOrder::kBGR}) {
            const bool multiple_of_four = random() % 2 == 0;
            PreprocessParams params = random_params(random, multiple_of_four);
            params.mode = modes[m];
            params.center = centres[m];
            params.layout = layout;
            params.out_dtype = dtype;
            params.out_order = order;
            compare_ops(std::string(pixel_format_name(format)) + " → " + describe(params),
                random_batch(random, params, format), params, random);
          }
        }
      }
    }
  }
  for (Layout layout : {Layout::kNCHW, Layout::kNHWC}) {
    for (DType dtype : {DType::kUint8, DType::kFloat32, DType::kFloat16}) {
      for (bool multiple_of_four : {false, true}) {
        PreprocessParams params = random_params(random, multiple_of_four);
        params.out_channels = 1;
        params.layout = layout;
        params.out_dtype = dtype;
        compare_ops("GRAY8 → " + describe(params), random_batch(random, params, PixelFormat::kGRAY8), params, random);
      }
    }
  }
}

void test_special_batches() {
  std::mt19937 random(91);
  // Wide rows (6401 × 4 bytes) beside a small frame in one batch.
  for (DType dtype : {DType::kUint8, DType::kFloat32, DType::kFloat16}) {
    for (Layout layout : {Layout::kNCHW, Layout::kNHWC}) {
      PreprocessParams params = random_params(random, true);
      params.out_dtype = dtype;
      params.layout = layout;
      std::vector<HostFrame> frames;
      frames.push_back(random_frame(random, 6401, 37, PixelFormat::kRGBA));
      frames.push_back(random_frame(random, 33, 65, PixelFormat::kBGR));
      compare_ops("wide rows (6401 RGBA) → " + describe(params), frames, params, random);
    }
  }
  // 70 frames: two launches.
  PreprocessParams params = random_params(random, true);
  params.out_dtype = DType::kFloat16;
  std::vector<HostFrame> many;
  const PixelFormat formats[] = {PixelFormat::kRGB, PixelFormat::kRGBA, PixelFormat::kBGR, PixelFormat::kBGRx, PixelFormat::kGRAY8};
  for (int i = 0; i < 70; ++i) {
    many.push_back(random_frame(random, 1 + static_cast<int>(random() % 199), 1 + static_cast<int>(random() % 199), formats[i % 5]));
  }
  compare_ops("70 frames of every format (two launches) → " + describe(params), many, params, random);
  // A misaligned output: scalar stores although the width is a multiple of 4.
  for (DType dtype : {DType::kUint8, DType::kFloat32, DType::kFloat16}) {
    params = random_params(random, true);
    params.out_dtype = dtype;
    compare_ops("output 2 elements off alignment → " + describe(params), random_batch(random, params, PixelFormat::kRGB), params,
        random, 2 * dtype_size(dtype));
  }
  // Output wider than 1024 (threads loop across the row), upscaling.
  params = random_params(random, true);
  params.out_width = 1540;
  params.out_height = 77;
  compare_ops("1540-wide output → " + describe(params), random_batch(random, params, PixelFormat::kBGRx), params, random);
}

void test_full_hd_batch() {
  std::mt19937 random(1920);
  PreprocessParams params;
  params.out_dtype = DType::kFloat16;
  params.mean[0] = 0.485f, params.mean[1] = 0.456f, params.mean[2] = 0.406f;
  params.std[0] = 0.229f, params.std[1] = 0.224f, params.std[2] = 0.225f;
  std::vector<HostFrame> frames;
  for (int i = 0; i < 16; ++i) frames.push_back(random_frame(random, 1920, 1080, PixelFormat::kRGB));
  compare_ops("16 × 1920×1080 RGB → " + describe(params) + " (the bench case)", frames, params, random);
  params.layout = Layout::kNHWC;
  params.out_dtype = DType::kFloat32;
  compare_ops("16 × 1920×1080 RGB → " + describe(params), frames, params, random);
}

__global__ void convert_to_half(uint32_t stride, uint32_t count, uint16_t *out) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= count) return;
  const uint32_t bits = i * stride + (i & (stride - 1));  // walk the low bits too
  out[i] = __half_as_ushort(__float2half_rn(__uint_as_float(bits)));
}

void test_half_sweep() {
  const uint32_t stride = 64, count = 1u << 26;
  uint16_t *device = nullptr;
  CUDA_OK(cudaMalloc(&device, count * sizeof(uint16_t)));
  convert_to_half<<<count / 256, 256>>>(stride, count, device);
  CUDA_OK(cudaGetLastError());
  std::vector<uint16_t> gpu(count);
  CUDA_OK(cudaMemcpy(gpu.data(), device, count * sizeof(uint16_t), cudaMemcpyDeviceToHost));
  CUDA_OK(cudaFree(device));
  size_t mismatches = 0;
  std::string first;
  for (uint32_t i = 0; i < count; ++i) {
    const uint32_t bits = i * stride + (i & (stride - 1));
    float value;
    std::memcpy(&value, &bits, 4);
    const uint16_t cpu = dsnode::ops::detail::float_to_half_bits(value);
    if (cpu != gpu[i] && mismatches++ == 0) {
      char text[96];
      std::snprintf(text, sizeof text, "bits 0x%08x: cpu 0x%04x, __float2half_rn 0x%04x", bits, cpu, gpu[i]);
      first = text;
    }
  }
  check(mismatches == 0, "CPU float → half equals __float2half_rn on 2^26 float bit patterns (NaNs included)",
      std::to_string(mismatches) + " mismatches, first " + first);
}

// --- Bench.

struct Timing {
  double median_ms, min_ms;
};

template <typename Work>
Timing time_on_stream(cudaStream_t stream, int warmup, int iterations, Work work) {
  for (int i = 0; i < warmup; ++i) work();
  std::vector<cudaEvent_t> events(static_cast<size_t>(iterations) + 1);
  for (cudaEvent_t &event : events) CUDA_OK(cudaEventCreate(&event));
  CUDA_OK(cudaEventRecord(events[0], stream));
  for (int i = 0; i < iterations; ++i) {
    work();
    CUDA_OK(cudaEventRecord(events[static_cast<size_t>(i) + 1], stream));
  }
  CUDA_OK(cudaEventSynchronize(events.back()));
  std::vector<double> times;
  for (int i = 0; i < iterations; ++i) {
    float ms = 0;
    CUDA_OK(cudaEventElapsedTime(&ms, events[static_cast<size_t>(i)], events[static_cast<size_t>(i) + 1]));
    times.push_back(ms);
  }
  for (cudaEvent_t &event : events) CUDA_OK(cudaEventDestroy(event));
  return {median(times), *std::min_element(times.begin(), times.end())};
}

// Source rows the sampler reads for one frame: a row with non-zero weight, or the first tap.
size_t rows_read(const FrameTransform &transform, const PreprocessParams &params, int32_t source_height) {
  std::vector<bool> read(static_cast<size_t>(source_height), false);
  const float ratio = static_cast<float>(source_height) / static_cast<float>(transform.resized_height);
  const int32_t pad = static_cast<int32_t>(transform.pad_y);
  for (int32_t y = pad; y < pad + transform.resized_height; ++y) {
    float source = (static_cast<float>(y - pad) + 0.5f) * ratio - 0.5f;
    source = std::min(std::max(source, 0.0f), static_cast<float>(source_height - 1));
    const int32_t first = static_cast<int32_t>(source);
    read[static_cast<size_t>(first)] = true;
    if (source - static_cast<float>(first) != 0.0f && first + 1 < source_height) read[static_cast<size_t>(first) + 1] = true;
  }
  return static_cast<size_t>(std::count(read.begin(), read.end(), true));
}

struct BenchCase {
  std::string name;
  int width, height;
};

std::string bench_case_json(const BenchCase &bench, double copy_gbps, int iterations, cudaStream_t stream,
    const char *dump_dir) {
  constexpr int kFrames = 16;
  const int pitch = bench.width * 3;
  const size_t frame_bytes = static_cast<size_t>(pitch) * bench.height;
  std::vector<uint8_t> host(frame_bytes * kFrames);
  std::mt19937 random(static_cast<unsigned>(bench.width));
  for (uint8_t &byte : host) byte = static_cast<uint8_t>(random());
  uint8_t *input = nullptr;
  CUDA_OK(cudaMalloc(&input, host.size()));
  copy_to_device(input, host.data(), host.size());
  std::vector<ImageView> views;
  for (int i = 0; i < kFrames; ++i) views.push_back({input + frame_bytes * i, bench.width, bench.height, pitch, PixelFormat::kRGB});

  PreprocessParams params;  // 640×640 letterbox, centred, pad 114, RGB
  params.out_dtype = DType::kFloat16;
  params.layout = Layout::kNCHW;
  params.mean[0] = 0.485f, params.mean[1] = 0.456f, params.mean[2] = 0.406f;
  params.std[0] = 0.229f, params.std[1] = 0.224f, params.std[2] = 0.225f;
  const size_t out_bytes = output_size_bytes(params, kFrames);
  void *output = nullptr;
  CUDA_OK(cudaMalloc(&output, out_bytes));
  std::vector<FrameTransform> transforms(kFrames);
  Status status = Status::Ok();
  const Timing timing = time_on_stream(stream, 10, iterations, [&] {
    status = preprocess_cuda(views.data(), kFrames, params, output, transforms.data(), stream);
  });
  CUDA_OK(cudaStreamSynchronize(stream));
  // The CPU side of a call (validation, descriptors, launch): below the kernel time, the
  // timings above have no gaps between kernels.
  const auto host_start = std::chrono::steady_clock::now();
  for (int i = 0; i < iterations; ++i) preprocess_cuda(views.data(), kFrames, params, output, transforms.data(), stream);
  const double host_us =
      std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - host_start).count() / iterations;
  CUDA_OK(cudaStreamSynchronize(stream));
  if (!status.ok()) {
    std::fprintf(stderr, "preprocess_cuda: %s\n", status.message.c_str());
    std::exit(2);
  }

  if (dump_dir != nullptr && bench.width == 1920) {
    std::vector<uint8_t> out_frame(out_bytes / kFrames);
    CUDA_OK(cudaMemcpy(out_frame.data(), output, out_frame.size(), cudaMemcpyDeviceToHost));
    const std::string dir(dump_dir);
    FILE *file = std::fopen((dir + "/input-frame0-1080x1920x3.u8").c_str(), "wb");
    FILE *result = std::fopen((dir + "/output-frame0-3x640x640.f16").c_str(), "wb");
    if (file == nullptr || result == nullptr) {
      std::fprintf(stderr, "cannot write to %s\n", dump_dir);
      std::exit(2);
    }
    std::fwrite(host.data(), 1, frame_bytes, file);
    std::fwrite(out_frame.data(), 1, out_frame.size(), result);
    std::fclose(file);
    std::fclose(result);
  }
  CUDA_OK(cudaFree(output));
  CUDA_OK(cudaFree(input));

  const double input_bytes = static_cast<double>(frame_bytes) * kFrames;
  const double touched_input = static_cast<double>(rows_read(transforms[0], params, bench.height)) * pitch * kFrames;
  const double moved = input_bytes + static_cast<double>(out_bytes);
  const double touched = touched_input + static_cast<double>(out_bytes);
  const double gbps = moved / (timing.median_ms * 1e6);
  const double touched_gbps = touched / (timing.median_ms * 1e6);
  char json[1024];
  std::snprintf(json, sizeof json,
      "{\"name\": \"%s\", \"frames\": %d, \"input\": \"%dx%d RGB uint8\", \"output\": \"16x3x640x640 float16 NCHW\", "
      "\"median_ms\": %.5f, \"min_ms\": %.5f, \"iterations\": %d, \"input_bytes\": %.0f, \"output_bytes\": %zu, "
      "\"bandwidth_gbps\": %.1f, \"pct_of_copy\": %.1f, \"input_bytes_read\": %.0f, \"touched_bandwidth_gbps\": %.1f, "
      "\"touched_pct_of_copy\": %.1f, \"copy_gbps\": %.1f, \"host_us_per_call\": %.2f}",
      bench.name.c_str(), kFrames, bench.width, bench.height, timing.median_ms, timing.min_ms, iterations, input_bytes,
      out_bytes, gbps, 100 * gbps / copy_gbps, touched_input, touched_gbps, 100 * touched_gbps / copy_gbps, copy_gbps,
      host_us);
  return json;
}

std::string bench(int iterations, const char *dump_dir) {
  cudaStream_t stream;
  CUDA_OK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  // Copy bandwidth: 1 GiB device to device, bytes read + bytes written over time.
  const size_t copy_bytes = size_t{1} << 30;
  void *source = nullptr, *target = nullptr;
  CUDA_OK(cudaMalloc(&source, copy_bytes));
  CUDA_OK(cudaMalloc(&target, copy_bytes));
  CUDA_OK(cudaMemset(source, 1, copy_bytes));
  const Timing copy = time_on_stream(stream, 3, 20, [&] {
    CUDA_OK(cudaMemcpyAsync(target, source, copy_bytes, cudaMemcpyDeviceToDevice, stream));
  });
  CUDA_OK(cudaFree(source));
  CUDA_OK(cudaFree(target));
  const double copy_gbps = 2.0 * static_cast<double>(copy_bytes) / (copy.median_ms * 1e6);

  cudaDeviceProp properties;
  CUDA_OK(cudaGetDeviceProperties(&properties, 0));
  int runtime = 0, driver = 0;
  CUDA_OK(cudaRuntimeGetVersion(&runtime));
  CUDA_OK(cudaDriverGetVersion(&driver));
  const std::string full_hd = bench_case_json({"letterbox+normalise 16x1080p", 1920, 1080}, copy_gbps, iterations, stream, dump_dir);
  const std::string hd = bench_case_json({"letterbox+normalise 16x720p", 1280, 720}, copy_gbps, iterations, stream, dump_dir);
  CUDA_OK(cudaStreamDestroy(stream));

  char head[512];
  std::snprintf(head, sizeof head,
      "{\"device\": \"%s\", \"sm\": \"%d.%d\", \"cuda_runtime\": %d, \"cuda_driver\": %d, "
      "\"copy\": {\"bytes\": %zu, \"median_ms\": %.4f, \"bandwidth_gbps\": %.1f}, ",
      properties.name, properties.major, properties.minor, runtime, driver, copy_bytes, copy.median_ms, copy_gbps);
  return std::string(head) + "\"cases\": [" + full_hd + ", " + hd + "], ";
}

}  // namespace

int main(int argc, char **argv) {
  const char *json_path = nullptr;
  const char *dump_dir = nullptr;
  int iterations = 100;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--json" && i + 1 < argc) {
      json_path = argv[++i];
    } else if (arg == "--dump" && i + 1 < argc) {
      dump_dir = argv[++i];
    } else if (arg == "--iterations" && i + 1 < argc) {
      iterations = std::max(1, std::atoi(argv[++i]));
    } else {
      std::fprintf(stderr, "usage: %s [--json PATH] [--dump DIR] [--iterations N]\n", argv[0]);
      return 2;
    }
  }
  dsnode_test::require_cuda_device();
  CUDA_OK(cudaSetDevice(0));

  test_half_sweep();
  test_matrix();
  test_special_batches();
  test_full_hd_batch();
  std::printf("# %zu of %zu values bit-identical between CUDA and CPU\n", totals.identical, totals.values);
  std::printf("%d passed, %d failed\n", passed, failed);

  std::string json = bench(iterations, dump_dir);
  char tail[160];
  std::snprintf(tail, sizeof tail, "\"correctness\": {\"passed\": %d, \"failed\": %d, \"values\": %zu, \"identical\": %zu}}",
      passed, failed, totals.values, totals.identical);
  json += tail;
  std::printf("%s\n", json.c_str());
  if (json_path != nullptr) {
    FILE *file = std::fopen(json_path, "w");
    if (file != nullptr) {
      std::fprintf(file, "%s\n", json.c_str());
      std::fclose(file);
    }
  }
  return failed == 0 ? 0 : 1;
}
