// Sizes, names and validation: everything both implementations check before touching a pixel.
#include <cmath>
#include <cstdio>
#include <string>
#include <string_view>

#include "ops/ops.h"
#include "ops/sampling.h"

namespace dsnode::ops {

namespace {

// Numbers as JavaScript prints them, since the messages reach TypeScript users.
std::string js_number(double value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "Infinity" : "-Infinity";
  char text[32];
  std::snprintf(text, sizeof text, "%.9g", value);
  return text;
}

std::string expected(const std::string &what, std::string_view name, const std::string &received) {
  return "Expected " + what + " for " + std::string(name) + " but received " + received;
}

Status check_integer(int64_t value, int64_t low, int64_t high, std::string_view name) {
  if (value >= low && value <= high) return Status::Ok();
  return Status::Invalid(expected("an integer from " + std::to_string(low) + " to " + std::to_string(high), name,
      std::to_string(value)));
}

Status check_enum(int32_t value, int32_t count, const char *choices, std::string_view name) {
  if (value >= 0 && value < count) return Status::Ok();
  return Status::Invalid(expected(std::string("one of ") + choices, name, std::to_string(value)));
}

Status check_finite(float value, std::string_view name) {
  if (std::isfinite(value)) return Status::Ok();
  return Status::Invalid(expected("a finite number", name, js_number(value)));
}

Status validate_params(const PreprocessParams &params) {
  Status status;
  if (!(status = check_integer(params.out_width, 1, kMaxOutputSide, "params.out_width")).ok()) return status;
  if (!(status = check_integer(params.out_height, 1, kMaxOutputSide, "params.out_height")).ok()) return status;
  if (!(status = check_enum(static_cast<int32_t>(params.mode), 2, "kLetterbox (0), kStretch (1)", "params.mode")).ok())
    return status;
  if (!(params.pad_value >= 0.0f && params.pad_value <= 255.0f))
    return Status::Invalid(expected("a number from 0 to 255", "params.pad_value", js_number(params.pad_value)));
  if (params.out_channels != 1 && params.out_channels != 3)
    return Status::Invalid(expected("1 or 3", "params.out_channels", std::to_string(params.out_channels)));
  if (!(status = check_enum(static_cast<int32_t>(params.out_order), 2, "kRGB (0), kBGR (1)", "params.out_order")).ok())
    return status;
  if (!(status = check_enum(static_cast<int32_t>(params.layout), 2, "kNCHW (0), kNHWC (1)", "params.layout")).ok())
    return status;
  if (!(status = check_enum(static_cast<int32_t>(params.out_dtype), 3, "kUint8 (0), kFloat32 (1), kFloat16 (2)",
            "params.out_dtype")).ok())
    return status;
  if (params.out_dtype == DType::kUint8) return Status::Ok();  // no normalisation: scale/mean/std unused
  if (!(status = check_finite(params.scale, "params.scale")).ok()) return status;
  for (int c = 0; c < params.out_channels; ++c) {
    if (!std::isfinite(params.mean[c])) return check_finite(params.mean[c], "params.mean[" + std::to_string(c) + "]");
    if (!std::isfinite(params.std[c]) || params.std[c] == 0.0f) {
      return Status::Invalid(expected("a finite non-zero number", "params.std[" + std::to_string(c) + "]",
          js_number(params.std[c])));
    }
  }
  return Status::Ok();
}

// A YUV frame's chroma planes, matrix and range.
Status validate_chroma(const ImageView &frame, int32_t index) {
  auto name = [&](const char *field) { return "frames[" + std::to_string(index) + "]." + field; };
  Status status;
  if (!(status = check_enum(static_cast<int32_t>(frame.matrix), 3, "kBT601 (0), kBT709 (1), kBT2020 (2)", name("matrix"))).ok())
    return status;
  if (!(status = check_enum(static_cast<int32_t>(frame.range), 2, "kLimited (0), kFull (1)", name("range"))).ok())
    return status;
  if (frame.chroma_phase_x != 0 && frame.chroma_phase_x != 1) {
    return Status::Invalid(expected("0 or 1", name("chroma_phase_x"), std::to_string(frame.chroma_phase_x)));
  }
  if (frame.chroma_phase_y != 0 && frame.chroma_phase_y != 1) {
    return Status::Invalid(expected("0 or 1", name("chroma_phase_y"), std::to_string(frame.chroma_phase_y)));
  }
  const bool interleaved = frame.format != PixelFormat::kI420;
  const int64_t row_bytes = static_cast<int64_t>((frame.width + frame.chroma_phase_x + 1) / 2) * (interleaved ? 2 : 1);
  for (int32_t p = 0; p < (interleaved ? 1 : 2); ++p) {
    const std::string plane = "chroma[" + std::to_string(p) + "]";
    if (frame.chroma[p] == nullptr) return Status::Invalid(expected("a chroma plane", name(plane.c_str()), "null"));
    if (frame.chroma_pitch[p] < row_bytes) {
      const std::string pitch = "chroma_pitch[" + std::to_string(p) + "]";
      return Status::Invalid(expected("a pitch of at least " + std::to_string(row_bytes) + " bytes (" +
              pixel_format_name(frame.format) + " chroma of a frame " + std::to_string(frame.width) + " wide)",
          name(pitch.c_str()), std::to_string(frame.chroma_pitch[p])));
    }
  }
  return Status::Ok();
}

// Builds no string unless something is wrong: this runs for every frame of every call.
Status validate_frame(const ImageView &frame, int32_t index, const PreprocessParams &params) {
  auto name = [&](const char *field) { return "frames[" + std::to_string(index) + "]." + field; };
  const int32_t format = static_cast<int32_t>(frame.format);
  if (detail::format_facts(frame.format) == nullptr) {
    return check_enum(format, kPixelFormatCount,
        "RGB (0), RGBA (1), BGR (2), BGRx (3), GRAY8 (4), RGBx (5), BGRA (6), ARGB (7), ABGR (8), NV12 (9), NV21 (10), "
        "I420 (11)",
        name("format"));
  }
  if (frame.data == nullptr) return Status::Invalid(expected("a pixel pointer", name("data"), "null"));
  if (frame.width < 1 || frame.width > kMaxFrameSide) return check_integer(frame.width, 1, kMaxFrameSide, name("width"));
  if (frame.height < 1 || frame.height > kMaxFrameSide) {
    return check_integer(frame.height, 1, kMaxFrameSide, name("height"));
  }
  const int32_t pixel_bytes = bytes_per_pixel(frame.format);
  const int64_t row_bytes = static_cast<int64_t>(frame.width) * pixel_bytes;
  if (frame.pitch < row_bytes) {
    return Status::Invalid(expected("a pitch of at least " + std::to_string(row_bytes) + " bytes (width " +
            std::to_string(frame.width) + " × " + std::to_string(pixel_bytes) + " bytes per " +
            pixel_format_name(frame.format) + " pixel)",
        name("pitch"), std::to_string(frame.pitch)));
  }
  if (is_yuv(frame.format)) {
    Status status = validate_chroma(frame, index);
    if (!status.ok()) return status;
  }
  if (params.out_channels == 1 && frame.format != PixelFormat::kGRAY8) {
    return Status::Invalid(
        expected("GRAY8 (params.out_channels is 1)", name("format"), pixel_format_name(frame.format)));
  }
  return Status::Ok();
}

}  // namespace

int32_t bytes_per_pixel(PixelFormat format) {
  const detail::FormatFacts *facts = detail::format_facts(format);
  return facts != nullptr ? facts->bytes_per_pixel : 0;
}

int32_t plane_count(PixelFormat format) {
  const detail::FormatFacts *facts = detail::format_facts(format);
  return facts != nullptr ? facts->planes : 0;
}

size_t dtype_size(DType dtype) {
  switch (dtype) {
    case DType::kUint8: return 1;
    case DType::kFloat32: return 4;
    case DType::kFloat16: return 2;
  }
  return 0;
}

const char *pixel_format_name(PixelFormat format) {
  const detail::FormatFacts *facts = detail::format_facts(format);
  return facts != nullptr ? facts->name : "unknown";
}

namespace detail {

// Every format, in enum order: the one table of what each is (names, bytes, where the colours
// lie). The tensor layer (tensor.cpp) and the binding take names and sizes from here.
constexpr FormatFacts kFormats[kPixelFormatCount] = {
    {"RGB", 3, 1, {0, 1, 2}},
    {"RGBA", 4, 1, {0, 1, 2}},
    {"BGR", 3, 1, {2, 1, 0}},
    {"BGRx", 4, 1, {2, 1, 0}},
    {"GRAY8", 1, 1, {0, 0, 0}},
    {"RGBx", 4, 1, {0, 1, 2}},
    {"BGRA", 4, 1, {2, 1, 0}},
    {"ARGB", 4, 1, {1, 2, 3}},
    {"ABGR", 4, 1, {3, 2, 1}},
    {"NV12", 1, 2, {0, 1, 2}},
    {"NV21", 1, 2, {0, 1, 2}},
    {"I420", 1, 3, {0, 1, 2}},
};

const FormatFacts *format_facts(PixelFormat format) {
  const int32_t index = static_cast<int32_t>(format);
  return index >= 0 && index < kPixelFormatCount ? &kFormats[index] : nullptr;
}

}  // namespace detail

size_t output_element_count(const PreprocessParams &params, int32_t count) {
  if (count <= 0 || params.out_width <= 0 || params.out_height <= 0 || params.out_channels <= 0) return 0;
  return static_cast<size_t>(count) * static_cast<size_t>(params.out_channels) *
      static_cast<size_t>(params.out_height) * static_cast<size_t>(params.out_width);
}

size_t output_size_bytes(const PreprocessParams &params, int32_t count) {
  return output_element_count(params, count) * dtype_size(params.out_dtype);
}

Status validate(const ImageView *frames, int32_t count, const PreprocessParams &params) {
  Status status = validate_params(params);
  if (!status.ok()) return status;
  if (!(status = check_integer(count, 0, kMaxFrames, "count")).ok()) return status;
  if (count > 0 && frames == nullptr) return Status::Invalid(expected("an array of frames", "frames", "null"));
  for (int32_t i = 0; i < count; ++i) {
    if (!(status = validate_frame(frames[i], i, params)).ok()) return status;
  }
  return Status::Ok();
}

}  // namespace dsnode::ops
