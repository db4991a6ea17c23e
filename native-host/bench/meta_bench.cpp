// dsnode-meta-bench: the C++ peer of the metadata section of `npm run bench`
// (bench/harness/meta.mjs). Writes N objects into one frame of a portable batch through the
// Batch interface, the way a C++ element would, and prints the cost per object as JSON.
//
// The same work as the TypeScript side (bench/harness/meta-ts-peer.mjs), object by object:
//   one by one  acquire_object, then class_id, confidence, rect_params.{left,top,width,height}
//               and obj_label set on an ObjectFields, write_object, add_object;
//   bulk        add_objects from float/int columns (left, top, width, height, confidence,
//               class_id) with labels by class id.
// Each round is one "call" (a PortableBackend made, the objects written, end_call), timed as a
// whole; between rounds the objects are removed again (not timed), so every round after the
// first takes its objects from a warm pool. Rounds alternate one-by-one and bulk.
//
//   dsnode-meta-bench [objects=1000] [rounds=51] [warmup=20]
#include <gst/gst.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "meta/batch.h"
#include "meta/portable_backend.h"
#include "meta/portable_gst_meta.h"
#include "meta/validate.h"

using namespace dsnode::meta;

namespace {

// The detections both sides write (bench/harness/meta-ts-peer.mjs makes the same ones).
struct Detections {
  std::vector<float> left, top, width, height, confidence;
  std::vector<int32_t> class_id;
  std::vector<std::string> labels = {"car", "bicycle", "person", "roadsign"};

  explicit Detections(size_t n) : left(n), top(n), width(n), height(n), confidence(n), class_id(n) {
    for (size_t i = 0; i < n; ++i) {
      left[i] = static_cast<float>(i % 1900);
      top[i] = static_cast<float>(i % 1000);
      width[i] = 20;
      height[i] = 30;
      confidence[i] = static_cast<float>(i % 100) / 100.0f;
      class_id[i] = static_cast<int32_t>(i % 4);
    }
  }
};

void require(const Status &status, const char *what) {
  if (status.ok()) return;
  std::fprintf(stderr, "dsnode-meta-bench: %s failed: %s\n", what, status.message.c_str());
  std::exit(1);
}

// One call that writes every detection object by object.
void one_by_one(PortableBatchMeta *data, const Detections &d, ObjectFields &fields) {
  PortableBackend batch(data);
  const FrameHandle frame = batch.frame_at(0);
  const size_t n = d.left.size();
  for (size_t i = 0; i < n; ++i) {
    const ObjectHandle object = batch.acquire_object();
    fields.class_id = d.class_id[i];
    fields.confidence = d.confidence[i];
    fields.rect_params.left = d.left[i];
    fields.rect_params.top = d.top[i];
    fields.rect_params.width = d.width[i];
    fields.rect_params.height = d.height[i];
    require(copy_bounded(fields.obj_label, d.labels[static_cast<size_t>(d.class_id[i])], "NvDsObjectMeta.obj_label"),
        "copy_bounded");
    require(batch.write_object(object, fields), "write_object");
    require(batch.add_object(frame, object, ObjectHandle{}), "add_object");
  }
  batch.end_call();
}

// One call that writes every detection with add_objects.
void bulk(PortableBatchMeta *data, const Detections &d) {
  PortableBackend batch(data);
  ObjectColumns columns;
  columns.count = d.left.size();
  columns.left = d.left.data();
  columns.top = d.top.data();
  columns.width = d.width.data();
  columns.height = d.height.data();
  columns.confidence = d.confidence.data();
  columns.class_id = d.class_id.data();
  columns.labels_by_class = &d.labels;
  require(batch.add_objects(batch.frame_at(0), columns), "add_objects");
  batch.end_call();
}

// Removes the frame's objects (back to the pool), last first: the TS side does the same.
void clear(PortableBatchMeta *data, size_t expected) {
  PortableBackend batch(data);
  const FrameHandle frame = batch.frame_at(0);
  std::vector<ObjectHandle> objects;
  batch.objects(frame, &objects);
  if (objects.size() != expected) {
    std::fprintf(stderr, "dsnode-meta-bench: expected %zu objects in the frame, found %zu\n", expected, objects.size());
    std::exit(1);
  }
  for (size_t i = objects.size(); i-- > 0;) require(batch.remove_object(frame, objects[i]), "remove_object");
  batch.end_call();
}

template <typename Work>
double timed_ns(Work work) {
  const auto start = std::chrono::steady_clock::now();
  work();
  return std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count();
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const size_t middle = values.size() / 2;
  return values.size() % 2 ? values[middle] : (values[middle - 1] + values[middle]) / 2;
}

// Median (the headline), mean (includes the rare slow round), min, max and every round, in ns/object.
void print_series(const char *name, const std::vector<double> &ns_per_object, bool last) {
  double sum = 0;
  for (double value : ns_per_object) sum += value;
  std::printf("  \"%s\": {\"nsPerObject\": %.2f, \"mean\": %.2f, \"min\": %.2f, \"max\": %.2f, \"rounds\": [", name,
      median(ns_per_object), sum / static_cast<double>(ns_per_object.size()),
      *std::min_element(ns_per_object.begin(), ns_per_object.end()),
      *std::max_element(ns_per_object.begin(), ns_per_object.end()));
  for (size_t i = 0; i < ns_per_object.size(); ++i) std::printf("%s%.2f", i ? ", " : "", ns_per_object[i]);
  std::printf("]}%s\n", last ? "" : ",");
}

long argument(int argc, char **argv, int index, long fallback) {
  if (argc <= index) return fallback;
  char *end = nullptr;
  const long value = std::strtol(argv[index], &end, 10);
  if (end == argv[index] || *end != '\0' || value < (index == 3 ? 0 : 1)) {
    std::fprintf(stderr, "usage: dsnode-meta-bench [objects>=1] [rounds>=1] [warmup>=0]; received \"%s\"\n", argv[index]);
    std::exit(2);
  }
  return value;
}

}  // namespace

int main(int argc, char **argv) {
  const size_t objects = static_cast<size_t>(argument(argc, argv, 1, 1000));
  const size_t rounds = static_cast<size_t>(argument(argc, argv, 2, 51));
  const size_t warmup = static_cast<size_t>(argument(argc, argv, 3, 20));
  gst_init(nullptr, nullptr);

  GstBuffer *buffer = gst_buffer_new_allocate(nullptr, 64, nullptr);
  PortableBatchMeta *data = attach_portable_batch(buffer, 1);
  FrameFields frame;
  frame.source_frame_width = frame.pipeline_width = 640;
  frame.source_frame_height = frame.pipeline_height = 480;
  data->add_frame(frame);

  const Detections detections(objects);
  ObjectFields fields;  // an element's scratch: the fields it does not set keep their defaults
  std::vector<double> single_ns, bulk_ns;
  for (size_t round = 0; round < warmup + rounds; ++round) {
    const double single = timed_ns([&] { one_by_one(data, detections, fields); });
    clear(data, objects);
    const double many = timed_ns([&] { bulk(data, detections); });
    clear(data, objects);
    if (round < warmup) continue;
    single_ns.push_back(single / static_cast<double>(objects));
    bulk_ns.push_back(many / static_cast<double>(objects));
  }

  std::printf("{\n  \"peer\": \"c++\", \"objects\": %zu, \"rounds\": %zu, \"warmup\": %zu,\n", objects, rounds, warmup);
  print_series("oneByOne", single_ns, false);
  print_series("bulk", bulk_ns, true);
  std::printf("}\n");
  gst_buffer_unref(buffer);
  return 0;
}
