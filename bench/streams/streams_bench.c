// The host process of bench sections 6 and 7 (bench/README.md): plays one pipeline description
// ROUNDS times in this process (preroll to PAUSED, then PLAYING to EOS, then back to READY) and
// prints, per round, the CPU time the whole process used from PLAYING to EOS (every thread:
// sources, queues, the elements, Node's and Python's threads) and the wall time, as JSON.
// Prerolling first keeps start-up out of the figures: elements are started (Node or Python
// loaded, models loaded) and every stream has pushed its first buffer before the clock starts.
//
// With --probe NAME it also records, for every buffer after the first WARMUP, the time from
// the buffer reaching NAME's sink pad to it leaving NAME's source pad (an in-place transform:
// the time the element held it), and prints their mean and median per round.
//
//   streams-bench ROUNDS "PIPELINE" [--probe NAME] [--warmup N]
#include <gst/gst.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

static double seconds_of(struct timeval tv) { return tv.tv_sec + tv.tv_usec / 1e6; }

static double monotonic_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

typedef struct {
  GMutex lock;
  gint64 entered_ns;  // when the current buffer reached the sink pad
  guint seen;
  guint warmup;
  GArray *held_ns;    // per buffer after the warm-up
} Probe;

static GstPadProbeReturn on_sink(GstPad *pad, GstPadProbeInfo *info, gpointer data) {
  Probe *probe = data;
  probe->entered_ns = g_get_monotonic_time() * 1000;
  (void) pad; (void) info;
  return GST_PAD_PROBE_OK;
}

static GstPadProbeReturn on_src(GstPad *pad, GstPadProbeInfo *info, gpointer data) {
  Probe *probe = data;
  gint64 held = g_get_monotonic_time() * 1000 - probe->entered_ns;
  (void) pad; (void) info;
  if (probe->seen++ >= probe->warmup) g_array_append_val(probe->held_ns, held);
  return GST_PAD_PROBE_OK;
}

static int compare_gint64(const void *a, const void *b) {
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;
  return x < y ? -1 : x > y;
}

// Waits for EOS or an error; FALSE (and the error printed) on an error.
static gboolean wait_end(GstElement *pipeline) {
  GstBus *bus = gst_element_get_bus(pipeline);
  GstMessage *message = gst_bus_timed_pop_filtered(bus, 600 * GST_SECOND, GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  gboolean ok = message != NULL && GST_MESSAGE_TYPE(message) == GST_MESSAGE_EOS;
  if (message != NULL && !ok) {
    GError *error = NULL;
    gchar *debug = NULL;
    gst_message_parse_error(message, &error, &debug);
    fprintf(stderr, "streams-bench: error from %s: %s\n%s\n", GST_OBJECT_NAME(message->src), error->message, debug ? debug : "");
    g_clear_error(&error);
    g_free(debug);
  } else if (message == NULL) {
    fprintf(stderr, "streams-bench: no EOS within 600 s\n");
  }
  if (message) gst_message_unref(message);
  gst_object_unref(bus);
  return ok;
}

int main(int argc, char **argv) {
  gst_init(&argc, &argv);
  if (argc < 3) {
    fprintf(stderr, "usage: streams-bench ROUNDS \"PIPELINE\" [--probe NAME] [--warmup N]\n");
    return 2;
  }
  const int rounds = atoi(argv[1]);
  const char *description = argv[2];
  const char *probe_name = NULL;
  guint warmup = 0;
  for (int i = 3; i + 1 < argc; i += 2) {
    if (strcmp(argv[i], "--probe") == 0) probe_name = argv[i + 1];
    else if (strcmp(argv[i], "--warmup") == 0) warmup = (guint) atoi(argv[i + 1]);
  }
  GError *error = NULL;
  GstElement *pipeline = gst_parse_launch(description, &error);
  if (pipeline == NULL || error != NULL) {
    fprintf(stderr, "streams-bench: cannot parse the pipeline: %s\n", error ? error->message : "?");
    return 2;
  }
  Probe probe = {0};
  g_mutex_init(&probe.lock);
  probe.held_ns = g_array_new(FALSE, FALSE, sizeof(gint64));
  probe.warmup = warmup;
  if (probe_name != NULL) {
    GstElement *element = gst_bin_get_by_name(GST_BIN(pipeline), probe_name);
    if (element == NULL) {
      fprintf(stderr, "streams-bench: no element named %s\n", probe_name);
      return 2;
    }
    GstPad *sink = gst_element_get_static_pad(element, "sink"), *src = gst_element_get_static_pad(element, "src");
    gst_pad_add_probe(sink, GST_PAD_PROBE_TYPE_BUFFER, on_sink, &probe, NULL);
    gst_pad_add_probe(src, GST_PAD_PROBE_TYPE_BUFFER, on_src, &probe, NULL);
    gst_object_unref(sink);
    gst_object_unref(src);
    gst_object_unref(element);
  }
  printf("{\"rounds\": [");
  for (int round = 0; round < rounds; round++) {
    g_array_set_size(probe.held_ns, 0);
    probe.seen = 0;
    if (gst_element_set_state(pipeline, GST_STATE_PAUSED) == GST_STATE_CHANGE_FAILURE ||
        gst_element_get_state(pipeline, NULL, NULL, 300 * GST_SECOND) != GST_STATE_CHANGE_SUCCESS) {
      fprintf(stderr, "streams-bench: the pipeline does not preroll\n");
      wait_end(pipeline);
      return 1;
    }
    struct rusage before, after;
    getrusage(RUSAGE_SELF, &before);
    const double started = monotonic_seconds();
    gst_element_set_state(pipeline, GST_STATE_PLAYING);
    const gboolean ok = wait_end(pipeline);
    const double wall = monotonic_seconds() - started;
    getrusage(RUSAGE_SELF, &after);
    gst_element_set_state(pipeline, GST_STATE_READY);
    if (!ok) return 1;
    const double user = seconds_of(after.ru_utime) - seconds_of(before.ru_utime);
    const double sys = seconds_of(after.ru_stime) - seconds_of(before.ru_stime);
    printf("%s{\"cpu_s\": %.6f, \"user_s\": %.6f, \"sys_s\": %.6f, \"wall_s\": %.6f, \"voluntary_switches\": %ld, \"involuntary_switches\": %ld",
        round ? ", " : "", user + sys, user, sys, wall, after.ru_nvcsw - before.ru_nvcsw, after.ru_nivcsw - before.ru_nivcsw);
    if (probe_name != NULL && probe.held_ns->len > 0) {
      g_array_sort(probe.held_ns, compare_gint64);
      double sum = 0;
      for (guint i = 0; i < probe.held_ns->len; i++) sum += g_array_index(probe.held_ns, gint64, i);
      printf(", \"probe\": {\"buffers\": %u, \"mean_us\": %.3f, \"median_us\": %.3f}", probe.held_ns->len,
          sum / probe.held_ns->len / 1000, g_array_index(probe.held_ns, gint64, probe.held_ns->len / 2) / 1000.0);
    }
    printf("}");
    fflush(stdout);
  }
  printf("]}\n");
  gst_element_set_state(pipeline, GST_STATE_NULL);
  gst_object_unref(pipeline);
  return 0;
}
