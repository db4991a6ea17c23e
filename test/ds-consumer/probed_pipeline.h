/*
 * What the C consumers of the DeepStream tests share (test/ds-consumer/ds_consumer.c,
 * test/ds-consumers/nvidia_consumers.cpp): run a gst-launch description whose element named
 * `probe` has `callback` on its src pad for every buffer, until EOS (0) or an error or 60 s
 * (1, the reason on stderr, prefixed with `program`). Plain C, usable from C++.
 */
#ifndef DSNODE_TEST_PROBED_PIPELINE_H
#define DSNODE_TEST_PROBED_PIPELINE_H

#include <gst/gst.h>
#include <stdio.h>

static inline int run_probed_pipeline(const char *program, const char *description, GstPadProbeCallback callback,
    gpointer data) {
  GError *error = NULL;
  GstElement *pipeline = gst_parse_launch(description, &error);
  if (pipeline == NULL || error != NULL) {
    fprintf(stderr, "%s: %s\n", program, error != NULL ? error->message : "cannot build the pipeline");
    return 1;
  }
  GstElement *probe = gst_bin_get_by_name(GST_BIN(pipeline), "probe");
  if (probe == NULL) {
    fprintf(stderr, "%s: the pipeline has no element named probe\n", program);
    return 1;
  }
  GstPad *pad = gst_element_get_static_pad(probe, "src");
  gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_BUFFER, callback, data, NULL);
  gst_object_unref(pad);
  gst_object_unref(probe);
  gst_element_set_state(pipeline, GST_STATE_PLAYING);
  GstBus *bus = gst_element_get_bus(pipeline);
  GstMessage *message =
      gst_bus_timed_pop_filtered(bus, 60 * GST_SECOND, (GstMessageType)(GST_MESSAGE_EOS | GST_MESSAGE_ERROR));
  int code = 0;
  if (message == NULL || GST_MESSAGE_TYPE(message) == GST_MESSAGE_ERROR) {
    GError *failure = NULL;
    gchar *debug = NULL;
    if (message != NULL) gst_message_parse_error(message, &failure, &debug);
    fprintf(stderr, "%s: %s\n%s\n", program, failure != NULL ? failure->message : "no EOS within 60 s",
        debug != NULL ? debug : "");
    g_clear_error(&failure);
    g_free(debug);
    code = 1;
  }
  if (message != NULL) gst_message_unref(message);
  gst_object_unref(bus);
  gst_element_set_state(pipeline, GST_STATE_NULL);
  gst_object_unref(pipeline);
  return code;
}

/* What print_buffer_and_copy calls: print one buffer's batch, `copy` 0 for the buffer, 1 for its copy. */
typedef void (*PrintBuffer)(GstBuffer *buffer, int copy);

/*
 * A probe callback (its data a PrintBuffer): prints each buffer, then a gst_buffer_copy() of it
 * (NVIDIA's nvds_batch_meta_copy_func calls the user metas' copy functions; unref'ing the copy
 * calls their release functions).
 */
static inline GstPadProbeReturn print_buffer_and_copy(GstPad *pad, GstPadProbeInfo *info, gpointer print) {
  (void)pad;
  GstBuffer *buffer = GST_PAD_PROBE_INFO_BUFFER(info);
  ((PrintBuffer)print)(buffer, 0);
  GstBuffer *copy = gst_buffer_copy(buffer);
  ((PrintBuffer)print)(copy, 1);
  gst_buffer_unref(copy);
  fflush(stdout);
  return GST_PAD_PROBE_OK;
}

#endif
