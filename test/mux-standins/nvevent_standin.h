/*
 * nvstreammux's per-source events (DeepStream's gst-nvevent.h): their type numbers and the
 * builders nvstreammux calls (gst_nvevent_new_pad_added, ...). NVIDIA publishes the header but not
 * the library that builds them (libnvdsgst_helper; ../shared/deepstream-9.1 has no source for it,
 * and src/gst-utils/gstnvcustomhelper builds only the decoder/encoder events 500-506), so
 * nvevent_standin.c builds them here, for the nvstreammux stand-in and the test driver
 * (test/source-events/). On the DeepStream build the declarations and type numbers are NVIDIA's
 * own header's, so the compiler checks the builders against them; without DeepStream the same
 * numbers are declared below.
 */
#ifndef DSNODE_NVEVENT_STANDIN_H
#define DSNODE_NVEVENT_STANDIN_H

#include <gst/gst.h>

#ifdef DSNODE_MUX_STANDINS_DEEPSTREAM
#include "gst-nvevent.h"
#else
#define DSNODE_NVEVENT_FLAGS \
  (GST_EVENT_TYPE_DOWNSTREAM | GST_EVENT_TYPE_SERIALIZED | GST_EVENT_TYPE_STICKY | GST_EVENT_TYPE_STICKY_MULTI)
typedef enum {
  GST_NVEVENT_PAD_ADDED = GST_EVENT_MAKE_TYPE(400, DSNODE_NVEVENT_FLAGS),
  GST_NVEVENT_PAD_DELETED = GST_EVENT_MAKE_TYPE(401, DSNODE_NVEVENT_FLAGS),
  GST_NVEVENT_STREAM_EOS = GST_EVENT_MAKE_TYPE(402, DSNODE_NVEVENT_FLAGS),
  GST_NVEVENT_STREAM_SEGMENT = GST_EVENT_MAKE_TYPE(403, DSNODE_NVEVENT_FLAGS),
  GST_NVEVENT_STREAM_RESET = GST_EVENT_MAKE_TYPE(404, DSNODE_NVEVENT_FLAGS),
} GstNvEventType;
GstEvent *gst_nvevent_new_pad_added(guint source_id);
GstEvent *gst_nvevent_new_pad_deleted(guint source_id);
GstEvent *gst_nvevent_new_stream_eos(guint source_id);
GstEvent *gst_nvevent_new_stream_segment(guint source_id, GstSegment *segment);
GstEvent *gst_nvevent_new_stream_reset(guint source_id);
#endif

#endif
