#include "meta/deepstream_tensor_output.h"

#include <gst/gst.h>

#include <algorithm>
#include <utility>

#include "gstnvdsinfer.h"

namespace dsnode::meta {

namespace {

// nvinfer-shaped tensor outputs (output-tensor-meta=1) that the testing harness attaches:
// an NvDsInferTensorMeta over host copies of the layers. As nvinfer's, its priv_data is a
// GstMiniObject that owns the layers' memory (gstnvinfer_meta_utils.cpp:729, gstnvinfer.cpp:2669):
// each meta holds one ref, dropped by its release function, and a consumer may take its own.
// out_buf_ptrs_dev stays NULL: the harness's layers are host memory only.

struct TensorMetaStorage;

struct TensorOutputObject {
  GstMiniObject parent;
  TensorMetaStorage *storage;
};

void free_tensor_output_object(GstMiniObject *object);

struct TensorMetaStorage {
  NvDsInferTensorMeta meta{};
  TensorOutput output;
  std::vector<std::vector<uint8_t>> bytes;
  std::vector<NvDsInferLayerInfo> layers;
  std::vector<void *> host, device;

  TensorMetaStorage(const TensorOutput &from, std::vector<std::vector<uint8_t>> data)
      : output(from), bytes(std::move(data)), layers(from.layers.size()), host(from.layers.size()),
        device(from.layers.size(), nullptr) {
    for (size_t i = 0; i < layers.size(); ++i) {
      const TensorLayer &layer = output.layers[i];
      NvDsInferLayerInfo &info = layers[i];
      info.dataType = static_cast<NvDsInferDataType>(layer.data_type);
      info.inferDims.numDims = layer.num_dims;
      std::copy_n(layer.dims, layer.num_dims, info.inferDims.d);
      info.inferDims.numElements = layer.num_elements;
      info.bindingIndex = layer.binding_index;
      info.layerName = output.layers[i].layer_name.c_str();
      info.buffer = host[i] = bytes[i].data();
      info.isInput = 0;
    }
    meta.unique_id = output.unique_id;
    meta.num_output_layers = static_cast<guint>(layers.size());
    meta.output_layers_info = layers.data();
    meta.out_buf_ptrs_host = host.data();
    meta.out_buf_ptrs_dev = device.data();
    meta.gpu_id = output.gpu_id;
    meta.network_info = {output.network_width, output.network_height, output.network_channels};
    meta.maintain_aspect_ratio = output.maintain_aspect_ratio;
    meta.symmetric_padding = output.symmetric_padding;
    auto *object = new TensorOutputObject;
    gst_mini_object_init(GST_MINI_OBJECT_CAST(object), 0, G_TYPE_POINTER, nullptr, nullptr, free_tensor_output_object);
    object->storage = this;
    meta.priv_data = object;
  }

  // A new meta over the same data: as nvinfer's copy, another ref of the same priv_data
  // (gstnvinfer_meta_utils.cpp copy_tensor_output_meta); the storage lives until the last goes.
  static NvDsInferTensorMeta *share(const NvDsInferTensorMeta &from) {
    auto *meta = new NvDsInferTensorMeta(from);
    gst_mini_object_ref(GST_MINI_OBJECT_CAST(from.priv_data));
    return meta;
  }
};

void free_tensor_output_object(GstMiniObject *object) {
  auto *owner = reinterpret_cast<TensorOutputObject *>(object);
  delete owner->storage;
  delete owner;
}

// The first meta is the storage's own; copies are separate structs sharing its priv_data.
bool is_storage_meta(const NvDsInferTensorMeta *meta) {
  return &reinterpret_cast<TensorOutputObject *>(meta->priv_data)->storage->meta == meta;
}

gpointer tensor_meta_copy(gpointer data, gpointer) {
  const auto *from = static_cast<const NvDsInferTensorMeta *>(static_cast<NvDsUserMeta *>(data)->user_meta_data);
  return TensorMetaStorage::share(*from);
}

void tensor_meta_release(gpointer data, gpointer) {
  auto *user = static_cast<NvDsUserMeta *>(data);
  auto *meta = static_cast<NvDsInferTensorMeta *>(user->user_meta_data);
  if (meta != nullptr) {
    GstMiniObject *object = GST_MINI_OBJECT_CAST(meta->priv_data);
    if (!is_storage_meta(meta)) delete meta;
    gst_mini_object_unref(object);  // the last ref frees the storage (and its own meta)
  }
  user->user_meta_data = nullptr;
}

}  // namespace

bool read_tensor_output_meta(const NvDsUserMeta *user, TensorOutput *out) {
  if (user->base_meta.meta_type != NVDSINFER_TENSOR_OUTPUT_META || user->user_meta_data == nullptr)
    return false;
  const auto *meta = static_cast<const NvDsInferTensorMeta *>(user->user_meta_data);
  out->unique_id = meta->unique_id;
  out->gpu_id = meta->gpu_id;
  out->network_width = meta->network_info.width;
  out->network_height = meta->network_info.height;
  out->network_channels = meta->network_info.channels;
  out->maintain_aspect_ratio = meta->maintain_aspect_ratio;
  out->symmetric_padding = meta->symmetric_padding;
  out->layers.resize(meta->num_output_layers);
  for (guint i = 0; i < meta->num_output_layers; ++i) {
    const NvDsInferLayerInfo &info = meta->output_layers_info[i];
    TensorLayer &layer = out->layers[i];
    layer.layer_name = info.layerName != nullptr ? info.layerName : "";
    layer.data_type = static_cast<TensorDataType>(info.dataType);
    layer.num_dims = std::min<uint32_t>(info.inferDims.numDims, kMaxTensorDims);
    std::copy_n(info.inferDims.d, layer.num_dims, layer.dims);
    layer.num_elements = info.inferDims.numElements;
    layer.binding_index = info.bindingIndex;
    layer.host_buffer = meta->out_buf_ptrs_host != nullptr ? meta->out_buf_ptrs_host[i] : nullptr;
    layer.device_buffer = meta->out_buf_ptrs_dev != nullptr ? meta->out_buf_ptrs_dev[i] : nullptr;
  }
  return true;
}

void write_tensor_output_meta(NvDsUserMeta *user, const TensorOutput &output, std::vector<std::vector<uint8_t>> bytes) {
  user->user_meta_data = &(new TensorMetaStorage(output, std::move(bytes)))->meta;
  user->base_meta.meta_type = NVDSINFER_TENSOR_OUTPUT_META;
  user->base_meta.copy_func = tensor_meta_copy;
  user->base_meta.release_func = tensor_meta_release;
  user->base_meta.uContext = nullptr;
}

}  // namespace dsnode::meta
