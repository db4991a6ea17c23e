// The pre-processing op (src/ops/) on the CPU against a reference written here, independently,
// from the definitions in docs/internals/ops.md, in double precision: random bytes, odd frame
// and output sizes, padded pitches, every format × mode × layout × dtype × channel order; plus
// hand-computed values, transforms, box mapping, float → half rounding and error texts.
// Prints "N passed, M failed".
//
// Tolerances, against the double reference (the op computes in float32):
// - every value, in pixel units (0..255) before normalisation: 0.25. Source coordinates in
//   float32 are off by up to ~3e-4 pixel at 2000 pixels, and a bilinear value moves by at most
//   255 per pixel of coordinate: ~0.08. A wrong convention (corner-aligned, no half pixel,
//   wrong padding) is off by tens.
// - float32: that, times |scale / std|, plus 1e-5 × (1 + |value|) for the normalisation.
// - float16: the float32 bound plus half an ulp of binary16 (|value| × 2^-11, 2^-25 at least).
// - uint8: |out − reference| <= 0.5 + 0.25 (the rounding of a value within tolerance of .5).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "check.h"
#include "ops/half.h"
#include "ops/ops.h"

using namespace dsnode::ops;

namespace {

using dsnode_test::check;
using dsnode_test::failed;
using dsnode_test::passed;

constexpr double kPixelTolerance = 0.25;

// --- The reference: nothing below calls into the op except through preprocess_cpu.

struct FormatInfo {
  PixelFormat format;
  const char *name;
  int bytes;
  int red, green, blue;  // byte of each colour within a pixel
};
const FormatInfo kFormats[] = {
    {PixelFormat::kRGB, "RGB", 3, 0, 1, 2},
    {PixelFormat::kRGBA, "RGBA", 4, 0, 1, 2},
    {PixelFormat::kBGR, "BGR", 3, 2, 1, 0},
    {PixelFormat::kBGRx, "BGRx", 4, 2, 1, 0},
    {PixelFormat::kGRAY8, "GRAY8", 1, 0, 0, 0},
};
const FormatInfo &info(PixelFormat format) {
  for (const FormatInfo &entry : kFormats) {
    if (entry.format == format) return entry;
  }
  return kFormats[0];
}

struct Frame {
  std::vector<uint8_t> bytes;
  ImageView view;
};

// Random pixels, and random bytes in the pitch padding too (which the op must not read).
Frame random_frame(std::mt19937 &random, int width, int height, PixelFormat format) {
  Frame frame;
  const int pitch = width * info(format).bytes + static_cast<int>(random() % 13);
  frame.bytes.resize(static_cast<size_t>(pitch) * height);
  for (uint8_t &byte : frame.bytes) byte = static_cast<uint8_t>(random());
  frame.view = {frame.bytes.data(), width, height, pitch, format};
  return frame;
}

struct Geometry {
  int resized_width, resized_height, pad_x, pad_y;
};

Geometry reference_geometry(int width, int height, const PreprocessParams &params) {
  if (params.mode == ResizeMode::kStretch) return {params.out_width, params.out_height, 0, 0};
  const double factor = std::min(static_cast<double>(params.out_width) / width, static_cast<double>(params.out_height) / height);
  Geometry geometry;
  geometry.resized_width = std::clamp(static_cast<int>(std::floor(width * factor + 0.5)), 1, params.out_width);
  geometry.resized_height = std::clamp(static_cast<int>(std::floor(height * factor + 0.5)), 1, params.out_height);
  geometry.pad_x = params.center ? (params.out_width - geometry.resized_width) / 2 : 0;
  geometry.pad_y = params.center ? (params.out_height - geometry.resized_height) / 2 : 0;
  return geometry;
}

// Source coordinate of output index `index` on one axis (half-pixel centres, clamped).
void reference_axis(int index, int pad, int source_size, int resized_size, int &first, int &second, double &weight) {
  double source = (index - pad + 0.5) * (static_cast<double>(source_size) / resized_size) - 0.5;
  source = std::clamp(source, 0.0, static_cast<double>(source_size - 1));
  first = static_cast<int>(std::floor(source));
  second = std::min(first + 1, source_size - 1);
  weight = source - first;
}

// The interpolated pixel value (0..255) of output channel `channel` at (x, y).
double reference_pixel(const ImageView &frame, const Geometry &geometry, const PreprocessParams &params, int channel,
    int x, int y) {
  if (x < geometry.pad_x || x >= geometry.pad_x + geometry.resized_width || y < geometry.pad_y ||
      y >= geometry.pad_y + geometry.resized_height) {
    return params.pad_value;
  }
  const FormatInfo &format = info(frame.format);
  const bool bgr = params.out_order == ChannelOrder::kBGR;
  const int colour_byte = channel == 1 ? format.green : ((channel == 0) != bgr ? format.red : format.blue);
  int x0, x1, y0, y1;
  double wx, wy;
  reference_axis(x, geometry.pad_x, frame.width, geometry.resized_width, x0, x1, wx);
  reference_axis(y, geometry.pad_y, frame.height, geometry.resized_height, y0, y1, wy);
  auto at = [&](int px, int py) {
    return static_cast<double>(frame.data[static_cast<size_t>(py) * frame.pitch + static_cast<size_t>(px) * format.bytes + colour_byte]);
  };
  return (1 - wy) * ((1 - wx) * at(x0, y0) + wx * at(x1, y0)) + wy * ((1 - wx) * at(x0, y1) + wx * at(x1, y1));
}

// --- Running and comparing.

struct Run {
  std::vector<uint8_t> output;  // plus a canary tail
  std::vector<FrameTransform> transforms;
  Status status;
};

constexpr size_t kCanaryBytes = 64;

Run run_cpu(const std::vector<Frame> &frames, const PreprocessParams &params) {
  std::vector<ImageView> views;
  for (const Frame &frame : frames) views.push_back(frame.view);
  Run run;
  run.output.assign(output_size_bytes(params, static_cast<int32_t>(views.size())) + kCanaryBytes, 0xA5);
  run.transforms.resize(views.size());
  run.status = preprocess_cpu(views.data(), static_cast<int32_t>(views.size()), params, run.output.data(), run.transforms.data());
  return run;
}

double output_value(const Run &run, const PreprocessParams &params, size_t index) {
  switch (params.out_dtype) {
    case DType::kUint8: return run.output[index];
    case DType::kFloat32: {
      float value;
      std::memcpy(&value, run.output.data() + index * 4, 4);
      return value;
    }
    case DType::kFloat16: {
      uint16_t bits;
      std::memcpy(&bits, run.output.data() + index * 2, 2);
      return dsnode::ops::detail::half_bits_to_float(bits);
    }
  }
  return std::numeric_limits<double>::quiet_NaN();
}

struct Comparison {
  bool ok = true;
  double max_pixel_error = 0;  // in pixel units
  std::string detail;
};

Comparison compare(const std::vector<Frame> &frames, const PreprocessParams &params, const Run &run) {
  Comparison result;
  if (!run.status.ok()) {
    result.ok = false;
    result.detail = run.status.message;
    return result;
  }
  const size_t bytes = output_size_bytes(params, static_cast<int32_t>(frames.size()));
  for (size_t i = 0; i < kCanaryBytes; ++i) {
    if (run.output[bytes + i] != 0xA5) {
      result.ok = false;
      result.detail = "wrote past the end of the output";
      return result;
    }
  }
  const int width = params.out_width, height = params.out_height, channels = params.out_channels;
  for (size_t f = 0; f < frames.size(); ++f) {
    const ImageView &frame = frames[f].view;
    const Geometry geometry = reference_geometry(frame.width, frame.height, params);
    for (int c = 0; c < channels; ++c) {
      const double alpha = params.out_dtype == DType::kUint8 ? 1.0 : static_cast<double>(params.scale) / params.std[c];
      for (int y = 0; y < height; ++y) {
        for (int x = 0; x < width; ++x) {
          const double pixel = reference_pixel(frame, geometry, params, c, x, y);
          const size_t index = params.layout == Layout::kNCHW
              ? ((f * channels + c) * height + y) * width + x
              : ((f * height + y) * width + x) * channels + c;
          const double actual = output_value(run, params, index);
          double expected, tolerance;
          if (params.out_dtype == DType::kUint8) {
            expected = pixel;
            tolerance = 0.5 + kPixelTolerance;
          } else {
            expected = (pixel * params.scale - params.mean[c]) / params.std[c];
            tolerance = kPixelTolerance * std::fabs(alpha) + 1e-5 * (1 + std::fabs(expected));
            if (params.out_dtype == DType::kFloat16) tolerance += std::max(std::fabs(expected) * std::ldexp(1.0, -11), std::ldexp(1.0, -25));
          }
          const double error = std::fabs(actual - expected);
          if (params.out_dtype == DType::kFloat32) result.max_pixel_error = std::max(result.max_pixel_error, error / std::fabs(alpha));
          if (!(error <= tolerance) && result.ok) {
            result.ok = false;
            char text[256];
            std::snprintf(text, sizeof text, "frame %zu (%dx%d %s) channel %d x %d y %d: %.6f, expected %.6f (tolerance %.6f)",
                f, frame.width, frame.height, info(frame.format).name, c, x, y, actual, expected, tolerance);
            result.detail = text;
          }
        }
      }
    }
    const FrameTransform &transform = run.transforms[f];
    if (result.ok && (transform.resized_width != geometry.resized_width || transform.resized_height != geometry.resized_height ||
            transform.pad_x != geometry.pad_x || transform.pad_y != geometry.pad_y ||
            transform.source_width != frame.width || transform.source_height != frame.height)) {
      result.ok = false;
      result.detail = "transform of frame " + std::to_string(f) + " differs from the reference geometry";
    }
  }
  return result;
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

PreprocessParams random_params(std::mt19937 &random) {
  PreprocessParams params;
  params.out_width = 17 + 2 * static_cast<int>(random() % 48);  // odd, 17..111
  params.out_height = 17 + 2 * static_cast<int>(random() % 48);
  params.pad_value = static_cast<float>(random() % 256);
  std::uniform_real_distribution<float> mean(-1.0f, 1.0f), deviation(0.1f, 2.0f);
  params.scale = 1.0f / 255.0f;
  for (int c = 0; c < 3; ++c) {
    params.mean[c] = mean(random);
    params.std[c] = deviation(random);
  }
  return params;
}

// Three frames per batch: one smaller than the output, one larger, one of extreme aspect ratio.
std::vector<Frame> random_batch(std::mt19937 &random, const PreprocessParams &params, PixelFormat format) {
  auto odd = [&](int low, int high) {
    return low + 2 * static_cast<int>(random() % static_cast<unsigned>(std::max(high - low, 0) / 2 + 1));
  };
  std::vector<Frame> frames;
  frames.push_back(random_frame(random, odd(3, params.out_width - 2), odd(3, params.out_height - 2), format));
  frames.push_back(random_frame(random, odd(params.out_width + 2, 401), odd(params.out_height + 2, 301), format));
  frames.push_back(random_frame(random, odd(151, 333), odd(1, 7), format));
  return frames;
}

// --- The checks.

void test_against_reference() {
  std::mt19937 random(20240611);
  const ResizeMode modes[] = {ResizeMode::kLetterbox, ResizeMode::kLetterbox, ResizeMode::kStretch};
  const bool centres[] = {true, false, true};
  double worst = 0;
  for (const FormatInfo &format : kFormats) {
    for (int m = 0; m < 3; ++m) {
      for (Layout layout : {Layout::kNCHW, Layout::kNHWC}) {
        for (DType dtype : {DType::kUint8, DType::kFloat32, DType::kFloat16}) {
          for (ChannelOrder order : {ChannelOrder::kRGB, ChannelOrder::kBGR}) {
            PreprocessParams params = random_params(random);
            params.mode = modes[m];
            params.center = centres[m];
            params.layout = layout;
            params.out_dtype = dtype;
            params.out_order = order;
            const std::vector<Frame> frames = random_batch(random, params, format.format);
            const Comparison comparison = compare(frames, params, run_cpu(frames, params));
            worst = std::max(worst, comparison.max_pixel_error);
            check(comparison.ok, std::string(format.name) + " → " + describe(params), comparison.detail);
          }
        }
      }
    }
  }
  char text[128];
  std::snprintf(text, sizeof text, "largest float32 error over all cases: %.4f pixel units (tolerance %.2f)", worst, kPixelTolerance);
  check(worst <= kPixelTolerance, text);
}

void test_gray_one_channel() {
  std::mt19937 random(7);
  for (Layout layout : {Layout::kNCHW, Layout::kNHWC}) {
    for (DType dtype : {DType::kUint8, DType::kFloat32, DType::kFloat16}) {
      PreprocessParams params = random_params(random);
      params.out_channels = 1;
      params.layout = layout;
      params.out_dtype = dtype;
      const std::vector<Frame> frames = random_batch(random, params, PixelFormat::kGRAY8);
      const Comparison comparison = compare(frames, params, run_cpu(frames, params));
      check(comparison.ok, "GRAY8 → " + describe(params), comparison.detail);
    }
  }
}

void test_mixed_batch() {
  std::mt19937 random(11);
  PreprocessParams params = random_params(random);
  params.out_dtype = DType::kFloat32;
  std::vector<Frame> frames;
  for (const FormatInfo &format : kFormats) {
    frames.push_back(random_frame(random, 1 + 2 * static_cast<int>(random() % 150), 1 + 2 * static_cast<int>(random() % 150), format.format));
  }
  frames.push_back(random_frame(random, 1, 1, PixelFormat::kRGB));  // one pixel: fills the output
  const Comparison comparison = compare(frames, params, run_cpu(frames, params));
  check(comparison.ok, "one batch of every format and size, a 1×1 frame among them → " + describe(params), comparison.detail);
}

void test_full_hd() {
  std::mt19937 random(1080);
  PreprocessParams params;  // 640×640 letterbox
  params.out_dtype = DType::kFloat16;
  params.mean[0] = 0.485f, params.mean[1] = 0.456f, params.mean[2] = 0.406f;
  params.std[0] = 0.229f, params.std[1] = 0.224f, params.std[2] = 0.225f;
  std::vector<Frame> frames;
  frames.push_back(random_frame(random, 1920, 1080, PixelFormat::kRGB));
  frames.push_back(random_frame(random, 1080, 1920, PixelFormat::kBGRx));
  const Run run = run_cpu(frames, params);
  const Comparison comparison = compare(frames, params, run);
  check(comparison.ok, "1920×1080 RGB and 1080×1920 BGRx → 640×640 letterbox float16 NCHW, ImageNet mean/std", comparison.detail);
  const FrameTransform &landscape = run.transforms[0], &portrait = run.transforms[1];
  check(landscape.resized_width == 640 && landscape.resized_height == 360 && landscape.pad_x == 0 && landscape.pad_y == 140 &&
          std::fabs(landscape.scale_x - 1.0f / 3) < 1e-7f && std::fabs(landscape.scale_y - 1.0f / 3) < 1e-7f,
      "1920×1080 letterboxes to 640×360 at y 140, scale 1/3");
  check(portrait.resized_width == 360 && portrait.resized_height == 640 && portrait.pad_x == 140 && portrait.pad_y == 0,
      "1080×1920 letterboxes to 360×640 at x 140");
}

// Values worked out by hand: they pin the convention to PyTorch's F.interpolate(mode="bilinear",
// align_corners=False) and OpenCV's INTER_LINEAR.
void test_known_values() {
  // A 2×1 GRAY8 image (0, 255) stretched to 4×1: sources −0.25 → 0, 0.25, 0.75, 1.25 → 1.
  const uint8_t two[2] = {0, 255};
  ImageView frame{two, 2, 1, 2, PixelFormat::kGRAY8};
  PreprocessParams params;
  params.out_width = 4;
  params.out_height = 1;
  params.mode = ResizeMode::kStretch;
  params.scale = 1.0f;
  float values[12];
  check(preprocess_cpu(&frame, 1, params, values, nullptr).ok() && values[0] == 0.0f && values[1] == 63.75f &&
          values[2] == 191.25f && values[3] == 255.0f && values[4] == 0.0f && values[8] == 0.0f && values[7] == 255.0f,
      "2×1 → 4×1 stretch: 0, 63.75, 191.25, 255 in all three channels");
  params.out_dtype = DType::kUint8;
  uint8_t bytes[12];
  check(preprocess_cpu(&frame, 1, params, bytes, nullptr).ok() && bytes[0] == 0 && bytes[1] == 64 && bytes[2] == 191 && bytes[3] == 255,
      "uint8 output rounds half up: 0, 64, 191, 255");

  // 3:1 downscale samples the middle pixel of each 3×3 block exactly.
  uint8_t six[6 * 3 * 3];
  for (int i = 0; i < 6 * 3 * 3; ++i) six[i] = static_cast<uint8_t>(i);
  ImageView wide{six, 6, 3, 18, PixelFormat::kRGB};
  params.out_width = 2;
  params.out_height = 1;
  params.out_dtype = DType::kFloat32;
  params.layout = Layout::kNHWC;
  check(preprocess_cpu(&wide, 1, params, values, nullptr).ok() && values[0] == 21 && values[1] == 22 && values[2] == 23 &&
          values[3] == 30 && values[4] == 31 && values[5] == 32,
      "6×3 → 2×1 takes pixels (1, 1) and (4, 1) exactly");

  // Normalisation and BGR order on one grey-padded pixel column.
  const uint8_t pixel[3] = {10, 20, 30};
  ImageView one{pixel, 1, 1, 3, PixelFormat::kRGB};
  params = PreprocessParams();
  params.out_width = 3;
  params.out_height = 1;
  params.pad_value = 114;
  params.out_order = ChannelOrder::kBGR;
  params.scale = 1.0f;
  params.mean[0] = 100, params.mean[1] = 0, params.mean[2] = 10;
  params.std[0] = 2, params.std[1] = 1, params.std[2] = 4;
  const bool ran = preprocess_cpu(&one, 1, params, values, nullptr).ok();
  // Letterbox 1×1 → 1×1 at x 1 of 3. Channel 0 is blue: (30 − 100) / 2; padding (114 − 100) / 2.
  check(ran && values[0] == 7 && values[1] == -35 && values[2] == 7 && values[3] == 114 && values[4] == 20 &&
          values[5] == 114 && values[6] == 26 && values[7] == 0 && values[8] == 26,
      "BGR order, mean/std in output channel order, padding normalised like a pixel");
}

void test_half_conversion() {
  // The reference: the nearest binary16 by search among all finite values, ties to the even one.
  std::vector<double> halves;  // value of positive half h at index h, 0..0x7bff
  for (uint32_t h = 0; h <= 0x7bffu; ++h) {
    const uint32_t exponent = h >> 10, mantissa = h & 0x3ffu;
    halves.push_back(exponent == 0 ? std::ldexp(mantissa, -24) : std::ldexp(1024.0 + mantissa, static_cast<int>(exponent) - 25));
  }
  auto reference = [&](float value) -> uint16_t {
    const uint16_t sign = std::signbit(value) ? 0x8000 : 0;
    const double magnitude = std::fabs(static_cast<double>(value));
    if (magnitude >= 65520.0) return sign | 0x7c00;
    const auto above = std::lower_bound(halves.begin(), halves.end(), magnitude);
    if (above == halves.begin()) return sign;
    if (above == halves.end()) return sign | 0x7bff;  // 65504 < |value| < 65520
    const uint32_t high = static_cast<uint32_t>(above - halves.begin()), low = high - 1;
    const double below_gap = magnitude - halves[low], above_gap = halves[high] - magnitude;
    uint32_t nearest = below_gap < above_gap ? low : above_gap < below_gap ? high : (low % 2 == 0 ? low : high);
    return static_cast<uint16_t>(sign | nearest);
  };
  std::mt19937 random(16);
  int mismatches = 0;
  std::string first;
  auto try_value = [&](float value) {
    const uint16_t actual = dsnode::ops::detail::float_to_half_bits(value), expected = reference(value);
    if (actual != expected && mismatches++ == 0) {
      char text[128];
      std::snprintf(text, sizeof text, "%.9g → 0x%04x, expected 0x%04x", value, actual, expected);
      first = text;
    }
  };
  for (int i = 0; i < 200000; ++i) {  // random bit patterns in the half range and around it
    uint32_t bits = 0x30000000u + static_cast<uint32_t>(random() % 0x18000000u);
    bits |= (random() & 1u) << 31;
    float value;
    std::memcpy(&value, &bits, 4);
    try_value(value);
  }
  for (uint32_t h = 0; h < 0x7c00u; ++h) {  // every half, and the midpoints to its neighbour
    const double value = h <= 0x7bffu ? halves[h] : 65504.0;
    try_value(static_cast<float>(value));
    if (h < 0x7bffu) {
      try_value(static_cast<float>((value + halves[h + 1]) / 2));
      try_value(std::nextafter(static_cast<float>((value + halves[h + 1]) / 2), 0.0f));
      try_value(std::nextafter(static_cast<float>((value + halves[h + 1]) / 2), 1e9f));
    }
  }
  for (float value : {65504.0f, 65519.99f, 65520.0f, 1e9f, 5.9604645e-8f, 2.9802322e-8f, 2.9802326e-8f, 1e-30f, -0.0f}) try_value(value);
  check(mismatches == 0, "float → half rounds to nearest even (every half, every midpoint, 200 000 random floats)",
      std::to_string(mismatches) + " mismatches, first " + first);
  const float infinity = std::numeric_limits<float>::infinity();
  check(dsnode::ops::detail::float_to_half_bits(infinity) == 0x7c00 && dsnode::ops::detail::float_to_half_bits(-infinity) == 0xfc00 &&
          dsnode::ops::detail::float_to_half_bits(std::nanf("")) == 0x7fff,
      "float → half: ±infinity, NaN → 0x7fff as CUDA");
  bool round_trip = true;
  for (uint32_t h = 0; h < 0x10000u; ++h) {
    if ((h & 0x7c00u) == 0x7c00u && (h & 0x3ffu) != 0) continue;  // NaNs
    round_trip = round_trip && dsnode::ops::detail::float_to_half_bits(dsnode::ops::detail::half_bits_to_float(static_cast<uint16_t>(h))) == h;
  }
  check(round_trip, "half → float → half is the identity on every non-NaN half");
}

void test_transforms() {
  PreprocessParams params;
  FrameTransform transform = compute_transform(101, 37, params);
  // 640/101 limits: 37 × 6.3366… = 234.46 → 234, padding (640 − 234) / 2 = 203.
  check(transform.resized_width == 640 && transform.resized_height == 234 && transform.pad_x == 0 && transform.pad_y == 203,
      "101×37 letterboxes to 640×234 at y 203");
  params.center = false;
  transform = compute_transform(101, 37, params);
  check(transform.pad_x == 0 && transform.pad_y == 0, "top-left letterbox has no padding before the image");
  params.mode = ResizeMode::kStretch;
  transform = compute_transform(1920, 1080, params);
  check(transform.resized_width == 640 && transform.resized_height == 640 && transform.scale_x == static_cast<float>(640.0 / 1920) &&
          transform.scale_y == static_cast<float>(640.0 / 1080),
      "stretch scales each axis on its own");

  params = PreprocessParams();
  transform = compute_transform(1920, 1080, params);
  const Box network{100, 240, 64, 32};
  const Box frame = network_to_frame(transform, network);
  check(std::fabs(frame.left - 300) < 1e-3f && std::fabs(frame.top - 300) < 1e-3f && std::fabs(frame.width - 192) < 1e-3f &&
          std::fabs(frame.height - 96) < 1e-3f,
      "network box (100, 240, 64, 32) is frame box (300, 300, 192, 96) in 1080p letterboxed at y 140");
  const Box back = frame_to_network(transform, frame);
  check(std::fabs(back.left - network.left) < 1e-3f && std::fabs(back.top - network.top) < 1e-3f &&
          std::fabs(back.width - network.width) < 1e-3f && std::fabs(back.height - network.height) < 1e-3f,
      "frame_to_network undoes network_to_frame");
  // The box maths and the sampler agree: the centre of network pixel i is at source
  // coordinate (i − pad + 0.5) × ratio − 0.5, i.e. frame point + 0.5.
  transform = compute_transform(101, 37, PreprocessParams());
  const Point centre = network_to_frame(transform, Point{320.5f, 300.5f});
  const double expected_x = (320 - 0 + 0.5) * (101.0 / 640) - 0.5 + 0.5, expected_y = (300 - 203 + 0.5) * (37.0 / 234) - 0.5 + 0.5;
  check(std::fabs(centre.x - expected_x) < 1e-4 && std::fabs(centre.y - expected_y) < 1e-4,
      "network_to_frame maps a network pixel centre where the sampler reads it");
  const Box clipped = clip_to_frame(compute_transform(1920, 1080, PreprocessParams()), Box{-10, 1000, 100, 200});
  check(clipped.left == 0 && clipped.top == 1000 && clipped.width == 90 && clipped.height == 80,
      "clip_to_frame keeps the part inside the frame");
  const Box outside = clip_to_frame(compute_transform(1920, 1080, PreprocessParams()), Box{2000, 10, 50, 50});
  check(outside.width == 0 && outside.height == 50 && outside.left == 1920, "a box right of the frame clips to zero width");
}

void check_error(const Status &status, const std::string &expected_message, const std::string &name) {
  check(!status.ok() && status.code == ErrorCode::kInvalidValue && status.message == expected_message, name,
      status.ok() ? "succeeded" : "message: " + status.message);
}

void test_errors() {
  const uint8_t pixels[12] = {};
  ImageView frame{pixels, 2, 2, 6, PixelFormat::kRGB};
  PreprocessParams params;
  float out[64];
  auto run = [&](const ImageView &view, const PreprocessParams &p) { return preprocess_cpu(&view, 1, p, out, nullptr); };

  ImageView bad = frame;
  bad.width = 0;
  check_error(run(bad, params), "Expected an integer from 1 to 32768 for frames[0].width but received 0", "zero width");
  bad = frame;
  bad.pitch = 5;
  check_error(run(bad, params),
      "Expected a pitch of at least 6 bytes (width 2 × 3 bytes per RGB pixel) for frames[0].pitch but received 5", "short pitch");
  bad = frame;
  bad.data = nullptr;
  check_error(run(bad, params), "Expected a pixel pointer for frames[0].data but received null", "null pixels");
  bad = frame;
  bad.format = static_cast<PixelFormat>(12);
  check_error(run(bad, params),
      "Expected one of RGB (0), RGBA (1), BGR (2), BGRx (3), GRAY8 (4), RGBx (5), BGRA (6), ARGB (7), ABGR (8), NV12 (9), "
      "NV21 (10), I420 (11) for frames[0].format but received 12",
      "unknown format");
  bad = frame;
  bad.format = PixelFormat::kNV12;
  check_error(run(bad, params), "Expected a chroma plane for frames[0].chroma[0] but received null", "NV12 without chroma");
  bad.chroma[0] = frame.data;
  bad.chroma_pitch[0] = 1;
  check_error(run(bad, params),
      "Expected a pitch of at least 2 bytes (NV12 chroma of a frame 2 wide) for frames[0].chroma_pitch[0] but received 1",
      "NV12 chroma pitch");
  bad.chroma_pitch[0] = 2;
  bad.matrix = static_cast<ColorMatrix>(3);
  check_error(run(bad, params), "Expected one of kBT601 (0), kBT709 (1), kBT2020 (2) for frames[0].matrix but received 3",
      "unknown matrix");

  PreprocessParams wrong = params;
  wrong.out_width = 0;
  check_error(run(frame, wrong), "Expected an integer from 1 to 16384 for params.out_width but received 0", "zero output width");
  wrong = params;
  wrong.std[1] = 0;
  check_error(run(frame, wrong), "Expected a finite non-zero number for params.std[1] but received 0", "zero std");
  wrong = params;
  wrong.mean[2] = std::nanf("");
  check_error(run(frame, wrong), "Expected a finite number for params.mean[2] but received NaN", "NaN mean");
  wrong = params;
  wrong.scale = std::numeric_limits<float>::infinity();
  check_error(run(frame, wrong), "Expected a finite number for params.scale but received Infinity", "infinite scale");
  wrong = params;
  wrong.pad_value = 300;
  check_error(run(frame, wrong), "Expected a number from 0 to 255 for params.pad_value but received 300", "pad value over 255");
  wrong = params;
  wrong.out_channels = 1;
  check_error(run(frame, wrong), "Expected GRAY8 (params.out_channels is 1) for frames[0].format but received RGB",
      "one channel from colour");
  wrong = params;
  wrong.out_channels = 2;
  check_error(run(frame, wrong), "Expected 1 or 3 for params.out_channels but received 2", "two channels");
  wrong = params;
  wrong.out_dtype = static_cast<DType>(5);
  check_error(run(frame, wrong), "Expected one of kUint8 (0), kFloat32 (1), kFloat16 (2) for params.out_dtype but received 5",
      "unknown dtype");
  wrong = params;
  wrong.out_dtype = DType::kUint8;
  wrong.out_width = wrong.out_height = 4;
  wrong.std[0] = 0;
  check(run(frame, wrong).ok(), "uint8 output ignores scale, mean and std");
  check_error(preprocess_cpu(&frame, 1, params, nullptr, nullptr), "Expected an output pointer for out but received null", "null output");
  check_error(preprocess_cpu(nullptr, 2, params, out, nullptr), "Expected an array of frames for frames but received null", "null frames");
  check_error(preprocess_cpu(&frame, -1, params, out, nullptr), "Expected an integer from 0 to 65536 for count but received -1",
      "negative count");
  check(preprocess_cpu(nullptr, 0, params, nullptr, nullptr).ok(), "an empty batch succeeds and writes nothing");
  bad = frame;
  bad.height = -3;
  check_error(preprocess_cuda(&bad, 1, params, out, nullptr, nullptr),
      "Expected an integer from 1 to 32768 for frames[0].height but received -3", "preprocess_cuda validates like preprocess_cpu");
}

void test_sizes() {
  PreprocessParams params;
  params.out_dtype = DType::kFloat16;
  check(output_element_count(params, 16) == 16u * 3 * 640 * 640 && output_size_bytes(params, 16) == 16u * 3 * 640 * 640 * 2,
      "16 × 3 × 640 × 640 float16 is 39 321 600 bytes");
  check(bytes_per_pixel(PixelFormat::kBGRx) == 4 && bytes_per_pixel(PixelFormat::kGRAY8) == 1 &&
          std::string(pixel_format_name(PixelFormat::kBGRx)) == "BGRx",
      "bytes per pixel and GStreamer format names");
}

void test_cuda_status() {
  // The library loads and answers without a driver; on a GPU machine the status is Ok.
  const Status status = cuda_device_status();
  std::printf("# cuda_compiled: %s; cuda_device_status: %s\n", cuda_compiled() ? "yes" : "no",
      status.ok() ? "ok" : status.message.c_str());
  check(cuda_compiled() ? (status.ok() || status.code == ErrorCode::kCudaError) : status.code == ErrorCode::kUnsupported,
      "cuda_device_status answers without crashing");
}

}  // namespace

int main() {
  test_against_reference();
  test_gray_one_channel();
  test_mixed_batch();
  test_full_hd();
  test_known_values();
  test_half_conversion();
  test_transforms();
  test_errors();
  test_sizes();
  test_cuda_status();
  std::printf("%d passed, %d failed\n", passed, failed);
  return failed == 0 ? 0 : 1;
}
