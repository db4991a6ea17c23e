// dsbench_standin.node: the stand-in model (standin_yolo.h) for the ds-element side of the
// many-stream bench (bench/elements/src/yolo-standin.ts). Bench-only Node-API module (CMake
// target dsnode-bench-standin-binding, not part of ALL, never shipped), loaded by the element
// with process.dlopen inside the GStreamer host.
//
//   create(maxBatch, deviceId = 0) → model: an output buffer of maxBatch images on the device
//   run(model, input: bigint, dtype: "float16" | "float32", batch, height, width, seed)
//     → { dataPtr: bigint, byteLength, gpuMs }: the kernel on the model's stream, timed with two
//     CUDA events, waited for before returning (as ds-element's own ops do); the output stays
//     the model's until release(model)
//   release(model): the output may be written again (the TensorHandle's release)
//   destroy(model): frees the buffer, the stream and the events (also done at GC)
//   runHost(input: Uint16Array | Float32Array, dtype, batch, height, width, seed, output: Float32Array)
//     → undefined: the same values on the host, for the bench's CPU check where there is no GPU
#include <cuda_runtime_api.h>
#include <node_api.h>

#include <cstdint>
#include <string>

#include "standin_yolo.h"

namespace {

struct Model {
  int device = 0;
  int32_t max_batch = 0;
  float *output = nullptr;
  size_t bytes = 0;
  cudaStream_t stream = nullptr;
  cudaEvent_t started = nullptr, finished = nullptr;
  bool busy = false;
};

void free_model(Model *model) {
  if (model == nullptr) return;
  cudaSetDevice(model->device);
  if (model->output != nullptr) cudaFree(model->output);
  if (model->stream != nullptr) cudaStreamDestroy(model->stream);
  if (model->started != nullptr) cudaEventDestroy(model->started);
  if (model->finished != nullptr) cudaEventDestroy(model->finished);
  model->output = nullptr;
  model->stream = nullptr;
  model->started = model->finished = nullptr;
}

void finalize(napi_env, void *data, void *) {
  auto *model = static_cast<Model *>(data);
  free_model(model);
  delete model;
}

napi_value fail(napi_env env, const std::string &message) {
  napi_throw_error(env, "ERR_DS_BENCH_STANDIN", ("dsbench_standin: " + message).c_str());
  return nullptr;
}

napi_value cuda_fail(napi_env env, const char *what, cudaError_t status) {
  return fail(env, std::string(what) + " failed: " + cudaGetErrorName(status) + " (" + cudaGetErrorString(status) + ")");
}

bool args_of(napi_env env, napi_callback_info info, size_t want, napi_value *argv, size_t *got) {
  *got = want;
  return napi_get_cb_info(env, info, got, argv, nullptr, nullptr) == napi_ok;
}

bool int_arg(napi_env env, napi_value value, const char *name, int32_t low, int32_t *out) {
  if (value == nullptr || napi_get_value_int32(env, value, out) != napi_ok || *out < low) {
    fail(env, std::string("expected an integer >= ") + std::to_string(low) + " for " + name);
    return false;
  }
  return true;
}

Model *model_arg(napi_env env, napi_value value) {
  void *data = nullptr;
  if (value == nullptr || napi_get_value_external(env, value, &data) != napi_ok || data == nullptr) {
    fail(env, "expected a model from create()");
    return nullptr;
  }
  auto *model = static_cast<Model *>(data);
  if (model->output == nullptr) {
    fail(env, "the model was destroyed");
    return nullptr;
  }
  return model;
}

napi_value create(napi_env env, napi_callback_info info) {
  napi_value argv[2] = {nullptr, nullptr};
  size_t argc = 0;
  if (!args_of(env, info, 2, argv, &argc)) return nullptr;
  auto *model = new Model();
  if (!int_arg(env, argv[0], "maxBatch", 1, &model->max_batch) ||
      (argc > 1 && !int_arg(env, argv[1], "deviceId", 0, &model->device))) {
    delete model;
    return nullptr;
  }
  dsbench::StandinShape shape;
  shape.batch = model->max_batch;
  model->bytes = dsbench::standin_output_bytes(shape);
  cudaError_t status = cudaSetDevice(model->device);
  const char *what = "cudaSetDevice";
  if (status == cudaSuccess) { what = "cudaMalloc"; status = cudaMalloc(reinterpret_cast<void **>(&model->output), model->bytes); }
  if (status == cudaSuccess) { what = "cudaStreamCreateWithFlags"; status = cudaStreamCreateWithFlags(&model->stream, cudaStreamNonBlocking); }
  if (status == cudaSuccess) { what = "cudaEventCreate"; status = cudaEventCreate(&model->started); }
  if (status == cudaSuccess) status = cudaEventCreate(&model->finished);
  if (status != cudaSuccess) {
    free_model(model);
    delete model;
    return cuda_fail(env, what, status);
  }
  napi_value external = nullptr;
  if (napi_create_external(env, model, finalize, nullptr, &external) != napi_ok) {
    free_model(model);
    delete model;
    return nullptr;
  }
  return external;
}

// The model of a release()/destroy() call, or nullptr (those calls ignore anything else).
Model *any_model(napi_env env, napi_callback_info info) {
  napi_value argv[1] = {};
  size_t argc = 0;
  void *data = nullptr;
  if (!args_of(env, info, 1, argv, &argc) || napi_get_value_external(env, argv[0], &data) != napi_ok) return nullptr;
  return static_cast<Model *>(data);
}

napi_value release(napi_env env, napi_callback_info info) {
  if (Model *model = any_model(env, info)) model->busy = false;
  return nullptr;
}

napi_value destroy(napi_env env, napi_callback_info info) {
  free_model(any_model(env, info));
  return nullptr;
}

// The dtype argument: true for "float16", false for "float32", else throws.
bool dtype_arg(napi_env env, napi_value value, bool *fp16) {
  char dtype[16] = {};
  size_t length = 0;
  if (napi_get_value_string_utf8(env, value, dtype, sizeof dtype, &length) != napi_ok ||
      (std::string(dtype) != "float16" && std::string(dtype) != "float32")) {
    fail(env, "expected \"float16\" or \"float32\" for the input's dtype");
    return false;
  }
  *fp16 = std::string(dtype) == "float16";
  return true;
}

// batch, height, width, seed from argv[0..3].
bool shape_args(napi_env env, napi_value *argv, dsbench::StandinShape *shape, int32_t *seed) {
  return int_arg(env, argv[0], "batch", 1, &shape->batch) && int_arg(env, argv[1], "height", 64, &shape->height) &&
      int_arg(env, argv[2], "width", 64, &shape->width) && int_arg(env, argv[3], "seed", 0, seed);
}

// The bytes of a typed array argument, or nullptr (and a thrown error).
void *typed_bytes(napi_env env, napi_value value, const char *name, size_t *bytes) {
  bool is_typed = false;
  napi_typedarray_type type;
  size_t length = 0, offset = 0;
  void *data = nullptr;
  napi_value buffer = nullptr;
  if (napi_is_typedarray(env, value, &is_typed) != napi_ok || !is_typed ||
      napi_get_typedarray_info(env, value, &type, &length, &data, &buffer, &offset) != napi_ok) {
    fail(env, std::string("expected a typed array for ") + name);
    return nullptr;
  }
  const size_t element = type == napi_float32_array ? 4 : type == napi_uint16_array ? 2 : 1;
  *bytes = length * element;
  return data;
}

napi_value run(napi_env env, napi_callback_info info) {
  napi_value argv[7] = {};
  size_t argc = 0;
  if (!args_of(env, info, 7, argv, &argc)) return nullptr;
  Model *model = model_arg(env, argv[0]);
  if (model == nullptr) return nullptr;
  uint64_t input = 0;
  bool lossless = false;
  if (napi_get_value_bigint_uint64(env, argv[1], &input, &lossless) != napi_ok || input == 0) {
    return fail(env, "expected the input's device address (a non-zero bigint)");
  }
  dsbench::StandinShape shape;
  int32_t seed = 0;
  if (!dtype_arg(env, argv[2], &shape.fp16) || !shape_args(env, argv + 3, &shape, &seed)) return nullptr;
  if (shape.batch > model->max_batch || dsbench::standin_output_bytes(shape) > model->bytes) {
    return fail(env, "batch " + std::to_string(shape.batch) + " at " + std::to_string(shape.width) + "x" +
        std::to_string(shape.height) + " does not fit the output made for maxBatch " + std::to_string(model->max_batch) +
        " at 640x640: create() the model with a larger maxBatch");
  }
  if (model->busy) return fail(env, "the previous output was not released: dispose() its TensorHandle before the next run()");
  cudaError_t status = cudaSetDevice(model->device);
  if (status != cudaSuccess) return cuda_fail(env, "cudaSetDevice", status);
  cudaEventRecord(model->started, model->stream);
  const char *error = dsbench::standin_yolo_launch(reinterpret_cast<const void *>(static_cast<uintptr_t>(input)), shape,
      static_cast<uint32_t>(seed), model->output, model->stream);
  if (*error != '\0') return fail(env, std::string("the stand-in kernel: ") + error);
  cudaEventRecord(model->finished, model->stream);
  status = cudaEventSynchronize(model->finished);
  if (status != cudaSuccess) return cuda_fail(env, "cudaEventSynchronize", status);
  float ms = 0;
  cudaEventElapsedTime(&ms, model->started, model->finished);
  model->busy = true;
  napi_value result = nullptr, pointer = nullptr, bytes = nullptr, gpu = nullptr;
  napi_create_object(env, &result);
  napi_create_bigint_uint64(env, reinterpret_cast<uintptr_t>(model->output), &pointer);
  napi_create_double(env, static_cast<double>(dsbench::standin_output_bytes(shape)), &bytes);
  napi_create_double(env, ms, &gpu);
  napi_set_named_property(env, result, "dataPtr", pointer);
  napi_set_named_property(env, result, "byteLength", bytes);
  napi_set_named_property(env, result, "gpuMs", gpu);
  return result;
}

napi_value run_host(napi_env env, napi_callback_info info) {
  napi_value argv[7] = {};
  size_t argc = 0;
  if (!args_of(env, info, 7, argv, &argc)) return nullptr;
  dsbench::StandinShape shape;
  int32_t seed = 0;
  size_t in_bytes = 0, out_bytes = 0;
  if (!dtype_arg(env, argv[1], &shape.fp16) || !shape_args(env, argv + 2, &shape, &seed)) return nullptr;
  const void *input = typed_bytes(env, argv[0], "input", &in_bytes);
  if (input == nullptr) return nullptr;
  void *output = typed_bytes(env, argv[6], "output", &out_bytes);
  if (output == nullptr) return nullptr;
  const size_t want_in = static_cast<size_t>(shape.batch) * 3 * shape.height * shape.width * (shape.fp16 ? 2 : 4);
  if (in_bytes < want_in || out_bytes < dsbench::standin_output_bytes(shape)) {
    return fail(env, "runHost: the input holds " + std::to_string(in_bytes) + " bytes (needs " + std::to_string(want_in) +
        ") and the output " + std::to_string(out_bytes) + " (needs " + std::to_string(dsbench::standin_output_bytes(shape)) + ")");
  }
  const char *error = dsbench::standin_yolo_host(input, shape, static_cast<uint32_t>(seed), static_cast<float *>(output));
  if (*error != '\0') return fail(env, error);
  return nullptr;
}

napi_value init(napi_env env, napi_value exports) {
  const napi_property_descriptor functions[] = {
      {"create", nullptr, create, nullptr, nullptr, nullptr, napi_default, nullptr},
      {"run", nullptr, run, nullptr, nullptr, nullptr, napi_default, nullptr},
      {"release", nullptr, release, nullptr, nullptr, nullptr, napi_default, nullptr},
      {"destroy", nullptr, destroy, nullptr, nullptr, nullptr, napi_default, nullptr},
      {"runHost", nullptr, run_host, nullptr, nullptr, nullptr, napi_default, nullptr},
  };
  napi_define_properties(env, exports, sizeof functions / sizeof functions[0], functions);
  return exports;
}

}  // namespace

NAPI_MODULE(NODE_GYP_MODULE_NAME, init)
