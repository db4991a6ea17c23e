#include "meta/portable_source.h"

#include <utility>

#include "meta/portable_gst_meta.h"

namespace dsnode::meta {

Batch *PortableSource::open_carried_call(GstBuffer *buffer) {
  PortableBatchMeta *carried = find_portable_batch(buffer);
  return carried != nullptr ? &call_.emplace(carried) : nullptr;
}

Batch *PortableSource::open_call(GstBuffer *buffer, const FrameFields &frame, std::string *) {
  if (Batch *carried = open_carried_call(buffer)) return carried;
  if (spare_ == nullptr) {
    spare_ = new_portable_batch(1);
    if (spare_->add_frame(frame) == nullptr) {
      release_portable_batch(spare_);
      spare_ = nullptr;
      return nullptr;
    }
  } else {
    spare_->frame_meta_list[0]->fields = frame;
  }
  return &call_.emplace(spare_);
}

bool PortableSource::wrote_own_batch() const {
  return call_ && spare_ != nullptr && call_->data() == spare_ && call_->modified();
}

bool PortableSource::finish_call(GstBuffer *buffer) {
  if (!call_) return true;
  const bool wrote = wrote_own_batch();
  call_.reset();  // ends the call
  if (!wrote) return true;
  PortableBatchMeta *changed = std::exchange(spare_, nullptr);
  return attach_portable_batch(buffer, changed);
}

void PortableSource::discard_own_batch() {
  call_.reset();
  if (spare_ != nullptr) release_portable_batch(std::exchange(spare_, nullptr));
}

bool PortableSource::attach_new_batch(GstBuffer *buffer, uint32_t max_frames_in_batch) {
  return attach_portable_batch(buffer, max_frames_in_batch) != nullptr;
}

std::unique_ptr<Batch> PortableSource::open_batch(GstBuffer *buffer) {
  PortableBatchMeta *batch = find_portable_batch(buffer);
  return batch != nullptr ? std::make_unique<PortableBackend>(batch) : nullptr;
}

bool PortableSource::add_frame(Batch &batch, const FrameFields &fields) {
  return batch.backend() == BackendKind::kPortable &&
      static_cast<PortableBackend &>(batch).data()->add_frame(fields) != nullptr;
}

Status PortableSource::add_tensor_output(Batch &batch, UserMetaLevel level, void *owner, const TensorOutput &output,
    std::vector<std::vector<uint8_t>> bytes, UserHandle *created) {
  if (batch.backend() != BackendKind::kPortable)
    return Status::State("Expected a portable batch for a tensor output");
  return static_cast<PortableBackend &>(batch).add_tensor_output(level, owner, output, std::move(bytes), created);
}

}  // namespace dsnode::meta
