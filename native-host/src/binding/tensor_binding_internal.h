// What the files of the tensor binding (tensor_binding.h) share; nothing outside binding/
// includes it. One file per JS surface:
//   tensor_values.cpp       reading arguments and building results (dims, dtypes, NativeTensorInfo)
//   tensor_sources.cpp      resolve(): a NativeTensorSource, by a table of its kinds
//   tensor_frames.cpp       frames of a running call (extract)
//   tensor_planes.cpp       the planes of planar frames (NV12, NV21, I420)
//   tensor_owned.cpp        owned tensors from the pool (allocate, release, toHost, stats, trimPool)
//   tensor_dlpack.cpp       DLPack capsules (toDLPack, inspectDLPack)
//   tensor_host_memory.cpp  holds and host memory across threads (hold, letGo, hostView, addressOf)
//   tensor_ops.cpp          pre-processing and post-processing fast paths (preprocess, classArgmax)
//   tensor_postprocess.cpp  post-processing where the tensor lives (yoloCandidates, rowArgmax)
//   tensor_overlay.cpp      the CPU overlay (drawOverlay)
//   tensor_binding.cpp      the `tensor` export: the table of the functions above
// Every reader returns false, and every builder or function null, with a JS exception pending
// when it fails.
#ifndef DSNODE_BINDING_TENSOR_BINDING_INTERNAL_H
#define DSNODE_BINDING_TENSOR_BINDING_INTERNAL_H

#include <gst/gst.h>
#include <node_api.h>

#include <cstdint>
#include <memory>
#include <string>
#include <utility>

#include "binding/js_values.h"
#include "binding/meta_binding_internal.h"
#include "binding/tensor_binding.h"
#include "tensor/cuda_scope.h"
#include "tensor/frame_access.h"
#include "tensor/tensor.h"
#include "tensor/tensor_pool.h"

namespace dsnode::tensorbind {

// The names every file of the tensor binding uses.
using metabind::Args;
using metabind::ErrorKind;
using metabind::FieldName;
using metabind::kTensorCode;
using metabind::throw_error;
using tensor::Desc;
using tensor::Device;
using tensor::DType;
using tensor::PixelFormat;

// ---------------------------------------------------------------- values (tensor_values.cpp)

// Throws an Error with the tensor code (ERR_DS_ELEMENT_TENSOR); returns null.
napi_value throw_tensor_error(napi_env env, const std::string& message);
// A FrameError as the JS error its kind calls for; returns null.
napi_value throw_frame_error(napi_env env, const tensor::FrameError& error);
// An address from JS: a non-zero bigint that fits 64 bits. `kind` is "device" or "host".
bool read_address(napi_env env, napi_value value, const char* kind, const std::string& name, uint64_t* out);
bool get_property(napi_env env, napi_value object, const char* key, napi_value* out);
bool read_dims(napi_env env, napi_value value, const std::string& name, int64_t* dims, int32_t* ndim);
bool read_choice(napi_env env, napi_value object, const char* key, const char* name, std::string* out);
bool read_dtype(napi_env env, napi_value value, const char* name, tensor::DType* out);
// undefined/null → kNone.
bool read_format(napi_env env, napi_value value, const char* name, tensor::PixelFormat* out);
napi_value make_dims(napi_env env, const int64_t* dims, int32_t ndim);
napi_value make_pointer(napi_env env, const void* pointer);
// NativeTensorInfo. `buffer`/`storage` may be null (→ undefined).
napi_value make_info(napi_env env, const tensor::Desc& desc, napi_value buffer, napi_value storage);

// ---------------------------------------------------------------- frames (tensor_frames.cpp)

// Frame `batch_id` of the call's buffer, mapped for the rest of the call.
bool call_frame(napi_env env, metabind::LiveCall& call, uint32_t batch_id, const char* caller,
    tensor::FrameMapping** mapping, tensor::Desc* desc);
// A frame source may name a region of the frame (TensorHandle.crop); narrows `desc` to it.
bool apply_region(napi_env env, napi_value source, const char* name, tensor::Desc* desc);
bool narrow_to_region(napi_env env, napi_value region, const std::string& region_name, tensor::Desc* desc);

// ---------------------------------------------------------------- planar frames (tensor_planes.cpp)

// A planar frame's info gains `planes` and `colorimetry`; nothing for other tensors.
bool add_planes(napi_env env, const tensor::Desc& desc, metabind::ObjectBuilder* info);
// A frame source may name one plane of a planar frame (`plane`); narrows `desc` to it.
bool apply_plane(napi_env env, napi_value source, const char* name, tensor::Desc* desc);

// ---------------------------------------------------------------- owned tensors (tensor_owned.cpp)

struct Storage {
  tensor::BlockRef block;  // null once released
  tensor::Desc desc;
  napi_ref view = nullptr;  // weak: the ArrayBuffer over the block, detached at release
};
// The storage object of an owned tensor (one make_owned made), else a TypeError.
bool read_storage(napi_env env, napi_value value, const char* name, Storage** out);

// ---------------------------------------------------------------- memory kept for native work

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

// ---------------------------------------------------------------- the functions of the `tensor` export

napi_value extract(napi_env env, napi_callback_info info);
napi_value extract_into(napi_env env, napi_callback_info info);

// A frame's descriptor as extractInto writes it, one double a slot (the SDK's FRAME_INFO_* in
// native/tensor-binding.ts): device (DLPack code), device id, dtype and format (their enums,
// format -1 for none), ndim, shape and strides (3 each), byte offset and length, the data
// pointer's high and low 32 bits, then planar frames' plane count, colour matrix and range and,
// per plane, its shape and strides (3 each), byte offset and length.
inline constexpr size_t kFrameInfoDevice = 0, kFrameInfoDeviceId = 1, kFrameInfoDType = 2, kFrameInfoFormat = 3,
                        kFrameInfoNdim = 4, kFrameInfoShape = 5, kFrameInfoStrides = 8, kFrameInfoByteOffset = 11,
                        kFrameInfoByteLength = 12, kFrameInfoDataHigh = 13, kFrameInfoDataLow = 14,
                        kFrameInfoPlaneCount = 15, kFrameInfoColorMatrix = 16, kFrameInfoColorRange = 17,
                        kFrameInfoPlanes = 18, kFrameInfoPlaneStride = 8;
inline constexpr size_t kFrameInfoLength = kFrameInfoPlanes + tensor::kMaxPlanes * kFrameInfoPlaneStride;
// The frame's shape..byte length are one run of kFrameInfoPlaneStride slots, as each plane's.
static_assert(kFrameInfoStrides == kFrameInfoShape + 3 && kFrameInfoByteOffset == kFrameInfoShape + 6 &&
              kFrameInfoByteLength == kFrameInfoShape + 7 && kFrameInfoPlaneStride == 8);
// Writes `desc` (a frame: at most 3 dimensions) into `out` (kFrameInfoLength doubles).
void write_frame_info(const Desc& desc, double* out);
napi_value allocate(napi_env env, napi_callback_info info);
napi_value release(napi_env env, napi_callback_info info);
napi_value to_host(napi_env env, napi_callback_info info);
napi_value stats(napi_env env, napi_callback_info info);
napi_value trim_pool(napi_env env, napi_callback_info info);
napi_value to_dlpack(napi_env env, napi_callback_info info);
napi_value inspect_dlpack(napi_env env, napi_callback_info info);
napi_value address_of(napi_env env, napi_callback_info info);
napi_value hold(napi_env env, napi_callback_info info);
napi_value let_go(napi_env env, napi_callback_info info);
napi_value host_view(napi_env env, napi_callback_info info);
napi_value preprocess(napi_env env, napi_callback_info info);
napi_value class_argmax(napi_env env, napi_callback_info info);
napi_value yolo_candidates(napi_env env, napi_callback_info info);
napi_value row_argmax(napi_env env, napi_callback_info info);
napi_value draw_overlay(napi_env env, napi_callback_info info);

}  // namespace dsnode::tensorbind

#endif
