#include "meta/deepstream_source.h"

#include <utility>

#include "meta/deepstream_backend.h"
#include "meta/portable_source.h"

namespace dsnode::meta {

namespace {

// A buffer's NvDsBatchMeta when it carries one (nvstreammux's, or an element's upstream);
// else a portable batch it carries (from a portable build's element in the same process);
// else a one-frame NvDsBatchMeta of this source's own, attached only when written to.
class DeepStreamSource final : public MetadataSource {
 public:
  ~DeepStreamSource() override { discard_own_batch(); }

  std::string library_path() const override { return deepstream_library_path(); }

  Batch *open_call(GstBuffer *buffer, const FrameFields &frame, std::string *refused) override {
    detached_ = false;
    if (has_deepstream_batch(buffer)) return (call_ = open_deepstream_batch(buffer, 1, refused)).get();
    if (Batch *carried = portable_.open_carried_call(buffer)) return carried;
    call_ = open_detached_deepstream_batch(&spare_, frame);
    detached_ = call_ != nullptr;
    return call_.get();
  }

  bool wrote_own_batch() const override { return detached_ && deepstream_batch_modified(*call_); }
  bool on_own_batch() const override { return detached_; }

  bool finish_call(GstBuffer *buffer) override {
    if (call_ == nullptr) return portable_.finish_call(buffer);
    bool attached = true;
    if (std::exchange(detached_, false))
      attached = finish_detached_deepstream_batch(buffer, *call_, &spare_);
    call_.reset();  // ends the call
    return attached;
  }

  void discard_own_batch() override {
    call_.reset();
    detached_ = false;
    release_detached_deepstream_batch(std::exchange(spare_, nullptr));
    portable_.discard_own_batch();
  }

  bool take_user_meta_types_warning(size_t *count, size_t *bound) override {
    if (!meta::take_user_meta_types_warning(count)) return false;
    *bound = user_meta_types_warning_bound();
    return true;
  }

  bool attach_new_batch(GstBuffer *buffer, uint32_t max_frames_in_batch) override {
    return open_deepstream_batch(buffer, max_frames_in_batch) != nullptr;
  }

  std::unique_ptr<Batch> open_batch(GstBuffer *buffer) override {
    return has_deepstream_batch(buffer) ? open_deepstream_batch(buffer, 0) : nullptr;
  }

  bool add_frame(Batch &batch, const FrameFields &fields) override {
    return add_deepstream_frame(batch, fields).ptr != nullptr;
  }

  Status add_tensor_output(Batch &batch, UserMetaLevel level, void *owner, const TensorOutput &output,
      std::vector<std::vector<uint8_t>> bytes, UserHandle *created) override {
    return add_deepstream_tensor_output(batch, level, owner, output, std::move(bytes), created);
  }

 private:
  std::unique_ptr<Batch> call_;  // the open call on a DeepStream batch (null: none, or portable_'s)
  bool detached_ = false;        // call_ is on spare_, not on the buffer yet
  DetachedDeepStreamBatch *spare_ = nullptr;
  PortableSource portable_;      // calls on portable batches that buffers carry
};

}  // namespace

std::unique_ptr<MetadataSource> open_deepstream_source(std::string *error) {
  if (!load_deepstream(error)) return nullptr;
  return std::make_unique<DeepStreamSource>();
}

}  // namespace dsnode::meta
