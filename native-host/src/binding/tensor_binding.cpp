// The tensor half of the Node-API binding (tensor_binding.h; sdk/src/native/tensor-binding.ts
// documents every function).
//
// Frames: the first access in a call maps the call's buffer (tensor/frame_access.h) and keeps
// the mapping as the call's attachment (meta_binding_internal.h), so it is unmapped when the
// call closes, after the views handed out over it are detached. Owned tensors: a pooled block
// (tensor/tensor_pool.h) held by a wrapped "storage" object, which its ArrayBuffer view keeps
// alive, so the block goes back to the pool when neither is reachable, or at once at release()
// (which detaches the view). DLPack capsules (tensor/dlpack_capsule.h): externals whose
// finalizer runs the DLManagedTensor's deleter; they hold their own reference on the memory.
#include "binding/tensor_binding.h"

#include <gst/gst.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "binding/js_values.h"
#include "binding/meta_binding_internal.h"
#include "ops/ops.h"
#include "osd/overlay.h"
#include "postprocess/class_argmax.h"
#include "tensor/copy.h"
#include "tensor/cuda_scope.h"
#include "tensor/dlpack.h"
#include "tensor/dlpack_capsule.h"
#include "tensor/frame_access.h"

#ifdef DSNODE_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

#ifdef NAPI_CPP_EXCEPTIONS
#error "binding/ checks every N-API status itself: a C++ exception must never unwind through V8 frames on the JS thread"
#endif

namespace dsnode::tensorbind {

namespace {

using metabind::Args;
using metabind::ErrorKind;
using metabind::FieldName;
using metabind::throw_error;
using tensor::Desc;
using tensor::Device;
using tensor::DType;
using tensor::PixelFormat;

// Bumped when a function's arguments or results change (TENSOR_BINDING_VERSION in TS).
constexpr double kTensorBindingVersion = 1;

using metabind::kTensorCode;

// Tells our storage objects from any other wrapped object.
constexpr napi_type_tag kStorageTag = {0x64736e6f64652d74ull, 0x656e736f722d7374ull};

napi_value throw_tensor_error(napi_env env, const std::string& message) {
  napi_value code = nullptr, text = nullptr, error = nullptr;
  if (napi_create_string_utf8(env, kTensorCode, NAPI_AUTO_LENGTH, &code) == napi_ok &&
      napi_create_string_utf8(env, message.data(), message.size(), &text) == napi_ok &&
      napi_create_error(env, code, text, &error) == napi_ok) {
    napi_throw(env, error);
  }
  return nullptr;
}

// An address from JS: a non-zero bigint that fits 64 bits. `kind` is "device" or "host".
bool read_address(napi_env env, napi_value value, const char* kind, const std::string& name, uint64_t* out) {
  bool lossless = false;
  napi_valuetype type = napi_undefined;
  if (napi_typeof(env, value, &type) != napi_ok || type != napi_bigint ||
      napi_get_value_bigint_uint64(env, value, out, &lossless) != napi_ok || !lossless || *out == 0) {
    throw_error(env, ErrorKind::kType,
        std::string("Expected a ") + kind + " address (a non-zero bigint) for " + name + " but received " +
            metabind::describe_value(env, value));
    return false;
  }
  return true;
}

napi_value throw_frame_error(napi_env env, const tensor::FrameError& error) {
  if (error.kind == tensor::FrameError::Kind::kRange) return throw_error(env, ErrorKind::kRange, error.message);
  return throw_tensor_error(env, error.message);
}


// ---------------------------------------------------------------- reading arguments

bool get_property(napi_env env, napi_value object, const char* key, napi_value* out) {
  return napi_get_named_property(env, object, key, out) == napi_ok;
}

bool read_dims(napi_env env, napi_value value, const std::string& name, int64_t* dims, int32_t* ndim) {
  uint32_t length = 0;
  if (!metabind::read_array(env, value, FieldName(name.c_str()), &length)) return false;
  if (length > static_cast<uint32_t>(tensor::kMaxDims)) {
    throw_error(env, ErrorKind::kRange,
        "Expected at most " + std::to_string(tensor::kMaxDims) + " dimensions for " + name + " but received " +
            std::to_string(length));
    return false;
  }
  for (uint32_t d = 0; d < length; ++d) {
    napi_value dim = nullptr;
    const std::string dim_name = name + "[" + std::to_string(d) + "]";
    if (napi_get_element(env, value, d, &dim) != napi_ok ||
        !metabind::read_integer(env, dim, FieldName(dim_name.c_str()), 0, metabind::kMaxSafeInteger, &dims[d])) {
      return false;
    }
  }
  *ndim = static_cast<int32_t>(length);
  return true;
}

bool read_choice(napi_env env, napi_value object, const char* key, const char* name, std::string* out) {
  napi_value value = nullptr;
  return get_property(env, object, key, &value) && metabind::read_string(env, value, FieldName(name), out);
}

bool read_dtype(napi_env env, napi_value value, const char* name, DType* out) {
  std::string text;
  if (!metabind::read_string(env, value, FieldName(name), &text)) return false;
  if (tensor::parse_dtype(text, out)) return true;
  throw_error(env, ErrorKind::kRange,
      std::string("Expected \"uint8\", \"int8\", \"int32\", \"int64\", \"float16\" or \"float32\" for ") + name +
          " but received " + metabind::describe_value(env, value));
  return false;
}

// undefined/null → kNone.
bool read_format(napi_env env, napi_value value, const char* name, PixelFormat* out) {
  *out = PixelFormat::kNone;
  if (metabind::is_nullish(env, value)) return true;
  std::string text;
  if (!metabind::read_string(env, value, FieldName(name), &text)) return false;
  if (tensor::parse_format(text, out)) return true;
  throw_error(env, ErrorKind::kRange,
      std::string("Expected \"RGB\", \"RGBA\", \"BGR\", \"BGRx\" or \"GRAY8\" for ") + name + " but received " +
          metabind::describe_value(env, value));
  return false;
}

// ---------------------------------------------------------------- building results

napi_value make_dims(napi_env env, const int64_t* dims, int32_t ndim) {
  napi_value array = nullptr;
  if (napi_create_array_with_length(env, static_cast<size_t>(ndim), &array) != napi_ok) return nullptr;
  for (int32_t d = 0; d < ndim; ++d) {
    napi_value dim = metabind::make_number(env, static_cast<double>(dims[d]));
    if (dim == nullptr || napi_set_element(env, array, static_cast<uint32_t>(d), dim) != napi_ok) return nullptr;
  }
  return array;
}

napi_value make_pointer(napi_env env, const void* pointer) {
  napi_value value = nullptr;
  napi_create_bigint_uint64(env, static_cast<uint64_t>(reinterpret_cast<uintptr_t>(pointer)), &value);
  return value;
}

// NativeTensorInfo. `buffer`/`storage` may be null (→ undefined).
napi_value make_info(napi_env env, const Desc& desc, napi_value buffer, napi_value storage) {
  napi_value undefined = metabind::make_undefined(env);
  metabind::ObjectBuilder info(env);
  info.string("device", tensor::device_name(desc.device))
      .number("deviceId", desc.device_id)
      .string("dtype", tensor::dtype_name(desc.dtype))
      .set("shape", make_dims(env, desc.shape, desc.ndim))
      .set("strides", make_dims(env, desc.strides, desc.ndim))
      .number("byteOffset", static_cast<double>(desc.byte_offset))
      .number("byteLength", static_cast<double>(tensor::span_bytes(desc)))
      .set("dataPtr", make_pointer(env, desc.data));
  if (desc.format != PixelFormat::kNone) {
    info.string("format", tensor::format_name(desc.format));
  } else {
    info.set("format", undefined);
  }
  info.set("buffer", buffer != nullptr ? buffer : undefined).set("storage", storage != nullptr ? storage : undefined);
  return info.value();
}

// ---------------------------------------------------------------- owned storage

struct Storage {
  tensor::BlockRef block;  // null once released
  Desc desc;
  napi_ref view = nullptr;  // weak: the ArrayBuffer over the block, detached at release
};

void finalize_storage(napi_env env, void* data, void* hint) {
  auto* storage = static_cast<Storage*>(data);
  if (storage->view != nullptr) napi_delete_reference(env, storage->view);
  delete storage;
}

bool read_storage(napi_env env, napi_value value, const char* name, Storage** out) {
  bool tagged = false;
  void* data = nullptr;
  if (!metabind::read_object(env, value, FieldName(name)) ||
      napi_check_object_type_tag(env, value, &kStorageTag, &tagged) != napi_ok) {
    return false;
  }
  if (!tagged || napi_unwrap(env, value, &data) != napi_ok) {
    throw_error(env, ErrorKind::kType,
        std::string("Expected the storage of an owned tensor for ") + name + " but received " +
            metabind::describe_value(env, value));
    return false;
  }
  *out = static_cast<Storage*>(data);
  return true;
}

// ---------------------------------------------------------------- frames of a call

// The call's buffer, mapped for the rest of the call.
struct FrameAttachment final : metabind::CallAttachment {
  std::unique_ptr<tensor::FrameMapping> mapping;
};
constexpr int kFrameKey = 0;  // its address is the attachment's key

tensor::FrameMapping* call_frames(napi_env env, metabind::LiveCall& call, const char* caller) {
  if (auto* attached = static_cast<FrameAttachment*>(call.attachment(&kFrameKey))) return attached->mapping.get();
  tensor::FrameError error;
  std::unique_ptr<tensor::FrameMapping> mapping = tensor::FrameMapping::open(call.buffer(), call.stream(), caller, &error);
  if (mapping == nullptr) {
    throw_frame_error(env, error);
    return nullptr;
  }
  auto attachment = std::make_unique<FrameAttachment>();
  tensor::FrameMapping* raw = mapping.get();
  attachment->mapping = std::move(mapping);
  call.attach(&kFrameKey, std::move(attachment));
  return raw;
}

bool call_frame(napi_env env, metabind::LiveCall& call, uint32_t batch_id, const char* caller,
    tensor::FrameMapping** mapping, Desc* desc) {
  *mapping = call_frames(env, call, caller);
  if (*mapping == nullptr) return false;
  const uint32_t num_frames = call.batch() != nullptr ? call.batch()->num_frames() : 0;
  tensor::FrameError error;
  if (!(*mapping)->frame(batch_id, num_frames, caller, desc, &error)) {
    throw_frame_error(env, error);
    return false;
  }
  return true;
}

// A frame source may name a region of the frame (TensorHandle.crop): [left, top, width, height]
// in pixels, inside the frame. The descriptor then starts at the region's first pixel and keeps
// the frame's strides, so every consumer (preprocess on the CPU or in CUDA, toHost, DLPack)
// reads the crop in place. TS checks the region first; this is the check C++ owes anyway.
bool apply_region(napi_env env, napi_value source, const char* name, Desc* desc) {
  napi_value region = nullptr;
  napi_valuetype type = napi_undefined;
  if (!get_property(env, source, "region", &region) || napi_typeof(env, region, &type) != napi_ok) return false;
  if (type == napi_undefined) return true;
  const std::string region_name = std::string(name) + ".region";
  int64_t values[tensor::kMaxDims] = {};
  int32_t count = 0;
  if (!read_dims(env, region, region_name, values, &count)) return false;
  const int64_t left = values[0], top = values[1], width = values[2], height = values[3];
  if (count != 4 || desc->ndim != 3 || width < 1 || height < 1 || left + width > desc->shape[1] ||
      top + height > desc->shape[0]) {
    throw_error(env, ErrorKind::kRange,
        "Expected [left, top, width, height] inside the frame (" + std::to_string(desc->shape[1]) + "x" +
            std::to_string(desc->shape[0]) + ") for " + region_name + " but received " +
            metabind::describe_value(env, region));
    return false;
  }
  const size_t element = tensor::dtype_size(desc->dtype);
  desc->byte_offset += static_cast<uint64_t>(top * desc->strides[0] + left * desc->strides[1]) * element;
  desc->shape[0] = height;
  desc->shape[1] = width;
  return true;
}

// ---------------------------------------------------------------- DLPack capsules

// Two tags, so a consumer can check what an external holds (napi_check_object_type_tag).
constexpr napi_type_tag kDLPackTag = {0x64736e6f64652d64ull, 0x6c7061636b2d3038ull};           // v0.8 DLManagedTensor
constexpr napi_type_tag kDLPackVersionedTag = {0x64736e6f64652d64ull, 0x6c7061636b2d3130ull};  // v1.0 versioned

// What keeps a resolved tensor's memory: the pooled block or the frame's GstMemory, and for a
// tensor over JS memory a reference to its ArrayBuffer. DLPack capsules and holds own one.
struct HeldMemory {
  std::shared_ptr<void> keep_alive;
  napi_ref js_memory = nullptr;

  bool take(napi_env env, Resolved* source) {
    keep_alive = std::move(source->keep_alive);
    return source->js_buffer == nullptr || napi_create_reference(env, source->js_buffer, 1, &js_memory) == napi_ok;
  }

  void drop(napi_env env) {
    keep_alive.reset();
    if (js_memory != nullptr) {
      napi_delete_reference(env, js_memory);
      js_memory = nullptr;
    }
  }
};

// The external of a capsule nobody consumed was collected: drop it (tensor/dlpack_capsule.h).
void finalize_capsule(napi_env env, void* data, void* hint) { static_cast<tensor::DLPackCapsule*>(hint)->drop(); }

// ---------------------------------------------------------------- functions

napi_value extract(napi_env env, napi_callback_info info) {
  Args args(env, info);
  uint32_t call_id = 0, batch_id = 0;
  if (!args.ok || !metabind::read_int<uint32_t>(env, args[0], FieldName("callId"), &call_id) ||
      !metabind::read_int<uint32_t>(env, args[1], FieldName("batchId"), &batch_id)) {
    return nullptr;
  }
  metabind::LiveCall call(env, call_id, "Buffer");
  if (!call) return nullptr;
  tensor::FrameMapping* mapping = nullptr;
  Desc desc;
  if (!call_frame(env, call, batch_id, "Buffer.extract", &mapping, &desc)) return nullptr;
  napi_value buffer = nullptr;
  size_t size = 0;
  if (mapping->host_range(desc, &size) && (buffer = call.view(desc.data, size)) == nullptr) return nullptr;
  return make_info(env, desc, buffer, nullptr);
}

napi_value allocate(napi_env env, napi_callback_info info) {
  Args args(env, info);
  std::string device_text;
  Desc desc;
  if (!args.ok || !metabind::read_string(env, args[0], FieldName("device"), &device_text) ||
      !metabind::read_int<int32_t>(env, args[1], FieldName("deviceId"), &desc.device_id) ||
      !read_dtype(env, args[2], "dtype", &desc.dtype) || !read_dims(env, args[3], "shape", desc.shape, &desc.ndim) ||
      !read_format(env, args[4], "format", &desc.format)) {
    return nullptr;
  }
  if (!tensor::parse_device(device_text, &desc.device)) {
    return throw_error(env, ErrorKind::kRange,
        "Expected \"cpu\", \"cuda\" or \"cuda_host\" for device but received " + metabind::describe_value(env, args[0]));
  }
  tensor::set_dense_strides(&desc);
  std::string error;
  tensor::BlockRef block = tensor::Pool::instance().allocate(desc.device, desc.device_id, nullptr,
      std::max<uint64_t>(tensor::span_bytes(desc), 1), &error);
  if (block == nullptr) return throw_tensor_error(env, error);
  desc.data = block->ptr;
  return make_owned(env, std::move(block), desc);
}

napi_value release(napi_env env, napi_callback_info info) {
  Args args(env, info);
  Storage* storage = nullptr;
  if (!args.ok || !read_storage(env, args[0], "storage", &storage)) return nullptr;
  if (storage->view != nullptr) {
    napi_value view = nullptr;
    if (napi_get_reference_value(env, storage->view, &view) == napi_ok && view != nullptr) {
      napi_detach_arraybuffer(env, view);
    }
    napi_delete_reference(env, storage->view);
    storage->view = nullptr;
  }
  storage->block.reset();
  return metabind::make_undefined(env);
}

napi_value to_host(napi_env env, napi_callback_info info) {
  Args args(env, info);
  Resolved source;
  if (!args.ok || !resolve(env, args[0], "tensor", &source)) return nullptr;
  Desc out;
  out.device = Device::kCpu;
  out.dtype = source.desc.dtype;
  out.ndim = source.desc.ndim;
  out.format = source.desc.format;
  for (int32_t d = 0; d < out.ndim; ++d) out.shape[d] = source.desc.shape[d];
  tensor::set_dense_strides(&out);
  std::string error;
  tensor::BlockRef block =
      tensor::Pool::instance().allocate(Device::kCpu, 0, nullptr, std::max<uint64_t>(tensor::span_bytes(out), 1), &error);
  if (block == nullptr) return throw_tensor_error(env, error);
  out.data = block->ptr;
  if (tensor::host_visible(source.desc.device)) {
    tensor::copy_host(source.desc, static_cast<uint8_t*>(block->ptr));
  } else if (!tensor::copy_device(source.desc, static_cast<uint8_t*>(block->ptr), &error)) {
    return throw_tensor_error(env, error);
  }
  return make_owned(env, std::move(block), out);
}

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

napi_value address_of(napi_env env, napi_callback_info info) {
  Args args(env, info);
  bool is_typed = false;
  if (!args.ok || napi_is_typedarray(env, args[0], &is_typed) != napi_ok) return nullptr;
  if (!is_typed) {
    return throw_error(env, ErrorKind::kType,
        "Expected a typed array for data but received " + metabind::describe_value(env, args[0]));
  }
  napi_value buffer = nullptr;
  size_t offset = 0;
  void* base = nullptr;
  size_t length = 0;
  if (napi_get_typedarray_info(env, args[0], nullptr, nullptr, nullptr, &buffer, &offset) != napi_ok ||
      napi_get_arraybuffer_info(env, buffer, &base, &length) != napi_ok) {
    return nullptr;
  }
  return make_pointer(env, base);
}

// ---------------------------------------------------------------- holds

// A hold keeps a tensor's memory while native work or another thread reads it after the JS side
// may have let go of the tensor (dispose(), the end of its call). letGo() ends it at once; GC
// ends a forgotten one.
constexpr napi_type_tag kHoldTag = {0x64736e6f64652d68ull, 0x6f6c642d74656e73ull};

void finalize_hold(napi_env env, void* data, void* hint) {
  auto* held = static_cast<HeldMemory*>(data);
  held->drop(env);
  delete held;
}

napi_value hold(napi_env env, napi_callback_info info) {
  Args args(env, info);
  Resolved source;
  if (!args.ok || !resolve(env, args[0], "tensor", &source)) return nullptr;
  auto* held = new HeldMemory();
  napi_value object = nullptr;
  if (!held->take(env, &source) || napi_create_object(env, &object) != napi_ok ||
      napi_type_tag_object(env, object, &kHoldTag) != napi_ok ||
      napi_wrap(env, object, held, finalize_hold, nullptr, nullptr) != napi_ok) {
    held->drop(env);
    delete held;
    return nullptr;
  }
  return object;
}

napi_value let_go(napi_env env, napi_callback_info info) {
  Args args(env, info);
  bool tagged = false;
  void* data = nullptr;
  if (!args.ok) return nullptr;
  if (napi_check_object_type_tag(env, args[0], &kHoldTag, &tagged) != napi_ok || !tagged ||
      napi_unwrap(env, args[0], &data) != napi_ok) {
    return throw_error(env, ErrorKind::kType,
        "Expected a hold from tensor.hold() for hold but received " + metabind::describe_value(env, args[0]));
  }
  static_cast<HeldMemory*>(data)->drop(env);
  return metabind::make_undefined(env);
}

// An ArrayBuffer over host memory this environment does not own, for a worker thread that
// reads a tensor of the main thread in place (the ONNX Runtime runner's session thread). It frees
// nothing: the caller keeps the memory alive (a hold on the main thread) until the worker is done
// with the view.
napi_value host_view(napi_env env, napi_callback_info info) {
  Args args(env, info);
  if (!args.ok) return nullptr;
  uint64_t address = 0;
  if (!read_address(env, args[0], "host", "address", &address)) return nullptr;
  double byte_length = 0;
  if (!metabind::read_double(env, args[1], FieldName("byteLength"), &byte_length)) return nullptr;
  if (!(byte_length >= 1 && byte_length <= 9007199254740991.0) || byte_length != static_cast<double>(static_cast<uint64_t>(byte_length))) {
    return throw_error(env, ErrorKind::kRange,
        "Expected a whole number of bytes from 1 to 2^53 - 1 for byteLength but received " + metabind::describe_value(env, args[1]));
  }
  napi_value view = nullptr;
  if (napi_create_external_arraybuffer(env, reinterpret_cast<void*>(static_cast<uintptr_t>(address)),
          static_cast<size_t>(byte_length), nullptr, nullptr, &view) != napi_ok) {
    bool pending = false;
    napi_is_exception_pending(env, &pending);
    return pending ? nullptr : throw_tensor_error(env, "Could not make an ArrayBuffer over host memory");
  }
  return view;
}

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
    views[i] = ops::ImageView{desc.first(), static_cast<int32_t>(desc.shape[1]), static_cast<int32_t>(desc.shape[0]),
        static_cast<int32_t>(desc.strides[0]), static_cast<ops::PixelFormat>(desc.format)};
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

napi_value stats(napi_env env, napi_callback_info info) {
  const tensor::PoolStats stats = tensor::Pool::instance().stats();
  const tensor::HostCopyStats copies = tensor::host_copy_stats();
  metabind::ObjectBuilder out(env);
  out.number("hostCopies", static_cast<double>(copies.copies))
      .number("hostCopyBytes", static_cast<double>(copies.bytes))
      .number("liveBlocks", static_cast<double>(stats.live_blocks))
      .number("liveBytes", static_cast<double>(stats.live_bytes))
      .number("cachedBlocks", static_cast<double>(stats.cached_blocks))
      .number("cachedBytes", static_cast<double>(stats.cached_bytes))
      .number("allocations", static_cast<double>(stats.allocations))
      .number("reuses", static_cast<double>(stats.reuses));
  return out.value();
}

napi_value trim_pool(napi_env env, napi_callback_info info) {
  tensor::Pool::instance().trim();
  return metabind::make_undefined(env);
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

// drawOverlay(callId, frameIndex, options): draws frame `frameIndex`'s objects and display
// metas (osd/overlay.h) on its pixels, in place, on the calling (JS) thread. options: the TS
// side's checked OverlayOptions (booleans). Returns what was drawn.
napi_value draw_overlay(napi_env env, napi_callback_info info) {
  Args args(env, info);
  uint32_t call_id = 0, frame_index = 0;
  if (!args.ok || !metabind::read_int<uint32_t>(env, args[0], FieldName("callId"), &call_id) ||
      !metabind::read_int<uint32_t>(env, args[1], FieldName("frameIndex"), &frame_index) ||
      !metabind::read_object(env, args[2], FieldName("options"))) {
    return nullptr;
  }
  osd::OverlayOptions options;
  const std::pair<const char*, bool*> switches[] = {
      {"boxes", &options.boxes}, {"text", &options.text}, {"masks", &options.masks}, {"displayMeta", &options.display_meta}};
  for (const auto& [key, flag] : switches) {
    napi_value value = nullptr;
    const std::string name = std::string("options.") + key;
    if (!get_property(env, args[2], key, &value) || !metabind::read_bool(env, value, FieldName(name.c_str()), flag)) return nullptr;
  }
  metabind::LiveCall call(env, call_id, "FrameMeta");
  if (!call) return nullptr;
  meta::Batch* batch = call.batch();
  if (batch == nullptr || frame_index >= batch->num_frames()) {
    return throw_error(env, ErrorKind::kRange, "Expected a frame index below " + std::to_string(batch != nullptr ? batch->num_frames() : 0) +
        " for drawOverlay but received " + std::to_string(frame_index));
  }
  const meta::FrameHandle frame = batch->frame_at(frame_index);
  meta::FrameFields fields;
  batch->read_frame(frame, &fields);
  tensor::FrameMapping* mapping = nullptr;
  Desc desc;
  if (!call_frame(env, call, fields.batch_id, "drawOverlay", &mapping, &desc)) return nullptr;
  if (!tensor::host_visible(desc.device)) {
    return throw_tensor_error(env, "drawOverlay draws on frames in host memory but received " +
        tensor::describe_device(desc.device, desc.device_id) + " memory (" + std::string(call.stream() != nullptr ? call.stream()->caps_string : "") +
        "): on DeepStream use nvdsosd, or convert to system memory first (nvvideoconvert ! video/x-raw,format=RGBA)");
  }
  osd::Image image;
  switch (desc.format) {
    case PixelFormat::kRGB: image.format = osd::PixelFormat::kRGB; break;
    case PixelFormat::kRGBA: image.format = osd::PixelFormat::kRGBA; break;
    case PixelFormat::kBGR: image.format = osd::PixelFormat::kBGR; break;
    case PixelFormat::kBGRx: image.format = osd::PixelFormat::kBGRx; break;
    default:
      return throw_tensor_error(env, std::string("drawOverlay draws on RGB, RGBA, BGR and BGRx frames but received ") +
          tensor::format_name(desc.format) + ": put videoconvert ! video/x-raw,format=RGBA before the element");
  }
  image.data = desc.first();
  image.height = static_cast<int32_t>(desc.shape[0]);
  image.width = static_cast<int32_t>(desc.shape[1]);
  image.stride = desc.strides[0];
  osd::OverlayStats stats;
  const meta::Status status = osd::draw_frame_overlay(*batch, frame, image, options,
      "frameItems[" + std::to_string(frame_index) + "]", &stats);
  if (!status.ok()) return metabind::throw_status(env, status);
  metabind::ObjectBuilder out(env);
  out.number("objects", stats.objects).number("boxes", stats.boxes).number("labels", stats.labels)
      .number("masks", stats.masks).number("rects", stats.rects).number("texts", stats.texts)
      .number("lines", stats.lines).number("arrows", stats.arrows).number("circles", stats.circles);
  return out.value();
}

constexpr metabind::Export kExports[] = {
    {"extract", extract},
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
    {"drawOverlay", draw_overlay},
};

}  // namespace

// ---------------------------------------------------------------- tensor_binding.h

bool resolve(napi_env env, napi_value source, const char* name, Resolved* out) {
  if (!metabind::read_object(env, source, FieldName(name))) return false;
  std::string kind;
  napi_value kind_value = nullptr;
  const std::string kind_name = std::string(name) + ".kind";
  if (!get_property(env, source, "kind", &kind_value) ||
      !metabind::read_string(env, kind_value, FieldName(kind_name.c_str()), &kind)) {
    return false;
  }
  *out = Resolved();
  if (kind == "frame") {
    napi_value call_value = nullptr, batch_value = nullptr;
    uint32_t call_id = 0, batch_id = 0;
    if (!get_property(env, source, "callId", &call_value) || !get_property(env, source, "batchId", &batch_value) ||
        !metabind::read_int<uint32_t>(env, call_value, FieldName("callId"), &call_id) ||
        !metabind::read_int<uint32_t>(env, batch_value, FieldName("batchId"), &batch_id)) {
      return false;
    }
    metabind::LiveCall call(env, call_id, "TensorHandle");
    if (!call) return false;
    tensor::FrameMapping* mapping = nullptr;
    if (!call_frame(env, call, batch_id, "Buffer.extract", &mapping, &out->desc)) return false;
    if (!apply_region(env, source, name, &out->desc)) return false;
    GstMemory* memory = gst_memory_ref(mapping->memory());
    out->keep_alive = std::shared_ptr<void>(memory, [](void* held) { gst_memory_unref(static_cast<GstMemory*>(held)); });
    return true;
  }
  if (kind == "owned") {
    napi_value storage_value = nullptr;
    Storage* storage = nullptr;
    const std::string storage_name = std::string(name) + ".storage";
    if (!get_property(env, source, "storage", &storage_value) ||
        !read_storage(env, storage_value, storage_name.c_str(), &storage)) {
      return false;
    }
    if (storage->block == nullptr) {
      throw_tensor_error(env, std::string("TensorHandle used after dispose() (") + name +
                                  "); an owned tensor's memory goes back to the pool when it is disposed");
      return false;
    }
    out->desc = storage->desc;
    out->keep_alive = storage->block;
    out->owned = true;
    return true;
  }
  if (kind == "js") {
    napi_value data = nullptr, dtype = nullptr, shape = nullptr, strides = nullptr, offset_value = nullptr,
               format_value = nullptr, buffer = nullptr;
    bool is_typed = false;
    const std::string data_name = std::string(name) + ".data";
    if (!get_property(env, source, "data", &data) || napi_is_typedarray(env, data, &is_typed) != napi_ok) return false;
    if (!is_typed) {
      throw_error(env, ErrorKind::kType,
          "Expected a typed array for " + data_name + " but received " + metabind::describe_value(env, data));
      return false;
    }
    Desc& desc = out->desc;
    int32_t stride_dims = 0;
    double byte_offset = 0;
    if (!get_property(env, source, "dtype", &dtype) || !read_dtype(env, dtype, "dtype", &desc.dtype) ||
        !get_property(env, source, "shape", &shape) || !read_dims(env, shape, "shape", desc.shape, &desc.ndim) ||
        !get_property(env, source, "strides", &strides) || !read_dims(env, strides, "strides", desc.strides, &stride_dims) ||
        !get_property(env, source, "byteOffset", &offset_value) ||
        !metabind::read_double(env, offset_value, FieldName("byteOffset"), &byte_offset) ||
        !get_property(env, source, "format", &format_value) || !read_format(env, format_value, "format", &desc.format)) {
      return false;
    }
    void* base = nullptr;
    size_t length = 0;
    if (napi_get_typedarray_info(env, data, nullptr, nullptr, nullptr, &buffer, nullptr) != napi_ok ||
        napi_get_arraybuffer_info(env, buffer, &base, &length) != napi_ok) {
      return false;
    }
    const size_t element = tensor::dtype_size(desc.dtype);
    desc.byte_offset = static_cast<uint64_t>(byte_offset);
    if (stride_dims != desc.ndim || byte_offset < 0 || static_cast<double>(desc.byte_offset) != byte_offset ||
        desc.byte_offset % element != 0 || desc.byte_offset + tensor::span_bytes(desc) > length) {
      throw_error(env, ErrorKind::kRange,
          "Expected a tensor inside its ArrayBuffer of " + std::to_string(length) + " bytes for " + name +
              " but received " + tensor::describe(desc) + " from byte " + metabind::describe_value(env, offset_value));
      return false;
    }
    desc.device = Device::kCpu;
    desc.data = base;
    out->js_buffer = buffer;
    return true;
  }
  if (kind == "device") {
    // Device memory a runner owns (TensorRT outputs): the TS handle keeps it alive, so the
    // descriptor holds nothing. The device's primary context, as every runner allocation.
    napi_value device_value = nullptr, id_value = nullptr, dtype = nullptr, shape = nullptr, strides = nullptr,
               offset_value = nullptr, pointer_value = nullptr;
    Desc& desc = out->desc;
    std::string device;
    int32_t device_id = 0, stride_dims = 0;
    double byte_offset = 0;
    if (!get_property(env, source, "device", &device_value) ||
        !metabind::read_string(env, device_value, FieldName("device"), &device) ||
        !get_property(env, source, "deviceId", &id_value) ||
        !metabind::read_int<int32_t>(env, id_value, FieldName("deviceId"), &device_id) ||
        !get_property(env, source, "dtype", &dtype) || !read_dtype(env, dtype, "dtype", &desc.dtype) ||
        !get_property(env, source, "shape", &shape) || !read_dims(env, shape, "shape", desc.shape, &desc.ndim) ||
        !get_property(env, source, "strides", &strides) || !read_dims(env, strides, "strides", desc.strides, &stride_dims) ||
        !get_property(env, source, "byteOffset", &offset_value) ||
        !metabind::read_double(env, offset_value, FieldName("byteOffset"), &byte_offset) ||
        !get_property(env, source, "dataPtr", &pointer_value)) {
      return false;
    }
    uint64_t address = 0;
    if (!read_address(env, pointer_value, "device", std::string(name) + ".dataPtr", &address)) return false;
    desc.byte_offset = static_cast<uint64_t>(byte_offset);
    if (device != "cuda" || device_id < 0 || stride_dims != desc.ndim || byte_offset < 0 ||
        static_cast<double>(desc.byte_offset) != byte_offset || desc.byte_offset % tensor::dtype_size(desc.dtype) != 0) {
      throw_error(env, ErrorKind::kRange,
          std::string("Expected a CUDA tensor with one stride per dimension and an aligned byte offset for ") + name +
              " but received " + device + ":" + std::to_string(device_id) + " " + tensor::describe(desc));
      return false;
    }
    desc.device = Device::kCuda;
    desc.device_id = device_id;
    desc.data = reinterpret_cast<void*>(static_cast<uintptr_t>(address));
    return true;
  }
  throw_error(env, ErrorKind::kRange,
      "Expected \"frame\", \"owned\", \"js\" or \"device\" for " + kind_name + " but received " +
          metabind::describe_value(env, kind_value));
  return false;
}

napi_value make_owned(napi_env env, tensor::BlockRef block, const Desc& desc) {
  napi_value storage_value = nullptr;
  auto* storage = new Storage{block, desc, nullptr};
  if (napi_create_object(env, &storage_value) != napi_ok ||
      napi_type_tag_object(env, storage_value, &kStorageTag) != napi_ok ||
      napi_wrap(env, storage_value, storage, finalize_storage, nullptr, nullptr) != napi_ok) {
    delete storage;
    return nullptr;
  }
  napi_value view = nullptr;
  if (tensor::host_visible(desc.device)) {
    // The view holds no memory of its own: it keeps the storage object alive (a symbol-keyed
    // property), so the block stays while either is reachable, and release() can give the
    // block back at once after detaching the view.
    const size_t size = std::max<size_t>(static_cast<size_t>(desc.byte_offset + tensor::span_bytes(desc)), 1);
    if (napi_create_external_arraybuffer(env, block->ptr, size, nullptr, nullptr, &view) != napi_ok) {
      bool pending = false;
      napi_is_exception_pending(env, &pending);
      if (!pending) throw_tensor_error(env, "Could not make an ArrayBuffer over an owned tensor's memory");
      return nullptr;
    }
    napi_value key = nullptr;
    if (napi_create_symbol(env, nullptr, &key) != napi_ok) return nullptr;
    const napi_property_descriptor keeper = {nullptr, key, nullptr, nullptr, nullptr, storage_value, napi_default, nullptr};
    if (napi_define_properties(env, view, 1, &keeper) != napi_ok ||
        napi_create_reference(env, view, 0, &storage->view) != napi_ok) {
      return nullptr;
    }
  }
  return make_info(env, desc, view, storage_value);
}

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
  object.functions(kExports);
  if (object.ok()) napi_set_named_property(raw, exports, "tensor", object.value());
}

}  // namespace dsnode::tensorbind
