/*
 * Drives nvstreammux's sources coming and going, for test/source-events.test.ts: links pads of its
 * own to the muxer's request pads while the pipeline plays, pushes frames through them, and
 * releases them, so that the muxer (the stand-in of test/mux-standins/) sends its per-source
 * events downstream as nvstreammux does. Everything is pushed from this one thread, so the order
 * the element downstream sees is the order of the script.
 *
 *   source_events '<elements after the muxer>' '<script>'
 *
 * The pipeline is `nvstreammux name=mux ! <elements> ! fakesink`. The script is a list of steps
 * separated by ';':
 *   add N        request mux.sink_N, link a pad of ours to it, push stream-start, caps, segment
 *   frames N K   push K frames (16x16 RGB) from source N
 *   reset N      push GST_NVEVENT_STREAM_RESET from source N (as nvurisrcbin does on a reconnect)
 *   eos N        push EOS from source N
 *   remove N     unlink our pad and release mux.sink_N
 * At the end an EOS goes from the muxer downstream and the program waits for it on the bus.
 * Prints "done" and exits 0, or prints the error and exits 1.
 */
#include <gst/gst.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nvevent_standin.h"

#define MAX_SOURCES 16

typedef struct {
  GstPad *ours;
  GstPad *mux_pad;
  GstClockTime pts;
} Feed;

static GstElement *pipeline, *mux;
static Feed feeds[MAX_SOURCES];

static int fail(const char *what, guint id) {
  fprintf(stderr, "source_events: %s (source %u)\n", what, id);
  return 0;
}

static int add_source(guint id) {
  char name[32];
  snprintf(name, sizeof name, "sink_%u", id);
  Feed *feed = &feeds[id];
  feed->mux_pad = gst_element_request_pad_simple(mux, name);
  if (feed->mux_pad == NULL) return fail("cannot request the muxer's pad", id);
  snprintf(name, sizeof name, "feed_%u", id);
  feed->ours = gst_pad_new(name, GST_PAD_SRC);
  gst_pad_set_active(feed->ours, TRUE);
  if (gst_pad_link(feed->ours, feed->mux_pad) != GST_PAD_LINK_OK) return fail("cannot link to the muxer", id);
  snprintf(name, sizeof name, "source-%u", id);
  GstCaps *caps = gst_caps_from_string("video/x-raw, format=RGB, width=16, height=16, framerate=30/1");
  GstSegment segment;
  gst_segment_init(&segment, GST_FORMAT_TIME);
  gboolean ok = gst_pad_push_event(feed->ours, gst_event_new_stream_start(name)) &&
      gst_pad_push_event(feed->ours, gst_event_new_caps(caps)) && gst_pad_push_event(feed->ours, gst_event_new_segment(&segment));
  gst_caps_unref(caps);
  feed->pts = 0;
  return ok ? 1 : fail("the start of the stream was refused", id);
}

static int push_frames(guint id, int count) {
  Feed *feed = &feeds[id];
  for (int i = 0; i < count; ++i) {
    GstBuffer *buffer = gst_buffer_new_allocate(NULL, 16 * 16 * 3, NULL);
    gst_buffer_memset(buffer, 0, 0x40, 16 * 16 * 3);
    GST_BUFFER_PTS(buffer) = feed->pts;
    GST_BUFFER_DURATION(buffer) = GST_SECOND / 30;
    feed->pts += GST_SECOND / 30;
    if (gst_pad_push(feed->ours, buffer) != GST_FLOW_OK) return fail("a frame was refused", id);
  }
  return 1;
}

static int remove_source(guint id) {
  Feed *feed = &feeds[id];
  gst_pad_unlink(feed->ours, feed->mux_pad);
  gst_element_release_request_pad(mux, feed->mux_pad);
  gst_object_unref(feed->mux_pad);
  gst_pad_set_active(feed->ours, FALSE);
  gst_object_unref(feed->ours);
  memset(feed, 0, sizeof *feed);
  return 1;
}

static int run_step(const char *step) {
  char verb[16];
  guint id = 0;
  int count = 0;
  const int fields = sscanf(step, " %15s %u %d", verb, &id, &count);
  if (fields < 2 || id >= MAX_SOURCES) return fail(step, id);
  const int linked = feeds[id].ours != NULL;
  if (strcmp(verb, "add") == 0) return !linked ? add_source(id) : fail("already linked", id);
  if (!linked) return fail("not linked", id);
  if (strcmp(verb, "frames") == 0 && fields == 3) return push_frames(id, count);
  if (strcmp(verb, "reset") == 0) return gst_pad_push_event(feeds[id].ours, gst_nvevent_new_stream_reset(id)) ? 1 : fail("reset refused", id);
  if (strcmp(verb, "eos") == 0) return gst_pad_push_event(feeds[id].ours, gst_event_new_eos()) ? 1 : fail("EOS refused", id);
  if (strcmp(verb, "remove") == 0) return remove_source(id);
  return fail(step, id);
}

/* An error posted so far, printed; 1 when there was one. */
static int bus_error(GstClockTime wait) {
  GstBus *bus = gst_element_get_bus(pipeline);
  GstMessage *message = gst_bus_timed_pop_filtered(bus, wait, GST_MESSAGE_ERROR | GST_MESSAGE_EOS);
  gst_object_unref(bus);
  if (message == NULL) return wait == 0 ? 0 : (fprintf(stderr, "source_events: no EOS\n"), 1);
  int failed = GST_MESSAGE_TYPE(message) == GST_MESSAGE_ERROR;
  if (failed) {
    GError *error = NULL;
    gchar *debug = NULL;
    gst_message_parse_error(message, &error, &debug);
    fprintf(stderr, "ERROR from %s: %s\n%s\n", GST_OBJECT_NAME(GST_MESSAGE_SRC(message)), error->message, debug != NULL ? debug : "");
    g_clear_error(&error);
    g_free(debug);
  }
  gst_message_unref(message);
  return failed;
}

int main(int argc, char **argv) {
  gst_init(&argc, &argv);
  if (argc != 3) {
    fprintf(stderr, "usage: source_events '<elements after the muxer>' '<script>'\n");
    return 2;
  }
  gchar *description = g_strdup_printf("nvstreammux name=mux ! %s ! fakesink sync=false async=false", argv[1]);
  GError *error = NULL;
  pipeline = gst_parse_launch(description, &error);
  g_free(description);
  if (pipeline == NULL) {
    fprintf(stderr, "source_events: %s\n", error->message);
    return 1;
  }
  mux = gst_bin_get_by_name(GST_BIN(pipeline), "mux");
  if (gst_element_set_state(pipeline, GST_STATE_PLAYING) == GST_STATE_CHANGE_FAILURE) return bus_error(GST_SECOND), 1;
  int ok = 1;
  gchar **steps = g_strsplit(argv[2], ";", -1);
  for (gchar **step = steps; ok && *step != NULL; ++step)
    if (g_strstrip(*step)[0] != '\0') ok = run_step(*step) && !bus_error(0);
  g_strfreev(steps);
  if (ok) {
    GstPad *src = gst_element_get_static_pad(mux, "src");
    gst_pad_push_event(src, gst_event_new_eos());
    gst_object_unref(src);
    ok = !bus_error(10 * GST_SECOND);
  }
  for (guint id = 0; id < MAX_SOURCES; ++id)
    if (feeds[id].ours != NULL) remove_source(id);
  gst_element_set_state(pipeline, GST_STATE_NULL);
  gst_object_unref(mux);
  gst_object_unref(pipeline);
  if (ok) printf("done\n");
  return ok ? 0 : 1;
}
