// Post-processing on a tensor wherever it lives (postprocess/candidates.h): the kernels on a
// CUDA tensor, the CPU reference on a host one, so JS gets the same few values either way and
// the decode that follows is one code path (sdk/src/postprocess/decode-yolo.ts, best-classes.ts).
#include <algorithm>
#include <string>
#include <vector>

#include "binding/tensor_binding_internal.h"
#include "postprocess/candidates.h"
#include "tensor/copy.h"

namespace dsnode::tensorbind {

namespace {

// The dense float32 tensor of `elements` values a post-processing call reads, resolved.
bool resolve_scores(napi_env env, napi_value value, const char* caller, int64_t elements, Resolved* out) {
  if (!resolve(env, value, "tensor", out)) return false;
  const Desc& desc = out->desc;
  if (desc.dtype != DType::kFloat32 || !tensor::is_dense(desc) || tensor::element_count(desc) != elements) {
    throw_error(env, ErrorKind::kType,
        "Expected a dense float32 tensor of " + std::to_string(elements) + " values for " + caller + " but received " +
            tensor::describe(desc));
    return false;
  }
  return true;
}

// Runs `on_gpu(data, scratch, stream)` with the tensor's context current and `scratch_bytes`
// of pooled device memory of it; null with a JS error on failure.
template <typename OnGpu>
bool run_on_gpu(napi_env env, const Desc& desc, size_t scratch_bytes, OnGpu on_gpu) {
  tensor::CudaScope scope(desc.device_id, desc.cuda_context);
  CUstream_st* stream = scope.stream();
  if (stream == nullptr) {
    throw_tensor_error(env, scope.error());
    return false;
  }
  std::string error;
  tensor::BlockRef scratch =
      tensor::Pool::instance().allocate(Device::kCuda, desc.device_id, desc.cuda_context, std::max<size_t>(scratch_bytes, 1), &error);
  if (scratch == nullptr) {
    throw_tensor_error(env, error);
    return false;
  }
  error = on_gpu(reinterpret_cast<const float*>(desc.first()), scratch->ptr, stream);
  if (!error.empty()) {
    throw_tensor_error(env, error);
    return false;
  }
  return true;
}

}  // namespace

// yoloCandidates(tensor, channelsFirst, batch, classes, candidates, threshold): the anchors whose
// best class score reaches `threshold`, in anchor order: ids (index, class) and values (score,
// cx, cy, w, h) per candidate, and the bytes copied from the device.
napi_value yolo_candidates(napi_env env, napi_callback_info info) {
  Args args(env, info);
  postprocess::YoloShape shape;
  bool channels_first = true;
  int64_t batch = 0, classes = 0, candidates = 0;
  double threshold = 0;
  if (!args.ok || !metabind::read_bool(env, args[1], FieldName("channelsFirst"), &channels_first) ||
      !metabind::read_integer(env, args[2], FieldName("batch"), 1, INT32_MAX, &batch) ||
      !metabind::read_integer(env, args[3], FieldName("classes"), 1, INT32_MAX, &classes) ||
      !metabind::read_integer(env, args[4], FieldName("candidates"), 0, INT32_MAX, &candidates) ||
      !metabind::read_double(env, args[5], FieldName("threshold"), &threshold)) {
    return nullptr;
  }
  if (static_cast<double>(batch) * static_cast<double>(candidates) > INT32_MAX) {
    return throw_error(env, ErrorKind::kRange,
        "Expected at most " + std::to_string(INT32_MAX) + " anchors (batch × candidates) for yoloCandidates but received " +
            std::to_string(batch * candidates));
  }
  shape.batch = static_cast<int32_t>(batch);
  shape.classes = static_cast<int32_t>(classes);
  shape.candidates = static_cast<int32_t>(candidates);
  shape.channels_first = channels_first;
  Resolved source;
  if (!resolve_scores(env, args[0], "yoloCandidates", batch * (4 + classes) * candidates, &source)) return nullptr;
  std::vector<postprocess::YoloCandidate> kept;
  postprocess::CopyStats copied;
  if (tensor::host_visible(source.desc.device)) {
    postprocess::yolo_candidates_cpu(reinterpret_cast<const float*>(source.desc.first()), shape, threshold, &kept);
  } else if (!run_on_gpu(env, source.desc, postprocess::yolo_scratch_bytes(shape), [&](const float* data, void* scratch, CUstream_st* stream) {
               return postprocess::yolo_candidates_cuda(data, shape, threshold, scratch, stream, &kept, &copied);
             })) {
    return nullptr;
  }
  std::vector<int32_t> ids(kept.size() * 2);
  std::vector<float> values(kept.size() * 5);
  for (size_t i = 0; i < kept.size(); ++i) {
    const postprocess::YoloCandidate& candidate = kept[i];
    ids[i * 2] = candidate.index;
    ids[i * 2 + 1] = candidate.class_id;
    values[i * 5] = candidate.score;
    for (int k = 0; k < 4; ++k) values[i * 5 + 1 + k] = candidate.box[k];
  }
  metabind::ObjectBuilder result(env);
  result.set("ids", metabind::make_typed_copy(env, ids))
      .set("values", metabind::make_typed_copy(env, values))
      .number("copiedBytes", static_cast<double>(copied.bytes));
  return result.value();
}

// rowArgmax(tensor, rows, classes): each row's best class and its score, and the bytes copied
// from the device.
napi_value row_argmax(napi_env env, napi_callback_info info) {
  Args args(env, info);
  int64_t rows = 0, classes = 0;
  if (!args.ok || !metabind::read_integer(env, args[1], FieldName("rows"), 0, INT32_MAX, &rows) ||
      !metabind::read_integer(env, args[2], FieldName("classes"), 1, INT32_MAX, &classes)) {
    return nullptr;
  }
  Resolved source;
  if (!resolve_scores(env, args[0], "rowArgmax", rows * classes, &source)) return nullptr;
  std::vector<int32_t> class_ids(static_cast<size_t>(rows));
  std::vector<float> scores(static_cast<size_t>(rows));
  postprocess::CopyStats copied;
  const int32_t width = static_cast<int32_t>(classes);
  if (tensor::host_visible(source.desc.device)) {
    postprocess::row_argmax_cpu(reinterpret_cast<const float*>(source.desc.first()), rows, width, class_ids.data(), scores.data());
  } else if (!run_on_gpu(env, source.desc, postprocess::row_argmax_scratch_bytes(rows), [&](const float* data, void* scratch, CUstream_st* stream) {
               return postprocess::row_argmax_cuda(data, rows, width, scratch, stream, class_ids.data(), scores.data(), &copied);
             })) {
    return nullptr;
  }
  metabind::ObjectBuilder result(env);
  result.set("classIds", metabind::make_typed_copy(env, class_ids))
      .set("scores", metabind::make_typed_copy(env, scores))
      .number("copiedBytes", static_cast<double>(copied.bytes));
  return result.value();
}

}  // namespace dsnode::tensorbind
