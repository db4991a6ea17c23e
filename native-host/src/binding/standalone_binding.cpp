// dsnode_standalone.node, the standalone binding: the native binding for an ordinary Node,
// outside GStreamer. Exports `meta` and `tensor` (the metadata and tensor bindings, the same
// functions libdsnode-runtime.so.0 exports inside pipelines) and `harness` (StandaloneHarness in
// sdk/src/native/meta-binding.ts): GstBuffers carrying batches and pixels in a given format, and
// calls opened on them, so ds-element/testing runs transforms without GStreamer pipelines.
//
// Loaded by any Node (18+): it links GStreamer and the metadata core, not libnode; the napi_*
// symbols resolve from the host process.
#include <napi.h>

#include <gst/gst.h>
#include <gst/video/video.h>

#include <algorithm>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "binding/js_values.h"
#include "binding/meta_binding.h"
#include "binding/meta_binding_internal.h"
#include "binding/meta_call.h"
#include "protocol/records.h"
#include "protocol/state_layout.h"
#include "binding/tensor_binding.h"
#include "meta/metadata_source.h"
#include "binding/meta_kind_functions.h"
#include "meta/validate.h"
#ifdef DSNODE_HAVE_TENSORRT
#include "binding/tensorrt_binding.h"
#endif

#ifdef NAPI_CPP_EXCEPTIONS
#error "binding/ checks every N-API status itself: a C++ exception must never unwind through V8 frames"
#endif

namespace dsnode::standalone {

namespace {

namespace L = dsnode::layout;
using metabind::Args;
using metabind::ErrorKind;
using metabind::FieldName;
using metabind::Path;
using metabind::throw_error;
using metabind::throw_status;

// Upper bounds that keep a typo from allocating the machine away.
constexpr double kMaxFramesInBatch = 65535;
constexpr double kMaxBufferSize = 1u << 30;

// What setVideo said about a buffer: the DsnodeStreamInfo the plugin would pass for its caps.
// Shared with the calls opened on the buffer, which must not lose it if the JS object goes.
struct StreamInfo {
  DsnodeStreamInfo info{};
  std::string caps;
};

// The GstBuffer a JS buffer object owns; unref'd by releaseBuffer or when the object is
// collected.
struct BufferBox {
  GstBuffer* buffer = nullptr;
  std::shared_ptr<StreamInfo> stream;
};

// Tells our buffer objects from any other wrapped object (napi_unwrap alone cannot).
constexpr napi_type_tag kBufferTag = {0x64736e6f64656275ull, 0x66666572686e7331ull};

struct OpenCall {
  std::unique_ptr<meta::Batch> backend;  // its destructor ends the call (end_call)
  // The buffer, kept alive (with its batch) by a reference on its JS object rather than a
  // GstBuffer ref: a second ref would make the buffer read-only, and frame access maps it
  // read/write as the plugin's in-place transform does.
  GstBuffer* buffer = nullptr;
  napi_ref object = nullptr;
  std::shared_ptr<StreamInfo> stream;              // the buffer's setVideo, for frame access
};

// Per-env state (function data of every harness function).
struct Harness {
  // The harness's buffers carry the batch the plugin would find upstream: on a DeepStream build
  // DeepStream's NvDsBatchMeta (attached as nvstreammux does), else the portable batch; so that
  // the SDK's unit tests run on the backend the build's elements use. Opened once, at install;
  // null (metadata_error says why) where the build's backend cannot be used.
  std::unique_ptr<meta::MetadataSource> metadata;
  std::string metadata_error;
  std::unordered_map<uint32_t, OpenCall> calls;

  // The batch `buffer` carries, as this build's backend reads it; null when none.
  std::unique_ptr<meta::Batch> open_batch(GstBuffer* buffer) const {
    return metadata != nullptr ? metadata->open_batch(buffer) : nullptr;
  }

  const OpenCall* call_on(GstBuffer* buffer) const {
    for (const auto& entry : calls)
      if (entry.second.buffer == buffer) return &entry.second;
    return nullptr;
  }
  uint32_t id_on(GstBuffer* buffer) const {
    for (const auto& entry : calls)
      if (entry.second.buffer == buffer) return entry.first;
    return 0;
  }
};

Harness* harness_of(const Args& args) { return static_cast<Harness*>(args.data); }

// ---------------------------------------------------------------- buffers

void finalize_buffer(napi_env env, void* data, void* hint) {
  auto* box = static_cast<BufferBox*>(data);
  if (box->buffer != nullptr) gst_buffer_unref(box->buffer);
  delete box;
}

// Takes ownership of `buffer` (one ref).
napi_value wrap_buffer(napi_env env, GstBuffer* buffer) {
  napi_value object = nullptr;
  auto* box = new BufferBox{buffer, nullptr};
  if (napi_create_object(env, &object) != napi_ok || napi_type_tag_object(env, object, &kBufferTag) != napi_ok ||
      napi_wrap(env, object, box, finalize_buffer, nullptr, nullptr) != napi_ok) {
    gst_buffer_unref(buffer);
    delete box;
    return nullptr;
  }
  return object;
}

BufferBox* read_box(napi_env env, napi_value value, const char* name);

bool read_buffer(napi_env env, napi_value value, const char* name, GstBuffer** out) {
  BufferBox* box = read_box(env, value, name);
  if (box == nullptr) return false;
  *out = box->buffer;
  return true;
}

BufferBox* read_box(napi_env env, napi_value value, const char* name) {
  void* data = nullptr;
  if (!metabind::read_tagged(env, value, name, kBufferTag, "a buffer from harness.createBuffer", &data)) return nullptr;
  auto* box = static_cast<BufferBox*>(data);
  if (box->buffer == nullptr) {
    throw_error(env, ErrorKind::kState,
        std::string("Expected a live buffer for ") + name + " but received one freed by releaseBuffer");
    return nullptr;
  }
  return box;
}

// Changing a buffer under an open call would desynchronise the call's state array and move
// memory the call may have mapped.
bool no_open_call(napi_env env, const Harness& harness, GstBuffer* buffer, const char* operation) {
  const uint32_t id = harness.id_on(buffer);
  if (id == 0) return true;
  throw_error(env, ErrorKind::kState,
      std::string("Expected a buffer with no open call for ") + operation + " but received one with call " +
          std::to_string(id) + " open; closeCall(" + std::to_string(id) + ") first");
  return false;
}

// -1 (none) or a whole number of nanoseconds.
bool read_clock_time(napi_env env, napi_value value, const char* name, GstClockTime* out) {
  double number = 0;
  if (!metabind::read_double(env, value, FieldName(name), &number)) return false;
  if (number == -1) {
    *out = GST_CLOCK_TIME_NONE;
    return true;
  }
  int64_t nanoseconds = 0;
  if (!metabind::read_integer(env, value, FieldName(name), 0, metabind::kMaxSafeInteger, &nanoseconds)) return false;
  *out = static_cast<GstClockTime>(nanoseconds);
  return true;
}

napi_value create_buffer(napi_env env, napi_callback_info info) {
  Args args(env, info);
  uint32_t max_frames = 0;
  int64_t size = 0, frames = 0;
  if (!args.ok || !metabind::read_integer(env, args[0], FieldName("maxFramesInBatch"), 1, kMaxFramesInBatch, &frames) ||
      !metabind::read_integer(env, args[1], FieldName("size"), 0, kMaxBufferSize, &size)) {
    return nullptr;
  }
  max_frames = static_cast<uint32_t>(frames);
  GError* error = nullptr;
  if (!gst_is_initialized() && !gst_init_check(nullptr, nullptr, &error)) {
    const std::string message = error != nullptr ? error->message : "unknown error";
    g_clear_error(&error);
    return throw_error(env, ErrorKind::kState, "Could not initialise GStreamer for createBuffer: " + message);
  }
  GstBuffer* buffer = size > 0 ? gst_buffer_new_allocate(nullptr, static_cast<gsize>(size), nullptr) : gst_buffer_new();
  if (buffer == nullptr) {
    return throw_error(env, ErrorKind::kRange, "Could not allocate " + std::to_string(size) + " bytes for createBuffer");
  }
  if (size > 0) gst_buffer_memset(buffer, 0, 0, static_cast<gsize>(size));
  const Harness& harness = *harness_of(args);
  if (harness.metadata == nullptr || !harness.metadata->attach_new_batch(buffer, max_frames)) {
    const std::string& why = harness.metadata_error;
    gst_buffer_unref(buffer);
    return throw_error(env, ErrorKind::kState, "Could not attach a batch meta in createBuffer" + (why.empty() ? "" : ": " + why));
  }
  return wrap_buffer(env, buffer);
}

napi_value write_buffer(napi_env env, napi_callback_info info) {
  Args args(env, info);
  GstBuffer* buffer = nullptr;
  int64_t offset = 0;
  void* pixels = nullptr;
  size_t length = 0;
  if (!args.ok || !read_buffer(env, args[0], "buffer", &buffer) ||
      !metabind::read_integer(env, args[1], FieldName("offset"), 0, kMaxBufferSize, &offset) ||
      !metabind::read_typed_array(env, args[2], FieldName("pixels"), napi_uint8_array, &pixels, &length) ||
      !no_open_call(env, *harness_of(args), buffer, "writeBuffer")) {
    return nullptr;
  }
  const gsize size = gst_buffer_get_size(buffer);
  if (static_cast<gsize>(offset) > size || length > size - static_cast<gsize>(offset)) {
    return throw_error(env, ErrorKind::kRange,
        "Expected at most " + std::to_string(size - std::min<gsize>(size, static_cast<gsize>(offset))) +
            " bytes (a buffer of " + std::to_string(size) + " bytes, from offset " + std::to_string(offset) +
            ") for pixels but received " + std::to_string(length) + " bytes");
  }
  if (gst_buffer_fill(buffer, static_cast<gsize>(offset), pixels, length) != length) {
    return throw_error(env, ErrorKind::kState, "Could not write the buffer's memory in writeBuffer");
  }
  return metabind::make_undefined(env);
}

napi_value copy_buffer(napi_env env, napi_callback_info info) {
  Args args(env, info);
  GstBuffer* buffer = nullptr;
  if (!args.ok || !read_buffer(env, args[0], "buffer", &buffer)) return nullptr;
  // A copy transform: the batch meta is deep-copied (NVIDIA's copy function on a DeepStream
  // build, the portable meta's otherwise), as after a tee.
  GstBuffer* copy = gst_buffer_copy(buffer);
  if (copy == nullptr) return throw_error(env, ErrorKind::kState, "Could not copy the buffer in copyBuffer");
  return wrap_buffer(env, copy);
}

napi_value add_frame(napi_env env, napi_callback_info info) {
  Args args(env, info);
  GstBuffer* buffer = nullptr;
  void* data = nullptr;
  size_t length = 0;
  if (!args.ok || !read_buffer(env, args[0], "buffer", &buffer) ||
      !metabind::read_typed_array(env, args[1], FieldName("record"), napi_float64_array, &data, &length) ||
      !no_open_call(env, *harness_of(args), buffer, "addFrame")) {
    return nullptr;
  }
  constexpr size_t kRecordLength = L::kFrameSlotsUsed;
  if (length < kRecordLength) {
    return throw_error(env, ErrorKind::kRange,
        "Expected a frame record of at least " + std::to_string(kRecordLength) + " values for record but received " +
            std::to_string(length) + " values");
  }
  meta::FrameFields fields;
  meta::Status status = protocol::read_frame_record(static_cast<const double*>(data), &fields);
  if (!status.ok()) return throw_status(env, status);
  const Harness& harness = *harness_of(args);
  std::unique_ptr<meta::Batch> batch = harness.open_batch(buffer);
  if (batch == nullptr) return throw_error(env, ErrorKind::kState, "Expected a buffer with a batch meta for addFrame");
  if (batch->num_frames() >= batch->max_frames_in_batch() || !harness.metadata->add_frame(*batch, fields)) {
    return throw_error(env, ErrorKind::kState,
        "Expected a batch with room for another frame for addFrame but received one with " +
            std::to_string(batch->num_frames()) + " of " + std::to_string(batch->max_frames_in_batch()) +
            " frames (maxFramesInBatch)");
  }
  return metabind::make_undefined(env);
}

napi_value set_times(napi_env env, napi_callback_info info) {
  Args args(env, info);
  GstBuffer* buffer = nullptr;
  GstClockTime pts = 0, dts = 0, duration = 0;
  if (!args.ok || !read_buffer(env, args[0], "buffer", &buffer) || !read_clock_time(env, args[1], "pts", &pts) ||
      !read_clock_time(env, args[2], "dts", &dts) || !read_clock_time(env, args[3], "duration", &duration) ||
      !no_open_call(env, *harness_of(args), buffer, "setTimes")) {
    return nullptr;
  }
  GST_BUFFER_PTS(buffer) = pts;
  GST_BUFFER_DTS(buffer) = dts;
  GST_BUFFER_DURATION(buffer) = duration;
  return metabind::make_undefined(env);
}

napi_value release_buffer(napi_env env, napi_callback_info info) {
  Args args(env, info);
  GstBuffer* buffer = nullptr;
  void* data = nullptr;
  if (!args.ok || !read_buffer(env, args[0], "buffer", &buffer) ||
      !no_open_call(env, *harness_of(args), buffer, "releaseBuffer") || napi_unwrap(env, args[0], &data) != napi_ok) {
    return nullptr;
  }
  auto* box = static_cast<BufferBox*>(data);
  gst_buffer_unref(box->buffer);
  box->buffer = nullptr;
  return metabind::make_undefined(env);
}

// The memory the caps' features name, as the plugin reads them (gst/element.cpp).
DsnodeMemoryKind memory_kind(GstCaps* caps) {
  GstCapsFeatures* features = gst_caps_get_features(caps, 0);
  if (features == nullptr || gst_caps_features_is_equal(features, GST_CAPS_FEATURES_MEMORY_SYSTEM_MEMORY)) {
    return DSNODE_MEMORY_SYSTEM;
  }
  if (gst_caps_features_contains(features, "memory:CUDAMemory")) return DSNODE_MEMORY_CUDA;
  if (gst_caps_features_contains(features, "memory:NVMM")) return DSNODE_MEMORY_NVMM;
  return DSNODE_MEMORY_OTHER;
}

// setVideo(buffer, caps, stride?): the stream info a pipeline would give the buffer (what
// Buffer.extract reads), and with `stride` a GstVideoMeta saying its rows are that far apart.
napi_value set_video(napi_env env, napi_callback_info info) {
  Args args(env, info);
  BufferBox* box = nullptr;
  std::string text;
  int64_t stride = 0;
  if (!args.ok || (box = read_box(env, args[0], "buffer")) == nullptr ||
      !metabind::read_string(env, args[1], FieldName("caps"), &text) ||
      (!metabind::is_nullish(env, args[2]) &&
          !metabind::read_integer(env, args[2], FieldName("stride"), 1, kMaxBufferSize, &stride)) ||
      !no_open_call(env, *harness_of(args), box->buffer, "setVideo")) {
    return nullptr;
  }
  GstCaps* caps = gst_caps_from_string(text.c_str());
  if (caps == nullptr || gst_caps_get_size(caps) != 1 || !gst_caps_is_fixed(caps)) {
    if (caps != nullptr) gst_caps_unref(caps);
    return throw_error(env, ErrorKind::kRange,
        "Expected fixed caps of one structure (e.g. \"video/x-raw,format=RGB,width=4,height=2\") for caps but received " +
            metabind::describe_value(env, args[1]));
  }
  auto stream = std::make_shared<StreamInfo>();
  char* normalised = gst_caps_to_string(caps);
  stream->caps = normalised != nullptr ? normalised : text;
  g_free(normalised);
  stream->info.caps_string = stream->caps.c_str();
  stream->info.memory = memory_kind(caps);
  stream->info.has_video_info = gst_structure_has_name(gst_caps_get_structure(caps, 0), "video/x-raw") &&
      gst_video_info_from_caps(&stream->info.video, caps);
  gst_caps_unref(caps);
  if (stride > 0 && !stream->info.has_video_info) {
    return throw_error(env, ErrorKind::kRange,
        "Expected video/x-raw caps with a format, width and height for caps (a stride was given) but received " +
            metabind::describe_value(env, args[1]));
  }
  while (GstVideoMeta* old = gst_buffer_get_video_meta(box->buffer)) gst_buffer_remove_meta(box->buffer, &old->meta);
  if (stride > 0) {
    const GstVideoInfo& video = stream->info.video;
    gsize offsets[GST_VIDEO_MAX_PLANES] = {0};
    gint strides[GST_VIDEO_MAX_PLANES] = {static_cast<gint>(stride)};
    gst_buffer_add_video_meta_full(box->buffer, GST_VIDEO_FRAME_FLAG_NONE, GST_VIDEO_INFO_FORMAT(&video),
        GST_VIDEO_INFO_WIDTH(&video), GST_VIDEO_INFO_HEIGHT(&video), GST_VIDEO_INFO_N_PLANES(&video), offsets, strides);
  }
  box->stream = std::move(stream);
  return metabind::make_undefined(env);
}

// ---------------------------------------------------------------- calls

napi_value open_call(napi_env env, napi_callback_info info) {
  Args args(env, info);
  Harness* harness = harness_of(args);
  BufferBox* box = nullptr;
  void* data = nullptr;
  size_t length = 0;
  if (!args.ok || (box = read_box(env, args[0], "buffer")) == nullptr ||
      !metabind::read_typed_array(env, args[1], FieldName("state"), napi_float64_array, &data, &length) ||
      !no_open_call(env, *harness, box->buffer, "openCall")) {
    return nullptr;
  }
  GstBuffer* buffer = box->buffer;
  std::unique_ptr<meta::Batch> batch = harness->open_batch(buffer);
  if (batch == nullptr) return throw_error(env, ErrorKind::kState, "Expected a buffer with a batch meta for openCall");
  const size_t frames = batch->num_frames();
  if (length < L::state_length(frames)) {
    return throw_error(env, ErrorKind::kRange,
        "Expected a state array of at least " + std::to_string(L::state_length(frames)) + " values (" +
            std::to_string(L::kStateFramesBase) + " + " + std::to_string(L::kStateFrameStride) + " per frame, " +
            std::to_string(frames) + " frames) for state but received " + std::to_string(length) + " values");
  }
  OpenCall call;
  call.backend = std::move(batch);
  call.buffer = buffer;
  if (napi_create_reference(env, args[0], 1, &call.object) != napi_ok) return nullptr;
  call.stream = box->stream;
  const uint32_t id = metabind::open_call(call.backend.get(), buffer, call.stream ? &call.stream->info : nullptr,
      static_cast<double*>(data));
  harness->calls.emplace(id, std::move(call));
  return metabind::make_number(env, id);
}

// Ends a call: the binding first (its id goes stale, views detach, the frame mapping goes),
// then the backend (un-added metas go back to the pool), then the reference on the buffer.
void end_call(napi_env env, uint32_t id, OpenCall& call) {
  metabind::close_call(id, env);
  call.backend.reset();
  // Without env (the env is going away) the reference goes with it.
  if (env != nullptr && call.object != nullptr) napi_delete_reference(env, call.object);
  call.object = nullptr;
  call.buffer = nullptr;
  call.stream.reset();
}

napi_value close_call(napi_env env, napi_callback_info info) {
  Args args(env, info);
  uint32_t id = 0;
  if (!args.ok || !metabind::read_int<uint32_t>(env, args[0], FieldName("callId"), &id)) return nullptr;
  Harness* harness = harness_of(args);
  auto found = harness->calls.find(id);
  if (found != harness->calls.end()) {  // closing twice is harmless, like close_call
    end_call(env, id, found->second);
    harness->calls.erase(found);
  }
  return metabind::make_undefined(env);
}

// ---------------------------------------------------------------- tensor output

bool parse_layer(napi_env env, napi_value value, long index, meta::TensorLayer* layer, std::vector<uint8_t>* bytes) {
  const Path path{"NvDsInferTensorMeta.output_layers_info", index};
  metabind::FieldReader in(env, value, path);
  napi_value dims, data;
  int64_t data_type = 0;
  uint32_t num_dims = 0;
  napi_value data_type_value;
  if (!(metabind::read_object(env, value, FieldName(path, nullptr)) &&
          in.string("layerName", "layerName", &layer->layer_name) && in.get("dataType", &data_type_value) &&
          metabind::read_integer(env, data_type_value, FieldName(path, "dataType"), 0, 5, &data_type) &&
          in.get("dims", &dims) && metabind::read_array(env, dims, FieldName(path, "inferDims.d"), &num_dims) &&
          in.integer("numElements", "inferDims.numElements", &layer->num_elements) &&
          in.integer("bindingIndex", "bindingIndex", &layer->binding_index))) {
    return false;
  }
  layer->data_type = static_cast<meta::TensorDataType>(data_type);
  if (num_dims > meta::kMaxTensorDims) {
    throw_error(env, ErrorKind::kRange,
        "Expected at most 8 dimensions (NVDSINFER_MAX_DIMS) for " + path.name("inferDims.d") + " but received " +
            std::to_string(num_dims));
    return false;
  }
  layer->num_dims = num_dims;
  const std::string dims_root = path.name("inferDims.d");
  for (uint32_t d = 0; d < num_dims; ++d) {
    napi_value dim;
    if (napi_get_element(env, dims, d, &dim) != napi_ok ||
        !metabind::read_int<uint32_t>(env, dim, FieldName(Path{dims_root.c_str(), static_cast<long>(d)}, nullptr),
            &layer->dims[d])) {
      return false;
    }
  }
  void* pointer = nullptr;
  size_t length = 0;
  const Path host{"NvDsInferTensorMeta.out_buf_ptrs_host", index};
  if (!in.get("data", &data) ||
      !metabind::read_typed_array(env, data, FieldName(host, nullptr), napi_uint8_array, &pointer, &length)) {
    return false;
  }
  const uint8_t* begin = static_cast<const uint8_t*>(pointer);
  bytes->assign(begin, begin + length);
  return true;
}

bool parse_tensor_output(napi_env env, napi_value value, meta::TensorOutput* out,
    std::vector<std::vector<uint8_t>>* bytes) {
  static const Path path{"NvDsInferTensorMeta"};
  metabind::FieldReader in(env, value, path);
  napi_value layers;
  uint32_t count = 0;
  if (!(metabind::read_object(env, value, FieldName("output")) &&
          in.integer("uniqueId", "unique_id", &out->unique_id) && in.integer("gpuId", "gpu_id", &out->gpu_id) &&
          in.integer("networkWidth", "network_info.width", &out->network_width) &&
          in.integer("networkHeight", "network_info.height", &out->network_height) &&
          in.integer("networkChannels", "network_info.channels", &out->network_channels) &&
          in.flag("maintainAspectRatio", "maintain_aspect_ratio", &out->maintain_aspect_ratio) &&
          in.flag("symmetricPadding", "symmetric_padding", &out->symmetric_padding) && in.get("layers", &layers) &&
          metabind::read_array(env, layers, FieldName(path, "output_layers_info"), &count))) {
    return false;
  }
  out->layers.resize(count);
  bytes->resize(count);
  for (uint32_t i = 0; i < count; ++i) {
    napi_value layer;
    if (napi_get_element(env, layers, i, &layer) != napi_ok ||
        !parse_layer(env, layer, static_cast<long>(i), &out->layers[i], &(*bytes)[i])) {
      return false;
    }
  }
  return true;
}

napi_value add_tensor_output(napi_env env, napi_callback_info info) {
  Args args(env, info);
  uint32_t id = 0;
  meta::TensorOutput output;
  std::vector<std::vector<uint8_t>> bytes;
  if (!args.ok || !metabind::read_int<uint32_t>(env, args[0], FieldName("callId"), &id) ||
      !parse_tensor_output(env, args[3], &output, &bytes)) {
    return nullptr;
  }
  Harness* harness = harness_of(args);
  auto found = harness->calls.find(id);
  meta::Batch* backend = found != harness->calls.end() ? found->second.backend.get() : nullptr;
  // attach_user_meta reports a stale id; a live id that is not ours has no portable backend.
  return metabind::attach_user_meta(env, id, args[1], args[2],
      [&](meta::Batch*, meta::UserMetaLevel level, void* owner, meta::UserHandle* created) {
        if (backend == nullptr) {
          return meta::Status::State("Expected a call opened by harness.openCall for addTensorOutput but received "
              "call " + std::to_string(id));
        }
        return harness->metadata->add_tensor_output(*backend, level, owner, output, std::move(bytes), created);
      });
}

// Writes an object's row as it is, unchecked: what a C writer upstream (nvinfer) may leave in an
// NvDsObjectMeta outside ds-element's ranges (a parser's confidence 1.25, crop mode's negative
// widths), so tests can check that elements downstream keep such values.
napi_value write_object_as_upstream(napi_env env, napi_callback_info info) {
  metabind::CallArgs args(env, info);
  metabind::CallScope scope(env, args, "writeObjectAsUpstream");
  if (!scope) return nullptr;
  metabind::MetaCall& call = scope.call();
  uint32_t row = 0;
  meta::ObjectHandle object;
  if (!metabind::read_row(env, call, args[1], "row", "writeObjectAsUpstream", &row, &object)) return nullptr;
  call.batch->read_object(object, &call.after);
  meta::Status status = metabind::read_object_row(call.row_slots(row), &call.after);
  if (status.ok()) status = call.batch->write_object(object, call.after, &call.after);  // nothing differs: nothing checked
  if (!status.ok()) return throw_status(env, status);
  return metabind::make_undefined(env);
}

// ---------------------------------------------------------------- module

// At env teardown open calls end (their buffers may be finalised next), then the state goes.
void destroy_harness(void* data) {
  auto* harness = static_cast<Harness*>(data);
  for (auto& entry : harness->calls) end_call(nullptr, entry.first, entry.second);
  delete harness;
}

constexpr metabind::Export kHarnessExports[] = {
    {"createBuffer", create_buffer},
    {"writeBuffer", write_buffer},
    {"copyBuffer", copy_buffer},
    {"addFrame", add_frame},
    {"setTimes", set_times},
    {"openCall", open_call},
    {"closeCall", close_call},
    {"addTensorOutput", add_tensor_output},
    {"writeObjectAsUpstream", write_object_as_upstream},
    {"releaseBuffer", release_buffer},
    {"setVideo", set_video},
};

Napi::Object init(Napi::Env env, Napi::Object exports) {
  // The binding's env hook first: hooks run in reverse, so ours (ending calls) runs before it.
  metabind::install(env, exports);
  if (env.IsExceptionPending()) return exports;
#ifdef DSNODE_HAVE_TENSORRT
  // The TensorRT runner and the CUDA copies its GPU tests need (test/gpu/).
  if (!runners::install_tensorrt(env, exports)) return exports;
#endif
  tensorbind::install(env, exports);
  if (env.IsExceptionPending()) return exports;
  auto* harness = new Harness();
  harness->metadata = meta::open_metadata_source(&harness->metadata_error);
  if (napi_add_env_cleanup_hook(env, destroy_harness, harness) != napi_ok) {
    delete harness;
    return exports;
  }
  // From here the hook owns `harness`: a failure below leaves an error pending, nothing to free.
  metabind::ObjectBuilder object(env);
  object.functions(kHarnessExports, harness).functions(metabind::kAnalyticsHarnessExports)
      .functions(metabind::kComponentHarnessExports);
  // The metadata backend of this build, and on DeepStream the libnvds_meta.so it opened.
  object.string("backend", meta::metadata_backend_name());
  object.string("deepstreamLibrary", harness->metadata != nullptr ? harness->metadata->library_path() : "");
  if (object.ok()) napi_set_named_property(env, exports, "harness", object.value());
  return exports;
}

}  // namespace

}  // namespace dsnode::standalone

// NODE_API_MODULE pastes tokens: it needs an unqualified name.
static Napi::Object init_dsnode_standalone(Napi::Env env, Napi::Object exports) {
  return dsnode::standalone::init(env, exports);
}

NODE_API_MODULE(dsnode_standalone, init_dsnode_standalone)
