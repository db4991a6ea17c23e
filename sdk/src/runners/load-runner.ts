import { extname } from "node:path";
import { describeValue, expectedMessage } from "../errors/describe-value.js";
import { InvalidTypeError, InvalidValueError } from "../errors/errors.js";
import { loadOnnxRunner } from "./onnx-runtime.js";
import { loadTensorRtRunner } from "./tensorrt.js";
import type { LoadRunnerOptions, Runner, RunnerBackend } from "./types.js";

const WHERE = "loadRunner()";
const BY_EXTENSION: Readonly<Record<string, RunnerBackend>> = { ".onnx": "onnxruntime", ".engine": "tensorrt", ".plan": "tensorrt" };

function wholeNumber(options: LoadRunnerOptions, key: "deviceId" | "maxConcurrency" | "profile" | "intraOpThreads", min: number, max: number): void {
  const value = options[key];
  if (value === undefined) return;
  const what = `a whole number from ${min} to ${max}`;
  if (typeof value !== "number") throw new InvalidTypeError(expectedMessage(what, `options.${key} of ${WHERE}`, describeValue(value)));
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new InvalidValueError(expectedMessage(what, `options.${key} of ${WHERE}`, describeValue(value)));
  }
}

function backendOf(path: string, options: LoadRunnerOptions): RunnerBackend {
  if (options.backend !== undefined) {
    if (options.backend !== "onnxruntime" && options.backend !== "tensorrt") {
      throw new InvalidValueError(expectedMessage('"onnxruntime" or "tensorrt"', `options.backend of ${WHERE}`, describeValue(options.backend)));
    }
    return options.backend;
  }
  const backend = BY_EXTENSION[extname(path).toLowerCase()];
  if (backend === undefined) {
    throw new InvalidValueError(
      expectedMessage(
        "a model file ending in .onnx (ONNX Runtime), .engine or .plan (TensorRT)",
        `the path of ${WHERE}`,
        `${describeValue(path)} (name the backend with { backend: "onnxruntime" | "tensorrt" } for other names)`,
      ),
    );
  }
  return backend;
}

/**
 * Loads a model and returns its {@link Runner}. The backend follows the file: `.onnx` runs on
 * the CPU with ONNX Runtime (the project must depend on `onnxruntime-node`), `.engine`/`.plan`
 * with TensorRT on the GPU (a build of ds-element-native with TensorRT). Loading happens in
 * the background (the Promise resolves when the model is ready); a file that is missing or not
 * a model rejects with a {@link RunnerError} naming it.
 *
 * `InferenceElement` calls it for its `model` property; call it yourself for a second model
 * (a secondary classifier, say).
 *
 * @example
 * ```ts
 * import { loadRunner, preprocess } from "ds-element";
 *
 * const runner = await loadRunner("/models/yolov8n.onnx");
 * console.log(runner.inputs[0]); // { name: "images", dtype: "float32", shape: [1, 3, 640, 640], ... }
 * const { tensor } = preprocess(frame, { width: 640, height: 640 });
 * const [output] = await runner.infer([tensor]);
 * ```
 */
export async function loadRunner(path: string, options: LoadRunnerOptions = {}): Promise<Runner> {
  if (typeof path !== "string" || path === "") {
    throw new InvalidTypeError(expectedMessage("the path of a model file", `the path of ${WHERE}`, describeValue(path)));
  }
  if (typeof options !== "object" || options === null) {
    throw new InvalidTypeError(expectedMessage("an options object", `options of ${WHERE}`, describeValue(options)));
  }
  wholeNumber(options, "deviceId", 0, 1023);
  wholeNumber(options, "maxConcurrency", 1, 64);
  wholeNumber(options, "profile", 0, 1023);
  wholeNumber(options, "intraOpThreads", 0, 1024);
  const backend = backendOf(path, options);
  return backend === "onnxruntime" ? loadOnnxRunner(path, options) : loadTensorRtRunner(path, options);
}
