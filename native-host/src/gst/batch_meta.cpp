#include "gst/batch_meta.h"

#include <cstring>

namespace {

gboolean batch_meta_init(GstMeta *meta, gpointer params, GstBuffer *buffer) {
  auto *batch = reinterpret_cast<DsNodeBatchMeta *>(meta);
  batch->frames = nullptr;
  batch->num_frames = 0;
  return TRUE;
}

void batch_meta_free(GstMeta *meta, GstBuffer *buffer) {
  auto *batch = reinterpret_cast<DsNodeBatchMeta *>(meta);
  g_free(batch->frames);
  batch->frames = nullptr;
  batch->num_frames = 0;
}

gboolean batch_meta_transform(GstBuffer *dest, GstMeta *meta, GstBuffer *buffer, GQuark type,
    gpointer data) {
  // Only copies keep the frame list: after a scale or a crop the widths and heights it
  // records would be wrong, and dropping the meta makes the next element start afresh.
  if (!GST_META_TRANSFORM_IS_COPY(type))
    return FALSE;
  auto *batch = reinterpret_cast<DsNodeBatchMeta *>(meta);
  // Copying onto a buffer that already has a frame list (gst_buffer_copy_into of metas
  // into a prepared buffer) would leave two: the destination's own one wins.
  if (dsnode_buffer_get_batch_meta(dest) != nullptr)
    return TRUE;
  return dsnode_buffer_add_batch_meta(dest, batch->frames, batch->num_frames) != nullptr;
}

}  // namespace

GType dsnode_batch_meta_api_get_type(void) {
  static GType type = 0;
  if (g_once_init_enter(&type)) {
    // No tags: the frame list is not tied to memory or video layout, so elements that copy
    // untagged metas (most in-place filters, tee, queue) pass it on.
    static const gchar *tags[] = {nullptr};
    GType registered = gst_meta_api_type_register("DsNodeBatchMetaAPI", tags);
    g_once_init_leave(&type, registered);
  }
  return type;
}

const GstMetaInfo *dsnode_batch_meta_get_info(void) {
  static const GstMetaInfo *info = nullptr;
  if (g_once_init_enter(&info)) {
    const GstMetaInfo *registered = gst_meta_register(dsnode_batch_meta_api_get_type(),
        "DsNodeBatchMeta", sizeof(DsNodeBatchMeta), batch_meta_init, batch_meta_free,
        batch_meta_transform);
    g_once_init_leave(&info, registered);
  }
  return info;
}

DsNodeBatchMeta *dsnode_buffer_add_batch_meta(GstBuffer *buffer, const DsnodeFrameInfo *frames,
    guint num_frames) {
  g_return_val_if_fail(GST_IS_BUFFER(buffer), nullptr);
  auto *batch = reinterpret_cast<DsNodeBatchMeta *>(
      gst_buffer_add_meta(buffer, dsnode_batch_meta_get_info(), nullptr));
  if (batch == nullptr)
    return nullptr;
  if (num_frames > 0) {
    batch->frames = static_cast<DsnodeFrameInfo *>(g_memdup2(frames,
        sizeof(DsnodeFrameInfo) * num_frames));
    batch->num_frames = num_frames;
  }
  return batch;
}
