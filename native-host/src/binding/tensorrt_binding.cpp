// loadTensorRT(path, options) → Promise<runner>: the Node-API face of TensorRtRunner
// (docs/internals/runners.md). The engine is read and deserialized on a libuv worker; an
// inference's Promise settles on the JS thread through a napi_threadsafe_function that the
// runner's completion thread feeds. C++ exceptions are off here (binding/js_values.h): every failure
// leaves a JS error pending or rejects the Promise.
#include "binding/tensorrt_binding.h"

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "binding/js_values.h"
#include "runners/tensorrt_runner.h"

namespace dsnode::runners {

namespace {

using metabind::FieldName;
using metabind::ObjectBuilder;

constexpr const char* kInvalidValueCode = metabind::kInvalidValueCode;
constexpr const char* kLoadCode = metabind::kRunnerLoadCode;
constexpr const char* kInferenceCode = metabind::kRunnerFailedCode;
constexpr const char* kDisposedCode = metabind::kRunnerDisposedCode;

// Tells our runner objects from any other wrapped object.
constexpr napi_type_tag kRunnerTag = {0x64736e6f64657472ull, 0x746e7275726e6e31ull};

// ---------------------------------------------------------------- errors

enum class JsErrorType { kError, kType, kRange };

napi_value make_error(napi_env env, JsErrorType type, const char* code, const std::string& message) {
  napi_value code_value = nullptr, message_value = nullptr, error = nullptr;
  if (napi_create_string_utf8(env, code, NAPI_AUTO_LENGTH, &code_value) != napi_ok ||
      napi_create_string_utf8(env, message.data(), message.size(), &message_value) != napi_ok) {
    return nullptr;
  }
  napi_status status = type == JsErrorType::kType ? napi_create_type_error(env, code_value, message_value, &error)
      : type == JsErrorType::kRange              ? napi_create_range_error(env, code_value, message_value, &error)
                                                 : napi_create_error(env, code_value, message_value, &error);
  return status == napi_ok ? error : nullptr;
}

napi_value runner_error(napi_env env, const RunnerError& error) {
  switch (error.kind) {
    case RunnerErrorKind::kInvalidArgument: return make_error(env, JsErrorType::kRange, kInvalidValueCode, error.message);
    case RunnerErrorKind::kLoad: return make_error(env, JsErrorType::kError, kLoadCode, error.message);
    case RunnerErrorKind::kInference: break;
  }
  return make_error(env, JsErrorType::kError, kInferenceCode, error.message);
}

// Settles `deferred` with the pending exception (or `error`); returns `promise`.
napi_value reject_with(napi_env env, napi_deferred deferred, napi_value promise, napi_value error = nullptr) {
  if (error == nullptr) napi_get_and_clear_last_exception(env, &error);
  if (error == nullptr) napi_get_undefined(env, &error);
  napi_reject_deferred(env, deferred, error);
  return promise;
}

// ---------------------------------------------------------------- integration point
// A TensorHandle as a device view. Until the native TensorHandle (binding/tensor_binding.*)
// lands, a tensor is read from its JS face, the DLPack-shaped object of DESIGN §4:
//   { device: { type: 'cuda', id }, dtype, shape, strides?, byteOffset?, dataPtr: bigint }
// When it lands, device_tensor_from_js unwraps the native tensor instead; nothing else in this
// file changes. `name` is what a message calls the value ("inputs.images").

struct DeviceTensorView {
  void* data = nullptr;
  int device_id = 0;
  std::string dtype;
  std::vector<int64_t> shape;
  std::vector<int64_t> strides;  // in elements; empty: dense row-major
};

bool read_dims(napi_env env, napi_value object, const std::string& name, const char* key, bool optional,
    std::vector<int64_t>* out) {
  napi_value value = nullptr;
  uint32_t length = 0;
  const std::string field = name + "." + key;
  if (napi_get_named_property(env, object, key, &value) != napi_ok) return false;
  if (optional && metabind::is_nullish(env, value)) return true;
  if (!metabind::read_array(env, value, field.c_str(), &length)) return false;
  out->resize(length);
  for (uint32_t i = 0; i < length; ++i) {
    napi_value element = nullptr;
    const std::string element_name = field + "[" + std::to_string(i) + "]";
    if (napi_get_element(env, value, i, &element) != napi_ok ||
        !metabind::read_integer(env, element, element_name.c_str(), optional ? -metabind::kMaxSafeInteger : 0,
            metabind::kMaxSafeInteger, &(*out)[i])) {
      return false;
    }
  }
  return true;
}

bool device_tensor_from_js(napi_env env, napi_value value, const std::string& name, DeviceTensorView* out) {
  if (!metabind::read_object(env, value, name.c_str())) return false;
  napi_value device = nullptr, member = nullptr;
  std::string device_type;
  int64_t device_id = 0, byte_offset = 0;
  const std::string device_name = name + ".device";
  if (napi_get_named_property(env, value, "device", &device) != napi_ok ||
      !metabind::read_object(env, device, device_name.c_str()) ||
      napi_get_named_property(env, device, "type", &member) != napi_ok ||
      !metabind::read_string(env, member, (device_name + ".type").c_str(), &device_type)) {
    return false;
  }
  if (device_type != "cuda") {
    napi_throw(env, make_error(env, JsErrorType::kRange, kInvalidValueCode,
        "Expected a CUDA tensor for " + name + " but received a " + device_type + " tensor" +
            (device_type == "cpu" ? " (copy it to the GPU first)" : "")));
    return false;
  }
  if (napi_get_named_property(env, device, "id", &member) != napi_ok ||
      !metabind::read_integer(env, member, (device_name + ".id").c_str(), 0, 1023, &device_id) ||
      napi_get_named_property(env, value, "dtype", &member) != napi_ok ||
      !metabind::read_string(env, member, (name + ".dtype").c_str(), &out->dtype) ||
      !read_dims(env, value, name, "shape", false, &out->shape) ||
      !read_dims(env, value, name, "strides", true, &out->strides) ||
      napi_get_named_property(env, value, "byteOffset", &member) != napi_ok) {
    return false;
  }
  if (!metabind::is_nullish(env, member) &&
      !metabind::read_integer(env, member, (name + ".byteOffset").c_str(), 0, metabind::kMaxSafeInteger, &byte_offset)) {
    return false;
  }
  uint64_t address = 0;
  bool lossless = false;
  napi_valuetype type = napi_undefined;
  if (napi_get_named_property(env, value, "dataPtr", &member) != napi_ok || napi_typeof(env, member, &type) != napi_ok ||
      type != napi_bigint || napi_get_value_bigint_uint64(env, member, &address, &lossless) != napi_ok || !lossless) {
    napi_throw(env, make_error(env, JsErrorType::kType, kInvalidValueCode,
        "Expected a device address (a bigint from 0 to 2^64-1) for " + name + ".dataPtr but received " +
            metabind::describe_value(env, member)));
    return false;
  }
  out->device_id = static_cast<int>(device_id);
  out->data = reinterpret_cast<void*>(static_cast<uintptr_t>(address + static_cast<uint64_t>(byte_offset)));
  return true;
}

// ---------------------------------------------------------------- runner state

// A loaded runner. Owned, on the JS thread only, by the JS runner object (its finalizer), by
// the threadsafe function (its finalizer) and by the inferences in flight; deleted when all are
// gone (at env teardown Node finalizes the threadsafe function before it drains its queue).
// The TensorRtRunner goes earlier: at dispose() or when the JS object is collected, once no
// inference is in flight.
struct RunnerBox {
  napi_env env = nullptr;
  std::string path;
  std::unique_ptr<TensorRtRunner> runner;
  napi_threadsafe_function completions = nullptr;
  size_t in_flight = 0;  // from infer() to its settlement
  bool disposed = false;
  bool object_alive = true;
  bool env_closing = false;
  int owners = 2;
};

// One infer() call: its Promise, and the tensors it reads or writes, kept from the GC until
// the GPU is done with them.
struct PendingInference {
  napi_env env = nullptr;  // null at env teardown: the references die with the env
  napi_deferred deferred = nullptr;
  std::vector<napi_ref> tensors;
  ~PendingInference() {
    if (env == nullptr) return;
    for (napi_ref reference : tensors) napi_delete_reference(env, reference);
  }
};

void on_env_teardown(void* data);

void delete_if_unowned(RunnerBox* box) {
  if (box->owners > 0 || box->in_flight > 0) return;
  if (!box->env_closing) napi_remove_env_cleanup_hook(box->env, on_env_teardown, box);
  delete box;
}

// Frees the engine once it is disposed or unreachable and idle.
void release_runner_if_done(RunnerBox* box) {
  if (box->in_flight > 0 || (!box->disposed && box->object_alive)) return;
  box->runner.reset();
  if (box->completions != nullptr && !box->env_closing) {
    napi_threadsafe_function completions = box->completions;
    box->completions = nullptr;
    napi_release_threadsafe_function(completions, napi_tsfn_release);  // its finalizer drops an owner
  }
}

// Env teardown (a Worker ending, the embedded runtime stopping) with inferences in flight: fail
// those still queued and let those on the GPU end, so that every completion is in the
// threadsafe function's queue when Node drains it (calling complete_inference with no env).
// This hook was added after the threadsafe function was made, so it runs before Node closes it.
void on_env_teardown(void* data) {
  auto* box = static_cast<RunnerBox*>(data);
  if (box->runner != nullptr) {
    box->runner->cancel_queued("the JavaScript environment is shutting down");
    box->runner->synchronize();
  }
  box->env_closing = true;
}

void on_completions_finalized(napi_env /*env*/, void* data, void* /*hint*/) {
  auto* box = static_cast<RunnerBox*>(data);
  box->completions = nullptr;
  --box->owners;
  delete_if_unowned(box);
}

void on_object_finalized(napi_env /*env*/, void* data, void* /*hint*/) {
  auto* box = static_cast<RunnerBox*>(data);
  box->object_alive = false;
  --box->owners;
  release_runner_if_done(box);
  delete_if_unowned(box);
}

// On the runner's completion thread (or inside submit/finish): only queues the job for the JS thread.
void notify_completion(void* target, InferenceJob* job) {
  auto* box = static_cast<RunnerBox*>(target);
  // Null only after env teardown, when no inference is left on the GPU (on_env_teardown).
  if (box->completions != nullptr) napi_call_threadsafe_function(box->completions, job, napi_tsfn_nonblocking);
}

// ---------------------------------------------------------------- outputs

// An output's device memory, handed back to the runner's pool by release() or when the
// release function is collected.
struct OutputBox {
  std::shared_ptr<void> memory;
};

void on_output_finalized(napi_env /*env*/, void* data, void* /*hint*/) { delete static_cast<OutputBox*>(data); }

napi_value release_output(napi_env env, napi_callback_info info) {
  void* data = nullptr;
  if (napi_get_cb_info(env, info, nullptr, nullptr, nullptr, &data) == napi_ok && data != nullptr) {
    static_cast<OutputBox*>(data)->memory.reset();
  }
  return nullptr;
}

napi_value make_dims(napi_env env, const std::vector<int64_t>& dims) {
  napi_value array = nullptr;
  if (napi_create_array_with_length(env, dims.size(), &array) != napi_ok) return nullptr;
  for (size_t i = 0; i < dims.size(); ++i) {
    if (napi_set_element(env, array, static_cast<uint32_t>(i), metabind::make_number(env, static_cast<double>(dims[i]))) != napi_ok) {
      return nullptr;
    }
  }
  return array;
}

// { name, dtype, shape, devicePointer, byteLength, release() }. When TensorHandle lands, an
// owned CUDA TensorHandle (dispose() = release) replaces this object.
napi_value output_to_js(napi_env env, OutputTensor&& output) {
  napi_value pointer = nullptr, release = nullptr;
  auto* box = new OutputBox{std::move(output.memory)};
  if (napi_create_function(env, "release", NAPI_AUTO_LENGTH, release_output, box, &release) != napi_ok) {
    delete box;
    return nullptr;
  }
  if (napi_add_finalizer(env, release, box, on_output_finalized, nullptr, nullptr) != napi_ok) {
    delete box;
    return nullptr;
  }
  if (napi_create_bigint_uint64(env, reinterpret_cast<uintptr_t>(output.data), &pointer) != napi_ok) return nullptr;
  ObjectBuilder object(env);
  object.string("name", output.name)
      .string("dtype", output.dtype)
      .set("shape", make_dims(env, output.shape))
      .set("devicePointer", pointer)
      .number("byteLength", static_cast<double>(output.bytes))
      .set("release", release);
  return object.value();
}

// ---------------------------------------------------------------- infer / dispose

void complete_inference(napi_env env, napi_value /*js_callback*/, void* context, void* data) {
  auto* box = static_cast<RunnerBox*>(context);
  InferenceResult result = box->runner->finish(static_cast<InferenceJob*>(data));
  std::unique_ptr<PendingInference> pending(static_cast<PendingInference*>(result.user_data));
  --box->in_flight;
  if (env == nullptr) {
    pending->env = nullptr;  // env teardown: nobody is left to settle the Promise
  } else {
    napi_handle_scope scope = nullptr;
    napi_open_handle_scope(env, &scope);
    if (result.ok) {
      napi_value list = nullptr;
      bool built = napi_create_array_with_length(env, result.outputs.size(), &list) == napi_ok;
      for (size_t i = 0; built && i < result.outputs.size(); ++i) {
        napi_value output = output_to_js(env, std::move(result.outputs[i]));
        built = output != nullptr && napi_set_element(env, list, static_cast<uint32_t>(i), output) == napi_ok;
      }
      if (built) {
        napi_resolve_deferred(env, pending->deferred, list);
      } else {
        reject_with(env, pending->deferred, nullptr);
      }
    } else {
      reject_with(env, pending->deferred, nullptr, runner_error(env, result.error));
    }
    napi_close_handle_scope(env, scope);
    if (box->in_flight == 0 && box->completions != nullptr) napi_unref_threadsafe_function(env, box->completions);
  }
  release_runner_if_done(box);
  delete_if_unowned(box);
}

bool unwrap_runner(napi_env env, napi_value self, const char* method, RunnerBox** out) {
  bool tagged = false;
  void* data = nullptr;
  if (self == nullptr || napi_check_object_type_tag(env, self, &kRunnerTag, &tagged) != napi_ok || !tagged ||
      napi_unwrap(env, self, &data) != napi_ok) {
    napi_throw(env, make_error(env, JsErrorType::kType, kInvalidValueCode,
        std::string("Expected a runner from loadTensorRT as the receiver of ") + method + "() but received " +
            metabind::describe_value(env, self)));
    return false;
  }
  *out = static_cast<RunnerBox*>(data);
  return true;
}

// The tensors of one infer() argument, { name: TensorHandle }, in its key order.
bool read_tensor_map(napi_env env, napi_value map, const char* what, PendingInference* pending,
    std::vector<std::pair<std::string, DeviceTensorView>>* out) {
  napi_value keys = nullptr;
  uint32_t count = 0;
  if (!metabind::read_object(env, map, what) ||
      napi_get_all_property_names(env, map, napi_key_own_only,
          static_cast<napi_key_filter>(napi_key_enumerable | napi_key_skip_symbols), napi_key_numbers_to_strings,
          &keys) != napi_ok ||
      napi_get_array_length(env, keys, &count) != napi_ok) {
    return false;
  }
  for (uint32_t i = 0; i < count; ++i) {
    napi_value key = nullptr, value = nullptr;
    std::string name;
    napi_ref reference = nullptr;
    DeviceTensorView view;
    if (napi_get_element(env, keys, i, &key) != napi_ok || !metabind::read_string(env, key, what, &name) ||
        napi_get_property(env, map, key, &value) != napi_ok ||
        !device_tensor_from_js(env, value, std::string(what) + "." + name, &view) ||
        napi_create_reference(env, value, 1, &reference) != napi_ok) {
      return false;
    }
    pending->tensors.push_back(reference);
    out->emplace_back(std::move(name), std::move(view));
  }
  return true;
}

// runner.infer(inputs, outputs?) → Promise<output[]>: `inputs` and the optional `outputs` map
// names to CUDA tensors; outputs not given come from the runner's pool.
napi_value infer(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2] = {nullptr, nullptr};
  napi_value self = nullptr, promise = nullptr;
  napi_deferred deferred = nullptr;
  RunnerBox* box = nullptr;
  if (napi_get_cb_info(env, info, &argc, argv, &self, nullptr) != napi_ok || !unwrap_runner(env, self, "infer", &box) ||
      napi_create_promise(env, &deferred, &promise) != napi_ok) {
    return nullptr;
  }
  // From here every failure rejects: the error is made now, so it carries the caller's stack.
  if (box->runner == nullptr) {
    return reject_with(env, deferred, promise, make_error(env, JsErrorType::kError, kDisposedCode,
        "Expected a live runner for infer but received one disposed by dispose() (" + box->path + ")"));
  }
  auto pending = std::make_unique<PendingInference>();
  pending->env = env;
  pending->deferred = deferred;
  std::vector<std::pair<std::string, DeviceTensorView>> inputs, outputs;
  if (!read_tensor_map(env, argv[0], "inputs", pending.get(), &inputs) ||
      (!metabind::is_nullish(env, argv[1]) && !read_tensor_map(env, argv[1], "outputs", pending.get(), &outputs))) {
    return reject_with(env, deferred, promise);
  }
  InferenceRequest request;
  for (auto& [name, view] : inputs) {
    request.inputs.push_back({name, view.data, view.device_id, view.dtype, view.shape, view.strides});
  }
  for (auto& [name, view] : outputs) {
    size_t capacity = dtype_size(view.dtype);
    for (int64_t dim : view.shape) capacity *= static_cast<size_t>(dim);
    if (!view.strides.empty()) {
      return reject_with(env, deferred, promise, make_error(env, JsErrorType::kRange, kInvalidValueCode,
          "Expected a dense tensor (no strides) for outputs." + name + " but received strides " + shape_text(view.strides)));
    }
    request.outputs.push_back({name, view.data, view.device_id, view.dtype, capacity});
  }
  request.user_data = pending.get();
  RunnerError error;
  if (!box->runner->submit(std::move(request), notify_completion, box, &error)) {
    return reject_with(env, deferred, promise, runner_error(env, error));
  }
  pending.release();  // complete_inference takes it back
  // An inference on the GPU keeps the event loop alive until it settles; an idle runner does not.
  if (box->in_flight++ == 0) napi_ref_threadsafe_function(env, box->completions);
  return promise;
}

// runner.dispose(): no more inferences; the engine is freed once those in flight settle.
napi_value dispose(napi_env env, napi_callback_info info) {
  napi_value self = nullptr;
  RunnerBox* box = nullptr;
  if (napi_get_cb_info(env, info, nullptr, nullptr, &self, nullptr) != napi_ok || !unwrap_runner(env, self, "dispose", &box)) {
    return nullptr;
  }
  box->disposed = true;
  release_runner_if_done(box);
  return nullptr;
}

// ---------------------------------------------------------------- loadTensorRT

napi_value tensor_info_to_js(napi_env env, const TensorInfo& tensor, bool with_profile) {
  ObjectBuilder object(env);
  object.string("name", tensor.name).string("dtype", tensor.dtype).set("shape", make_dims(env, tensor.shape));
  object.string("format", tensor.format);
  if (with_profile) {
    ObjectBuilder profile(env);
    profile.set("min", make_dims(env, tensor.profile.min))
        .set("opt", make_dims(env, tensor.profile.opt))
        .set("max", make_dims(env, tensor.profile.max));
    object.set("profile", profile.value());
  }
  return object.value();
}

napi_value tensor_list_to_js(napi_env env, const std::vector<TensorInfo>& tensors, bool with_profile) {
  napi_value list = nullptr;
  if (napi_create_array_with_length(env, tensors.size(), &list) != napi_ok) return nullptr;
  for (size_t i = 0; i < tensors.size(); ++i) {
    napi_value entry = tensor_info_to_js(env, tensors[i], with_profile);
    if (entry == nullptr || napi_set_element(env, list, static_cast<uint32_t>(i), entry) != napi_ok) return nullptr;
  }
  return list;
}

// { backend, path, deviceId, maxConcurrency, inputs, outputs, infer, dispose }, wrapping a new RunnerBox.
napi_value runner_to_js(napi_env env, std::unique_ptr<TensorRtRunner> runner) {
  auto* box = new RunnerBox();
  box->env = env;
  box->path = runner->path();
  const RunnerOptions options = runner->options();
  const std::vector<TensorInfo> inputs = runner->inputs(), outputs = runner->outputs();
  box->runner = std::move(runner);
  napi_value name = metabind::make_string(env, "dsnode-tensorrt-completions", NAPI_AUTO_LENGTH);
  if (napi_create_threadsafe_function(env, nullptr, nullptr, name, 0, 1, box, on_completions_finalized, box,
          complete_inference, &box->completions) != napi_ok) {
    delete box;
    return nullptr;
  }
  napi_unref_threadsafe_function(env, box->completions);
  napi_add_env_cleanup_hook(env, on_env_teardown, box);
  napi_value object = nullptr, infer_function = nullptr, dispose_function = nullptr;
  if (napi_create_object(env, &object) != napi_ok || napi_type_tag_object(env, object, &kRunnerTag) != napi_ok ||
      napi_wrap(env, object, box, on_object_finalized, nullptr, nullptr) != napi_ok) {
    box->object_alive = false;
    --box->owners;
    release_runner_if_done(box);  // releases the threadsafe function, whose finalizer frees the box
    return nullptr;
  }
  if (napi_create_function(env, "infer", NAPI_AUTO_LENGTH, infer, nullptr, &infer_function) != napi_ok ||
      napi_create_function(env, "dispose", NAPI_AUTO_LENGTH, dispose, nullptr, &dispose_function) != napi_ok) {
    return nullptr;
  }
  napi_value path = metabind::make_string(env, box->path.data(), box->path.size());
  const napi_property_descriptor properties[] = {
      {"backend", nullptr, nullptr, nullptr, nullptr, metabind::make_string(env, "tensorrt", NAPI_AUTO_LENGTH), napi_enumerable, nullptr},
      {"path", nullptr, nullptr, nullptr, nullptr, path, napi_enumerable, nullptr},
      {"deviceId", nullptr, nullptr, nullptr, nullptr, metabind::make_number(env, options.device_id), napi_enumerable, nullptr},
      {"maxConcurrency", nullptr, nullptr, nullptr, nullptr, metabind::make_number(env, options.max_concurrency), napi_enumerable, nullptr},
      {"inputs", nullptr, nullptr, nullptr, nullptr, tensor_list_to_js(env, inputs, true), napi_enumerable, nullptr},
      {"outputs", nullptr, nullptr, nullptr, nullptr, tensor_list_to_js(env, outputs, false), napi_enumerable, nullptr},
      {"infer", nullptr, nullptr, nullptr, nullptr, infer_function, napi_default, nullptr},
      {"dispose", nullptr, nullptr, nullptr, nullptr, dispose_function, napi_default, nullptr},
  };
  if (napi_define_properties(env, object, sizeof properties / sizeof properties[0], properties) != napi_ok) return nullptr;
  return object;
}

struct LoadWork {
  std::string path;
  RunnerOptions options;
  std::unique_ptr<TensorRtRunner> runner;
  RunnerError error;
  napi_deferred deferred = nullptr;
  napi_async_work work = nullptr;
};

void load_on_worker(napi_env /*env*/, void* data) {
  auto* load = static_cast<LoadWork*>(data);
  load->runner = TensorRtRunner::load(load->path, load->options, &load->error);
}

void load_completed(napi_env env, napi_status status, void* data) {
  std::unique_ptr<LoadWork> load(static_cast<LoadWork*>(data));
  napi_delete_async_work(env, load->work);
  if (load->runner == nullptr) {
    if (status == napi_cancelled) load->error = {RunnerErrorKind::kLoad, "Loading " + load->path + " was cancelled"};
    reject_with(env, load->deferred, nullptr, runner_error(env, load->error));
    return;
  }
  napi_value runner = runner_to_js(env, std::move(load->runner));
  if (runner == nullptr) {
    reject_with(env, load->deferred, nullptr);
    return;
  }
  napi_resolve_deferred(env, load->deferred, runner);
}

bool read_option(napi_env env, napi_value options, const char* key, double minimum, double maximum, int* out) {
  napi_value value = nullptr;
  int64_t number = 0;
  if (napi_get_named_property(env, options, key, &value) != napi_ok) return false;
  if (metabind::is_nullish(env, value)) return true;
  const std::string name = std::string("options.") + key;
  if (!metabind::read_integer(env, value, name.c_str(), minimum, maximum, &number)) return false;
  *out = static_cast<int>(number);
  return true;
}

// loadTensorRT(path, { deviceId?, maxConcurrency?, profile? }) → Promise<runner>. Argument
// types are checked now (thrown); everything about the file rejects.
napi_value load_tensorrt(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2] = {nullptr, nullptr};
  if (napi_get_cb_info(env, info, &argc, argv, nullptr, nullptr) != napi_ok) return nullptr;
  auto load = std::make_unique<LoadWork>();
  if (!metabind::read_string(env, argv[0], "path", &load->path)) return nullptr;
  if (!metabind::is_nullish(env, argv[1])) {
    if (!metabind::read_object(env, argv[1], "options") ||
        !read_option(env, argv[1], "deviceId", 0, 1023, &load->options.device_id) ||
        !read_option(env, argv[1], "maxConcurrency", 1, 64, &load->options.max_concurrency) ||
        !read_option(env, argv[1], "profile", 0, 1023, &load->options.profile)) {
      return nullptr;
    }
  }
  napi_value promise = nullptr;
  napi_value name = metabind::make_string(env, "dsnode-tensorrt-load", NAPI_AUTO_LENGTH);
  if (napi_create_promise(env, &load->deferred, &promise) != napi_ok ||
      napi_create_async_work(env, nullptr, name, load_on_worker, load_completed, load.get(), &load->work) != napi_ok) {
    return nullptr;
  }
  if (napi_queue_async_work(env, load->work) != napi_ok) {
    napi_delete_async_work(env, load->work);
    return nullptr;
  }
  load.release();  // load_completed takes it back
  return promise;
}

}  // namespace

bool install_tensorrt(napi_env env, napi_value exports) {
  napi_value function = nullptr;
  const std::string version = TensorRtRunner::library_version();
  return napi_create_function(env, "loadTensorRT", NAPI_AUTO_LENGTH, load_tensorrt, nullptr, &function) == napi_ok &&
      napi_set_named_property(env, exports, "loadTensorRT", function) == napi_ok &&
      napi_set_named_property(env, exports, "tensorRTVersion", metabind::make_string(env, version.data(), version.size())) == napi_ok;
}

}  // namespace dsnode::runners
