// Copies of tensors into dense host memory: strided host tensors (a frame's padded rows) and
// device tensors (one cudaMemcpy, or a 2D copy for rows), with the count of device-to-host
// copies that tensorStats() reports. Plain C++ over tensor::Desc: no Node-API here.
#ifndef DSNODE_TENSOR_COPY_H
#define DSNODE_TENSOR_COPY_H

#include <cstdint>
#include <string>

#include "tensor/tensor.h"

namespace dsnode::tensor {

// "a float32 tensor of shape [2, 3] on cuda:0", for error messages.
std::string describe(const Desc& desc);

// Copies `src` (host-visible) into dense `dst` (element_count(src) elements).
void copy_host(const Desc& src, uint8_t* dst);

// Copies `src` (device memory) into dense host `dst`: dense tensors, or rows of contiguous
// elements (a frame). False with *error set otherwise, or where CUDA is not compiled in.
bool copy_device(const Desc& src, uint8_t* dst, std::string* error);

// Device-to-host copies ever made by copy_device (the GPU path's pass mark: extract and the
// ops make none).
struct HostCopyStats {
  uint64_t copies = 0;
  uint64_t bytes = 0;
};
HostCopyStats host_copy_stats();

}  // namespace dsnode::tensor

#endif
