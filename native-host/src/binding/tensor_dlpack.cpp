// DLPack capsules (tensor/dlpack_capsule.h): externals whose finalizer runs the
// DLManagedTensor's deleter; they hold their own reference on the memory (HeldMemory).
#include "binding/tensor_binding_internal.h"

#include <cstdint>
#include <string>
#include <vector>

#include "tensor/copy.h"
#include "tensor/dlpack.h"
#include "tensor/dlpack_capsule.h"

namespace dsnode::tensorbind {

namespace {

// Two tags, so a consumer can check what an external holds (napi_check_object_type_tag).
constexpr napi_type_tag kDLPackTag = {0x64736e6f64652d64ull, 0x6c7061636b2d3038ull};           // v0.8 DLManagedTensor
constexpr napi_type_tag kDLPackVersionedTag = {0x64736e6f64652d64ull, 0x6c7061636b2d3130ull};  // v1.0 versioned

// The external of a capsule nobody consumed was collected: drop it (tensor/dlpack_capsule.h).
void finalize_capsule(napi_env env, void* data, void* hint) { static_cast<tensor::DLPackCapsule*>(hint)->drop(); }

}  // namespace

napi_value to_dlpack(napi_env env, napi_callback_info info) {
  Args args(env, info);
  Resolved source;
  bool versioned = false;
  if (!args.ok || !resolve(env, args[0], "tensor", &source) ||
      !metabind::read_bool(env, args[1], FieldName("versioned"), &versioned)) {
    return nullptr;
  }
  HeldMemory memory;
  if (!memory.take(env, &source)) {
    memory.drop(env);
    return nullptr;
  }
  // The capsule owns the memory's keepers; its deleter lets go of them.
  auto* capsule = tensor::DLPackCapsule::create(source.desc, versioned, [memory, env]() mutable { memory.drop(env); });
  napi_value external = nullptr;
  if (napi_create_external(env, capsule->managed(), finalize_capsule, capsule, &external) != napi_ok) {
    capsule->drop();
    return nullptr;
  }
  // Where Node can tag externals (Node >= 18.19 / 20.10); a consumer may check the tag.
  napi_type_tag_object(env, external, versioned ? &kDLPackVersionedTag : &kDLPackTag);
  return external;
}

// What a consumer addon sees in a capsule (the tests read it back this way).
napi_value inspect_dlpack(napi_env env, napi_callback_info info) {
  Args args(env, info);
  bool versioned = false;
  void* pointer = nullptr;
  napi_valuetype type = napi_undefined;
  if (!args.ok || !metabind::read_bool(env, args[1], FieldName("versioned"), &versioned)) return nullptr;
  if (napi_typeof(env, args[0], &type) != napi_ok || type != napi_external ||
      napi_get_value_external(env, args[0], &pointer) != napi_ok || pointer == nullptr) {
    return throw_error(env, ErrorKind::kType,
        "Expected a DLPack capsule (an external) for capsule but received " + metabind::describe_value(env, args[0]));
  }
  const DLTensor* tensor = nullptr;
  metabind::ObjectBuilder out(env);
  out.boolean("versioned", versioned);
  if (versioned) {
    const auto* managed = static_cast<const DLManagedTensorVersioned*>(pointer);
    tensor = &managed->dl_tensor;
    out.number("versionMajor", managed->version.major)
        .number("versionMinor", managed->version.minor)
        .number("flags", static_cast<double>(managed->flags))
        .boolean("hasDeleter", managed->deleter != nullptr)
        .boolean("hasManagerContext", managed->manager_ctx != nullptr);
  } else {
    const auto* managed = static_cast<const DLManagedTensor*>(pointer);
    tensor = &managed->dl_tensor;
    out.boolean("hasDeleter", managed->deleter != nullptr).boolean("hasManagerContext", managed->manager_ctx != nullptr);
  }
  out.number("deviceType", static_cast<double>(tensor->device.device_type))
      .number("deviceId", tensor->device.device_id)
      .number("ndim", tensor->ndim)
      .number("dtypeCode", tensor->dtype.code)
      .number("dtypeBits", tensor->dtype.bits)
      .number("dtypeLanes", tensor->dtype.lanes)
      .set("shape", make_dims(env, tensor->shape, tensor->ndim))
      .set("strides", tensor->strides != nullptr ? make_dims(env, tensor->strides, tensor->ndim) : metabind::make_null(env))
      .number("byteOffset", static_cast<double>(tensor->byte_offset))
      .set("data", make_pointer(env, tensor->data));
  // The elements' bytes, copied, where the CPU can read them: what the consumer would read.
  if (tensor->device.device_type == kDLCPU || tensor->device.device_type == kDLCUDAHost) {
    Desc desc;
    desc.dtype = DType::kUint8;
    bool known = false;
    for (int32_t t = 0; t <= static_cast<int32_t>(DType::kFloat32); ++t) {
      const DLDataType candidate = tensor::dlpack_dtype(static_cast<DType>(t));
      if (candidate.code == tensor->dtype.code && candidate.bits == tensor->dtype.bits) {
        desc.dtype = static_cast<DType>(t);
        known = true;
      }
    }
    if (known && tensor->ndim <= tensor::kMaxDims) {
      desc.ndim = tensor->ndim;
      for (int32_t d = 0; d < desc.ndim; ++d) {
        desc.shape[d] = tensor->shape[d];
        desc.strides[d] = tensor->strides != nullptr ? tensor->strides[d] : 0;
      }
      if (tensor->strides == nullptr) tensor::set_dense_strides(&desc);
      desc.data = tensor->data;
      desc.byte_offset = tensor->byte_offset;
      std::vector<uint8_t> bytes(static_cast<size_t>(tensor::element_count(desc)) * tensor::dtype_size(desc.dtype));
      tensor::copy_host(desc, bytes.data());
      out.set("elements", metabind::make_bytes(env, bytes.data(), bytes.size()));
    }
  }
  return out.value();
}
}  // namespace dsnode::tensorbind
