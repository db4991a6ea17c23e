/**
 * The TensorRT backend: serialized engines (`.engine`, `.plan`) through the native runner
 * (native-host/src/runners/, docs/internals/runners.md), built where TensorRT >= 10 was found.
 * Loading and every inference run off the JS thread; inputs are bound by device pointer and
 * outputs are CUDA tensors of the runner's pool.
 */
import { InvalidValueError, RunnerError } from "../errors/errors.js";
import { runnerBinding } from "../native/installed-bindings.js";
import type { NativeEngineOutput, NativeEngineTensor, NativeTensorRTRunner } from "../native/runner-binding.js";
import { deviceTensorFromRunner, type TensorHandle } from "../tensor/tensor-handle.js";
import { DTYPES, type DType } from "../tensor/types.js";
import { checkedInputs } from "./runner-inputs.js";
import type { LoadRunnerOptions, Runner, RunnerInputs, TensorInfo } from "./types.js";

function infoOf(tensor: NativeEngineTensor): TensorInfo {
  return Object.freeze({
    name: tensor.name,
    dtype: tensor.dtype,
    shape: Object.freeze([...tensor.shape]),
    dimNames: Object.freeze(tensor.shape.map(() => undefined)),
  });
}

/** The native runner checks devices, shapes against the optimisation profile and alignment itself. */
function checkCudaTensor(tensor: TensorHandle, name: string, path: string): void {
  if (tensor.device.type !== "cuda") {
    throw new InvalidValueError(
      `Expected a CUDA tensor for ${name} but received a ${tensor.device.type} tensor (TensorRT runs ${path} on the GPU: ` +
        "extract frames from video/x-raw(memory:NVMM) or (memory:CUDAMemory) caps, or load an .onnx model for the CPU)",
    );
  }
}

function outputTensor(output: NativeEngineOutput, deviceId: number, path: string): TensorHandle {
  if (!DTYPES.includes(output.dtype as DType)) {
    output.release();
    throw new RunnerError(
      "ERR_DS_ELEMENT_RUNNER_FAILED",
      `TensorRT inference on ${path}: output "${output.name}" is ${output.dtype}, which a TensorHandle cannot hold (${DTYPES.join(", ")})`,
    );
  }
  return deviceTensorFromRunner({
    deviceId,
    dtype: output.dtype as DType,
    shape: output.shape,
    dataPtr: output.devicePointer,
    byteLength: output.byteLength,
    release: () => output.release(),
  });
}

class TensorRtRunner implements Runner {
  readonly backend = "tensorrt" as const;
  readonly inputs: readonly TensorInfo[];
  readonly outputs: readonly TensorInfo[];
  #disposed = false;

  constructor(
    readonly path: string,
    private readonly native: NativeTensorRTRunner,
  ) {
    this.inputs = Object.freeze(native.inputs.map(infoOf));
    this.outputs = Object.freeze(native.outputs.map(infoOf));
  }

  async infer(inputs: RunnerInputs): Promise<TensorHandle[]> {
    if (this.#disposed) {
      throw new RunnerError("ERR_DS_ELEMENT_RUNNER_DISPOSED", `Expected a live runner for infer but received one disposed by dispose() (${this.path})`);
    }
    // Dynamic dimensions are -1 here; the native runner checks them against the profile.
    const ordered = checkedInputs(this.inputs, inputs, this.path, checkCudaTensor);
    const named: Record<string, TensorHandle> = {};
    for (const [index, info] of this.inputs.entries()) named[info.name] = ordered[index]!;
    let outputs: NativeEngineOutput[];
    try {
      outputs = await this.native.infer(named);
    } catch (error) {
      // Completions arrive from the GPU with no user frame: give the error the caller's stack.
      if (error instanceof Error) Error.captureStackTrace(error, TensorRtRunner.prototype.infer);
      throw error;
    }
    return outputs.map((output) => outputTensor(output, this.native.deviceId, this.path));
  }

  dispose(): Promise<void> {
    if (!this.#disposed) {
      this.#disposed = true;
      this.native.dispose();
    }
    return Promise.resolve();
  }
}

/** @internal loadRunner's TensorRT branch. */
export async function loadTensorRtRunner(path: string, options: LoadRunnerOptions): Promise<Runner> {
  let binding: ReturnType<typeof runnerBinding>;
  try {
    binding = runnerBinding("the TensorRT backend");
  } catch (error) {
    throw new RunnerError("ERR_DS_ELEMENT_RUNNER_LOAD", `Cannot load the TensorRT engine ${path}: ${(error as Error).message}`, { cause: error });
  }
  if (typeof binding.loadTensorRT !== "function") {
    throw new RunnerError(
      "ERR_DS_ELEMENT_RUNNER_LOAD",
      `Cannot load the TensorRT engine ${path}: this build of ds-element-native has no TensorRT runner (TensorRT >= 10 was not ` +
        "found when it was built): install TensorRT and rebuild with `TENSORRT_ROOT=<TensorRT folder> npm run build -w ds-element-native`, " +
        "or load an .onnx model (ONNX Runtime, CPU)",
    );
  }
  const native = await binding.loadTensorRT(path, {
    ...(options.deviceId !== undefined && { deviceId: options.deviceId }),
    ...(options.maxConcurrency !== undefined && { maxConcurrency: options.maxConcurrency }),
    ...(options.profile !== undefined && { profile: options.profile }),
  });
  return new TensorRtRunner(path, native);
}
