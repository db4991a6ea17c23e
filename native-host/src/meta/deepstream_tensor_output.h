// NVDSINFER_TENSOR_OUTPUT_META on the DeepStream backend: nvinfer's tensor outputs read into the
// model, and nvinfer-shaped ones written for the testing harness. Internal to the DeepStream
// backend (meta/deepstream_*.cpp); it includes DeepStream's headers.
#ifndef DSNODE_META_DEEPSTREAM_TENSOR_OUTPUT_H
#define DSNODE_META_DEEPSTREAM_TENSOR_OUTPUT_H

#include <cstdint>
#include <vector>

#include "meta/model.h"
#include "nvdsmeta.h"

namespace dsnode::meta {

// Reads the NvDsInferTensorMeta of `user` (nvinfer's, or one of write_tensor_output_meta);
// false when `user` is not an NVDSINFER_TENSOR_OUTPUT_META.
bool read_tensor_output_meta(const NvDsUserMeta *user, TensorOutput *out);

// Makes `user` (just acquired) an NVDSINFER_TENSOR_OUTPUT_META over host copies of `bytes`
// (layer i in bytes[i]), copied with the buffer as nvinfer's are; `output` is validated.
void write_tensor_output_meta(NvDsUserMeta *user, const TensorOutput &output, std::vector<std::vector<uint8_t>> bytes);

}  // namespace dsnode::meta

#endif
