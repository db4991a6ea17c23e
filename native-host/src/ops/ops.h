// Pre-processing ops: a batch of packed 8-bit frames → one network input tensor, on the CPU or
// on a CUDA device, with identical maths (docs/internals/ops.md). Letterbox or stretch resize
// (bilinear, half-pixel centres), channel order, scale/mean/std normalisation, NCHW or NHWC,
// uint8/float32/float16 output, and per-frame transforms to map boxes back to the frames.
//
// This header includes no CUDA, Node or GStreamer header: the binding, the plugin and plain C++
// programs can all include it. The CUDA entry point exists in every build and reports
// ErrorCode::kUnsupported where the library was built without nvcc (cuda_compiled() says which).
//
// Example (CPU):
//   dsnode::ops::ImageView frame{pixels, 1920, 1080, 1920 * 3, dsnode::ops::PixelFormat::kRGB};
//   dsnode::ops::PreprocessParams params;  // 640×640 letterbox, RGB, /255, NCHW float32
//   std::vector<float> input(dsnode::ops::output_element_count(params, 1));
//   dsnode::ops::FrameTransform transform;
//   dsnode::ops::Status status = dsnode::ops::preprocess_cpu(&frame, 1, params, input.data(), &transform);
//   // ... run the network, then for each detection (network pixels):
//   dsnode::ops::Box box = dsnode::ops::clip_to_frame(transform, dsnode::ops::network_to_frame(transform, detection));
#ifndef DSNODE_OPS_OPS_H
#define DSNODE_OPS_OPS_H

#include <cstddef>
#include <cstdint>
#include <string>

// The CUDA runtime's stream type without its header: cudaStream_t is `struct CUstream_st *`.
struct CUstream_st;

namespace dsnode::ops {

// 8-bit formats, named as GStreamer's video/x-raw caps name them. Packed, byte order in memory:
// RGB = R,G,B; RGBA = R,G,B,A; BGR = B,G,R; BGRx = B,G,R,x; GRAY8 = Y; RGBx = R,G,B,x;
// BGRA = B,G,R,A; ARGB = A,R,G,B; ABGR = A,B,G,R. Alpha/x bytes are ignored. Planar 4:2:0 YUV:
// NV12 = a Y plane and one plane of U,V pairs; NV21 = the same with V,U pairs; I420 = Y, U and V
// planes. Each chroma sample covers 2×2 pixels; see ImageView for how they are converted.
// kNone marks a tensor that is not a frame (the tensor layer's descriptors); no op reads it.
enum class PixelFormat : int32_t {
  kNone = -1,
  kRGB = 0,
  kRGBA = 1,
  kBGR = 2,
  kBGRx = 3,
  kGRAY8 = 4,
  kRGBx = 5,
  kBGRA = 6,
  kARGB = 7,
  kABGR = 8,
  kNV12 = 9,
  kNV21 = 10,
  kI420 = 11,
};
constexpr int32_t kPixelFormatCount = 12;

// How YUV frames become RGB (ITU-R BT.601, BT.709 or BT.2020 non-constant-luminance
// coefficients), and the range of their values: kLimited is Y 16..235 and U/V 16..240 (video,
// GStreamer's "16_235"); kFull is 0..255 ("0_255", JPEG).
enum class ColorMatrix : int32_t { kBT601 = 0, kBT709 = 1, kBT2020 = 2 };
enum class ColorRange : int32_t { kLimited = 0, kFull = 1 };

// A matrix's luma weights of red (Kr) and blue (Kb); green's is 1 − Kr − Kb.
struct LumaWeights {
  double kr, kb;
};
LumaWeights luma_weights(ColorMatrix matrix);

// kLetterbox keeps the aspect ratio and pads; kStretch scales each axis to the output size.
enum class ResizeMode : int32_t { kLetterbox = 0, kStretch = 1 };

// Order of the output channels. GRAY8 frames give three equal channels, so the order is moot.
enum class ChannelOrder : int32_t { kRGB = 0, kBGR = 1 };

// kNCHW: [batch, channel, height, width]; kNHWC: [batch, height, width, channel]. Dense, C order.
enum class Layout : int32_t { kNCHW = 0, kNHWC = 1 };

// kUint8 is the resized pixel rounded (no normalisation: scale, mean and std are ignored);
// kFloat16 is IEEE binary16, rounded to nearest even.
enum class DType : int32_t { kUint8 = 0, kFloat32 = 1, kFloat16 = 2 };

// One frame, read-only. `data` is host memory for preprocess_cpu and device memory for
// preprocess_cuda. `pitch` is the distance in bytes between the starts of two rows (>= width ×
// bytes_per_pixel(format)); rows need no particular alignment.
//
// Planar YUV (NV12, NV21, I420): `data`/`pitch` are the Y plane. `chroma[0]` is the U,V (NV21:
// V,U) plane of NV12/NV21, or the U plane of I420 with `chroma[1]` the V plane; each of
// ceil((width + chroma_phase_x) / 2) × ceil((height + chroma_phase_y) / 2) samples, `chroma_pitch` bytes a row. Pixel (x, y) takes
// chroma sample (x / 2, y / 2) (nearest, as GStreamer's videoconvert with chroma-mode=none),
// becomes R, G, B by `matrix` and `range`, each clamped to 0..255 and rounded to a whole value,
// exactly what an 8-bit RGB frame converted first would hold; then it is resampled like one.
struct ImageView {
  const uint8_t *data = nullptr;
  int32_t width = 0;
  int32_t height = 0;
  int32_t pitch = 0;
  PixelFormat format = PixelFormat::kRGB;
  const uint8_t *chroma[2] = {nullptr, nullptr};
  int32_t chroma_pitch[2] = {0, 0};
  ColorMatrix matrix = ColorMatrix::kBT601;
  ColorRange range = ColorRange::kLimited;
  // A region of a larger frame that starts on an odd column (row): 1, and chroma[] start at the
  // sample that covers the first pixel, so pixel (x, y) takes sample ((x + chroma_phase_x) / 2,
  // (y + chroma_phase_y) / 2). 0 for a whole frame.
  int32_t chroma_phase_x = 0;
  int32_t chroma_phase_y = 0;
};

// What the network wants. Defaults: 640×640 letterbox, centred, grey (114) padding as YOLO
// models are trained with, RGB, pixel/255, NCHW float32.
struct PreprocessParams {
  int32_t out_width = 640;
  int32_t out_height = 640;
  ResizeMode mode = ResizeMode::kLetterbox;
  // Letterbox only: true pads both sides equally (the odd pixel goes right/bottom); false puts
  // the image at the top-left and pads right/bottom.
  bool center = true;
  // The padding colour, in pixel units (0..255), normalised like any pixel.
  float pad_value = 114.0f;
  // 3, or 1 for GRAY8 frames only (a 1-channel network input). GRAY8 frames with 3 channels
  // give three equal channels (each normalised with its own mean/std).
  int32_t out_channels = 3;
  ChannelOrder out_order = ChannelOrder::kRGB;
  // Normalisation, float outputs only: out[c] = (pixel × scale − mean[c]) / std[c], with c in
  // *output* channel order (mean[0] is blue when out_order is kBGR).
  float scale = 1.0f / 255.0f;
  float mean[3] = {0.0f, 0.0f, 0.0f};
  float std[3] = {1.0f, 1.0f, 1.0f};
  Layout layout = Layout::kNCHW;
  DType out_dtype = DType::kFloat32;
};

// Where one frame went in the network input. A frame point (x, y) — continuous coordinates,
// pixel i spans [i, i+1) — lands at (x × scale_x + pad_x, y × scale_y + pad_y).
struct FrameTransform {
  float scale_x = 1.0f;  // resized_width / source_width
  float scale_y = 1.0f;  // resized_height / source_height
  float pad_x = 0.0f;    // network pixels left of the image
  float pad_y = 0.0f;    // network pixels above the image
  int32_t resized_width = 0;
  int32_t resized_height = 0;
  int32_t source_width = 0;
  int32_t source_height = 0;
};

struct Point {
  float x = 0.0f;
  float y = 0.0f;
};

// A box as DeepStream's rect_params holds one: left, top, width, height.
struct Box {
  float left = 0.0f;
  float top = 0.0f;
  float width = 0.0f;
  float height = 0.0f;
};

enum class ErrorCode {
  kOk = 0,
  kInvalidValue,  // a parameter or frame out of range (the message names it)
  kUnsupported,   // preprocess_cuda in a build without CUDA
  kCudaError,     // the CUDA runtime refused (the message carries its error name)
};

struct Status {
  ErrorCode code = ErrorCode::kOk;
  // "Expected <what> for <name> but received <value>" for kInvalidValue.
  std::string message;
  bool ok() const { return code == ErrorCode::kOk; }
  static Status Ok() { return {}; }
  static Status Invalid(std::string text) { return {ErrorCode::kInvalidValue, std::move(text)}; }
};

// Limits checked by validate(): frames up to 32768 pixels a side, outputs up to 16384 a side,
// up to 65536 frames a call.
constexpr int32_t kMaxFrameSide = 32768;
constexpr int32_t kMaxOutputSide = 16384;
constexpr int32_t kMaxFrames = 65536;

// Bytes of one pixel of `format` (3, 4, 3, 4, 1, ...; 1 for planar YUV, its Y plane); 0 for a
// value outside the enum.
int32_t bytes_per_pixel(PixelFormat format);
// Planes of `format`: 1 for packed formats, 2 for NV12/NV21, 3 for I420; 0 outside the enum.
int32_t plane_count(PixelFormat format);
// Planar YUV (NV12, NV21, I420).
inline bool is_yuv(PixelFormat format) { return plane_count(format) > 1; }
// Bytes of one element of `dtype` (1, 4, 2); 0 for a value outside the enum.
size_t dtype_size(DType dtype);
// "RGB", "RGBA", "BGR", "BGRx", "GRAY8", "RGBx", ... (GStreamer's names); "unknown" otherwise.
const char *pixel_format_name(PixelFormat format);

// Elements (count × out_channels × out_height × out_width) and bytes of the output tensor.
size_t output_element_count(const PreprocessParams &params, int32_t count);
size_t output_size_bytes(const PreprocessParams &params, int32_t count);

// Checks everything preprocess_* checks, without touching pixel memory: count in
// 0..kMaxFrames, each frame's pointer, size, pitch and format (and for YUV its chroma planes,
// matrix and range), every parameter (enums, sizes,
// finite scale/mean, non-zero std, pad_value in 0..255, out_channels 1 only with GRAY8 frames).
Status validate(const ImageView *frames, int32_t count, const PreprocessParams &params);

// The transform preprocess_* uses for a frame of this size (stretch: each axis to the output;
// letterbox: round(side × min(out_w/w, out_h/h)), padding floored half of the rest when
// centred). Needs only valid params and sizes >= 1.
FrameTransform compute_transform(int32_t source_width, int32_t source_height, const PreprocessParams &params);

// Network pixels ↔ frame pixels (continuous coordinates). Boxes map corner to corner.
Point network_to_frame(const FrameTransform &transform, Point point);
Point frame_to_network(const FrameTransform &transform, Point point);
Box network_to_frame(const FrameTransform &transform, const Box &box);
Box frame_to_network(const FrameTransform &transform, const Box &box);
// The part of `box` (frame pixels) inside the frame; width/height 0 when it lies outside.
Box clip_to_frame(const FrameTransform &transform, const Box &box);

// Runs on the calling thread. `frames`: `count` views of host memory. `out`: host memory of
// output_size_bytes(params, count) bytes, frame after frame. `transforms`: `count` entries
// filled in, or null. On an error nothing is written.
Status preprocess_cpu(const ImageView *frames, int32_t count, const PreprocessParams &params, void *out,
    FrameTransform *transforms);

// Same result as preprocess_cpu (bit for bit where both round the same floats; see
// docs/internals/ops.md), asynchronous on `stream` (null: the legacy default stream): returns
// once the work is queued. `frames` is a host array of views whose `data` is device memory;
// the array itself may be reused at once (descriptors travel as kernel parameters). `out` is
// device memory of output_size_bytes(params, count) bytes, aligned to 16 bytes for the fast
// path. `transforms` (host memory, or null) is filled before returning. One kernel launch per
// 40 frames. The CUDA device current on the calling thread must own `data`, `out` and `stream`.
Status preprocess_cuda(const ImageView *frames, int32_t count, const PreprocessParams &params, void *out,
    FrameTransform *transforms, CUstream_st *stream);

// True when this build holds the CUDA implementation (DSNODE_HAVE_CUDA).
bool cuda_compiled();

// Whether preprocess_cuda can run here: Ok with at least one CUDA device; kUnsupported in a
// build without CUDA; kCudaError naming the runtime's reason otherwise (no driver, no device).
// Loading the library never needs the driver; this call is where its absence shows.
Status cuda_device_status();

}  // namespace dsnode::ops

#endif
