// The portable backend's metadata source (meta/metadata_source.h): batches carried by our
// GstMeta (meta/portable_gst_meta.h), read and written through PortableBackend.
#ifndef DSNODE_META_PORTABLE_SOURCE_H
#define DSNODE_META_PORTABLE_SOURCE_H

#include <optional>

#include "meta/metadata_source.h"
#include "meta/portable_backend.h"

namespace dsnode::meta {

class PortableSource final : public MetadataSource {
 public:
  PortableSource() = default;
  PortableSource(const PortableSource &) = delete;
  PortableSource &operator=(const PortableSource &) = delete;
  ~PortableSource() override { discard_own_batch(); }

  std::string library_path() const override { return ""; }

  Batch *open_call(GstBuffer *buffer, const FrameFields &frame, std::string *refused) override;
  bool wrote_own_batch() const override;
  bool on_own_batch() const override { return call_ && spare_ != nullptr && call_->data() == spare_; }
  bool finish_call(GstBuffer *buffer) override;
  void discard_own_batch() override;
  bool take_user_meta_types_warning(size_t *, size_t *) override { return false; }

  bool attach_new_batch(GstBuffer *buffer, uint32_t max_frames_in_batch) override;
  std::unique_ptr<Batch> open_batch(GstBuffer *buffer) override;
  bool add_frame(Batch &batch, const FrameFields &fields) override;
  Status add_tensor_output(Batch &batch, UserMetaLevel level, void *owner, const TensorOutput &output,
      std::vector<std::vector<uint8_t>> bytes, UserHandle *created) override;

  // A transform call on the portable batch `buffer` carries, never on a batch of this source's
  // own; null when the buffer carries none. The DeepStream build's source reads such batches
  // through it. Ended by finish_call.
  Batch *open_carried_call(GstBuffer *buffer);

 private:
  // The open call, on the buffer's batch or on spare_. Kept in here: nothing is allocated per
  // buffer.
  std::optional<PortableBackend> call_;
  // The one-frame batch of a buffer that came without one, between buffers: it goes onto a
  // buffer only when the call changed it, and is reused by the next buffer otherwise.
  PortableBatchMeta *spare_ = nullptr;
};

}  // namespace dsnode::meta

#endif
