// The post-processing kernels (src/postprocess/candidates.h) on a CUDA device against their CPU
// reference, and the reference against the CPU scan decodeYolo runs today; then the bench of
// decodeYolo's selection on a YOLOv8 [84, 8400] output: the kernel (only the candidates come
// back) beside the whole output copied to the host and scanned there (toHost() + the class
// argmax + threshold, what a CUDA output cost before).
//
//   dsnode-postprocess-gpu-test [--json PATH] [--iterations N] [--random N] [--outputs FILE]
//
// Correctness (TAP lines, "N passed, M failed"): random outputs of both layouts with ties,
// NaN, ±infinity, everything below the threshold, thresholds 0 to 1, batches; real-shaped
// [84, 8400] outputs; the ball model's outputs for real frames (--outputs: the file
// scripts/gpu/ball-outputs.mjs writes); classifier rows from 1 to 1000 classes. Equal means the
// same candidates (index, class, score bits, box bits) in the same order.
#include <cuda_runtime.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "check.h"
#include "cuda_check.h"
#include "postprocess/candidates.h"
#include "postprocess/class_argmax.h"

using namespace dsnode::postprocess;
using namespace dsnode_test;  // check, passed, failed, median, require_cuda_device, copy_to_device

namespace {

bool same(const std::vector<YoloCandidate> &a, const std::vector<YoloCandidate> &b, std::string *detail) {
  if (a.size() != b.size()) {
    *detail = "count " + std::to_string(a.size()) + " vs " + std::to_string(b.size());
    return false;
  }
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::memcmp(&a[i], &b[i], sizeof(YoloCandidate)) != 0) {
      *detail = "candidate " + std::to_string(i) + ": index " + std::to_string(a[i].index) + "/" + std::to_string(b[i].index) +
                ", class " + std::to_string(a[i].class_id) + "/" + std::to_string(b[i].class_id);
      return false;
    }
  }
  return true;
}

// What decodeYolo's host scan keeps of a channels-first output (the native class argmax, then
// the threshold in double), as candidates: the independent check of the reference.
std::vector<YoloCandidate> host_scan(const float *data, const YoloShape &shape, double threshold) {
  std::vector<YoloCandidate> kept;
  std::vector<float> best(shape.candidates);
  std::vector<int32_t> best_class(shape.candidates);
  const int64_t stride = (4 + static_cast<int64_t>(shape.classes)) * shape.candidates;
  for (int32_t image = 0; image < shape.batch; ++image) {
    const float *item = data + image * stride;
    class_argmax(item + 4 * static_cast<int64_t>(shape.candidates), shape.classes, shape.candidates, best.data(), best_class.data());
    for (int32_t i = 0; i < shape.candidates; ++i) {
      if (!(static_cast<double>(best[i]) >= threshold)) continue;
      kept.push_back({image * shape.candidates + i, best_class[i], best[i],
          {item[i], item[shape.candidates + i], item[2 * shape.candidates + i], item[3 * shape.candidates + i]}});
    }
  }
  return kept;
}

// Scores drawn from few values (ties), with NaN and ±infinity sprinkled in when `specials`.
float random_score(std::mt19937 &random, bool specials) {
  const uint32_t pick = random() % 100;
  if (specials && pick == 0) return std::numeric_limits<float>::quiet_NaN();
  if (specials && pick == 1) return -std::numeric_limits<float>::infinity();
  if (specials && pick == 2) return std::numeric_limits<float>::infinity();
  if (pick < 40) return static_cast<float>(random() % 8) / 8.0f;  // ties, and exactly 0.25
  return std::uniform_real_distribution<float>(0.0f, 1.0f)(random);
}

// A YOLOv8-like output: boxes in 0..640, class scores mostly near 0 with `objects` anchors
// scoring 0.3..0.95 on one class (and a few neighbours, as real outputs cluster).
std::vector<float> realistic_output(std::mt19937 &random, const YoloShape &shape, int objects) {
  const int64_t n = shape.candidates, channels = 4 + shape.classes;
  std::vector<float> out(static_cast<size_t>(shape.batch * channels * n));
  std::uniform_real_distribution<float> position(0.0f, 640.0f), size(4.0f, 300.0f), low(0.0f, 0.02f), high(0.3f, 0.95f);
  for (int32_t image = 0; image < shape.batch; ++image) {
    float *item = out.data() + image * channels * n;
    for (int64_t i = 0; i < n; ++i) {
      item[i] = position(random);
      item[n + i] = position(random);
      item[2 * n + i] = size(random);
      item[3 * n + i] = size(random);
      for (int32_t c = 0; c < shape.classes; ++c) item[(4 + c) * n + i] = low(random);
    }
    for (int o = 0; o < objects; ++o) {
      const int64_t anchor = random() % n;
      const int32_t c = static_cast<int32_t>(random() % shape.classes);
      for (int64_t k = 0; k < 3 && anchor + k < n; ++k) item[(4 + c) * n + anchor + k] = high(random);
    }
  }
  return out;
}

struct DeviceBuffer {
  void *ptr = nullptr;
  explicit DeviceBuffer(size_t bytes) { CUDA_OK(cudaMalloc(&ptr, std::max<size_t>(bytes, 1))); }
  ~DeviceBuffer() { cudaFree(ptr); }
};

std::vector<YoloCandidate> on_gpu(const std::vector<float> &output, const YoloShape &shape, double threshold,
    cudaStream_t stream, CopyStats *stats = nullptr) {
  DeviceBuffer data(output.size() * sizeof(float)), scratch(yolo_scratch_bytes(shape));
  copy_to_device(data.ptr, output.data(), output.size() * sizeof(float));
  std::vector<YoloCandidate> kept;
  const std::string error = yolo_candidates_cuda(static_cast<const float *>(data.ptr), shape, threshold, scratch.ptr, stream, &kept, stats);
  if (!error.empty()) {
    std::fprintf(stderr, "yolo_candidates_cuda: %s\n", error.c_str());
    std::exit(2);
  }
  return kept;
}

void check_yolo(const std::vector<float> &output, const YoloShape &shape, double threshold, cudaStream_t stream,
    const std::string &name, size_t *total_candidates) {
  std::vector<YoloCandidate> reference;
  yolo_candidates_cpu(output.data(), shape, threshold, &reference);
  std::string detail;
  check(same(on_gpu(output, shape, threshold, stream), reference, &detail), name + ": CUDA = CPU reference", detail);
  if (shape.channels_first) {
    check(same(host_scan(output.data(), shape, threshold), reference, &detail), name + ": CPU reference = host scan", detail);
  }
  *total_candidates += reference.size();
}

void random_yolo(cudaStream_t stream, int count) {
  std::mt19937 random(2026);
  const double thresholds[] = {0.0, 0.001, 0.25, 0.3, 0.5, 0.875, 1.0};
  int equal_gpu = 0, equal_scan = 0, failures_before = failed;
  size_t candidates = 0;
  for (int i = 0; i < count; ++i) {
    YoloShape shape;
    shape.batch = 1 + static_cast<int32_t>(random() % 3);
    shape.classes = 1 + static_cast<int32_t>(random() % 90);
    shape.candidates = static_cast<int32_t>(random() % 700);
    shape.channels_first = random() % 2 == 0;
    const bool specials = random() % 4 != 0;
    const bool all_low = random() % 10 == 0;
    std::vector<float> output(static_cast<size_t>(shape.batch) * (4 + shape.classes) * shape.candidates);
    for (float &value : output) value = all_low ? std::uniform_real_distribution<float>(0.0f, 0.2f)(random) : random_score(random, specials);
    const double threshold = thresholds[random() % 7];
    std::vector<YoloCandidate> reference;
    yolo_candidates_cpu(output.data(), shape, threshold, &reference);
    std::string detail;
    if (same(on_gpu(output, shape, threshold, stream), reference, &detail)) {
      ++equal_gpu;
    } else {
      check(false, "random output " + std::to_string(i) + ": CUDA = CPU reference", detail);
    }
    if (!shape.channels_first || same(host_scan(output.data(), shape, threshold), reference, &detail)) {
      ++equal_scan;
    } else {
      check(false, "random output " + std::to_string(i) + ": CPU reference = host scan", detail);
    }
    candidates += reference.size();
  }
  check(failed == failures_before, std::to_string(count) + " random outputs (ties, NaN, ±inf, all below threshold, batches 1-3, both layouts): CUDA = CPU " +
      std::to_string(equal_gpu) + "/" + std::to_string(count) + ", reference = host scan " + std::to_string(equal_scan) + "/" +
      std::to_string(count) + ", " + std::to_string(candidates) + " candidates");
}

void real_shaped_yolo(cudaStream_t stream) {
  std::mt19937 random(84);
  const YoloShape one{1, 80, 8400, true}, batch{4, 80, 8400, true}, last{1, 80, 8400, false};
  size_t total = 0;
  for (double threshold : {0.25, 0.001}) {
    const std::string t = " at " + std::to_string(threshold);
    check_yolo(realistic_output(random, one, 40), one, threshold, stream, "[84, 8400] 40 objects" + t, &total);
    check_yolo(realistic_output(random, batch, 25), batch, threshold, stream, "[4, 84, 8400] 25 objects each" + t, &total);
    // Channels-last: the same generator's numbers, read transposed (any values do).
    check_yolo(realistic_output(random, last, 40), last, threshold, stream, "[8400, 84] channels-last" + t, &total);
  }
  std::vector<float> quiet = realistic_output(random, one, 0);
  check_yolo(quiet, one, 0.25, stream, "[84, 8400] nothing above the threshold", &total);
  std::printf("# real-shaped outputs: %zu candidates compared\n", total);
}

// The ball model's outputs for real frames (scripts/gpu/ball-outputs.mjs writes them where
// Node and ONNX Runtime run): each output alone and all of them as one batch, at a deployment
// threshold, at the evaluation one and at 0.5, where its scores tie.
void ball_model_outputs(cudaStream_t stream, const char *path) {
  FILE *file = std::fopen(path, "rb");
  char magic[4] = {};
  uint32_t header[3] = {};
  if (file == nullptr || std::fread(magic, 1, 4, file) != 4 || std::memcmp(magic, "DSBO", 4) != 0 ||
      std::fread(header, sizeof(uint32_t), 3, file) != 3 || header[1] < 5) {
    check(false, std::string("ball model's outputs: read ") + path, "missing or not written by scripts/gpu/ball-outputs.mjs");
    if (file != nullptr) std::fclose(file);
    return;
  }
  const uint32_t count = header[0];
  const YoloShape one{1, static_cast<int32_t>(header[1]) - 4, static_cast<int32_t>(header[2]), true};
  const size_t values = static_cast<size_t>(header[1]) * header[2];
  std::vector<float> all(values * count);
  const bool whole = std::fread(all.data(), sizeof(float), all.size(), file) == all.size();
  std::fclose(file);
  if (!whole) {
    check(false, std::string("ball model's outputs: read ") + path, "shorter than its header says");
    return;
  }
  size_t candidates = 0;
  for (double threshold : {0.25, 0.5, 0.001}) {
    const std::string t = " at " + std::to_string(threshold);
    for (uint32_t i = 0; i < count; ++i) {
      std::vector<float> output(all.begin() + static_cast<std::ptrdiff_t>(i * values), all.begin() + static_cast<std::ptrdiff_t>((i + 1) * values));
      check_yolo(output, one, threshold, stream, "ball model output " + std::to_string(i) + t, &candidates);
    }
    YoloShape batch = one;
    batch.batch = static_cast<int32_t>(count);
    check_yolo(all, batch, threshold, stream, "ball model's " + std::to_string(count) + " outputs as one batch" + t, &candidates);
  }
  std::printf("# ball model: %u outputs of [%u, %u], %zu candidates compared\n", count, header[1], header[2], candidates);
}

void random_rows(cudaStream_t stream) {
  std::mt19937 random(1000);
  for (int32_t classes : {1, 2, 5, 31, 32, 33, 80, 1000}) {
    for (int64_t rows : {int64_t{1}, int64_t{7}, int64_t{300}}) {
      std::vector<float> data(static_cast<size_t>(rows * classes));
      for (float &value : data) value = random_score(random, true);
      if (rows > 1) {  // a row of NaN and one of -infinity: class -1
        for (int32_t c = 0; c < classes; ++c) data[c] = std::numeric_limits<float>::quiet_NaN();
        for (int32_t c = 0; c < classes; ++c) data[classes + c] = -std::numeric_limits<float>::infinity();
      }
      std::vector<int32_t> expected_class(rows), actual_class(rows);
      std::vector<float> expected_score(rows), actual_score(rows);
      row_argmax_cpu(data.data(), rows, classes, expected_class.data(), expected_score.data());
      DeviceBuffer device(data.size() * sizeof(float)), scratch(row_argmax_scratch_bytes(rows));
      copy_to_device(device.ptr, data.data(), data.size() * sizeof(float));
      const std::string error = row_argmax_cuda(static_cast<const float *>(device.ptr), rows, classes, scratch.ptr, stream,
          actual_class.data(), actual_score.data(), nullptr);
      const bool equal = error.empty() && actual_class == expected_class &&
          std::memcmp(actual_score.data(), expected_score.data(), rows * sizeof(float)) == 0;
      check(equal, "row argmax " + std::to_string(rows) + " × " + std::to_string(classes) + ": CUDA = CPU", error);
    }
  }
}

struct BenchResult {
  double gpu_ms, host_ms;
  double gpu_bytes;
  size_t candidates;
};

// Per call: the kernel path against toHost() (pageable memory, as the tensor pool's host
// blocks are) + the host scan. Both end with the same candidates on the host.
BenchResult bench(const YoloShape &shape, int objects, double threshold, int iterations, cudaStream_t stream) {
  std::mt19937 random(7);
  const std::vector<float> output = realistic_output(random, shape, objects);
  const size_t bytes = output.size() * sizeof(float);
  DeviceBuffer data(bytes), scratch(yolo_scratch_bytes(shape));
  copy_to_device(data.ptr, output.data(), bytes);
  float *host = static_cast<float *>(std::aligned_alloc(64, (bytes + 63) / 64 * 64));
  std::vector<double> gpu_ms, host_ms;
  std::vector<YoloCandidate> kept, scanned;
  CopyStats stats;
  for (int i = 0; i < iterations + 10; ++i) {
    kept.clear();
    CopyStats call;
    auto t0 = std::chrono::steady_clock::now();
    const std::string error = yolo_candidates_cuda(static_cast<const float *>(data.ptr), shape, threshold, scratch.ptr, stream, &kept, &call);
    auto t1 = std::chrono::steady_clock::now();
    CUDA_OK(cudaMemcpy(host, data.ptr, bytes, cudaMemcpyDeviceToHost));
    scanned = host_scan(host, shape, threshold);
    auto t2 = std::chrono::steady_clock::now();
    if (!error.empty()) {
      std::fprintf(stderr, "bench: %s\n", error.c_str());
      std::exit(2);
    }
    if (i < 10) continue;
    stats = call;
    gpu_ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
    host_ms.push_back(std::chrono::duration<double, std::milli>(t2 - t1).count());
  }
  std::free(host);
  std::string detail;
  check(same(kept, scanned, &detail), "bench case: both paths keep the same candidates", detail);
  return {median(gpu_ms), median(host_ms), static_cast<double>(stats.bytes), kept.size()};
}

}  // namespace

int main(int argc, char **argv) {
  const char *json_path = nullptr, *outputs_path = nullptr;
  int iterations = 200, random_count = 1000;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--json") == 0) json_path = argv[i + 1];
    if (std::strcmp(argv[i], "--iterations") == 0) iterations = std::atoi(argv[i + 1]);
    if (std::strcmp(argv[i], "--random") == 0) random_count = std::atoi(argv[i + 1]);
    if (std::strcmp(argv[i], "--outputs") == 0) outputs_path = argv[i + 1];
  }
  require_cuda_device();
  cudaStream_t stream = nullptr;
  CUDA_OK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  cudaDeviceProp properties{};
  CUDA_OK(cudaGetDeviceProperties(&properties, 0));

  random_yolo(stream, random_count);
  real_shaped_yolo(stream);
  if (outputs_path != nullptr) ball_model_outputs(stream, outputs_path);
  random_rows(stream);

  struct Case {
    const char *name;
    YoloShape shape;
    int objects;
    double threshold;
  };
  const Case cases[] = {
      {"[84, 8400], 20 objects, conf 0.25", {1, 80, 8400, true}, 20, 0.25},
      {"[84, 8400], 100 objects, conf 0.25", {1, 80, 8400, true}, 100, 0.25},
      {"[16, 84, 8400], 20 objects each, conf 0.25", {16, 80, 8400, true}, 20, 0.25},
      {"[84, 8400], conf 0.001 (evaluation)", {1, 80, 8400, true}, 20, 0.001},
  };
  std::string json = "{\"device\":\"" + std::string(properties.name) + "\",\"iterations\":" + std::to_string(iterations) + ",\"cases\":[";
  std::printf("# bench: per call, median of %d, on %s\n", iterations, properties.name);
  std::printf("# %-44s %10s %10s %8s %10s %12s %8s\n", "case", "gpu ms", "host ms", "host/gpu", "candidates", "D2H bytes", "frames");
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
    const Case &c = cases[i];
    const BenchResult r = bench(c.shape, c.objects, c.threshold, iterations, stream);
    std::printf("# %-44s %10.4f %10.4f %7.2fx %10zu %12.0f %8d\n", c.name, r.gpu_ms, r.host_ms, r.host_ms / r.gpu_ms, r.candidates,
        r.gpu_bytes, c.shape.batch);
    char row[512];
    std::snprintf(row, sizeof row,
        "%s{\"case\":\"%s\",\"images\":%d,\"gpuMs\":%.5f,\"hostMs\":%.5f,\"ratio\":%.3f,\"candidates\":%zu,\"gpuCopyBytes\":%.0f,"
        "\"hostCopyBytes\":%zu}",
        i == 0 ? "" : ",", c.name, c.shape.batch, r.gpu_ms, r.host_ms, r.host_ms / r.gpu_ms, r.candidates, r.gpu_bytes,
        static_cast<size_t>(c.shape.batch) * (4 + c.shape.classes) * c.shape.candidates * sizeof(float));
    json += row;
  }
  json += "],\"passed\":" + std::to_string(passed) + ",\"failed\":" + std::to_string(failed) + "}";
  std::printf("%d passed, %d failed\n%s\n", passed, failed, json.c_str());
  if (json_path != nullptr) {
    if (FILE *file = std::fopen(json_path, "w")) {
      std::fputs(json.c_str(), file);
      std::fclose(file);
    }
  }
  cudaStreamDestroy(stream);
  return failed == 0 ? 0 : 1;
}
