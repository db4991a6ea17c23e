// DLPack capsules of ds-element's tensors, as plain C++ (no Node-API): the DLManagedTensor
// (v0.8) or DLManagedTensorVersioned (v1.0) a consumer receives, describing a tensor::Desc, and
// owning whatever keeps its memory alive until the consumer (or whoever drops the capsule
// unconsumed) calls its deleter. The binding wraps one in a JS external (tensor_binding.cpp).
#ifndef DSNODE_TENSOR_DLPACK_CAPSULE_H
#define DSNODE_TENSOR_DLPACK_CAPSULE_H

#include <functional>

#include "tensor/dlpack.h"
#include "tensor/tensor.h"

namespace dsnode::tensor {

class DLPackCapsule {
 public:
  // A capsule over `desc`. `release` runs once, from the deleter, before the capsule is freed:
  // it lets go of the memory (and of what the caller holds for it).
  static DLPackCapsule* create(const Desc& desc, bool versioned, std::function<void()> release);

  // The DLManagedTensor* or DLManagedTensorVersioned* to hand over.
  void* managed();
  bool versioned() const { return versioned_; }
  // Runs the deleter (frees the capsule): what dropping it unconsumed does.
  void drop();

  DLPackCapsule(const DLPackCapsule&) = delete;
  DLPackCapsule& operator=(const DLPackCapsule&) = delete;

 private:
  DLPackCapsule() = default;
  ~DLPackCapsule();
  static void delete_managed(DLManagedTensor* self);
  static void delete_versioned(DLManagedTensorVersioned* self);

  DLManagedTensor managed_{};
  DLManagedTensorVersioned versioned_tensor_{};
  bool versioned_ = false;
  int64_t shape_[kMaxDims] = {};
  int64_t strides_[kMaxDims] = {};
  std::function<void()> release_;
};

}  // namespace dsnode::tensor

#endif
