// preprocess_cpu: the reference implementation, single-threaded. Per frame: column taps once,
// then row by row: interpolate and normalise into a float row, convert and store it.
#include <cstring>
#include <vector>

#include "ops/half.h"
#include "ops/ops.h"
#include "ops/sampling.h"

namespace dsnode::ops {

namespace {

using detail::ChannelMaths;
using detail::FrameSampling;

template <typename T>
T convert(float value);
template <>
uint8_t convert<uint8_t>(float value) { return detail::round_to_uint8(value); }
template <>
float convert<float>(float value) { return value; }
template <>
uint16_t convert<uint16_t>(float value) { return detail::float_to_half_bits(value); }

struct Column {
  bool inside;
  int32_t byte0, byte1;  // byte offsets of the two source pixels in a row
  float weight;
};

// One row of a YUV frame into `row` (channel-major): per output pixel, the four source
// pixels converted to R, G, B (sampling.h's yuv_pixel), then interpolated like packed bytes.
void yuv_row(const FrameSampling &frame, const detail::YuvCoefficients &k, const ChannelMaths &maths,
    const std::vector<Column> &columns, const detail::Tap &tap, int32_t width, int32_t channels, float *row) {
  for (int32_t x = 0; x < width; ++x) {
    const Column &column = columns[static_cast<size_t>(x)];
    if (!column.inside) {
      for (int32_t c = 0; c < channels; ++c) row[static_cast<size_t>(c) * width + x] = maths.pad[c];
      continue;
    }
    // bytes_per_pixel is 1 for the Y plane: byte0/byte1 are the source columns.
    float top_left[3], top_right[3], bottom_left[3], bottom_right[3];
    detail::yuv_pixel(frame, k, column.byte0, tap.i0, top_left);
    detail::yuv_pixel(frame, k, column.byte1, tap.i0, top_right);
    detail::yuv_pixel(frame, k, column.byte0, tap.i1, bottom_left);
    detail::yuv_pixel(frame, k, column.byte1, tap.i1, bottom_right);
    for (int32_t c = 0; c < channels; ++c) {
      const float value = detail::lerp_quad(top_left, top_right, bottom_left, bottom_right, frame.channel_offset[c],
          column.weight, tap.weight);
      row[static_cast<size_t>(c) * width + x] = detail::normalise(value, maths.alpha[c], maths.beta[c]);
    }
  }
}

// `out`: this frame's slice of the output (channels × height × width elements).
template <typename T>
void preprocess_frame(const FrameSampling &frame, const ChannelMaths &maths, const detail::YuvCoefficients *yuv_table,
    const PreprocessParams &params, T *out, std::vector<Column> &columns, std::vector<float> &row) {
  const int32_t width = params.out_width, height = params.out_height, channels = params.out_channels;
  const int32_t pixel_bytes = frame.bytes_per_pixel;
  columns.resize(static_cast<size_t>(width));
  for (int32_t x = 0; x < width; ++x) {
    Column &column = columns[static_cast<size_t>(x)];
    column.inside = x >= frame.pad_x && x < frame.pad_x + frame.resized_width;
    if (!column.inside) continue;
    const detail::Tap tap = detail::source_tap(x, frame.pad_x, frame.width, frame.ratio_x);
    column.byte0 = tap.i0 * pixel_bytes;
    column.byte1 = tap.i1 * pixel_bytes;
    column.weight = tap.weight;
  }
  row.resize(static_cast<size_t>(width) * static_cast<size_t>(channels));  // channel-major: row[c × width + x]

  for (int32_t y = 0; y < height; ++y) {
    if (y < frame.pad_y || y >= frame.pad_y + frame.resized_height) {
      for (int32_t c = 0; c < channels; ++c) std::fill_n(&row[static_cast<size_t>(c) * width], width, maths.pad[c]);
    } else if (frame.yuv != detail::kPackedPixels) {
      const detail::Tap tap = detail::source_tap(y, frame.pad_y, frame.height, frame.ratio_y);
      yuv_row(frame, yuv_table[frame.yuv], maths, columns, tap, width, channels, row.data());
    } else {
      const detail::Tap tap = detail::source_tap(y, frame.pad_y, frame.height, frame.ratio_y);
      const uint8_t *top_row = frame.data + static_cast<ptrdiff_t>(tap.i0) * frame.pitch;
      const uint8_t *bottom_row = frame.data + static_cast<ptrdiff_t>(tap.i1) * frame.pitch;
      for (int32_t c = 0; c < channels; ++c) {
        const int32_t offset = frame.channel_offset[c];
        float *values = &row[static_cast<size_t>(c) * width];
        for (int32_t x = 0; x < width; ++x) {
          const Column &column = columns[static_cast<size_t>(x)];
          if (!column.inside) {
            values[x] = maths.pad[c];
            continue;
          }
          const float top = detail::lerp(top_row[column.byte0 + offset], top_row[column.byte1 + offset], column.weight);
          const float bottom =
              detail::lerp(bottom_row[column.byte0 + offset], bottom_row[column.byte1 + offset], column.weight);
          values[x] = detail::normalise(detail::lerp(top, bottom, tap.weight), maths.alpha[c], maths.beta[c]);
        }
      }
    }
    if (params.layout == Layout::kNCHW) {
      for (int32_t c = 0; c < channels; ++c) {
        T *plane_row = out + (static_cast<size_t>(c) * height + y) * width;
        const float *values = &row[static_cast<size_t>(c) * width];
        for (int32_t x = 0; x < width; ++x) plane_row[x] = convert<T>(values[x]);
      }
    } else {
      T *pixels = out + static_cast<size_t>(y) * width * channels;
      for (int32_t x = 0; x < width; ++x) {
        for (int32_t c = 0; c < channels; ++c) {
          pixels[static_cast<size_t>(x) * channels + c] = convert<T>(row[static_cast<size_t>(c) * width + x]);
        }
      }
    }
  }
}

template <typename T>
void preprocess_all(const ImageView *frames, int32_t count, const PreprocessParams &params, T *out,
    FrameTransform *transforms) {
  const ChannelMaths maths = detail::build_channel_maths(params);
  detail::YuvCoefficients yuv_table[detail::kYuvTableSize];
  detail::build_yuv_table(yuv_table);
  const size_t frame_elements = output_element_count(params, 1);
  std::vector<Column> columns;
  std::vector<float> row;
  for (int32_t i = 0; i < count; ++i) {
    const FrameTransform transform = compute_transform(frames[i].width, frames[i].height, params);
    if (transforms != nullptr) transforms[i] = transform;
    const FrameSampling sampling = detail::build_sampling(frames[i], transform, params);
    preprocess_frame(sampling, maths, yuv_table, params, out + static_cast<size_t>(i) * frame_elements, columns, row);
  }
}

}  // namespace

Status preprocess_cpu(const ImageView *frames, int32_t count, const PreprocessParams &params, void *out,
    FrameTransform *transforms) {
  Status status = validate(frames, count, params);
  if (!status.ok()) return status;
  if (count == 0) return Status::Ok();
  if (out == nullptr) return Status::Invalid("Expected an output pointer for out but received null");
  switch (params.out_dtype) {
    case DType::kUint8: preprocess_all(frames, count, params, static_cast<uint8_t *>(out), transforms); break;
    case DType::kFloat32: preprocess_all(frames, count, params, static_cast<float *>(out), transforms); break;
    case DType::kFloat16: preprocess_all(frames, count, params, static_cast<uint16_t *>(out), transforms); break;
  }
  return Status::Ok();
}

}  // namespace dsnode::ops
