// The TensorRT backend (tensorrt_runner.h; design in docs/internals/runners.md).
#include "runners/tensorrt_runner.h"

#include <NvInferRuntime.h>
#include <cuda_runtime_api.h>
#include <dlfcn.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <deque>
#include <map>
#include <mutex>
#include <utility>

#include "runners/gpu_completion.h"

namespace dsnode::runners {

namespace nv = nvinfer1;

namespace {

// Keeps TensorRT's errors and warnings so a failure can quote them. One for the process
// (process_logger()): TensorRT keeps the logger of the first runtime made as its global one
// (getLogger(), used by plugins and standalone functions), so a logger must outlive every
// runtime and everything TensorRT loads; a failure quotes the lines logged since it began,
// which another runner's lines may interleave. TensorRT logs from several threads, hence the
// mutex.
class CapturingLogger final : public nv::ILogger {
 public:
  void log(Severity severity, const char* message) noexcept override {
    if (severity > Severity::kWARNING || message == nullptr) return;
    try {
      std::string line(message);
      while (!line.empty() && (line.back() == '\n' || line.back() == ' ')) line.pop_back();
      std::lock_guard<std::mutex> lock(mutex_);
      lines_.push_back(std::move(line));
      if (lines_.size() > kKept) lines_.pop_front();
      ++count_;
    } catch (...) {
      // Out of memory while logging: the line is lost, the failure it describes is still reported.
    }
  }
  uint64_t mark() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return count_;
  }
  // The lines logged since `mark`, joined.
  std::string since(uint64_t mark) const {
    std::lock_guard<std::mutex> lock(mutex_);
    size_t wanted = static_cast<size_t>(std::min<uint64_t>(count_ - mark, lines_.size()));
    std::string text;
    for (size_t i = lines_.size() - wanted; i < lines_.size(); ++i) text += (text.empty() ? "" : "; ") + lines_[i];
    return text;
  }

 private:
  static constexpr size_t kKept = 16;
  mutable std::mutex mutex_;
  std::deque<std::string> lines_;
  uint64_t count_ = 0;
};

// Never destroyed: TensorRT may log until the process exits.
CapturingLogger& process_logger() {
  static CapturingLogger* logger = new CapturingLogger();
  return *logger;
}

// libnvinfer_plugin (EfficientNMS, BatchedNMS, ... : the plugins TensorRT ships), opened once
// per process where it is on the library path, its plugins registered with TensorRT's registry
// (initLibNvInferPlugins) before the first engine is deserialized: an engine using them cannot
// be deserialized otherwise. A description of what happened, for messages.
const std::string& load_plugins() {
  static const std::string outcome = [] {
    const std::string major = std::to_string(getInferLibVersion() / 10000);
    const std::string names[] = {"libnvinfer_plugin.so." + major, "libnvinfer_plugin.so"};
    std::string tried;
    for (const std::string& name : names) {
      void* library = dlopen(name.c_str(), RTLD_NOW | RTLD_GLOBAL);
      if (library == nullptr) {
        tried += (tried.empty() ? "" : ", ") + name;
        continue;
      }
      using Init = bool (*)(void*, const char*);
      auto init = reinterpret_cast<Init>(dlsym(library, "initLibNvInferPlugins"));
      if (init == nullptr) return name + " has no initLibNvInferPlugins: TensorRT's plugins are not registered";
      if (!init(&process_logger(), "")) return name + ": initLibNvInferPlugins failed: TensorRT's plugins are not registered";
      return std::string();  // registered
    }
    return "libnvinfer_plugin was not found (" + tried + " on the library path), so engines that use TensorRT's "
           "plugins (EfficientNMS, BatchedNMS, ...) cannot be deserialized: install it next to libnvinfer";
  }();
  return outcome;
}

std::string said(const std::string& log) { return log.empty() ? std::string() : "; TensorRT said: " + log; }

std::string cuda_text(cudaError_t error) {
  return std::string(cudaGetErrorString(error)) + " (" + cudaGetErrorName(error) + ")";
}

// The JS thread (or any caller) may have another device current: every call that touches the
// engine's device makes it current and puts the caller's back.
class DeviceGuard {
 public:
  explicit DeviceGuard(int device) {
    if (cudaGetDevice(&previous_) != cudaSuccess) previous_ = -1;
    if (previous_ != device) error_ = cudaSetDevice(device);
  }
  ~DeviceGuard() {
    if (previous_ >= 0 && error_ == cudaSuccess) cudaSetDevice(previous_);
  }
  DeviceGuard(const DeviceGuard&) = delete;
  DeviceGuard& operator=(const DeviceGuard&) = delete;
  cudaError_t error() const { return error_; }

 private:
  int previous_ = -1;
  cudaError_t error_ = cudaSuccess;
};

std::string device_description(int device) {
  cudaDeviceProp properties;
  if (cudaGetDeviceProperties(&properties, device) != cudaSuccess) return "CUDA device " + std::to_string(device);
  return std::string(properties.name) + " (CUDA device " + std::to_string(device) + ", compute capability " +
      std::to_string(properties.major) + "." + std::to_string(properties.minor) + ")";
}

// TensorHandle's dtype names (DLPack's, spelled as in TypedArray names); null for what they lack.
const char* dtype_name(nv::DataType type) {
  switch (type) {
    case nv::DataType::kFLOAT: return "float32";
    case nv::DataType::kHALF: return "float16";
    case nv::DataType::kBF16: return "bfloat16";
    case nv::DataType::kINT8: return "int8";
    case nv::DataType::kUINT8: return "uint8";
    case nv::DataType::kINT32: return "int32";
    case nv::DataType::kINT64: return "int64";
    case nv::DataType::kBOOL: return "bool";
    default: return nullptr;
  }
}

// By number: kINT4 (9), kFP4 (10) and kE8M0 (11) are not in every TensorRT 10 header.
std::string unsupported_dtype_name(nv::DataType type) {
  switch (static_cast<int32_t>(type)) {
    case 6: return "fp8";
    case 9: return "int4";
    case 10: return "fp4";
    case 11: return "e8m0";
    default: return "TensorRT data type " + std::to_string(static_cast<int32_t>(type));
  }
}

// Formats newer than TensorRT 10.0 (kHWC16, kDHWC) read as "format <n>".
std::string format_name(nv::TensorFormat format) {
  switch (format) {
    case nv::TensorFormat::kLINEAR: return "linear";
    case nv::TensorFormat::kCHW2: return "chw2";
    case nv::TensorFormat::kHWC8: return "hwc8";
    case nv::TensorFormat::kCHW4: return "chw4";
    case nv::TensorFormat::kCHW16: return "chw16";
    case nv::TensorFormat::kCHW32: return "chw32";
    case nv::TensorFormat::kDHWC8: return "dhwc8";
    case nv::TensorFormat::kCDHW32: return "cdhw32";
    case nv::TensorFormat::kHWC: return "hwc";
    case nv::TensorFormat::kDLA_LINEAR: return "dla-linear";
    case nv::TensorFormat::kDLA_HWC4: return "dla-hwc4";
    default: return "format " + std::to_string(static_cast<int32_t>(format));
  }
}

std::vector<int64_t> to_vector(const nv::Dims& dims) {
  if (dims.nbDims < 0) return {};
  return std::vector<int64_t>(dims.d, dims.d + dims.nbDims);
}

bool to_dims(const std::vector<int64_t>& shape, nv::Dims* out) {
  if (shape.size() > static_cast<size_t>(nv::Dims::MAX_DIMS)) return false;
  out->nbDims = static_cast<int32_t>(shape.size());
  std::copy(shape.begin(), shape.end(), out->d);
  return true;
}

std::string quoted_names(const std::vector<TensorInfo>& tensors) {
  std::string text;
  for (const TensorInfo& tensor : tensors) text += (text.empty() ? "\"" : ", \"") + tensor.name + "\"";
  return text;
}

// TensorRT requires it of every tensor address (IExecutionContext::setTensorAddress).
constexpr uintptr_t kTensorAlignment = 256;

bool check_alignment(const void* data, const std::string& what, RunnerError* error) {
  const uintptr_t past = reinterpret_cast<uintptr_t>(data) % kTensorAlignment;
  if (past == 0) return true;
  error->kind = RunnerErrorKind::kInvalidArgument;
  error->message = "Expected a device address aligned to " + std::to_string(kTensorAlignment) +
      " bytes (TensorRT requires it) for " + what + " but received one " + std::to_string(past) +
      " bytes past such an address";
  return false;
}

RunnerError invalid(std::string message) { return RunnerError{RunnerErrorKind::kInvalidArgument, std::move(message)}; }

// Output blocks, pooled by (rounded) size so a steady stream of same-shaped inferences stops
// calling cudaMalloc after the first ones. Shared by the runner and every block it handed out:
// an output released after the runner is gone still finds its pool.
class DevicePool : public std::enable_shared_from_this<DevicePool> {
 public:
  explicit DevicePool(int device) : device_(device) {}
  ~DevicePool() {
    DeviceGuard guard(device_);
    for (auto& entry : idle_)
      for (void* data : entry.second) cudaFree(data);
  }
  DevicePool(const DevicePool&) = delete;
  DevicePool& operator=(const DevicePool&) = delete;

  std::shared_ptr<void> acquire(size_t bytes, std::string* error) {
    const size_t size = (std::max<size_t>(bytes, 1) + kGranule - 1) / kGranule * kGranule;
    void* data = nullptr;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      auto found = idle_.find(size);
      if (found != idle_.end() && !found->second.empty()) {
        data = found->second.back();
        found->second.pop_back();
      }
    }
    if (data == nullptr) {
      DeviceGuard guard(device_);
      cudaError_t status = guard.error() != cudaSuccess ? guard.error() : cudaMalloc(&data, size);
      if (status != cudaSuccess) {
        *error = "cudaMalloc(" + std::to_string(size) + ") failed: " + cuda_text(status);
        return nullptr;
      }
    }
    std::shared_ptr<DevicePool> self = shared_from_this();
    return std::shared_ptr<void>(data, [self, size](void* block) { self->give_back(block, size); });
  }

 private:
  static constexpr size_t kGranule = 512;
  static constexpr size_t kIdlePerSize = 4;  // beyond this a returned block is freed

  void give_back(void* data, size_t size) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      std::vector<void*>& idle = idle_[size];
      if (idle.size() < kIdlePerSize) {
        idle.push_back(data);
        return;
      }
    }
    DeviceGuard guard(device_);
    cudaFree(data);
  }

  const int device_;
  std::mutex mutex_;
  std::map<size_t, std::vector<void*>> idle_;
};

// One execution context: one inference on the GPU at a time.
struct Slot {
  nv::IExecutionContext* context = nullptr;
  cudaEvent_t done = nullptr;  // recorded after enqueueV3: finish() reads the GPU's verdict from it
  bool busy = false;
};

// How many bytes an output of `shape` takes, vectorized formats padded as TensorRT lays them out.
struct OutputLayout {
  size_t element_size = 0;
  int vectorized_dim = -1;
  int components = 1;
};

size_t output_bytes(const OutputLayout& layout, const std::vector<int64_t>& shape) {
  size_t count = 1;
  for (size_t i = 0; i < shape.size(); ++i) {
    int64_t dim = shape[i];
    if (static_cast<int>(i) == layout.vectorized_dim && layout.components > 1) {
      dim = (dim + layout.components - 1) / layout.components * layout.components;
    }
    count *= static_cast<size_t>(dim);
  }
  return count * layout.element_size;
}

void on_gpu_done(void* data, cudaError_t status);

}  // namespace

class InferenceJob {
 public:
  InferenceRequest request;
  CompletionNotify notify = nullptr;
  void* target = nullptr;
  Slot* slot = nullptr;  // while enqueued on the GPU
  cudaError_t gpu_status = cudaSuccess;  // the GPU's verdict, from the completion watcher
  std::vector<OutputTensor> outputs;
  bool failed = false;
  RunnerError error;
};

namespace {

// On the completion watcher's thread: no TensorRT, no runner; the owner takes it from here.
void on_gpu_done(void* data, cudaError_t status) {
  auto* job = static_cast<InferenceJob*>(data);
  job->gpu_status = status;
  job->notify(job->target, job);
}

}  // namespace

struct TensorRtRunner::Impl {
  std::string path;
  RunnerOptions options;
  CapturingLogger& logger = process_logger();
  nv::IRuntime* runtime = nullptr;
  nv::ICudaEngine* engine = nullptr;
  cudaStream_t stream = nullptr;
  std::unique_ptr<GpuCompletion> completion;  // reports each inference the GPU is done with
  std::shared_ptr<DevicePool> pool;
  std::vector<TensorInfo> inputs, outputs;
  std::vector<OutputLayout> output_layouts;

  mutable std::mutex mutex;  // guards what follows
  std::vector<std::unique_ptr<Slot>> slots;
  bool cannot_grow = false;  // a context could not be made (device memory): use those there are
  std::deque<InferenceJob*> queued;
  size_t in_flight = 0;

  ~Impl();
  bool add_slot(RunnerError* error);
  bool validate(const InferenceRequest& request, RunnerError* error) const;
  bool start(InferenceJob* job, Slot* slot);
  void start_queued(std::vector<InferenceJob*>* failed);
  std::string inference_failed(const std::string& why) const { return "TensorRT inference on " + path + " failed: " + why; }
};

TensorRtRunner::Impl::~Impl() {
  DeviceGuard guard(options.device_id);
  if (stream != nullptr) cudaStreamSynchronize(stream);
  completion.reset();  // after every report (none are left when the owner kept the contract)
  for (InferenceJob* job : queued) delete job;  // only when the owner broke the contract (in_flight() != 0)
  for (auto& slot : slots) {
    delete slot->context;
    if (slot->done != nullptr) cudaEventDestroy(slot->done);
  }
  delete engine;   // contexts, then the engine, then the runtime: TensorRT's required order
  delete runtime;
  if (stream != nullptr) cudaStreamDestroy(stream);
}

bool TensorRtRunner::Impl::add_slot(RunnerError* error) {
  const uint64_t mark = logger.mark();
  auto slot = std::make_unique<Slot>();
  slot->context = engine->createExecutionContext();
  if (slot->context == nullptr) {
    *error = {RunnerErrorKind::kInference,
        "TensorRT could not create an execution context for " + path + " (out of device memory?)" + said(logger.since(mark))};
    return false;
  }
  if (options.profile != 0 && !slot->context->setOptimizationProfileAsync(options.profile, stream)) {
    delete slot->context;
    *error = {RunnerErrorKind::kInference, "TensorRT could not select optimisation profile " +
        std::to_string(options.profile) + " of " + path + said(logger.since(mark))};
    return false;
  }
  cudaError_t status = cudaEventCreateWithFlags(&slot->done, GpuCompletion::kEventFlags);
  if (status != cudaSuccess) {
    delete slot->context;
    *error = {RunnerErrorKind::kInference, "cudaEventCreate failed: " + cuda_text(status)};
    return false;
  }
  slots.push_back(std::move(slot));
  return true;
}

bool TensorRtRunner::Impl::validate(const InferenceRequest& request, RunnerError* error) const {
  std::vector<const InputTensor*> given(inputs.size(), nullptr);
  for (const InputTensor& input : request.inputs) {
    auto found = std::find_if(inputs.begin(), inputs.end(), [&](const TensorInfo& info) { return info.name == input.name; });
    if (found == inputs.end()) {
      *error = invalid("Expected only the engine's inputs (" + quoted_names(inputs) + ") in inputs but received \"" + input.name + "\"");
      return false;
    }
    const size_t index = static_cast<size_t>(found - inputs.begin());
    if (given[index] != nullptr) {
      *error = invalid("Expected each input once in inputs but received \"" + input.name + "\" twice");
      return false;
    }
    given[index] = &input;
  }
  for (size_t i = 0; i < inputs.size(); ++i) {
    const TensorInfo& info = inputs[i];
    const InputTensor* input = given[i];
    const std::string what = "input \"" + info.name + "\"";
    if (input == nullptr) {
      *error = invalid("Expected a tensor for " + what + " but received none");
      return false;
    }
    if (input->dtype != info.dtype) {
      *error = invalid("Expected a " + info.dtype + " tensor for " + what + " but received a " + input->dtype + " tensor");
      return false;
    }
    if (input->device_id != options.device_id) {
      *error = invalid("Expected a tensor on CUDA device " + std::to_string(options.device_id) + " for " + what +
          " but received one on CUDA device " + std::to_string(input->device_id));
      return false;
    }
    if (input->data == nullptr) {
      *error = invalid("Expected a device pointer for " + what + " but received a null pointer");
      return false;
    }
    if (!check_alignment(input->data, what, error)) return false;
    const std::vector<int64_t>& shape = input->shape;
    if (shape.size() != info.shape.size()) {
      *error = invalid("Expected a " + std::to_string(info.shape.size()) + "-dimensional shape for " + what +
          " but received " + shape_text(shape));
      return false;
    }
    for (size_t d = 0; d < shape.size(); ++d) {
      if (shape[d] < info.profile.min[d] || shape[d] > info.profile.max[d]) {
        *error = invalid(info.profile.min == info.profile.max
            ? "Expected shape " + shape_text(info.profile.min) + " for " + what + " but received " + shape_text(shape)
            : "Expected a shape from " + shape_text(info.profile.min) + " to " + shape_text(info.profile.max) +
                  " (optimisation profile " + std::to_string(options.profile) + ") for " + what + " but received " +
                  shape_text(shape));
        return false;
      }
    }
    if (!input->strides.empty()) {
      // Dense row-major, where dimensions of size 1 may carry any stride.
      bool dense = input->strides.size() == shape.size();
      int64_t expected = 1;
      std::vector<int64_t> dense_strides(shape.size());
      for (size_t d = shape.size(); d-- > 0;) {
        dense_strides[d] = expected;
        if (dense && shape[d] != 1 && input->strides[d] != expected) dense = false;
        expected *= shape[d];
      }
      if (!dense) {
        *error = invalid("Expected a dense row-major tensor (strides " + shape_text(dense_strides) + ") for " + what +
            " but received strides " + shape_text(input->strides));
        return false;
      }
    }
  }
  std::vector<bool> seen(outputs.size(), false);
  for (const GivenOutput& output : request.outputs) {
    auto found = std::find_if(outputs.begin(), outputs.end(), [&](const TensorInfo& info) { return info.name == output.name; });
    if (found == outputs.end()) {
      *error = invalid("Expected only the engine's outputs (" + quoted_names(outputs) + ") in outputs but received \"" + output.name + "\"");
      return false;
    }
    const std::string what = "output \"" + output.name + "\"";
    const size_t index = static_cast<size_t>(found - outputs.begin());
    if (seen[index]) {
      *error = invalid("Expected each output once in outputs but received \"" + output.name + "\" twice");
      return false;
    }
    seen[index] = true;
    if (output.dtype != found->dtype) {
      *error = invalid("Expected a " + found->dtype + " tensor for " + what + " but received a " + output.dtype + " tensor");
      return false;
    }
    if (output.device_id != options.device_id) {
      *error = invalid("Expected a tensor on CUDA device " + std::to_string(options.device_id) + " for " + what +
          " but received one on CUDA device " + std::to_string(output.device_id));
      return false;
    }
    if (output.data == nullptr) {
      *error = invalid("Expected a device pointer for " + what + " but received a null pointer");
      return false;
    }
    if (!check_alignment(output.data, what, error)) return false;
  }
  return true;
}

// Under the mutex. Binds the job's tensors to `slot` and enqueues it; false with the job failed
// (and nothing left on the GPU) otherwise.
bool TensorRtRunner::Impl::start(InferenceJob* job, Slot* slot) {
  auto fail = [job](RunnerError error) {
    job->failed = true;
    job->error = std::move(error);
    job->outputs.clear();  // pooled blocks go back
    return false;
  };
  DeviceGuard guard(options.device_id);
  if (guard.error() != cudaSuccess) return fail({RunnerErrorKind::kInference, inference_failed(cuda_text(guard.error()))});
  const uint64_t mark = logger.mark();
  nv::IExecutionContext* context = slot->context;
  for (const InputTensor& input : job->request.inputs) {
    nv::Dims dims;
    if (!to_dims(input.shape, &dims) || !context->setInputShape(input.name.c_str(), dims)) {
      return fail(invalid("TensorRT refused shape " + shape_text(input.shape) + " for input \"" + input.name + "\"" +
          said(logger.since(mark))));
    }
    if (!context->setInputTensorAddress(input.name.c_str(), input.data)) {
      return fail({RunnerErrorKind::kInference, inference_failed("setInputTensorAddress(\"" + input.name + "\")" + said(logger.since(mark)))});
    }
  }
  job->outputs.reserve(outputs.size());
  for (size_t i = 0; i < outputs.size(); ++i) {
    const TensorInfo& info = outputs[i];
    OutputTensor output;
    output.name = info.name;
    output.dtype = info.dtype;
    output.shape = to_vector(context->getTensorShape(info.name.c_str()));
    if (output.shape.size() != info.shape.size() ||
        std::any_of(output.shape.begin(), output.shape.end(), [](int64_t dim) { return dim < 0; })) {
      return fail({RunnerErrorKind::kInference, inference_failed("output \"" + info.name + "\" has a data-dependent shape " +
          shape_text(output.shape) + ", which the TensorRT runner does not support" + said(logger.since(mark)))});
    }
    output.bytes = output_bytes(output_layouts[i], output.shape);
    auto given = std::find_if(job->request.outputs.begin(), job->request.outputs.end(),
        [&](const GivenOutput& candidate) { return candidate.name == info.name; });
    if (given != job->request.outputs.end()) {
      if (given->capacity < output.bytes) {
        return fail(invalid("Expected at least " + std::to_string(output.bytes) + " bytes for output \"" + info.name +
            "\" (" + info.dtype + " " + shape_text(output.shape) + ") but received a tensor of " +
            std::to_string(given->capacity) + " bytes"));
      }
      output.data = given->data;
    } else {
      std::string why;
      output.memory = pool->acquire(output.bytes, &why);
      if (output.memory == nullptr) {
        return fail({RunnerErrorKind::kInference, inference_failed("no device memory for output \"" + info.name + "\": " + why)});
      }
      output.data = output.memory.get();
    }
    if (!context->setOutputTensorAddress(info.name.c_str(), output.data)) {
      return fail({RunnerErrorKind::kInference, inference_failed("setOutputTensorAddress(\"" + info.name + "\")" + said(logger.since(mark)))});
    }
    job->outputs.push_back(std::move(output));
  }
  if (!context->enqueueV3(stream)) {
    return fail({RunnerErrorKind::kInference, inference_failed("enqueueV3 refused the inference" + said(logger.since(mark)))});
  }
  // Before watch(): the watcher may report the job at once.
  slot->busy = true;
  job->slot = slot;
  const cudaError_t status = completion->watch(stream, slot->done, on_gpu_done, job);
  if (status != cudaSuccess) {
    slot->busy = false;
    job->slot = nullptr;
    // The inference is on the GPU but nobody will be told: wait for it before its memory moves.
    cudaStreamSynchronize(stream);
    return fail({RunnerErrorKind::kInference, inference_failed("cannot signal completion: " + cuda_text(status))});
  }
  return true;
}

// Under the mutex: starts queued jobs on free (or new) contexts. Jobs that fail to start are
// appended to `failed`, to be notified once the mutex is released.
void TensorRtRunner::Impl::start_queued(std::vector<InferenceJob*>* failed) {
  while (!queued.empty()) {
    Slot* free_slot = nullptr;
    for (auto& slot : slots) {
      if (!slot->busy) {
        free_slot = slot.get();
        break;
      }
    }
    if (free_slot == nullptr && !cannot_grow && slots.size() < static_cast<size_t>(options.max_concurrency)) {
      RunnerError ignored;
      if (add_slot(&ignored)) {
        free_slot = slots.back().get();
      } else {
        cannot_grow = true;  // the contexts there are will do, one job after another
      }
    }
    if (free_slot == nullptr) return;
    InferenceJob* job = queued.front();
    queued.pop_front();
    if (!start(job, free_slot)) failed->push_back(job);
  }
}

TensorRtRunner::TensorRtRunner(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
TensorRtRunner::~TensorRtRunner() = default;

std::unique_ptr<TensorRtRunner> TensorRtRunner::load(const std::string& path, const RunnerOptions& options,
    RunnerError* error) {
  auto fail = [&](RunnerErrorKind kind, const std::string& why) {
    *error = {kind, "Cannot load the TensorRT engine " + path + ": " + why};
    return nullptr;
  };
  if (options.device_id < 0) {
    *error = invalid("Expected a CUDA device index (0 or more) for options.deviceId but received " + std::to_string(options.device_id));
    return nullptr;
  }
  if (options.max_concurrency < 1 || options.max_concurrency > 64) {
    *error = invalid("Expected an integer from 1 to 64 for options.maxConcurrency but received " + std::to_string(options.max_concurrency));
    return nullptr;
  }
  if (options.profile < 0) {
    *error = invalid("Expected an optimisation profile index (0 or more) for options.profile but received " + std::to_string(options.profile));
    return nullptr;
  }
  const std::string onnx = ".onnx";
  if (path.size() >= onnx.size() && path.compare(path.size() - onnx.size(), onnx.size(), onnx) == 0) {
    return fail(RunnerErrorKind::kLoad, "it is an ONNX model, not a serialized engine: load it with the ONNX Runtime "
        "backend, or build an engine from it with `trtexec --onnx=" + path + " --saveEngine=<name>.engine`");
  }

  struct stat file_status;
  if (stat(path.c_str(), &file_status) != 0) {
    return fail(RunnerErrorKind::kLoad, errno == ENOENT ? "no such file" : std::strerror(errno));
  }
  if (S_ISDIR(file_status.st_mode)) return fail(RunnerErrorKind::kLoad, "it is a directory");
  // A device or FIFO has no size, and reading one never ends (/dev/zero) or waits for a writer.
  if (!S_ISREG(file_status.st_mode)) {
    const char* kind = S_ISCHR(file_status.st_mode) ? "a character device" : S_ISBLK(file_status.st_mode) ? "a block device"
        : S_ISFIFO(file_status.st_mode) ? "a FIFO" : S_ISSOCK(file_status.st_mode) ? "a socket" : "not a file";
    return fail(RunnerErrorKind::kLoad, std::string("it is not a regular file (") + kind + ")");
  }
  std::vector<char> bytes;
  {
    std::FILE* file = std::fopen(path.c_str(), "rb");
    if (file == nullptr) return fail(RunnerErrorKind::kLoad, std::strerror(errno));
    bytes.resize(static_cast<size_t>(file_status.st_size));
    const size_t read = bytes.empty() ? 0 : std::fread(bytes.data(), 1, bytes.size(), file);
    const bool read_error = std::ferror(file) != 0;
    std::fclose(file);
    if (read_error || read != bytes.size()) return fail(RunnerErrorKind::kLoad, "read error");
  }
  if (bytes.empty()) return fail(RunnerErrorKind::kLoad, "the file is empty");

  int device_count = 0;
  cudaError_t status = cudaGetDeviceCount(&device_count);
  if (status != cudaSuccess) return fail(RunnerErrorKind::kLoad, "CUDA is not usable: " + cuda_text(status));
  if (options.device_id >= device_count) {
    *error = invalid("Expected a CUDA device index from 0 to " + std::to_string(device_count - 1) +
        " for options.deviceId but received " + std::to_string(options.device_id));
    return nullptr;
  }
  DeviceGuard guard(options.device_id);
  if (guard.error() != cudaSuccess) {
    return fail(RunnerErrorKind::kLoad, "CUDA device " + std::to_string(options.device_id) + ": " + cuda_text(guard.error()));
  }

  auto impl = std::make_unique<Impl>();
  impl->path = path;
  impl->options = options;
  const std::string& plugins = load_plugins();
  const uint64_t mark = impl->logger.mark();
  impl->runtime = nv::createInferRuntime(impl->logger);
  if (impl->runtime == nullptr) {
    return fail(RunnerErrorKind::kLoad, "TensorRT could not create its runtime" + said(impl->logger.since(mark)));
  }
  impl->engine = impl->runtime->deserializeCudaEngine(bytes.data(), bytes.size());
  if (impl->engine == nullptr) {
    return fail(RunnerErrorKind::kLoad, "TensorRT cannot deserialize it: it is not a TensorRT engine, or it was built "
        "by another TensorRT version or for another GPU (this process runs TensorRT " + library_version() + " on " +
        device_description(options.device_id) + ")" + said(impl->logger.since(mark)) +
        (plugins.empty() ? "" : "; " + plugins));
  }
  nv::ICudaEngine& engine = *impl->engine;
  const int32_t profiles = engine.getNbOptimizationProfiles();
  if (options.profile >= profiles) {
    *error = invalid("Expected an optimisation profile of " + path + " (0 to " + std::to_string(profiles - 1) +
        ") for options.profile but received " + std::to_string(options.profile));
    return nullptr;
  }

  for (int32_t i = 0; i < engine.getNbIOTensors(); ++i) {
    const char* name = engine.getIOTensorName(i);
    const nv::TensorIOMode mode = engine.getTensorIOMode(name);
    if (mode == nv::TensorIOMode::kNONE) continue;
    const bool is_input = mode == nv::TensorIOMode::kINPUT;
    const std::string what = std::string(is_input ? "input \"" : "output \"") + name + "\"";
    const nv::DataType type = engine.getTensorDataType(name);
    if (dtype_name(type) == nullptr) {
      return fail(RunnerErrorKind::kLoad, "its " + what + " is " + unsupported_dtype_name(type) +
          ", which ds-element tensors do not carry (they carry float32, float16, bfloat16, int8, uint8, int32, int64 and bool)");
    }
    if (engine.getTensorLocation(name) == nv::TensorLocation::kHOST) {
      return fail(RunnerErrorKind::kLoad, "its " + what + " is a shape tensor in host memory, which the TensorRT runner does not support");
    }
    TensorInfo info;
    info.name = name;
    info.dtype = dtype_name(type);
    info.shape = to_vector(engine.getTensorShape(name));
    const nv::TensorFormat format = engine.getTensorFormat(name, options.profile);
    info.format = format_name(format);
    if (is_input) {
      // ds-element tensors are dense, linear (row-major) arrays: an input TensorRT wants in
      // another layout would read them as garbage.
      const int32_t vectorized = engine.getTensorVectorizedDim(name, options.profile);
      if (format != nv::TensorFormat::kLINEAR || vectorized != -1) {
        return fail(RunnerErrorKind::kLoad, "its " + what + " is laid out as " + info.format +
            (vectorized != -1 ? " (vectorised along dimension " + std::to_string(vectorized) + ", " +
                                    std::to_string(engine.getTensorComponentsPerElement(name, options.profile)) +
                                    " components per vector)"
                              : std::string()) +
            " in optimisation profile " + std::to_string(options.profile) +
            ", and ds-element tensors are linear (dense row-major): rebuild the engine with linear inputs "
            "(trtexec --inputIOFormats=<type>:chw, or ITensor::setAllowedFormats(1U << TensorFormat::kLINEAR))");
      }
      info.profile.min = to_vector(engine.getProfileShape(name, options.profile, nv::OptProfileSelector::kMIN));
      info.profile.opt = to_vector(engine.getProfileShape(name, options.profile, nv::OptProfileSelector::kOPT));
      info.profile.max = to_vector(engine.getProfileShape(name, options.profile, nv::OptProfileSelector::kMAX));
      // A static input has no profile entry: its bounds are its shape.
      if (info.profile.min.size() != info.shape.size()) info.profile.min = info.shape;
      if (info.profile.opt.size() != info.shape.size()) info.profile.opt = info.shape;
      if (info.profile.max.size() != info.shape.size()) info.profile.max = info.shape;
      impl->inputs.push_back(std::move(info));
    } else {
      OutputLayout layout;
      layout.element_size = dtype_size(info.dtype);
      layout.vectorized_dim = engine.getTensorVectorizedDim(name, options.profile);
      layout.components = std::max(1, engine.getTensorComponentsPerElement(name, options.profile));
      impl->output_layouts.push_back(layout);
      impl->outputs.push_back(std::move(info));
    }
  }

  // Concurrent execution contexts of an engine with dynamic input shapes must each use their
  // own optimisation profile (NvInferRuntime.h, IExecutionContext); every context here uses
  // options.profile, so such an engine gets one context (load more runners, one per profile,
  // for more at once). Static-shape engines share profile 0's bindings freely.
  const bool dynamic = std::any_of(impl->inputs.begin(), impl->inputs.end(), [](const TensorInfo& input) {
    return std::any_of(input.shape.begin(), input.shape.end(), [](int64_t dim) { return dim < 0; });
  });
  if (dynamic) impl->options.max_concurrency = 1;

  status = cudaStreamCreateWithFlags(&impl->stream, cudaStreamNonBlocking);
  if (status != cudaSuccess) return fail(RunnerErrorKind::kLoad, "cudaStreamCreate failed: " + cuda_text(status));
  impl->completion = std::make_unique<GpuCompletion>(options.device_id);
  impl->pool = std::make_shared<DevicePool>(options.device_id);
  // One context now, so that a model too large for the device fails here and not at the first
  // inference; more are made as concurrent inferences need them.
  RunnerError context_error;
  if (!impl->add_slot(&context_error)) return fail(RunnerErrorKind::kLoad, context_error.message);
  return std::unique_ptr<TensorRtRunner>(new TensorRtRunner(std::move(impl)));
}

const std::string& TensorRtRunner::path() const { return impl_->path; }
const RunnerOptions& TensorRtRunner::options() const { return impl_->options; }
const std::vector<TensorInfo>& TensorRtRunner::inputs() const { return impl_->inputs; }
const std::vector<TensorInfo>& TensorRtRunner::outputs() const { return impl_->outputs; }

std::string TensorRtRunner::library_version() {
  // (MAJOR * 100 + MINOR) * 100 + PATCH, as NvInferRuntimeBase.h documents it.
  const int32_t version = getInferLibVersion();
  return std::to_string(version / 10000) + "." + std::to_string(version / 100 % 100) + "." + std::to_string(version % 100);
}

bool TensorRtRunner::submit(InferenceRequest request, CompletionNotify notify, void* target, RunnerError* error) {
  if (!impl_->validate(request, error)) return false;
  auto* job = new InferenceJob();
  job->request = std::move(request);
  job->notify = notify;
  job->target = target;
  std::vector<InferenceJob*> failed;
  {
    std::lock_guard<std::mutex> lock(impl_->mutex);
    ++impl_->in_flight;
    impl_->queued.push_back(job);
    impl_->start_queued(&failed);
  }
  for (InferenceJob* failed_job : failed) failed_job->notify(failed_job->target, failed_job);
  return true;
}

InferenceResult TensorRtRunner::finish(InferenceJob* job) {
  InferenceResult result;
  result.user_data = job->request.user_data;
  std::vector<InferenceJob*> failed;
  {
    std::lock_guard<std::mutex> lock(impl_->mutex);
    if (job->slot != nullptr) {
      // A status other than success is the GPU's own failure (an illegal address in a kernel,
      // say), sticky for the whole CUDA context: this and every later inference fail with it.
      if (job->gpu_status != cudaSuccess && !job->failed) {
        job->failed = true;
        job->error = {RunnerErrorKind::kInference, impl_->inference_failed("CUDA reported " + cuda_text(job->gpu_status))};
        job->outputs.clear();
      }
      job->slot->busy = false;
      job->slot = nullptr;
    }
    --impl_->in_flight;
    impl_->start_queued(&failed);
  }
  for (InferenceJob* failed_job : failed) failed_job->notify(failed_job->target, failed_job);
  result.ok = !job->failed;
  if (result.ok) {
    result.outputs = std::move(job->outputs);
  } else {
    result.error = std::move(job->error);
  }
  delete job;
  return result;
}

void TensorRtRunner::cancel_queued(const std::string& why) {
  std::deque<InferenceJob*> cancelled;
  {
    std::lock_guard<std::mutex> lock(impl_->mutex);
    cancelled.swap(impl_->queued);
  }
  for (InferenceJob* job : cancelled) {
    job->failed = true;
    job->error = {RunnerErrorKind::kInference, impl_->inference_failed(why)};
    job->notify(job->target, job);
  }
}

size_t TensorRtRunner::in_flight() const {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  return impl_->in_flight;
}

void TensorRtRunner::synchronize() {
  DeviceGuard guard(impl_->options.device_id);
  cudaStreamSynchronize(impl_->stream);
  impl_->completion->drain();
}

size_t dtype_size(const std::string& dtype) {
  if (dtype == "float32" || dtype == "int32") return 4;
  if (dtype == "float16" || dtype == "bfloat16") return 2;
  if (dtype == "int8" || dtype == "uint8" || dtype == "bool") return 1;
  if (dtype == "int64") return 8;
  return 0;
}

std::string shape_text(const std::vector<int64_t>& shape) {
  std::string text = "[";
  for (size_t i = 0; i < shape.size(); ++i) text += (i == 0 ? "" : ",") + std::to_string(shape[i]);
  return text + "]";
}

}  // namespace dsnode::runners
