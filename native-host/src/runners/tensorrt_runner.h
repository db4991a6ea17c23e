// The TensorRT backend of loadRunner (docs/internals/runners.md): a serialized engine, its IO
// tensors, and inferences enqueued on the GPU whose completion is reported by a thread that
// waits on an event after each (gpu_completion.h: a kernel fault reports the CUDA error). No Node-API here (tensorrt_binding.cpp is the glue), and no TensorRT or CUDA type in
// this header: the binding compiles without either.
//
// Thread safety: every member function may be called from any ordinary thread; the runner
// serialises them with one mutex. A CompletionNotify is called on the completion thread (or
// inside submit/finish, after the mutex is released): it must not call CUDA, TensorRT or the
// runner; it only hands the job to its owner's thread (a napi_threadsafe_function, a queue),
// which then calls finish(). The runner must outlive every job it accepted: destroy it only
// when in_flight() is 0.
#ifndef DSNODE_RUNNERS_TENSORRT_RUNNER_H
#define DSNODE_RUNNERS_TENSORRT_RUNNER_H

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace dsnode::runners {

enum class RunnerErrorKind {
  kInvalidArgument,  // the caller's request or options do not fit the engine
  kLoad,             // the engine file cannot be read or deserialized
  kInference,        // TensorRT or CUDA refused or failed an inference
};

struct RunnerError {
  RunnerErrorKind kind = RunnerErrorKind::kInference;
  std::string message;
};

struct RunnerOptions {
  int device_id = 0;        // the CUDA device the engine runs on (and inputs must live on)
  int max_concurrency = 2;  // execution contexts, i.e. inferences on the GPU at once; 1 on
                            // engines with dynamic input shapes (options() says what was used)
  int profile = 0;          // the optimisation profile every context uses
};

// One optimisation profile's bounds for an input (equal to `shape` for static inputs).
struct ProfileShapes {
  std::vector<int64_t> min, opt, max;
};

// An IO tensor as the engine declares it.
struct TensorInfo {
  std::string name;
  std::string dtype;           // "float32", "float16", "bfloat16", "int8", "uint8", "int32", "int64", "bool"
  std::vector<int64_t> shape;  // -1 for a dynamic dimension
  std::string format;          // TensorRT's layout: "linear", "chw4", "hwc8", ... (data passes as-is)
  ProfileShapes profile;       // inputs only
};

// A device tensor an inference reads. `strides` in elements; empty means dense row-major.
struct InputTensor {
  std::string name;
  const void* data = nullptr;
  int device_id = 0;
  std::string dtype;
  std::vector<int64_t> shape;
  std::vector<int64_t> strides;
};

// Device memory the caller gives for an output instead of the runner's pool.
struct GivenOutput {
  std::string name;
  void* data = nullptr;
  int device_id = 0;
  std::string dtype;
  size_t capacity = 0;  // bytes
};

// An output on the device. `memory` owns a pooled block (dropping the last reference hands the
// block back to the runner's pool, which outlives the runner while blocks are out); null for a
// GivenOutput.
struct OutputTensor {
  std::string name;
  std::string dtype;
  std::vector<int64_t> shape;
  void* data = nullptr;
  size_t bytes = 0;
  std::shared_ptr<void> memory;
};

struct InferenceRequest {
  std::vector<InputTensor> inputs;   // every engine input, once
  std::vector<GivenOutput> outputs;  // optional: outputs not listed come from the pool
  void* user_data = nullptr;         // handed back in the result
};

struct InferenceResult {
  void* user_data = nullptr;
  bool ok = false;
  RunnerError error;                  // when !ok
  std::vector<OutputTensor> outputs;  // in engine order, when ok
};

class InferenceJob;
// Called exactly once per accepted job, when its outputs are ready on the device or when it
// failed; see the thread-safety note above.
using CompletionNotify = void (*)(void* target, InferenceJob* job);

class TensorRtRunner {
 public:
  // Reads and deserializes `path` on options.device_id; null with `error` set when it fails
  // (the message names the file and carries TensorRT's own log lines).
  static std::unique_ptr<TensorRtRunner> load(const std::string& path, const RunnerOptions& options,
      RunnerError* error);
  ~TensorRtRunner();
  TensorRtRunner(const TensorRtRunner&) = delete;
  TensorRtRunner& operator=(const TensorRtRunner&) = delete;

  const std::string& path() const;
  const RunnerOptions& options() const;
  const std::vector<TensorInfo>& inputs() const;
  const std::vector<TensorInfo>& outputs() const;
  // "10.16.0" for the libnvinfer this process runs.
  static std::string library_version();

  // Checks `request` against the engine (names, dtypes, devices, ranks, profile bounds) and
  // queues it: false with `error` (kInvalidArgument) and nothing queued when it does not fit.
  // Once accepted, `notify(target, job)` is called exactly once; inputs and given outputs must
  // stay valid until then. Inputs must be ready: the runner's stream does not wait on others.
  bool submit(InferenceRequest request, CompletionNotify notify, void* target, RunnerError* error);
  // Takes back a notified job (deleting it): its outcome, and the next queued job starts on the
  // freed execution context. Not on the completion thread.
  InferenceResult finish(InferenceJob* job);
  // Fails every job still waiting for an execution context (their notify is called with an
  // error); jobs on the GPU go on. For shutting down with work queued.
  void cancel_queued(const std::string& why);
  // Jobs accepted and not yet finished.
  size_t in_flight() const;
  // Waits until the GPU has run every enqueued job (so every notify has been called).
  void synchronize();

 private:
  struct Impl;
  explicit TensorRtRunner(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// "float32" → 4, ...; 0 for a name TensorRT I/O does not use.
size_t dtype_size(const std::string& dtype);
// "[1,3,640,640]"
std::string shape_text(const std::vector<int64_t>& shape);

}  // namespace dsnode::runners

#endif
