#include "tensor/dlpack_capsule.h"

#include <utility>

namespace dsnode::tensor {

DLPackCapsule* DLPackCapsule::create(const Desc& desc, bool versioned, std::function<void()> release) {
  auto* capsule = new DLPackCapsule();
  capsule->versioned_ = versioned;
  capsule->release_ = std::move(release);
  for (int32_t d = 0; d < desc.ndim; ++d) {
    capsule->shape_[d] = desc.shape[d];
    capsule->strides_[d] = desc.strides[d];
  }
  DLTensor tensor{};
  tensor.data = desc.data;
  tensor.device = DLDevice{static_cast<DLDeviceType>(desc.device), desc.device_id};
  tensor.ndim = desc.ndim;
  tensor.dtype = dlpack_dtype(desc.dtype);
  tensor.shape = capsule->shape_;
  tensor.strides = capsule->strides_;
  tensor.byte_offset = desc.byte_offset;
  if (versioned) {
    capsule->versioned_tensor_.version = DLPackVersion{DLPACK_MAJOR_VERSION, DLPACK_MINOR_VERSION};
    capsule->versioned_tensor_.manager_ctx = capsule;
    capsule->versioned_tensor_.deleter = delete_versioned;
    capsule->versioned_tensor_.flags = 0;
    capsule->versioned_tensor_.dl_tensor = tensor;
  } else {
    capsule->managed_.dl_tensor = tensor;
    capsule->managed_.manager_ctx = capsule;
    capsule->managed_.deleter = delete_managed;
  }
  return capsule;
}

void* DLPackCapsule::managed() {
  return versioned_ ? static_cast<void*>(&versioned_tensor_) : static_cast<void*>(&managed_);
}

void DLPackCapsule::drop() {
  if (versioned_) {
    versioned_tensor_.deleter(&versioned_tensor_);
  } else {
    managed_.deleter(&managed_);
  }
}

DLPackCapsule::~DLPackCapsule() {
  if (release_) release_();
}

void DLPackCapsule::delete_managed(DLManagedTensor* self) { delete static_cast<DLPackCapsule*>(self->manager_ctx); }
void DLPackCapsule::delete_versioned(DLManagedTensorVersioned* self) {
  delete static_cast<DLPackCapsule*>(self->manager_ctx);
}

}  // namespace dsnode::tensor
