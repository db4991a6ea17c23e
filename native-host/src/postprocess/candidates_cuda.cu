// The kernels of candidates.h. YOLO: one thread per anchor runs yolo_best (for the
// channels-first layout a warp's 32 threads read 32 neighbouring scores of a class row: one
// coalesced load per class) and appends a passing anchor at an atomic counter. Rows: one warp
// per row, each lane a strided part of the classes, then a shuffle reduction with better_of.
// Results land in caller-provided device scratch and come back in one copy, through a pinned
// buffer kept per thread.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstring>
#include <string>

#include "postprocess/candidates.h"

namespace dsnode::postprocess {

namespace {

constexpr int kThreads = 256;
constexpr int kWarp = 32;
// The counter's slot before the candidates: 32 bytes keeps the records aligned.
constexpr size_t kHeaderBytes = 32;

__global__ void yolo_kernel(const float *data, YoloShape shape, double threshold, uint32_t *count, YoloCandidate *out) {
  const int64_t index = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (index >= static_cast<int64_t>(shape.batch) * shape.candidates) return;
  const int32_t image = static_cast<int32_t>(index / shape.candidates);
  const int32_t anchor = static_cast<int32_t>(index % shape.candidates);
  const Best best = yolo_best(data, shape, image, anchor);
  if (!passes(best, threshold)) return;
  YoloCandidate candidate{static_cast<int32_t>(index), best.class_id, best.score, {}};
  for (int32_t k = 0; k < 4; ++k) candidate.box[k] = yolo_box(data, shape, image, anchor, k);
  out[atomicAdd(count, 1u)] = candidate;
}

__global__ void row_argmax_kernel(const float *data, int64_t rows, int32_t classes, int32_t *class_ids, float *scores) {
  const int64_t row = (static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x) / kWarp;
  const int lane = threadIdx.x % kWarp;
  if (row >= rows) return;  // whole warps leave together: rows are warp-aligned
  const float *values = data + row * classes;
  Best best = no_best();
  for (int32_t c = lane; c < classes; c += kWarp) consider(best, values[c], c);
  for (int offset = kWarp / 2; offset > 0; offset /= 2) {
    const Best other{__shfl_down_sync(0xffffffffu, best.score, offset), __shfl_down_sync(0xffffffffu, best.class_id, offset)};
    best = better_of(best, other);
  }
  if (lane == 0) {
    class_ids[row] = best.class_id;
    scores[row] = best.score;
  }
}

std::string failed(cudaError_t status, const char *call) {
  return std::string(call) + " failed: " + cudaGetErrorName(status) + ": " + cudaGetErrorString(status);
}

// Pinned host memory for the copies back, grown as needed, one per thread (portable: any
// context may copy into it).
class PinnedBuffer {
 public:
  ~PinnedBuffer() {
    if (data_ != nullptr) cudaFreeHost(data_);
  }
  uint8_t *reserve(size_t bytes, std::string *error) {
    if (bytes <= size_) return data_;
    if (data_ != nullptr) cudaFreeHost(data_);
    data_ = nullptr;
    size_ = 0;
    const size_t size = std::max<size_t>(bytes, 64 * 1024);
    const cudaError_t status = cudaHostAlloc(reinterpret_cast<void **>(&data_), size, cudaHostAllocPortable);
    if (status != cudaSuccess) {
      data_ = nullptr;
      *error = failed(status, "cudaHostAlloc");
      return nullptr;
    }
    size_ = size;
    return data_;
  }

 private:
  uint8_t *data_ = nullptr;
  size_t size_ = 0;
};

thread_local PinnedBuffer pinned;

// Copies `bytes` from device `from` into `to` on `stream` and waits for it.
std::string copy_back(void *to, const void *from, size_t bytes, cudaStream_t stream, CopyStats *stats) {
  cudaError_t status = cudaMemcpyAsync(to, from, bytes, cudaMemcpyDeviceToHost, stream);
  if (status != cudaSuccess) return failed(status, "cudaMemcpyAsync");
  status = cudaStreamSynchronize(stream);
  if (status != cudaSuccess) return failed(status, "cudaStreamSynchronize");
  if (stats != nullptr) {
    stats->bytes += bytes;
    stats->copies += 1;
  }
  return "";
}

std::string launched(const char *kernel) {
  const cudaError_t status = cudaGetLastError();
  return status == cudaSuccess ? "" : failed(status, kernel);
}

}  // namespace

bool cuda_postprocess_compiled() { return true; }

size_t yolo_scratch_bytes(const YoloShape &shape) {
  return kHeaderBytes + static_cast<size_t>(shape.batch) * static_cast<size_t>(shape.candidates) * sizeof(YoloCandidate);
}

std::string yolo_candidates_cuda(const float *data, const YoloShape &shape, double threshold, void *scratch,
    CUstream_st *stream, std::vector<YoloCandidate> *out, CopyStats *stats) {
  const int64_t total = static_cast<int64_t>(shape.batch) * shape.candidates;
  if (total == 0) return "";
  auto *count = static_cast<uint32_t *>(scratch);
  auto *records = reinterpret_cast<YoloCandidate *>(static_cast<uint8_t *>(scratch) + kHeaderBytes);
  cudaError_t status = cudaMemsetAsync(count, 0, sizeof(uint32_t), stream);
  if (status != cudaSuccess) return failed(status, "cudaMemsetAsync");
  const unsigned blocks = static_cast<unsigned>((total + kThreads - 1) / kThreads);
  yolo_kernel<<<blocks, kThreads, 0, stream>>>(data, shape, threshold, count, records);
  std::string error = launched("yolo_kernel");
  if (!error.empty()) return error;

  // The count and the first candidates in one copy: at deployment thresholds that is all.
  const size_t first = static_cast<size_t>(std::min<int64_t>(total, kYoloFirstCopy));
  uint8_t *host = pinned.reserve(kHeaderBytes + first * sizeof(YoloCandidate), &error);
  if (host == nullptr) return error;
  error = copy_back(host, scratch, kHeaderBytes + first * sizeof(YoloCandidate), stream, stats);
  if (!error.empty()) return error;
  uint32_t passed = 0;
  std::memcpy(&passed, host, sizeof passed);
  const size_t offset = out->size();
  out->resize(offset + passed);
  YoloCandidate *kept = out->data() + offset;
  std::memcpy(kept, host + kHeaderBytes, std::min<size_t>(passed, first) * sizeof(YoloCandidate));
  if (passed > first) {
    const size_t rest = (passed - first) * sizeof(YoloCandidate);
    host = pinned.reserve(rest, &error);
    if (host == nullptr) return error;
    error = copy_back(host, records + first, rest, stream, stats);
    if (!error.empty()) return error;
    std::memcpy(kept + first, host, rest);
  }
  // Atomics appended in any order; the CPU scan's order is the index order.
  std::sort(kept, kept + passed, [](const YoloCandidate &a, const YoloCandidate &b) { return a.index < b.index; });
  return "";
}

size_t row_argmax_scratch_bytes(int64_t rows) { return static_cast<size_t>(rows) * (sizeof(int32_t) + sizeof(float)); }

std::string row_argmax_cuda(const float *data, int64_t rows, int32_t classes, void *scratch, CUstream_st *stream,
    int32_t *class_ids, float *scores, CopyStats *stats) {
  if (rows == 0) return "";
  auto *device_classes = static_cast<int32_t *>(scratch);
  auto *device_scores = reinterpret_cast<float *>(device_classes + rows);
  const int64_t rows_per_block = kThreads / kWarp;
  const unsigned blocks = static_cast<unsigned>((rows + rows_per_block - 1) / rows_per_block);
  row_argmax_kernel<<<blocks, kThreads, 0, stream>>>(data, rows, classes, device_classes, device_scores);
  std::string error = launched("row_argmax_kernel");
  if (!error.empty()) return error;
  const size_t bytes = row_argmax_scratch_bytes(rows);
  uint8_t *host = pinned.reserve(bytes, &error);
  if (host == nullptr) return error;
  error = copy_back(host, scratch, bytes, stream, stats);
  if (!error.empty()) return error;
  std::memcpy(class_ids, host, static_cast<size_t>(rows) * sizeof(int32_t));
  std::memcpy(scores, host + static_cast<size_t>(rows) * sizeof(int32_t), static_cast<size_t>(rows) * sizeof(float));
  return "";
}

}  // namespace dsnode::postprocess
