// Sizes, names and validation: everything both implementations check before touching a pixel.
#include <cmath>
#include <cstdio>
#include <string>
#include <string_view>

#include "ops/ops.h"

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

// Builds no string unless something is wrong: this runs for every frame of every call.
Status validate_frame(const ImageView &frame, int32_t index, const PreprocessParams &params) {
  auto name = [&](const char *field) { return "frames[" + std::to_string(index) + "]." + field; };
  const int32_t format = static_cast<int32_t>(frame.format);
  if (format < 0 || format > 4) {
    return check_enum(format, 5, "RGB (0), RGBA (1), BGR (2), BGRx (3), GRAY8 (4)", name("format"));
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
  if (params.out_channels == 1 && frame.format != PixelFormat::kGRAY8) {
    return Status::Invalid(
        expected("GRAY8 (params.out_channels is 1)", name("format"), pixel_format_name(frame.format)));
  }
  return Status::Ok();
}

}  // namespace

int32_t bytes_per_pixel(PixelFormat format) {
  switch (format) {
    case PixelFormat::kRGB:
    case PixelFormat::kBGR: return 3;
    case PixelFormat::kRGBA:
    case PixelFormat::kBGRx: return 4;
    case PixelFormat::kGRAY8: return 1;
  }
  return 0;
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
  switch (format) {
    case PixelFormat::kRGB: return "RGB";
    case PixelFormat::kRGBA: return "RGBA";
    case PixelFormat::kBGR: return "BGR";
    case PixelFormat::kBGRx: return "BGRx";
    case PixelFormat::kGRAY8: return "GRAY8";
  }
  return "unknown";
}

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
