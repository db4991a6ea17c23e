// The portable batch meta, minimal form: the frame list a ds-element element saw, carried on
// the buffer so the next ds-element element downstream sees the same frames (frame numbers,
// timestamps) instead of starting its own one-frame batch. The full metadata hierarchy
// (objects, classifiers, display meta) is a later layer.
#ifndef DSNODE_GST_BATCH_META_H
#define DSNODE_GST_BATCH_META_H

#include <gst/gst.h>

#include "common/runtime_api.h"

G_BEGIN_DECLS

typedef struct {
  GstMeta meta;
  DsnodeFrameInfo *frames;      /* g_malloc'ed, num_frames entries */
  guint num_frames;
} DsNodeBatchMeta;

GType dsnode_batch_meta_api_get_type (void);
const GstMetaInfo *dsnode_batch_meta_get_info (void);

/* Copies `frames` into a new meta on `buffer` (which must be writable). */
DsNodeBatchMeta *dsnode_buffer_add_batch_meta (GstBuffer * buffer, const DsnodeFrameInfo * frames,
    guint num_frames);

#define dsnode_buffer_get_batch_meta(buffer) \
    ((DsNodeBatchMeta *) gst_buffer_get_meta ((buffer), dsnode_batch_meta_api_get_type ()))

G_END_DECLS
#endif
