// The C++ peer of ds-element's decodeYolo + nms (sdk/src/postprocess/), for bench/postprocess.mjs:
// the same algorithm (running argmax over class rows, gated by the threshold while few scores
// pass it, greedy class-aware NMS in rank order over per-class lists), written the way a native fast path would be, with its
// working memory kept between iterations like a PostprocessScratch. Box arithmetic is done in
// double, as JavaScript does it, so both give bit-identical results and the run can check that.
//
// usage: decode_nms <output.bin> <classes> <candidates> <confidence> <iou> <max-detections> <iterations> <gated|plain>
// prints one JSON object: per-iteration decode and nms times (µs) and the kept boxes.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <numeric>
#include <string>
#include <vector>

namespace {

struct Columns {
  std::vector<float> left, top, width, height, confidence;
  std::vector<int32_t> class_id;
  size_t count = 0;

  void reserve(size_t capacity) {
    for (auto* column : {&left, &top, &width, &height, &confidence}) column->resize(capacity);
    class_id.resize(capacity);
  }
};

struct Scratch {
  std::vector<float> best_score;
  std::vector<int32_t> best_class;
  std::vector<uint8_t> suppressed;
  std::vector<int32_t> order, keep, next_same_class, last_of_class;
  std::vector<double> x1, y1, x2, y2, area;
};

// Channel-major [4 + C, N]: a running argmax over whole class rows (sequential reads), gated
// by the threshold until a row has more than 1/16 of its scores over it, then plain; then
// one pass over the candidates.
// `gate` false: the plain argmax on every row. That loop vectorises at -O3 with AVX2 (the gated
// one does not), which makes it the faster native choice there.
void decode(const float* data, int classes, int candidates, float threshold, bool gate, Columns& out, Scratch& scratch) {
  scratch.best_score.assign(candidates, -INFINITY);
  scratch.best_class.assign(candidates, -1);
  float* best_score = scratch.best_score.data();
  int32_t* best_class = scratch.best_class.data();
  const float* scores = data + 4 * static_cast<size_t>(candidates);
  bool gated = gate;
  for (int c = 0; c < classes; c++) {
    const float* row = scores + static_cast<size_t>(c) * candidates;
    if (gated) {
      int passed = 0;
      for (int i = 0; i < candidates; i++) {
        if (row[i] >= threshold) {
          passed++;
          if (row[i] > best_score[i]) {
            best_score[i] = row[i];
            best_class[i] = c;
          }
        }
      }
      if (passed * 16 > candidates) gated = false;
    } else {
      for (int i = 0; i < candidates; i++) {
        if (row[i] > best_score[i]) {
          best_score[i] = row[i];
          best_class[i] = c;
        }
      }
    }
  }
  size_t used = 0;
  for (int i = 0; i < candidates; i++) {
    const float best = best_score[i];
    if (!(best >= threshold)) continue;
    double cx = data[i], cy = data[candidates + i], w = data[2 * candidates + i], h = data[3 * candidates + i];
    double left = cx - w * 0.5, top = cy - h * 0.5;
    if (!(w >= 0 && h >= 0 && std::isfinite(left + top + w + h))) continue;
    if (used == out.left.size()) out.reserve(std::max<size_t>(64, used * 2));
    out.left[used] = static_cast<float>(left);
    out.top[used] = static_cast<float>(top);
    out.width[used] = static_cast<float>(w);
    out.height[used] = static_cast<float>(h);
    out.confidence[used] = best;
    out.class_id[used] = best_class[i];
    used++;
  }
  out.count = used;
}

void nms(const Columns& in, double iou_threshold, size_t max_detections, Columns& out, Scratch& s) {
  const size_t n = in.count;
  s.order.resize(n);
  std::iota(s.order.begin(), s.order.end(), 0);
  std::sort(s.order.begin(), s.order.end(), [&](int32_t a, int32_t b) {
    float ca = in.confidence[a], cb = in.confidence[b];
    return ca > cb || (ca == cb && a < b);
  });
  for (auto* column : {&s.x1, &s.y1, &s.x2, &s.y2, &s.area}) column->resize(n);
  s.suppressed.assign(n, 0);
  s.keep.resize(n);
  for (size_t rank = 0; rank < n; rank++) {
    int32_t row = s.order[rank];
    double l = in.left[row], t = in.top[row], w = in.width[row], h = in.height[row];
    s.x1[rank] = l;
    s.y1[rank] = t;
    s.x2[rank] = l + w;
    s.y2[rank] = t + h;
    s.area[rank] = w * h;
  }
  // Each rank links to the next rank of its class: a kept box visits only its own class.
  s.next_same_class.resize(n);
  int32_t largest = 0;
  for (size_t row = 0; row < n; row++) largest = std::max(largest, in.class_id[row]);
  s.last_of_class.assign(static_cast<size_t>(largest) + 1, -1);
  for (size_t rank = n; rank-- > 0;) {
    int32_t id = in.class_id[s.order[rank]];
    s.next_same_class[rank] = s.last_of_class[id];
    s.last_of_class[id] = static_cast<int32_t>(rank);
  }
  size_t kept = 0;
  for (size_t rank = 0; rank < n && kept < max_detections; rank++) {
    if (s.suppressed[rank]) continue;
    s.keep[kept++] = s.order[rank];
    const double ax1 = s.x1[rank], ay1 = s.y1[rank], ax2 = s.x2[rank], ay2 = s.y2[rank], area_a = s.area[rank];
    for (int32_t other = s.next_same_class[rank]; other != -1; other = s.next_same_class[other]) {
      if (s.suppressed[other]) continue;
      double overlap_width = std::min(ax2, s.x2[other]) - std::max(ax1, s.x1[other]);
      if (!(overlap_width > 0)) continue;
      double overlap_height = std::min(ay2, s.y2[other]) - std::max(ay1, s.y1[other]);
      if (!(overlap_height > 0)) continue;
      double intersection = overlap_width * overlap_height;
      if (intersection / (area_a + s.area[other] - intersection) > iou_threshold) s.suppressed[other] = 1;
    }
  }
  if (out.left.size() < kept) out.reserve(std::max<size_t>(kept, 64));
  for (size_t at = 0; at < kept; at++) {
    int32_t row = s.keep[at];
    out.left[at] = in.left[row];
    out.top[at] = in.top[row];
    out.width[at] = in.width[row];
    out.height[at] = in.height[row];
    out.confidence[at] = in.confidence[row];
    out.class_id[at] = in.class_id[row];
  }
  out.count = kept;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 9) {
    std::fprintf(stderr, "usage: %s <output.bin> <classes> <candidates> <confidence> <iou> <max-detections> <iterations> <gated|plain>\n", argv[0]);
    return 2;
  }
  const int classes = std::atoi(argv[2]);
  const int candidates = std::atoi(argv[3]);
  const float threshold = std::strtof(argv[4], nullptr);
  const double iou = std::strtod(argv[5], nullptr);
  const size_t max_detections = std::strtoul(argv[6], nullptr, 10);
  const int iterations = std::atoi(argv[7]);
  const bool gate = std::string(argv[8]) == "gated";

  std::vector<float> data(static_cast<size_t>(4 + classes) * candidates);
  std::ifstream file(argv[1], std::ios::binary);
  if (!file.read(reinterpret_cast<char*>(data.data()), static_cast<std::streamsize>(data.size() * sizeof(float)))) {
    std::fprintf(stderr, "cannot read %zu floats from %s\n", data.size(), argv[1]);
    return 1;
  }

  Columns decoded, kept;
  Scratch scratch;
  std::vector<double> decode_us, nms_us;
  using clock = std::chrono::steady_clock;
  for (int iteration = 0; iteration < iterations; iteration++) {
    auto start = clock::now();
    decode(data.data(), classes, candidates, threshold, gate, decoded, scratch);
    auto middle = clock::now();
    nms(decoded, iou, max_detections, kept, scratch);
    auto end = clock::now();
    decode_us.push_back(std::chrono::duration<double, std::micro>(middle - start).count());
    nms_us.push_back(std::chrono::duration<double, std::micro>(end - middle).count());
  }

  auto print_list = [](const char* name, const auto& values, size_t count, const char* format) {
    std::printf("\"%s\":[", name);
    for (size_t i = 0; i < count; i++) {
      if (i) std::printf(",");
      std::printf(format, values[i]);
    }
    std::printf("]");
  };
  std::printf("{\"candidates\":%zu,", decoded.count);
  print_list("decodeUs", decode_us, decode_us.size(), "%.3f");
  std::printf(",");
  print_list("nmsUs", nms_us, nms_us.size(), "%.3f");
  std::printf(",\"kept\":{");
  print_list("left", kept.left, kept.count, "%.9g");
  std::printf(",");
  print_list("top", kept.top, kept.count, "%.9g");
  std::printf(",");
  print_list("width", kept.width, kept.count, "%.9g");
  std::printf(",");
  print_list("height", kept.height, kept.count, "%.9g");
  std::printf(",");
  print_list("confidence", kept.confidence, kept.count, "%.9g");
  std::printf(",");
  print_list("classId", kept.class_id, kept.count, "%d");
  std::printf("}}\n");
  return 0;
}
