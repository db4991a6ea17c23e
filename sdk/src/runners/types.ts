import type { TensorHandle } from "../tensor/tensor-handle.js";
import type { DType } from "../tensor/types.js";

/**
 * The inference backends {@link loadRunner} knows: TensorRT for serialized engines
 * (`.engine`, `.plan`), ONNX Runtime (CPU, through `onnxruntime-node`) for `.onnx` models.
 *
 * @example
 * ```ts
 * const backend: RunnerBackend = runner.backend; // "onnxruntime" or "tensorrt"
 * ```
 */
export type RunnerBackend = "onnxruntime" | "tensorrt";

/**
 * One input or output of a model, as the model declares it.
 *
 * @example
 * ```ts
 * const [input] = runner.inputs;          // { name: "images", dtype: "float32", shape: [1, 3, 640, 640] }
 * const [, , height, width] = input!.shape;
 * ```
 */
export interface TensorInfo {
  /** The model's name for it (`"images"`, `"output0"`, …). */
  readonly name: string;
  /**
   * Element type. Inputs and outputs the SDK's tensors cannot hold (bool, float64, strings…)
   * are listed with the model's own type name; a model with such an *input* cannot be fed.
   */
  readonly dtype: DType | (string & {});
  /** Dimensions; `-1` for a dynamic one (its name, if the model gives one, is in `dimNames`). */
  readonly shape: readonly number[];
  /** Names of the dynamic dimensions (`"batch"`), `undefined` where the model names none or the dimension is fixed. */
  readonly dimNames: readonly (string | undefined)[];
}

/**
 * Options of {@link loadRunner}. Each backend takes the ones that concern it and ignores the rest.
 *
 * @example
 * ```ts
 * const runner = await loadRunner("yolo.engine", { deviceId: 1, maxConcurrency: 4 });
 * const cpu = await loadRunner("yolo.onnx", { intraOpThreads: 2 });
 * ```
 */
export interface LoadRunnerOptions {
  /** The backend; default: from the file extension (`.onnx` → onnxruntime, `.engine`/`.plan` → tensorrt). */
  backend?: RunnerBackend;
  /** TensorRT: the CUDA device the engine runs on (default 0); inputs must be on it. */
  deviceId?: number;
  /** TensorRT: execution contexts, i.e. inferences bound and enqueued at once (1–64, default 2). */
  maxConcurrency?: number;
  /** TensorRT: the optimisation profile every context uses (default 0). */
  profile?: number;
  /** ONNX Runtime: threads of one inference (default: ONNX Runtime's choice, one per core). */
  intraOpThreads?: number;
}

/**
 * The inputs of {@link Runner.infer}: tensors in the order of {@link Runner.inputs}, or keyed by
 * input name.
 *
 * @example
 * ```ts
 * await runner.infer([tensor]);
 * await runner.infer({ images: tensor });
 * ```
 */
export type RunnerInputs = readonly TensorHandle[] | Readonly<Record<string, TensorHandle>>;

/**
 * A loaded model. Made by {@link loadRunner}; `InferenceElement` owns one for its `model`
 * property.
 *
 * @example
 * ```ts
 * const runner = await loadRunner("/models/yolov8n.onnx");
 * const [output] = await runner.infer([tensor]);   // owned TensorHandles, in runner.outputs' order
 * try {
 *   const [candidates] = decodeYolo({ data: output!.toTypedArray() as Float32Array, dims: output!.shape });
 * } finally {
 *   output!.dispose();
 * }
 * await runner.dispose();
 * ```
 */
export interface Runner {
  /** Which backend runs the model. */
  readonly backend: RunnerBackend;
  /** The model file, as given to {@link loadRunner}. */
  readonly path: string;
  /** The model's inputs, in its order. */
  readonly inputs: readonly TensorInfo[];
  /** The model's outputs, in its order (the order {@link Runner.infer} returns them in). */
  readonly outputs: readonly TensorInfo[];
  /**
   * Runs the model once. Every input must be given once, with the model's dtype and a shape
   * its dimensions allow; ONNX Runtime takes host tensors (`"cpu"`, `"cuda_host"`), TensorRT
   * CUDA tensors on its device. Inputs are read in place (no copy). Resolves with one owned
   * tensor per output: host tensors from ONNX Runtime, CUDA tensors from TensorRT (read them
   * with `toHost()`); dispose them when done.
   */
  infer(inputs: RunnerInputs): Promise<TensorHandle[]>;
  /** Frees the model once the inferences in flight have finished; later `infer` calls reject. Idempotent. */
  dispose(): Promise<void>;
}
