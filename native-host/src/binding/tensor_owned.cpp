// Owned tensors (tensor_binding_internal.h): a pooled block (tensor/tensor_pool.h) held by a
// wrapped "storage" object, which its ArrayBuffer view keeps alive, so the block goes back to the
// pool when neither is reachable, or at once at release() (which detaches the view).
#include "binding/tensor_binding_internal.h"

#include <algorithm>
#include <string>
#include <utility>

#include "tensor/copy.h"

namespace dsnode::tensorbind {

namespace {

// Tells our storage objects from any other wrapped object.
constexpr napi_type_tag kStorageTag = {0x64736e6f64652d74ull, 0x656e736f722d7374ull};

void finalize_storage(napi_env env, void* data, void* hint) {
  auto* storage = static_cast<Storage*>(data);
  if (storage->view != nullptr) napi_delete_reference(env, storage->view);
  delete storage;
}

}  // namespace

bool read_storage(napi_env env, napi_value value, const char* name, Storage** out) {
  void* data = nullptr;
  if (!metabind::read_tagged(env, value, name, kStorageTag, "the storage of an owned tensor", &data)) return false;
  *out = static_cast<Storage*>(data);
  return true;
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
}  // namespace dsnode::tensorbind
