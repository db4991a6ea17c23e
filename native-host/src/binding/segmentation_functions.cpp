// nvinfer's segmentation meta between the model (meta/segmentation_meta.h) and JS
// (NativeSegmentation in sdk/src/native/meta-binding.ts). Read: the scalars from the one list of
// members, the maps as zero-copy views into the meta (detached when the call ends). Written
// (addSegmentation): the maps copied out of the caller's typed arrays, validated by the backend.
#include "binding/meta_kind_functions.h"
#include "meta/segmentation_meta.h"

namespace dsnode::metabind {

namespace {

napi_value read_segmentation(napi_env env, napi_callback_info info) {
  static constexpr UserMetaKind kKind{"readSegmentation", "a segmentation meta (NVDSINFER_SEGMENTATION_META)"};
  return read_user_meta_as(env, info, kKind, &meta::Batch::read_segmentation,
      [env](MetaFunction& f, const meta::SegmentationView& value) -> napi_value {
        // Views are made under the lock: close_call must find every one to detach it.
        const size_t pixels = static_cast<size_t>(value.width) * value.height;
        napi_value class_map = value.class_map != nullptr
            ? host_view(env, f.call(), value.class_map, pixels * sizeof(int32_t)) : make_null(env);
        napi_value probabilities = value.class_probabilities_map != nullptr
            ? host_view(env, f.call(), value.class_probabilities_map, pixels * value.classes * sizeof(float))
            : make_null(env);
        f.unlock();
        if (class_map == nullptr || probabilities == nullptr) return nullptr;
        ObjectBuilder out(env);
#define DSNODE_SET_MEMBER(type, member, js, what) out.number(js, value.member);
        DSNODE_SEGMENTATION_MEMBERS(DSNODE_SET_MEMBER)
#undef DSNODE_SET_MEMBER
        return out.set("classMap", class_map).set("classProbabilities", probabilities).value();
      });
}

bool parse_segmentation(napi_env env, napi_value value, meta::Segmentation* out) {
  static const Path path{"NvDsInferSegmentationMeta"};
  if (!read_object(env, value, FieldName("segmentation"))) return false;
  FieldReader in(env, value, path);
#define DSNODE_READ_MEMBER(type, member, js, what) \
  if (!in.integer(js, #member, &out->member)) return false;
  DSNODE_SEGMENTATION_MEMBERS(DSNODE_READ_MEMBER)
#undef DSNODE_READ_MEMBER
  napi_value probabilities;
  if (!in.vector("classMap", "class_map", &out->class_map) || !in.get("classProbabilities", &probabilities)) {
    return false;
  }
  return is_nullish(env, probabilities) ||
         read_vector(env, probabilities, FieldName(path, "class_probabilities_map"), &out->class_probabilities_map);
}

napi_value add_segmentation(napi_env env, napi_callback_info info) {
  return add_user_meta_as(env, info, "addSegmentation", parse_segmentation, &meta::Batch::add_segmentation);
}

}  // namespace

const Export kSegmentationMetaExports[2] = {
    {"readSegmentation", read_segmentation},
    {"addSegmentation", add_segmentation},
};

}  // namespace dsnode::metabind
