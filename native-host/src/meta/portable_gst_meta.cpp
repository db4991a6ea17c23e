#include "meta/portable_gst_meta.h"

#include <memory>
#include <mutex>
#include <vector>

namespace {

using dsnode::meta::PortableBatchMeta;

// Batches of freed buffers, emptied, for the next buffers: a stream attaches one per buffer,
// and a recycled batch comes with warm pools (no allocation for its frame and metas). Small
// batches only, so a burst of 10 000 objects does not stay allocated for ever.
constexpr size_t kMaxRecycled = 32;
constexpr size_t kMaxRecycledMetas = 1024;

struct Recycler {
  std::mutex mutex;
  std::vector<PortableBatchMeta *> batches;
};

// Leaked on purpose: buffers may be freed by other threads while the process exits.
Recycler &recycler() {
  static Recycler *instance = new Recycler();
  return *instance;
}

PortableBatchMeta *new_batch(uint32_t max_frames_in_batch) {
  Recycler &r = recycler();
  {
    std::lock_guard<std::mutex> lock(r.mutex);
    if (!r.batches.empty()) {
      PortableBatchMeta *batch = r.batches.back();
      r.batches.pop_back();
      batch->max_frames_in_batch = max_frames_in_batch;
      return batch;
    }
  }
  return new PortableBatchMeta(max_frames_in_batch);
}

void recycle_batch(PortableBatchMeta *batch) {
  if (batch == nullptr) return;
  if (batch->pooled_metas() <= kMaxRecycledMetas) {
    batch->clear(0);
    Recycler &r = recycler();
    std::lock_guard<std::mutex> lock(r.mutex);
    if (r.batches.size() < kMaxRecycled) {
      r.batches.push_back(batch);
      return;
    }
  }
  delete batch;
}

gboolean portable_meta_init(GstMeta *meta, gpointer params, GstBuffer *buffer) {
  reinterpret_cast<DsNodePortableBatchGstMeta *>(meta)->batch = nullptr;
  return TRUE;
}

void portable_meta_free(GstMeta *meta, GstBuffer *buffer) {
  auto *carrier = reinterpret_cast<DsNodePortableBatchGstMeta *>(meta);
  recycle_batch(carrier->batch);
  carrier->batch = nullptr;
}

gboolean portable_meta_transform(GstBuffer *destination, GstMeta *meta, GstBuffer *source, GQuark type,
    gpointer data) {
  // Copies only: after a scale or crop, rectangles in frame pixels would be wrong (DeepStream
  // scales its own boxes in nvstreammux/nvvideoconvert; a plain scaler cannot).
  if (!GST_META_TRANSFORM_IS_COPY(type))
    return FALSE;
  auto *carrier = reinterpret_cast<DsNodePortableBatchGstMeta *>(meta);
  // A destination with its own batch (metas copied into a prepared buffer) keeps it.
  if (dsnode::meta::find_portable_batch(destination) != nullptr || carrier->batch == nullptr)
    return TRUE;
  auto *copy = reinterpret_cast<DsNodePortableBatchGstMeta *>(
      gst_buffer_add_meta(destination, dsnode_portable_batch_meta_get_info(), nullptr));
  if (copy == nullptr)
    return FALSE;
  copy->batch = carrier->batch->deep_copy().release();
  return TRUE;
}

}  // namespace

GType dsnode_portable_batch_meta_api_get_type(void) {
  static GType type = 0;
  if (g_once_init_enter(&type)) {
    // No tags: the metadata is not tied to memory or video layout, so elements that copy
    // untagged metas (in-place filters, tee, queue) pass it on.
    static const gchar *tags[] = {nullptr};
    GType registered = gst_meta_api_type_register("DsNodePortableBatchMetaAPI", tags);
    g_once_init_leave(&type, registered);
  }
  return type;
}

const GstMetaInfo *dsnode_portable_batch_meta_get_info(void) {
  static const GstMetaInfo *info = nullptr;
  if (g_once_init_enter(&info)) {
    const GstMetaInfo *registered = gst_meta_register(dsnode_portable_batch_meta_api_get_type(),
        "DsNodePortableBatchMeta", sizeof(DsNodePortableBatchGstMeta), portable_meta_init,
        portable_meta_free, portable_meta_transform);
    g_once_init_leave(&info, registered);
  }
  return info;
}

namespace dsnode::meta {

PortableBatchMeta *attach_portable_batch(GstBuffer *buffer, uint32_t max_frames_in_batch) {
  PortableBatchMeta *batch = new_batch(max_frames_in_batch);
  return attach_portable_batch(buffer, batch) ? batch : nullptr;
}

PortableBatchMeta *new_portable_batch(uint32_t max_frames_in_batch) { return new_batch(max_frames_in_batch); }

bool attach_portable_batch(GstBuffer *buffer, PortableBatchMeta *batch) {
  auto *carrier = GST_IS_BUFFER(buffer) && gst_buffer_is_writable(buffer)
      ? reinterpret_cast<DsNodePortableBatchGstMeta *>(
            gst_buffer_add_meta(buffer, dsnode_portable_batch_meta_get_info(), nullptr))
      : nullptr;
  if (carrier == nullptr) {
    recycle_batch(batch);
    return false;
  }
  carrier->batch = batch;
  return true;
}

void release_portable_batch(PortableBatchMeta *batch) { recycle_batch(batch); }

PortableBatchMeta *find_portable_batch(GstBuffer *buffer) {
  auto *carrier = reinterpret_cast<DsNodePortableBatchGstMeta *>(
      gst_buffer_get_meta(buffer, dsnode_portable_batch_meta_api_get_type()));
  return carrier != nullptr ? carrier->batch : nullptr;
}

}  // namespace dsnode::meta
