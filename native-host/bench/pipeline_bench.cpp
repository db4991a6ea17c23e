// dsnode-pipeline-bench: the in-process half of the per-buffer section of `npm run bench`
// (bench/harness/per-buffer.mjs). One process holds one pipeline per element,
//
//   videotestsrc num-buffers=<buffers> ! video/x-raw,format=GRAY8,width=16,height=16 ! <element> ! fakesink
//
// and plays them in turn, one segment (PLAYING to EOS, then back to READY) each per round,
// the order rotating from round to round. A segment is timed from the PLAYING request to its
// EOS on the bus. Because the elements take turns every few tens of milliseconds, a slow or
// fast stretch of the machine falls on all of them alike, which separate processes minutes
// apart do not get; and since Node (or Python) and its JIT stay warm from one segment to the
// next, every segment after the first measures the steady state. The first segment of each
// element is reported apart (`firstMs`): it carries the warm-up.
//
// Prints one JSON object: {"buffers":N,"rounds":R,"elements":[{"name":..,"firstMs":..,"ms":[..]}]}
//
//   dsnode-pipeline-bench <buffers> <rounds> <element>...
#include <gst/gst.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

struct Subject {
  std::string name;
  GstElement *pipeline = nullptr;
  double first_ms = 0;
  std::vector<double> ms;
};

[[noreturn]] void fail(const std::string &what) {
  std::fprintf(stderr, "dsnode-pipeline-bench: %s\n", what.c_str());
  std::exit(1);
}

GstElement *make_pipeline(const std::string &element, long buffers) {
  const std::string description = "videotestsrc num-buffers=" + std::to_string(buffers) +
                                  " ! video/x-raw,format=GRAY8,width=16,height=16 ! " + element +
                                  " ! fakesink";
  GError *error = nullptr;
  GstElement *pipeline = gst_parse_launch(description.c_str(), &error);
  if (pipeline == nullptr || error != nullptr) {
    fail("cannot build `" + description + "`: " + (error != nullptr ? error->message : "unknown error") +
         " (is the element on GST_PLUGIN_PATH?)");
  }
  return pipeline;
}

void set_state(Subject &subject, GstState state) {
  if (gst_element_set_state(subject.pipeline, state) == GST_STATE_CHANGE_FAILURE ||
      gst_element_get_state(subject.pipeline, nullptr, nullptr, 10 * GST_SECOND) != GST_STATE_CHANGE_SUCCESS) {
    fail("pipeline with " + subject.name + " did not reach " + gst_element_state_get_name(state));
  }
}

// PLAYING to EOS, in milliseconds; the pipeline is back in READY afterwards.
double run_segment(Subject &subject) {
  GstBus *bus = gst_element_get_bus(subject.pipeline);
  const auto started = std::chrono::steady_clock::now();
  if (gst_element_set_state(subject.pipeline, GST_STATE_PLAYING) == GST_STATE_CHANGE_FAILURE) {
    fail("pipeline with " + subject.name + " refused PLAYING");
  }
  GstMessage *message = gst_bus_timed_pop_filtered(
      bus, 120 * GST_SECOND, static_cast<GstMessageType>(GST_MESSAGE_EOS | GST_MESSAGE_ERROR));
  const auto ended = std::chrono::steady_clock::now();
  if (message == nullptr) fail("pipeline with " + subject.name + " did not reach EOS within 120 s");
  if (GST_MESSAGE_TYPE(message) == GST_MESSAGE_ERROR) {
    GError *error = nullptr;
    gchar *debug = nullptr;
    gst_message_parse_error(message, &error, &debug);
    fail("pipeline with " + subject.name + " posted an error: " + error->message + "\n" + (debug ? debug : ""));
  }
  gst_message_unref(message);
  gst_object_unref(bus);
  set_state(subject, GST_STATE_READY);
  return std::chrono::duration<double, std::milli>(ended - started).count();
}

}  // namespace

int main(int argc, char **argv) {
  gst_init(&argc, &argv);
  if (argc < 4) fail("usage: dsnode-pipeline-bench <buffers> <rounds> <element>...");
  const long buffers = std::atol(argv[1]);
  const int rounds = std::atoi(argv[2]);
  if (buffers <= 0 || rounds <= 0) fail("buffers and rounds must be positive");

  std::vector<Subject> subjects;
  for (int i = 3; i < argc; ++i) {
    Subject subject;
    subject.name = argv[i];
    subject.pipeline = make_pipeline(subject.name, buffers);
    set_state(subject, GST_STATE_READY);
    subjects.push_back(std::move(subject));
  }
  for (Subject &subject : subjects) subject.first_ms = run_segment(subject);
  const size_t n = subjects.size();
  for (int round = 0; round < rounds; ++round) {
    for (size_t k = 0; k < n; ++k) {
      Subject &subject = subjects[(k + static_cast<size_t>(round)) % n];
      subject.ms.push_back(run_segment(subject));
    }
  }

  std::printf("{\"buffers\":%ld,\"rounds\":%d,\"elements\":[", buffers, rounds);
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
  return 0;
}
