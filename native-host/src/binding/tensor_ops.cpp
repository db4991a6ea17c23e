// The pre-processing ops (src/ops/ops.h) and the native post-processing fast paths
// (src/postprocess/) on tensors from JS (tensor_binding_internal.h).
#include "binding/tensor_binding_internal.h"

#include <string>
#include <vector>

#include "ops/ops.h"
#include "postprocess/class_argmax.h"
#include "tensor/copy.h"
#include "tensor/cuda_scope.h"

#ifdef DSNODE_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

namespace dsnode::tensorbind {

namespace {

bool read_options_number(napi_env env, napi_value options, const char* key, double* out) {
  napi_value value = nullptr;
  const std::string name = std::string("options.") + key;
  return get_property(env, options, key, &value) && metabind::read_double(env, value, FieldName(name.c_str()), out);
}

bool read_triple(napi_env env, napi_value options, const char* key, float* out) {
  napi_value value = nullptr;
  uint32_t length = 0;
  const std::string name = std::string("options.") + key;
  if (!get_property(env, options, key, &value) || !metabind::read_array(env, value, FieldName(name.c_str()), &length)) {
    return false;
  }
  if (length != 3) {
    throw_error(env, ErrorKind::kRange,
        "Expected 3 values for " + name + " but received " + std::to_string(length));
    return false;
  }
  for (uint32_t i = 0; i < 3; ++i) {
    napi_value element = nullptr;
    const std::string element_name = name + "[" + std::to_string(i) + "]";
    if (napi_get_element(env, value, i, &element) != napi_ok ||
        !metabind::read_float(env, element, FieldName(element_name.c_str()), &out[i])) {
      return false;
    }
  }
  return true;
}

bool read_preprocess_options(napi_env env, napi_value options, ops::PreprocessParams* params) {
  if (!metabind::read_object(env, options, FieldName("options"))) return false;
  double width = 0, height = 0, pad = 0, channels = 0, scale = 0;
  std::string mode, order, layout, dtype;
  napi_value center_value = nullptr;
  bool center = true;
  if (!read_options_number(env, options, "width", &width) || !read_options_number(env, options, "height", &height) ||
      !read_choice(env, options, "mode", "options.mode", &mode) || !get_property(env, options, "center", &center_value) ||
      !metabind::read_bool(env, center_value, FieldName("options.center"), &center) ||
      !read_options_number(env, options, "padValue", &pad) || !read_options_number(env, options, "channels", &channels) ||
      !read_choice(env, options, "channelOrder", "options.channelOrder", &order) ||
      !read_options_number(env, options, "scale", &scale) || !read_triple(env, options, "mean", params->mean) ||
      !read_triple(env, options, "std", params->std) || !read_choice(env, options, "layout", "options.layout", &layout) ||
      !read_choice(env, options, "dtype", "options.dtype", &dtype)) {
    return false;
  }
  auto whole = [](double value) { return value >= 0 && value <= 1e9 && static_cast<double>(static_cast<int64_t>(value)) == value; };
  if (!whole(width) || !whole(height) || !whole(channels)) {
    throw_error(env, ErrorKind::kRange, "Expected whole numbers for options.width, options.height and options.channels");
    return false;
  }
  params->out_width = static_cast<int32_t>(width);
  params->out_height = static_cast<int32_t>(height);
  params->center = center;
  params->pad_value = static_cast<float>(pad);
  params->out_channels = static_cast<int32_t>(channels);
  params->scale = static_cast<float>(scale);
  if (mode == "letterbox") {
    params->mode = ops::ResizeMode::kLetterbox;
  } else if (mode == "stretch") {
    params->mode = ops::ResizeMode::kStretch;
  } else {
    throw_error(env, ErrorKind::kRange, "Expected \"letterbox\" or \"stretch\" for options.mode but received \"" + mode + "\"");
    return false;
  }
  if (order == "RGB" || order == "BGR") {
    params->out_order = order == "RGB" ? ops::ChannelOrder::kRGB : ops::ChannelOrder::kBGR;
  } else {
    throw_error(env, ErrorKind::kRange, "Expected \"RGB\" or \"BGR\" for options.channelOrder but received \"" + order + "\"");
    return false;
  }
  if (layout == "NCHW" || layout == "NHWC") {
    params->layout = layout == "NCHW" ? ops::Layout::kNCHW : ops::Layout::kNHWC;
  } else {
    throw_error(env, ErrorKind::kRange, "Expected \"NCHW\" or \"NHWC\" for options.layout but received \"" + layout + "\"");
    return false;
  }
  if (dtype == "uint8") {
    params->out_dtype = ops::DType::kUint8;
  } else if (dtype == "float32") {
    params->out_dtype = ops::DType::kFloat32;
  } else if (dtype == "float16") {
    params->out_dtype = ops::DType::kFloat16;
  } else {
    throw_error(env, ErrorKind::kRange,
        "Expected \"uint8\", \"float32\" or \"float16\" for options.dtype but received \"" + dtype + "\"");
    return false;
  }
  return true;
}

}  // namespace

napi_value preprocess(napi_env env, napi_callback_info info) {
  Args args(env, info);
  uint32_t count = 0;
  ops::PreprocessParams params;
  if (!args.ok || !metabind::read_array(env, args[0], FieldName("frames"), &count) ||
      !read_preprocess_options(env, args[1], &params)) {
    return nullptr;
  }
  if (count == 0) return throw_error(env, ErrorKind::kRange, "Expected at least one frame for frames but received none");
  if (count > static_cast<uint32_t>(ops::kMaxFrames)) {
    return throw_error(env, ErrorKind::kRange,
        "Expected at most " + std::to_string(ops::kMaxFrames) + " frames for frames but received " + std::to_string(count));
  }
  // Resolved one by one (each frame's call locked only while it is read); their memory is
  // held until the op is done.
  std::vector<Resolved> frames(count);
  std::vector<ops::ImageView> views(count);
  for (uint32_t i = 0; i < count; ++i) {
    napi_value element = nullptr;
    const std::string name = "frames[" + std::to_string(i) + "]";
    if (napi_get_element(env, args[0], i, &element) != napi_ok || !resolve(env, element, name.c_str(), &frames[i])) {
      return nullptr;
    }
    const Desc& desc = frames[i].desc;
    if (!tensor::is_frame_layout(desc)) {
      return throw_error(env, ErrorKind::kType,
          "Expected a frame ([height, width, channels] uint8 with a pixel format, pixels contiguous) for " + name +
              " but received " + tensor::describe(desc));
    }
    const Desc& first = frames[0].desc;
    const bool on_gpu = desc.device == Device::kCuda;
    if (on_gpu != (first.device == Device::kCuda) ||
        (on_gpu && (desc.device_id != first.device_id || desc.cuda_context != first.cuda_context))) {
      return throw_tensor_error(env,
          "Expected frames on one device for preprocess but received " +
              tensor::describe_device(first.device, first.device_id) + " (frames[0]) and " +
              tensor::describe_device(desc.device, desc.device_id) + " (" + name + ")" +
              (on_gpu && desc.device_id == first.device_id ? " from another CUDA context" : ""));
    }
    views[i] = tensor::image_view(desc);
  }
  const ops::Status valid = ops::validate(views.data(), static_cast<int32_t>(count), params);
  if (!valid.ok()) return throw_error(env, ErrorKind::kRange, valid.message);

  const Desc& first = frames[0].desc;
  const bool on_gpu = first.device == Device::kCuda;
  Desc out;
  out.device = on_gpu ? Device::kCuda : Device::kCpu;
  out.device_id = on_gpu ? first.device_id : 0;
  out.cuda_context = on_gpu ? first.cuda_context : nullptr;
  out.dtype = params.out_dtype == ops::DType::kUint8   ? DType::kUint8
              : params.out_dtype == ops::DType::kFloat16 ? DType::kFloat16
                                                         : DType::kFloat32;
  out.ndim = 4;
  const int64_t n = count, c = params.out_channels, h = params.out_height, w = params.out_width;
  const int64_t nchw[4] = {n, c, h, w}, nhwc[4] = {n, h, w, c};
  for (int32_t d = 0; d < 4; ++d) out.shape[d] = params.layout == ops::Layout::kNCHW ? nchw[d] : nhwc[d];
  tensor::set_dense_strides(&out);
  std::string error;
  tensor::BlockRef block = tensor::Pool::instance().allocate(out.device, out.device_id, out.cuda_context,
      std::max<size_t>(ops::output_size_bytes(params, static_cast<int32_t>(count)), 1), &error);
  if (block == nullptr) return throw_tensor_error(env, error);
  out.data = block->ptr;

  std::vector<ops::FrameTransform> transforms(count);
  ops::Status status;
  if (!on_gpu) {
    status = ops::preprocess_cpu(views.data(), static_cast<int32_t>(count), params, block->ptr, transforms.data());
  } else {
    tensor::CudaScope scope(first.device_id, first.cuda_context);
    CUstream_st* stream = scope.stream();
    if (stream == nullptr) return throw_tensor_error(env, scope.error());
    status = ops::preprocess_cuda(views.data(), static_cast<int32_t>(count), params, block->ptr, transforms.data(), stream);
#ifdef DSNODE_HAVE_CUDA
    if (status.ok()) {
      // Done before returning: the output is complete when JS sees it (docs/tensors.md).
      const cudaError_t synced = cudaStreamSynchronize(stream);
      if (synced != cudaSuccess) return throw_tensor_error(env, tensor::cuda_error_text(synced, "cudaStreamSynchronize"));
    }
#endif
  }
  if (!status.ok()) {
    if (status.code == ops::ErrorCode::kInvalidValue) return throw_error(env, ErrorKind::kRange, status.message);
    return throw_tensor_error(env, status.message);
  }

  napi_value tensor_value = make_owned(env, std::move(block), out);
  if (tensor_value == nullptr) return nullptr;
  napi_value transform_buffer = nullptr, transform_array = nullptr;
  void* data = nullptr;
  constexpr size_t kTransformLength = 8;
  if (napi_create_arraybuffer(env, count * kTransformLength * sizeof(double), &data, &transform_buffer) != napi_ok ||
      napi_create_typedarray(env, napi_float64_array, count * kTransformLength, transform_buffer, 0, &transform_array) !=
          napi_ok) {
    return nullptr;
  }
  auto* slots = static_cast<double*>(data);
  for (uint32_t i = 0; i < count; ++i) {
    const ops::FrameTransform& t = transforms[i];
    double* row = slots + i * kTransformLength;
    row[0] = t.scale_x;
    row[1] = t.scale_y;
    row[2] = t.pad_x;
    row[3] = t.pad_y;
    row[4] = t.resized_width;
    row[5] = t.resized_height;
    row[6] = t.source_width;
    row[7] = t.source_height;
  }
  metabind::ObjectBuilder result(env);
  result.set("tensor", tensor_value).set("transforms", transform_array);
  return result.value();
}

// classArgmax(data: Float32Array, first, classes, candidates, bestScore: Float32Array,
// bestClass: Int32Array): the class-major argmax of decodeYolo (postprocess/class_argmax.h) over
// data[first ..], on the calling thread. The TS side checks the sizes first; this checks again.
napi_value class_argmax(napi_env env, napi_callback_info info) {
  Args args(env, info);
  if (!args.ok) return nullptr;
  void *data = nullptr, *best_score = nullptr, *best_class = nullptr;
  size_t data_length = 0, score_length = 0, class_length = 0;
  int64_t first = 0, classes = 0, candidates = 0;
  if (!metabind::read_typed_array(env, args[0], FieldName("data"), napi_float32_array, &data, &data_length) ||
      !metabind::read_integer(env, args[1], FieldName("first"), 0, metabind::kMaxSafeInteger, &first) ||
      !metabind::read_integer(env, args[2], FieldName("classes"), 0, INT32_MAX, &classes) ||
      !metabind::read_integer(env, args[3], FieldName("candidates"), 0, INT32_MAX, &candidates) ||
      !metabind::read_typed_array(env, args[4], FieldName("bestScore"), napi_float32_array, &best_score, &score_length) ||
      !metabind::read_typed_array(env, args[5], FieldName("bestClass"), napi_int32_array, &best_class, &class_length)) {
    return nullptr;
  }
  const double needed = static_cast<double>(first) + static_cast<double>(classes) * static_cast<double>(candidates);
  if (needed > static_cast<double>(data_length) || static_cast<size_t>(candidates) > score_length ||
      static_cast<size_t>(candidates) > class_length) {
    return throw_error(env, ErrorKind::kRange,
        "Expected data of at least " + std::to_string(static_cast<uint64_t>(needed)) + " elements and result arrays of " +
            std::to_string(candidates) + " for classArgmax but received " + std::to_string(data_length) + ", " +
            std::to_string(score_length) + " and " + std::to_string(class_length));
  }
  postprocess::class_argmax(static_cast<const float*>(data) + first, static_cast<int32_t>(classes),
      static_cast<int32_t>(candidates), static_cast<float*>(best_score), static_cast<int32_t*>(best_class));
  return metabind::make_undefined(env);
}
}  // namespace dsnode::tensorbind
