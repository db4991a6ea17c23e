// What the in-process pipeline benchmarks share (pipeline_bench.cpp, osd_bench.cpp): pipelines
// held in one process and played in turn, one segment (PLAYING to EOS, then back to READY) each
// per round, the order rotating from round to round, so that a slow or fast stretch of the
// machine falls on all of them alike; the first segment of each (its warm-up) is kept apart.
// Prints {"<count_key>":N,"rounds":R,"elements":[{"name":..,"firstMs":..,"ms":[..]}]}.
#ifndef DSNODE_BENCH_SEGMENTS_H
#define DSNODE_BENCH_SEGMENTS_H

#include <gst/gst.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace dsnode_bench {

struct Subject {
  std::string name;
  GstElement *pipeline = nullptr;
  double first_ms = 0;
  std::vector<double> ms;
};

[[noreturn]] inline void fail(const char *program, const std::string &what) {
  std::fprintf(stderr, "%s: %s\n", program, what.c_str());
  std::exit(1);
}

inline GstElement *parse_pipeline(const char *program, const std::string &description) {
  GError *error = nullptr;
  GstElement *pipeline = gst_parse_launch(description.c_str(), &error);
  if (pipeline == nullptr || error != nullptr) {
    fail(program, "cannot build `" + description + "`: " + (error != nullptr ? error->message : "unknown error") +
        " (is the element on GST_PLUGIN_PATH?)");
  }
  return pipeline;
}

inline void set_state(const char *program, Subject &subject, GstState state) {
  if (gst_element_set_state(subject.pipeline, state) == GST_STATE_CHANGE_FAILURE ||
      gst_element_get_state(subject.pipeline, nullptr, nullptr, 10 * GST_SECOND) != GST_STATE_CHANGE_SUCCESS) {
    fail(program, "pipeline " + subject.name + " did not reach " + gst_element_state_get_name(state));
  }
}

// PLAYING to EOS, in milliseconds; the pipeline is back in READY afterwards.
inline double run_segment(const char *program, Subject &subject) {
  GstBus *bus = gst_element_get_bus(subject.pipeline);
  const auto started = std::chrono::steady_clock::now();
  if (gst_element_set_state(subject.pipeline, GST_STATE_PLAYING) == GST_STATE_CHANGE_FAILURE) {
    fail(program, "pipeline " + subject.name + " refused PLAYING");
  }
  GstMessage *message = gst_bus_timed_pop_filtered(
      bus, 120 * GST_SECOND, static_cast<GstMessageType>(GST_MESSAGE_EOS | GST_MESSAGE_ERROR));
  const auto ended = std::chrono::steady_clock::now();
  if (message == nullptr) fail(program, "pipeline " + subject.name + " did not reach EOS within 120 s");
  if (GST_MESSAGE_TYPE(message) == GST_MESSAGE_ERROR) {
    GError *error = nullptr;
    gchar *debug = nullptr;
    gst_message_parse_error(message, &error, &debug);
    fail(program, "pipeline " + subject.name + " posted an error: " + error->message + "\n" + (debug ? debug : ""));
  }
  gst_message_unref(message);
  gst_object_unref(bus);
  set_state(program, subject, GST_STATE_READY);
  return std::chrono::duration<double, std::milli>(ended - started).count();
}

// Readies every subject, plays each once (its first segment), then `rounds` rotating rounds,
// prints the JSON line and frees the pipelines.
inline void run_rounds(const char *program, std::vector<Subject> &subjects, const char *count_key, long count, int rounds) {
  for (Subject &subject : subjects) set_state(program, subject, GST_STATE_READY);
  for (Subject &subject : subjects) subject.first_ms = run_segment(program, subject);
  const size_t n = subjects.size();
  for (int round = 0; round < rounds; ++round) {
    for (size_t k = 0; k < n; ++k) {
      Subject &subject = subjects[(k + static_cast<size_t>(round)) % n];
      subject.ms.push_back(run_segment(program, subject));
    }
  }
  std::printf("{\"%s\":%ld,\"rounds\":%d,\"elements\":[", count_key, count, rounds);
  for (size_t k = 0; k < n; ++k) {
    const Subject &subject = subjects[k];
    std::printf("%s{\"name\":\"%s\",\"firstMs\":%.4f,\"ms\":[", k ? "," : "", subject.name.c_str(), subject.first_ms);
    for (size_t i = 0; i < subject.ms.size(); ++i) std::printf("%s%.4f", i ? "," : "", subject.ms[i]);
    std::printf("]}");
  }
  std::printf("]}\n");
  std::fflush(stdout);
  for (Subject &subject : subjects) {
    gst_element_set_state(subject.pipeline, GST_STATE_NULL);
    gst_object_unref(subject.pipeline);
  }
}

}  // namespace dsnode_bench

#endif
