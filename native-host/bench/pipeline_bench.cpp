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

#include <cstdlib>
#include <string>
#include <vector>

#include "segments.h"

namespace {

constexpr const char *kProgram = "dsnode-pipeline-bench";

GstElement *make_pipeline(const std::string &element, long buffers) {
  return dsnode_bench::parse_pipeline(kProgram, "videotestsrc num-buffers=" + std::to_string(buffers) +
      " ! video/x-raw,format=GRAY8,width=16,height=16 ! " + element + " ! fakesink");
}

}  // namespace

int main(int argc, char **argv) {
  gst_init(&argc, &argv);
  if (argc < 4) dsnode_bench::fail(kProgram, "usage: dsnode-pipeline-bench <buffers> <rounds> <element>...");
  const long buffers = std::atol(argv[1]);
  const int rounds = std::atoi(argv[2]);
  if (buffers <= 0 || rounds <= 0) dsnode_bench::fail(kProgram, "buffers and rounds must be positive");

  std::vector<dsnode_bench::Subject> subjects;
  for (int i = 3; i < argc; ++i) {
    dsnode_bench::Subject subject;
    subject.name = argv[i];
    subject.pipeline = make_pipeline(subject.name, buffers);
    subjects.push_back(std::move(subject));
  }
  dsnode_bench::run_rounds(kProgram, subjects, "buffers", buffers, rounds);
  return 0;
}
