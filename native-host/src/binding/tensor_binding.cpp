// The tensor half of the Node-API binding (tensor_binding.h; sdk/src/native/tensor-binding.ts
// documents every function): its export table, one file per surface (tensor_binding_internal.h).
//
// Frames: the first access in a call maps the call's buffer (tensor/frame_access.h) and keeps
// the mapping as the call's attachment (meta_binding_internal.h), so it is unmapped when the
// call closes, after the views handed out over it are detached. Owned tensors: a pooled block
// (tensor/tensor_pool.h) held by a wrapped "storage" object, which its ArrayBuffer view keeps
// alive, so the block goes back to the pool when neither is reachable, or at once at release()
// (which detaches the view). DLPack capsules (tensor/dlpack_capsule.h): externals whose
// finalizer runs the DLManagedTensor's deleter; they hold their own reference on the memory.
#include "binding/tensor_binding.h"

#include "binding/tensor_binding_internal.h"

namespace dsnode::tensorbind {

namespace {

// Bumped when a function's arguments or results change (TENSOR_BINDING_VERSION in TS).
constexpr double kTensorBindingVersion = 3;

constexpr metabind::Export kExports[] = {
    {"extract", extract},
    {"extractInto", extract_into},
    {"allocate", allocate},
    {"release", release},
    {"toHost", to_host},
    {"toDLPack", to_dlpack},
    {"inspectDLPack", inspect_dlpack},
    {"addressOf", address_of},
    {"hostView", host_view},
    {"hold", hold},
    {"letGo", let_go},
    {"preprocess", preprocess},
    {"stats", stats},
    {"trimPool", trim_pool},
    {"classArgmax", class_argmax},
    {"yoloCandidates", yolo_candidates},
    {"rowArgmax", row_argmax},
    {"drawOverlay", draw_overlay},
};

}  // namespace

void install(Napi::Env env, Napi::Object exports) {
  napi_env raw = env;
  metabind::ObjectBuilder object(raw);
  object.number("version", kTensorBindingVersion);
  napi_value flag = nullptr;
  napi_get_boolean(raw, tensor::cuda_compiled(), &flag);
  object.set("cudaCompiled", flag);
#ifdef DSNODE_HAVE_DEEPSTREAM
  napi_get_boolean(raw, true, &flag);
#else
  napi_get_boolean(raw, false, &flag);
#endif
  object.set("deepstreamCompiled", flag);
  object.number("frameInfoLength", static_cast<double>(kFrameInfoLength));
  object.functions(kExports);
  if (object.ok()) napi_set_named_property(raw, exports, "tensor", object.value());
}

}  // namespace dsnode::tensorbind
