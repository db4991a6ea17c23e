// The portable backend's GstMeta: carries a PortableBatchMeta on a GstBuffer. Copying the
// buffer (gst_buffer_copy, gst_buffer_make_writable on a shared buffer) deep-copies the batch,
// so two branches after a tee never see each other's writes.
#ifndef DSNODE_META_PORTABLE_GST_META_H
#define DSNODE_META_PORTABLE_GST_META_H

#include <gst/gst.h>

#include "meta/portable_batch.h"

G_BEGIN_DECLS

typedef struct {
  GstMeta meta;
  dsnode::meta::PortableBatchMeta *batch;  /* owned */
} DsNodePortableBatchGstMeta;

GType dsnode_portable_batch_meta_api_get_type (void);
const GstMetaInfo *dsnode_portable_batch_meta_get_info (void);

G_END_DECLS

namespace dsnode::meta {

// Attaches an empty batch (no frames) to a writable buffer; null when it cannot.
PortableBatchMeta *attach_portable_batch(GstBuffer *buffer, uint32_t max_frames_in_batch);
// An empty batch on no buffer, from the same recycling as attached ones. Hand it to a buffer
// with attach_portable_batch(buffer, batch), or back with release_portable_batch.
PortableBatchMeta *new_portable_batch(uint32_t max_frames_in_batch);
// Attaches `batch` (taking it) to a writable buffer; false, the batch released, when it cannot.
bool attach_portable_batch(GstBuffer *buffer, PortableBatchMeta *batch);
void release_portable_batch(PortableBatchMeta *batch);
// The buffer's portable batch, or null.
PortableBatchMeta *find_portable_batch(GstBuffer *buffer);

}  // namespace dsnode::meta

#endif
