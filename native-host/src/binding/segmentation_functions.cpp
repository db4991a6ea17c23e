// nvinfer's segmentation meta between the model (meta/segmentation_meta.h) and JS
// (NativeSegmentation in sdk/src/native/meta-binding.ts). Read: the scalars from the one list of
// members, the maps as zero-copy views into the meta (detached when the call ends). Written
// (addSegmentation): the maps copied out of the caller's typed arrays, validated by the backend.
#include "binding/typed_user_meta.h"
#include "meta/segmentation_meta.h"

#ifdef NAPI_CPP_EXCEPTIONS
#error "binding/ checks every N-API status itself: a C++ exception must never unwind through V8 frames on the JS thread"
#endif

namespace dsnode::metabind {

namespace {

napi_value read_segmentation(napi_env env, napi_callback_info info) {
  CallArgs args(env, info);
  CallScope scope(env, args, "readSegmentation");
  meta::SegmentationView value;
  if (!scope || !read_typed_user_meta(env, scope, args[1], "readSegmentation",
          "a segmentation meta (NVDSINFER_SEGMENTATION_META)", &meta::Batch::read_segmentation, &value)) {
    return nullptr;
  }
  // Views are made under the lock: close_call must find every one to detach it.
  const size_t pixels = static_cast<size_t>(value.width) * value.height;
  napi_value class_map = value.class_map != nullptr
      ? host_view(env, scope.call(), value.class_map, pixels * sizeof(int32_t)) : make_null(env);
  napi_value probabilities = value.class_probabilities_map != nullptr
      ? host_view(env, scope.call(), value.class_probabilities_map, pixels * value.classes * sizeof(float))
      : make_null(env);
  scope.unlock();
  if (class_map == nullptr || probabilities == nullptr) return nullptr;
  ObjectBuilder out(env);
#define DSNODE_SET_MEMBER(type, member, js, what) out.number(js, value.member);
  DSNODE_SEGMENTATION_MEMBERS(DSNODE_SET_MEMBER)
#undef DSNODE_SET_MEMBER
  out.set("classMap", class_map).set("classProbabilities", probabilities);
  return out.value();
}

bool parse_segmentation(napi_env env, napi_value value, meta::Segmentation* out) {
  static const Path path{"NvDsInferSegmentationMeta"};
  if (!read_object(env, value, FieldName("segmentation"))) return false;
  FieldReader in(env, value, path);
#define DSNODE_READ_MEMBER(type, member, js, what) \
  if (!in.integer(js, #member, &out->member)) return false;
  DSNODE_SEGMENTATION_MEMBERS(DSNODE_READ_MEMBER)
#undef DSNODE_READ_MEMBER
  napi_value map, probabilities;
  void* data = nullptr;
  size_t length = 0;
  if (!in.get("classMap", &map) ||
      !read_typed_array(env, map, FieldName(path, "class_map"), napi_int32_array, &data, &length)) {
    return false;
  }
  const auto* ids = static_cast<const int32_t*>(data);
  out->class_map.assign(ids, ids + length);
  if (!in.get("classProbabilities", &probabilities)) return false;
  if (is_nullish(env, probabilities)) return true;
  if (!read_typed_array(env, probabilities, FieldName(path, "class_probabilities_map"), napi_float32_array, &data, &length)) {
    return false;
  }
  const auto* values = static_cast<const float*>(data);
  out->class_probabilities_map.assign(values, values + length);
  return true;
}

napi_value add_segmentation(napi_env env, napi_callback_info info) {
  CallArgs args(env, info);
  meta::Segmentation value;
  if (!args.ok || !parse_segmentation(env, args[3], &value)) return nullptr;
  return attach_user_meta(env, args.id, args[1], args[2],
      [&](meta::Batch* batch, meta::UserMetaLevel level, void* owner, meta::UserHandle* created) {
        return batch->add_segmentation(level, owner, std::move(value), created);
      }, "addSegmentation");
}

}  // namespace

const Export kSegmentationMetaExports[2] = {
    {"readSegmentation", read_segmentation},
    {"addSegmentation", add_segmentation},
};

}  // namespace dsnode::metabind
