// The tensor output the testing harness attaches on the DeepStream backend (Batch::add_tensor_output,
// add_deepstream_tensor_output), read through NVIDIA's headers as a consumer of nvinfer's
// output-tensor-meta=1 reads it: an NvDsUserMeta of type NVDSINFER_TENSOR_OUTPUT_META whose
// NvDsInferTensorMeta has, as nvinfer's (gstnvinfer_meta_utils.cpp attach_tensor_output_meta,
// gstnvinfer.cpp's GstNvInferTensorOutputObject), a GstMiniObject as priv_data that owns the
// layers' memory; a buffer copy (NVIDIA's gst_nvds_meta_transform -> nvds_batch_meta_copy_func ->
// the user meta's copy_func) shares it by one more ref, and the last ref frees it.
// out_buf_ptrs_dev is an array of NULLs: the harness's layers are host memory only.
// DeepStream build only (CMake target dsnode-tensor-meta-test). Prints "N passed, M failed".
#include <dlfcn.h>
#include <gst/gst.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "check.h"
#include "gstnvdsinfer.h"
#include "gstnvdsmeta.h"
#include "meta/deepstream_backend.h"
#include "nvdsmeta.h"

using namespace dsnode::meta;
using dsnode_test::check;
using dsnode_test::failed;
using dsnode_test::passed;

namespace {

// NVIDIA's gst_buffer_get_nvds_batch_meta from the libnvdsgst_meta.so the backend opened
// (load_deepstream opens it RTLD_GLOBAL), so that both read the same library.
decltype(&::gst_buffer_get_nvds_batch_meta) get_batch_meta = nullptr;

const std::vector<float> kScores = {0.25f, -1.5f, 3.0f};
const std::vector<uint8_t> kMask = {1, 2, 254, 255};

// The one frame-level user meta of the buffer's batch (null when the batch or the meta is missing).
NvDsUserMeta *frame_user_meta(GstBuffer *buffer) {
  NvDsBatchMeta *batch = get_batch_meta(buffer);
  if (batch == nullptr || batch->frame_meta_list == nullptr) return nullptr;
  auto *frame = static_cast<NvDsFrameMeta *>(batch->frame_meta_list->data);
  if (frame->frame_user_meta_list == nullptr || frame->frame_user_meta_list->next != nullptr) return nullptr;
  return static_cast<NvDsUserMeta *>(frame->frame_user_meta_list->data);
}

// The layers hold the values the harness was given.
bool layers_hold_values(void *const *host) {
  return host != nullptr && host[0] != nullptr && host[1] != nullptr &&
      std::memcmp(host[0], kScores.data(), kScores.size() * sizeof(float)) == 0 &&
      std::memcmp(host[1], kMask.data(), kMask.size()) == 0;
}

// priv_data looks like the GstMiniObject nvinfer attaches (gst_mini_object_init with
// G_TYPE_POINTER and a free function) holding `refs` refs. Read before anything refs it: on a
// meta whose priv_data is something else this reads the first bytes of that something.
bool is_mini_object(const void *priv_data, int refs, std::string *detail) {
  if (priv_data == nullptr) {
    *detail = "priv_data is NULL";
    return false;
  }
  const auto *object = static_cast<const GstMiniObject *>(priv_data);
  if (object->type != G_TYPE_POINTER || object->free == nullptr) {
    *detail = "priv_data is not a GstMiniObject of G_TYPE_POINTER with a free function (type " +
        std::to_string(object->type) + ")";
    return false;
  }
  if (GST_MINI_OBJECT_REFCOUNT_VALUE(object) != refs) {
    *detail = "refcount " + std::to_string(GST_MINI_OBJECT_REFCOUNT_VALUE(object)) + ", expected " + std::to_string(refs);
    return false;
  }
  return true;
}

void on_finalized(gpointer data, GstMiniObject *) { *static_cast<bool *>(data) = true; }

int refcount(const void *priv_data) { return GST_MINI_OBJECT_REFCOUNT_VALUE(static_cast<const GstMiniObject *>(priv_data)); }

}  // namespace

int main(int argc, char **argv) {
  gst_init(&argc, &argv);
  std::string error;
  if (!load_deepstream(&error)) {
    std::printf("not ok - load NVIDIA's libnvds_meta.so: %s\n0 passed, 1 failed\n", error.c_str());
    return 1;
  }
  get_batch_meta = reinterpret_cast<decltype(get_batch_meta)>(dlsym(RTLD_DEFAULT, "gst_buffer_get_nvds_batch_meta"));
  check(get_batch_meta != nullptr, "gst_buffer_get_nvds_batch_meta is exported by the loaded libnvdsgst_meta.so");
  if (get_batch_meta == nullptr) {
    std::printf("%d passed, %d failed\n", passed, failed);
    return 1;
  }

  // --- a buffer with a one-frame DeepStream batch and a frame-level tensor output, as the harness
  // makes them (standalone_binding.cpp: attach_batch, add_batch_frame, add_batch_tensor_output).
  GstBuffer *buffer = gst_buffer_new_allocate(nullptr, 64, nullptr);
  {
    std::unique_ptr<Batch> batch = open_deepstream_batch(buffer, 1);
    check(batch != nullptr, "open_deepstream_batch attaches an NvDsBatchMeta");
    if (batch == nullptr) {
      std::printf("%d passed, %d failed\n", passed, failed);
      return 1;
    }
    FrameFields fields;
    FrameHandle frame = add_deepstream_frame(*batch, fields);
    check(static_cast<bool>(frame), "add_deepstream_frame adds a frame");

    TensorOutput output;
    output.unique_id = 7;
    output.gpu_id = 0;
    output.network_width = 640;
    output.network_height = 480;
    output.network_channels = 3;
    output.maintain_aspect_ratio = true;
    output.symmetric_padding = true;
    TensorLayer scores;
    scores.layer_name = "scores";
    scores.data_type = TensorDataType::kFloat;
    scores.num_dims = 1;
    scores.dims[0] = 3;
    scores.num_elements = 3;
    scores.binding_index = 1;
    TensorLayer mask;
    mask.layer_name = "mask";
    mask.data_type = TensorDataType::kUint8;
    mask.num_dims = 2;
    mask.dims[0] = 2;
    mask.dims[1] = 2;
    mask.num_elements = 4;
    mask.binding_index = 2;
    output.layers = {scores, mask};
    std::vector<std::vector<uint8_t>> bytes(2);
    bytes[0].resize(kScores.size() * sizeof(float));
    std::memcpy(bytes[0].data(), kScores.data(), bytes[0].size());
    bytes[1] = kMask;
    UserHandle created;
    Status status = add_deepstream_tensor_output(*batch, UserMetaLevel::kFrame, frame.ptr, output, std::move(bytes), &created);
    check(status.ok(), "add_deepstream_tensor_output succeeds", status.message);
  }  // ends the call, as the harness's closeCall does

  NvDsUserMeta *user = frame_user_meta(buffer);
  check(user != nullptr, "the frame carries one user meta");
  if (user == nullptr) {
    gst_buffer_unref(buffer);
    std::printf("%d passed, %d failed\n", passed, failed);
    return 1;
  }
  check(user->base_meta.meta_type == NVDSINFER_TENSOR_OUTPUT_META, "its meta_type is NVDSINFER_TENSOR_OUTPUT_META",
      "meta_type " + std::to_string(user->base_meta.meta_type));
  check(user->base_meta.copy_func != nullptr && user->base_meta.release_func != nullptr,
      "it has a copy_func and a release_func");
  auto *meta = static_cast<NvDsInferTensorMeta *>(user->user_meta_data);
  check(meta != nullptr, "user_meta_data is the NvDsInferTensorMeta");
  if (meta == nullptr) {
    gst_buffer_unref(buffer);
    std::printf("%d passed, %d failed\n", passed, failed);
    return 1;
  }

  // --- the NvDsInferTensorMeta, field by field
  check(meta->unique_id == 7, "unique_id", std::to_string(meta->unique_id));
  check(meta->gpu_id == 0, "gpu_id", std::to_string(meta->gpu_id));
  check(meta->network_info.width == 640 && meta->network_info.height == 480 && meta->network_info.channels == 3,
      "network_info is 640x480x3");
  check(meta->maintain_aspect_ratio == TRUE && meta->symmetric_padding == TRUE, "maintain_aspect_ratio and symmetric_padding");
  check(meta->num_output_layers == 2 && meta->output_layers_info != nullptr, "num_output_layers is 2 with output_layers_info");
  if (meta->num_output_layers == 2 && meta->output_layers_info != nullptr) {
    const NvDsInferLayerInfo &l0 = meta->output_layers_info[0];
    const NvDsInferLayerInfo &l1 = meta->output_layers_info[1];
    check(l0.dataType == FLOAT && l0.inferDims.numDims == 1 && l0.inferDims.d[0] == 3 && l0.inferDims.numElements == 3 &&
        l0.bindingIndex == 1 && l0.isInput == 0 && l0.layerName != nullptr && std::strcmp(l0.layerName, "scores") == 0,
        "output_layers_info[0]: scores, FLOAT, [3], binding 1");
    check(l1.dataType == UINT8 && l1.inferDims.numDims == 2 && l1.inferDims.d[0] == 2 && l1.inferDims.d[1] == 2 &&
        l1.inferDims.numElements == 4 && l1.bindingIndex == 2 && l1.layerName != nullptr &&
        std::strcmp(l1.layerName, "mask") == 0, "output_layers_info[1]: mask, UINT8, [2, 2], binding 2");
    check(meta->out_buf_ptrs_host != nullptr && meta->out_buf_ptrs_host[0] == l0.buffer &&
        meta->out_buf_ptrs_host[1] == l1.buffer, "out_buf_ptrs_host[i] is output_layers_info[i].buffer");
  }
  check(layers_hold_values(meta->out_buf_ptrs_host), "out_buf_ptrs_host hold the layers' values");
  check(meta->out_buf_ptrs_dev != nullptr && meta->out_buf_ptrs_dev[0] == nullptr && meta->out_buf_ptrs_dev[1] == nullptr,
      "out_buf_ptrs_dev is an array of NULLs (host-only layers)");

  // --- priv_data: the GstMiniObject that owns the layers, one ref per meta
  std::string detail;
  const bool mini = is_mini_object(meta->priv_data, 1, &detail);
  check(mini, "priv_data is a GstMiniObject (G_TYPE_POINTER, free function) with refcount 1", detail);
  if (!mini) {
    // Nothing below may ref or weak-ref what is not a mini object.
    gst_buffer_unref(buffer);
    check(false, "copies share priv_data (not checked: priv_data is no GstMiniObject)");
    std::printf("%d passed, %d failed\n", passed, failed);
    return 1;
  }
  void *priv = meta->priv_data;
  bool finalized = false;
  gst_mini_object_weak_ref(GST_MINI_OBJECT_CAST(priv), on_finalized, &finalized);
  void *const host0 = meta->out_buf_ptrs_host[0];
  void *const host1 = meta->out_buf_ptrs_host[1];

  // --- a buffer copy: NVIDIA's transform copies the batch (nvds_batch_meta_copy_func), which
  // copies the user meta with its copy_func.
  GstBuffer *copy = gst_buffer_copy(buffer);
  NvDsUserMeta *copied_user = frame_user_meta(copy);
  check(copied_user != nullptr && copied_user != user, "the copy's frame carries its own user meta");
  auto *copied = copied_user != nullptr ? static_cast<NvDsInferTensorMeta *>(copied_user->user_meta_data) : nullptr;
  check(copied != nullptr && copied != meta, "the copy has its own NvDsInferTensorMeta");
  if (copied == nullptr) {
    gst_buffer_unref(copy);
    gst_buffer_unref(buffer);
    std::printf("%d passed, %d failed\n", passed, failed);
    return 1;
  }
  check(copied_user->base_meta.meta_type == NVDSINFER_TENSOR_OUTPUT_META &&
      copied_user->base_meta.copy_func == user->base_meta.copy_func &&
      copied_user->base_meta.release_func == user->base_meta.release_func,
      "the copy's user meta has the type, copy_func and release_func");
  check(copied->priv_data == priv, "the copy shares the same priv_data");
  check(refcount(priv) == 2, "priv_data's refcount is 2 with the copy", "refcount " + std::to_string(refcount(priv)));
  check(copied->num_output_layers == 2 && copied->out_buf_ptrs_host != nullptr &&
      copied->out_buf_ptrs_host[0] == host0 && copied->out_buf_ptrs_host[1] == host1,
      "the copy's out_buf_ptrs_host point at the same layers (shared, not duplicated)");
  check(copied->out_buf_ptrs_dev != nullptr && copied->out_buf_ptrs_dev[0] == nullptr && copied->out_buf_ptrs_dev[1] == nullptr,
      "the copy's out_buf_ptrs_dev are NULL");
  check(copied->unique_id == 7 && copied->network_info.width == 640 && copied->network_info.height == 480 &&
      copied->network_info.channels == 3 && copied->maintain_aspect_ratio == TRUE && copied->symmetric_padding == TRUE,
      "the copy has unique_id and network info");

  // --- the original goes: its meta's ref is dropped, the layers stay for the copy
  gst_buffer_unref(buffer);
  check(!finalized && refcount(priv) == 1, "releasing the original leaves priv_data alive with refcount 1",
      finalized ? "finalized" : "refcount " + std::to_string(refcount(priv)));
  check(layers_hold_values(copied->out_buf_ptrs_host), "the layers are readable from the copy after the original is released");
  if (copied->output_layers_info != nullptr)
    check(std::strcmp(copied->output_layers_info[0].layerName, "scores") == 0 &&
        copied->output_layers_info[1].buffer == host1, "the copy's output_layers_info is readable after the original is released");

  // --- a consumer keeps its own ref past the buffer (as one may with nvinfer's priv_data)
  gst_mini_object_ref(GST_MINI_OBJECT_CAST(priv));
  void *const host[2] = {host0, host1};
  gst_buffer_unref(copy);
  check(!finalized && refcount(priv) == 1, "releasing the copy leaves the consumer's ref",
      finalized ? "finalized" : "refcount " + std::to_string(refcount(priv)));
  check(layers_hold_values(host), "the layers are readable through the consumer's ref after both buffers are released");
  gst_mini_object_unref(GST_MINI_OBJECT_CAST(priv));
  check(finalized, "the last unref frees priv_data (finalize notification)");

  std::printf("%d passed, %d failed\n", passed, failed);
  return failed == 0 ? 0 : 1;
}
