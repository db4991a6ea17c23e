/*
 * Stand-ins for the two things nvstreammux (gst-nvmultistream2, which links unpublished NVIDIA
 * libraries and cannot be built here) does to metadata that ds-element elements must meet:
 *
 * - `nvstreammux`: the metadata decision of the video muxer for each buffer reaching a
 *   `sink_%u` pad, as gstnvstreammux_pads.cpp makes it (GstBatchBufferWrapper::copy_meta):
 *   when the buffer carries an NvDsBatchMeta (gst_buffer_get_nvds_batch_meta), its frames are
 *   copied as they are (nvds_copy_frame_meta) with only batch_id renumbered (:89-110); else a
 *   frame meta is made anew with pad_index = the pad's number, source_id = the same (the muxer's
 *   default), buf_pts, frame_num counted per pad and num_surfaces_per_frame 1 (:113-150). Every
 *   buffer goes out with that one-frame batch in place of the upstream one; the pixels are
 *   untouched (no NvBufSurface batching: the metadata is what these tests are about). It
 *   registers under NVIDIA's factory name, as element code finds the muxer by that name. On a
 *   build without DeepStream it only passes buffers on (it then exists to be found).
 *
 * - `dsaudiobatch` (DeepStream build only): attaches to each buffer the NvDsBatchMeta that
 *   nvstreammux's audio path attaches (gstnvstreammux.cpp:1435-1453): nvds_create_audio_batch_meta,
 *   one NvDsAudioFrameMeta (gstnvstreammux_audio.cpp:114-130), under NVDS_BATCH_GST_META.
 *
 *   Its per-source events go downstream where gstnvstreammux_pads.cpp (GstSinkPad::push_event,
 *   :351-420) sends them, built by nvevent_standin.c: GST_NVEVENT_PAD_ADDED before a new pad's
 *   first GST_NVEVENT_STREAM_SEGMENT, which follows each segment of a pad, GST_NVEVENT_STREAM_EOS at a pad's EOS
 *   (the EOS itself only once every pad reached it), GST_NVEVENT_STREAM_RESET in place of the one
 *   a source sends, and GST_NVEVENT_PAD_DELETED when a pad is released (gstnvstreammux.cpp:1337).
 *
 *   audiotestsrc ! dsaudiobatch ! <element> ! fakesink
 *   videotestsrc ! <element> ! nvstreammux name=mux ! <element> ! fakesink   (links mux.sink_0)
 *
 * Built by native-host/CMakeLists.txt (target dsnode-mux-standins) into test-plugins/. In the
 * repository only: the package does not ship test/.
 */
#include <gst/base/gstbasetransform.h>
#include <gst/gst.h>
#include <stdlib.h>
#include <string.h>

#include "nvevent_standin.h"

#ifdef DSNODE_MUX_STANDINS_DEEPSTREAM
#include "gstnvdsmeta.h"
#include "nvds_audio_meta.h"
#include "nvdsmeta.h"
#endif

/* --- nvstreammux (the video muxer's metadata decision) --------------------------------------- */

typedef struct {
  GstElement parent;
  GstPad *srcpad;
} StandinMux;

typedef struct {
  GstElementClass parent_class;
} StandinMuxClass;

GType standin_mux_get_type(void);
G_DEFINE_TYPE(StandinMux, standin_mux, GST_TYPE_ELEMENT)

static GstStaticPadTemplate mux_sink_template =
    GST_STATIC_PAD_TEMPLATE("sink_%u", GST_PAD_SINK, GST_PAD_REQUEST, GST_STATIC_CAPS_ANY);
static GstStaticPadTemplate mux_src_template =
    GST_STATIC_PAD_TEMPLATE("src", GST_PAD_SRC, GST_PAD_ALWAYS, GST_STATIC_CAPS_ANY);

#ifdef DSNODE_MUX_STANDINS_DEEPSTREAM
/* Frames seen on a sink pad: the muxer's frame_number of the pad's stream. */
static GQuark frames_quark(void) { return g_quark_from_static_string("standin-mux-frames"); }

static gboolean remove_batch_meta(GstBuffer *buffer, GstMeta **meta, gpointer user_data) {
  (void)buffer;
  (void)user_data;
  if ((*meta)->info->api == NVDS_META_API_TYPE && ((NvDsMeta *)*meta)->meta_type == NVDS_BATCH_GST_META)
    *meta = NULL; /* removes it: gst_buffer_foreach_meta */
  return TRUE;
}

/* The batch the muxer would push for `buffer` arriving on sink pad number `id`. */
static GstBuffer *mux_metadata(GstPad *pad, guint id, GstBuffer *buffer) {
  guint64 frame_number = GPOINTER_TO_SIZE(g_object_get_qdata(G_OBJECT(pad), frames_quark()));
  g_object_set_qdata(G_OBJECT(pad), frames_quark(), GSIZE_TO_POINTER(frame_number + 1));
  NvDsBatchMeta *dest = nvds_create_batch_meta(1);
  dest->max_frames_in_batch = 1;
  buffer = gst_buffer_make_writable(buffer);
  NvDsBatchMeta *src = gst_buffer_get_nvds_batch_meta(buffer);
  if (src != NULL) {
    /* gstnvstreammux_pads.cpp:89-110: the upstream frames, copied as they are. */
    for (guint i = 0; i < src->num_frames_in_batch; i++) {
      NvDsFrameMeta *frame = nvds_acquire_frame_meta_from_pool(dest);
      nvds_copy_frame_meta(nvds_get_nth_frame_meta(src->frame_meta_list, i), frame);
      frame->batch_id = i;
      nvds_add_frame_meta_to_batch(dest, frame);
    }
  } else {
    /* gstnvstreammux_pads.cpp:113-150: a frame of this pad's stream. */
    NvDsFrameMeta *frame = nvds_acquire_frame_meta_from_pool(dest);
    frame->pad_index = id;
    frame->source_id = id;
    frame->buf_pts = GST_BUFFER_PTS(buffer);
    frame->frame_num = (gint)frame_number;
    frame->batch_id = 0;
    frame->num_surfaces_per_frame = 1;
    nvds_add_frame_meta_to_batch(dest, frame);
  }
  gst_buffer_foreach_meta(buffer, remove_batch_meta, NULL);
  NvDsMeta *meta = gst_buffer_add_nvds_meta(buffer, dest, NULL, nvds_batch_meta_copy_func, nvds_batch_meta_release_func);
  meta->meta_type = NVDS_BATCH_GST_META; /* gstnvstreammux.cpp:1476 */
  dest->base_meta.batch_meta = dest;
  dest->base_meta.copy_func = nvds_batch_meta_copy_func;
  dest->base_meta.release_func = nvds_batch_meta_release_func;
  return buffer;
}
#endif

/* The pad's number: sink_<n>. */
static guint pad_number(GstPad *pad) { return (guint)strtoul(GST_OBJECT_NAME(pad) + strlen("sink_"), NULL, 10); }

static GstFlowReturn mux_chain(GstPad *pad, GstObject *parent, GstBuffer *buffer) {
  StandinMux *self = (StandinMux *)parent;
#ifdef DSNODE_MUX_STANDINS_DEEPSTREAM
  buffer = mux_metadata(pad, pad_number(pad), buffer);
#else
  (void)pad;
#endif
  return gst_pad_push(self->srcpad, buffer);
}

/* Set on a sink pad once its pad-added event went downstream, and once it reached EOS. */
static GQuark added_quark(void) { return g_quark_from_static_string("standin-mux-added"); }
static GQuark eos_quark(void) { return g_quark_from_static_string("standin-mux-eos"); }

static gboolean all_pads_eos(GstElement *element) {
  gboolean all = TRUE;
  GST_OBJECT_LOCK(element);
  for (GList *l = element->sinkpads; l != NULL; l = l->next)
    all = all && g_object_get_qdata(G_OBJECT(l->data), eos_quark()) != NULL;
  GST_OBJECT_UNLOCK(element);
  return all;
}

static gboolean mux_sink_event(GstPad *pad, GstObject *parent, GstEvent *event) {
  StandinMux *self = (StandinMux *)parent;
  const guint id = pad_number(pad);
  gboolean ok = TRUE;
  if ((guint32)GST_EVENT_TYPE(event) == (guint32)GST_NVEVENT_STREAM_RESET) {
    gst_event_unref(event);
    ok = gst_pad_push_event(self->srcpad, gst_nvevent_new_stream_reset(id));
  } else if (GST_EVENT_TYPE(event) == GST_EVENT_EOS) {
    g_object_set_qdata(G_OBJECT(pad), eos_quark(), GINT_TO_POINTER(1));
    ok = gst_pad_push_event(self->srcpad, gst_nvevent_new_stream_eos(id));
    if (all_pads_eos(GST_ELEMENT(self)))
      ok = gst_pad_push_event(self->srcpad, event) && ok;
    else
      gst_event_unref(event);
  } else if (GST_EVENT_TYPE(event) == GST_EVENT_STREAM_START || GST_EVENT_TYPE(event) == GST_EVENT_CAPS) {
    /* The muxer's output has one stream: the first source's stream-start and caps go on, later
     * ones would only be sticky events out of order (a source added while running). */
    if (GST_EVENT_TYPE(event) == GST_EVENT_STREAM_START) g_object_set_qdata(G_OBJECT(pad), eos_quark(), NULL);
    GstEvent *current = gst_pad_get_sticky_event(self->srcpad, GST_EVENT_TYPE(event), 0);
    if (current == NULL) return gst_pad_event_default(pad, parent, event);
    gst_event_unref(current);
    gst_event_unref(event);
  } else if (GST_EVENT_TYPE(event) == GST_EVENT_SEGMENT) {
    /* The muxer's own segment once; then, as gstnvstreammux_pads.cpp:354-366, the source's. A new
     * pad's pad-added goes before its first stream segment (type 400 before 403: sticky events
     * stay in type order). */
    GstSegment segment;
    gst_event_copy_segment(event, &segment);
    GstEvent *current = gst_pad_get_sticky_event(self->srcpad, GST_EVENT_SEGMENT, 0);
    if (current == NULL) {
      ok = gst_pad_event_default(pad, parent, event);
    } else {
      gst_event_unref(current);
      gst_event_unref(event);
    }
    if (g_object_get_qdata(G_OBJECT(pad), added_quark()) == NULL) {
      g_object_set_qdata(G_OBJECT(pad), added_quark(), GINT_TO_POINTER(1));
      ok = gst_pad_push_event(self->srcpad, gst_nvevent_new_pad_added(id)) && ok;
    }
    ok = gst_pad_push_event(self->srcpad, gst_nvevent_new_stream_segment(id, &segment)) && ok;
  } else {
    ok = gst_pad_event_default(pad, parent, event);
  }
  return ok;
}

static GstPad *mux_request_new_pad(GstElement *element, GstPadTemplate *templ, const gchar *name, const GstCaps *caps) {
  (void)caps;
  if (name == NULL || !g_str_has_prefix(name, "sink_")) return NULL;
  GstPad *pad = gst_pad_new_from_template(templ, name);
  gst_pad_set_chain_function(pad, mux_chain);
  gst_pad_set_event_function(pad, mux_sink_event);
  GST_PAD_SET_PROXY_CAPS(pad);
  GST_PAD_SET_PROXY_ALLOCATION(pad);
  gst_element_add_pad(element, pad);
  return pad;
}

static void mux_release_pad(GstElement *element, GstPad *pad) {
  const guint id = pad_number(pad);
  gst_element_remove_pad(element, pad);
  gst_pad_push_event(((StandinMux *)element)->srcpad, gst_nvevent_new_pad_deleted(id));
}

static void standin_mux_class_init(StandinMuxClass *klass) {
  GstElementClass *element_class = GST_ELEMENT_CLASS(klass);
  element_class->request_new_pad = mux_request_new_pad;
  element_class->release_pad = mux_release_pad;
  gst_element_class_add_static_pad_template(element_class, &mux_sink_template);
  gst_element_class_add_static_pad_template(element_class, &mux_src_template);
  gst_element_class_set_static_metadata(element_class, "nvstreammux stand-in (ds-element tests)", "Generic",
      "Gives each buffer the batch metadata NVIDIA's nvstreammux would (gstnvstreammux_pads.cpp copy_meta)",
      "ds-element tests");
}

static void standin_mux_init(StandinMux *self) {
  self->srcpad = gst_pad_new_from_static_template(&mux_src_template, "src");
  GST_PAD_SET_PROXY_CAPS(self->srcpad);
  gst_element_add_pad(GST_ELEMENT(self), self->srcpad);
}

/* --- dsaudiobatch (nvstreammux's audio batch) ------------------------------------------------ */

#ifdef DSNODE_MUX_STANDINS_DEEPSTREAM
typedef struct {
  GstBaseTransform parent;
  gint frames;
} AudioBatch;

typedef struct {
  GstBaseTransformClass parent_class;
} AudioBatchClass;

GType audio_batch_get_type(void);
G_DEFINE_TYPE(AudioBatch, audio_batch, GST_TYPE_BASE_TRANSFORM)

static GstStaticPadTemplate any_sink = GST_STATIC_PAD_TEMPLATE("sink", GST_PAD_SINK, GST_PAD_ALWAYS, GST_STATIC_CAPS_ANY);
static GstStaticPadTemplate any_src = GST_STATIC_PAD_TEMPLATE("src", GST_PAD_SRC, GST_PAD_ALWAYS, GST_STATIC_CAPS_ANY);

static GstFlowReturn audio_batch_transform_ip(GstBaseTransform *trans, GstBuffer *buffer) {
  AudioBatch *self = (AudioBatch *)trans;
  NvDsBatchMeta *batch = nvds_create_audio_batch_meta(1);
  NvDsMeta *meta = gst_buffer_add_nvds_meta(buffer, batch, NULL, nvds_audio_batch_meta_copy_func,
      nvds_audio_batch_meta_release_func);
  meta->meta_type = NVDS_BATCH_GST_META;
  batch->base_meta.batch_meta = batch;
  batch->max_frames_in_batch = 1;
  NvDsAudioFrameMeta *frame = nvds_acquire_audio_frame_meta_from_pool(batch);
  frame->pad_index = 0;
  frame->source_id = 0;
  frame->batch_id = 0;
  frame->frame_num = self->frames++;
  frame->buf_pts = GST_BUFFER_PTS(buffer);
  frame->num_samples_per_frame = 1024;
  frame->sample_rate = 44100;
  frame->num_channels = 1;
  nvds_add_audio_frame_meta_to_audio_batch(batch, frame);
  return GST_FLOW_OK;
}

static void audio_batch_class_init(AudioBatchClass *klass) {
  GstElementClass *element_class = GST_ELEMENT_CLASS(klass);
  GST_BASE_TRANSFORM_CLASS(klass)->transform_ip = audio_batch_transform_ip;
  gst_element_class_add_static_pad_template(element_class, &any_sink);
  gst_element_class_add_static_pad_template(element_class, &any_src);
  gst_element_class_set_static_metadata(element_class, "Audio batch (ds-element tests)", "Filter/Audio",
      "Attaches the NvDsBatchMeta of NvDsAudioFrameMeta that nvstreammux's audio path attaches", "ds-element tests");
}

static void audio_batch_init(AudioBatch *self) { gst_base_transform_set_in_place(GST_BASE_TRANSFORM(self), TRUE); }
#endif

static gboolean plugin_init(GstPlugin *plugin) {
  gboolean ok = gst_element_register(plugin, "nvstreammux", GST_RANK_NONE, standin_mux_get_type());
#ifdef DSNODE_MUX_STANDINS_DEEPSTREAM
  ok = ok && gst_element_register(plugin, "dsaudiobatch", GST_RANK_NONE, audio_batch_get_type());
#endif
  return ok;
}

#define PACKAGE "ds-element-tests"
GST_PLUGIN_DEFINE(GST_VERSION_MAJOR, GST_VERSION_MINOR, dsmuxstandins, "nvstreammux stand-ins for ds-element's tests",
    plugin_init, "0.1", "Apache 2.0", PACKAGE, "https://github.com/ds-element")
