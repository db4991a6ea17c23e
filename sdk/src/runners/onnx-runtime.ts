/**
 * The ONNX Runtime backend: `.onnx` models on the CPU through the npm package
 * `onnxruntime-node`, which the element's project depends on (the SDK does not: most elements
 * never load a model, and the package is 45 MB). Each runner's session lives on a thread of its
 * own (onnx-session-thread.ts), so neither loading a model nor an inference holds up the JS
 * thread; inputs are read there in place, outputs come back without a copy.
 */
import type { Stats } from "node:fs";
import { stat } from "node:fs/promises";
import { createRequire } from "node:module";
import { expectedMessage } from "../errors/describe-value.js";
import { InvalidValueError, RunnerError } from "../errors/errors.js";
import { nativeBindings } from "../native/installed-bindings.js";
import type { NativeTensorSource } from "../native/tensor-binding.js";
import { nativeTensorSource, TensorHandle } from "../tensor/tensor-handle.js";
import { DTYPES, type DType } from "../tensor/types.js";
import { SessionThread, type Loaded, type SessionInput, type SessionOutput, type SessionValueMetadata } from "./onnx-session-thread.js";
import { checkedInputs, describeShape, InflightCounter } from "./runner-inputs.js";
import type { LoadRunnerOptions, Runner, RunnerInputs, TensorInfo } from "./types.js";

const PACKAGE = "onnxruntime-node";

function loadError(path: string, reason: string, cause?: unknown): RunnerError {
  return new RunnerError("ERR_DS_ELEMENT_RUNNER_LOAD", `Cannot load the ONNX model ${path}: ${reason}`, cause === undefined ? undefined : { cause });
}

function packageMissing(path: string, reason: string, cause?: unknown): RunnerError {
  return loadError(
    path,
    `the ONNX Runtime backend needs the npm package ${PACKAGE}, which could not be loaded (${reason.split("\n")[0]}): ` +
      `add it to the element's project (\`npm install ${PACKAGE}\`) and run \`ds-element build\` again`,
    cause,
  );
}

/**
 * onnxruntime-node's main file, resolved from this file: inside a built element that is the
 * bundle, whose node_modules/ holds the copy `ds-element build` made; in a project's tests, the
 * project's node_modules. The name is a variable so that bundlers leave the lookup alone.
 */
function resolveOnnxRuntime(path: string): string {
  const name = PACKAGE;
  try {
    return createRequire(__filename).resolve(name);
  } catch (error) {
    throw packageMissing(path, (error as Error).message, error);
  }
}

/** ONNX type names the SDK's tensors hold as they are; bool is held as uint8 (0 or 1). */
function dtypeOf(type: string | undefined): DType | string {
  if (type === "bool") return "uint8";
  return type ?? "unknown";
}

function infoOf(metadata: SessionValueMetadata | undefined, name: string): TensorInfo {
  const shape: number[] = [];
  const dimNames: (string | undefined)[] = [];
  for (const dim of metadata?.shape ?? []) {
    const fixed = typeof dim === "number" && dim >= 0;
    shape.push(fixed ? dim : -1);
    dimNames.push(fixed ? undefined : typeof dim === "string" && dim !== "" ? dim : undefined);
  }
  const dtype = metadata?.isTensor === false ? "non-tensor" : dtypeOf(metadata?.type);
  return Object.freeze({ name, dtype, shape: Object.freeze(shape), dimNames: Object.freeze(dimNames) });
}

/** What a path that is neither a file nor a directory is, for messages. */
function specialFileKind(info: Stats): string {
  if (info.isCharacterDevice()) return "a character device";
  if (info.isBlockDevice()) return "a block device";
  if (info.isFIFO()) return "a FIFO";
  if (info.isSocket()) return "a socket";
  return "not a file";
}

/** The file's own problems, named before a thread is started for it. */
async function checkModelFile(path: string): Promise<void> {
  let info;
  try {
    info = await stat(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw loadError(path, code === "ENOENT" ? "no such file" : (error as Error).message, error);
  }
  if (info.isDirectory()) throw loadError(path, "it is a directory");
  // A device or FIFO has no size, and reading one never ends (/dev/zero) or waits for a writer.
  if (!info.isFile()) throw loadError(path, `it is not a regular file (${specialFileKind(info)})`);
  if (info.size === 0) throw loadError(path, "the file is empty");
}

/** What the runner needs of the native binding: holds on the inputs' memory while the thread reads it. */
interface Holds {
  hold(source: NativeTensorSource): object;
  letGo(hold: object): void;
}

/** The binding's holds and the library the session thread loads it from. */
function nativeParts(path: string): { holds: Holds; libraryPath: string } {
  try {
    const { tensor, libraryPath } = nativeBindings("the ONNX Runtime backend");
    return { holds: { hold: tensor.hold, letGo: tensor.letGo }, libraryPath };
  } catch (error) {
    throw loadError(path, `its ONNX Runtime thread needs ds-element's native binding: ${(error as Error).message}`, error);
  }
}

/** Ends the threads of runners collected without dispose(). */
const threads = new FinalizationRegistry<SessionThread>((thread) => thread.terminate());

class OnnxRuntimeRunner implements Runner {
  readonly backend = "onnxruntime" as const;
  readonly inputs: readonly TensorInfo[];
  readonly outputs: readonly TensorInfo[];
  /** ONNX Runtime's element type of each input (bool inputs take uint8 tensors). */
  readonly #inputTypes: readonly string[];
  readonly #thread: SessionThread;
  readonly #holds: Holds;
  readonly #inflight = new InflightCounter();
  #disposing: Promise<void> | undefined;

  constructor(
    readonly path: string,
    thread: SessionThread,
    loaded: Loaded,
    holds: Holds,
  ) {
    this.#thread = thread;
    this.#holds = holds;
    const inputMeta = new Map(loaded.inputMetadata.map((meta) => [meta.name, meta]));
    const outputMeta = new Map(loaded.outputMetadata.map((meta) => [meta.name, meta]));
    this.inputs = Object.freeze(loaded.inputNames.map((name) => infoOf(inputMeta.get(name), name)));
    this.outputs = Object.freeze(loaded.outputNames.map((name) => infoOf(outputMeta.get(name), name)));
    this.#inputTypes = loaded.inputNames.map((name) => inputMeta.get(name)?.type ?? "unknown");
    threads.register(this, thread, this);
  }

  async infer(inputs: RunnerInputs): Promise<TensorHandle[]> {
    if (this.#disposing !== undefined) {
      throw new RunnerError(
        "ERR_DS_ELEMENT_RUNNER_DISPOSED",
        `Expected a live runner for infer but received one disposed by dispose() (${this.path})`,
      );
    }
    const ordered = checkedInputs(this.inputs, inputs, this.path, checkHostTensor);
    const failure = this.#thread.failure;
    if (failure !== undefined) throw inferenceFailed(this.path, failure);
    const requests = ordered.map(
      (tensor, index): SessionInput => ({
        name: this.inputs[index]!.name,
        type: this.#inputTypes[index]!,
        dims: tensor.shape,
        address: tensor.dataPtr + BigInt(tensor.byteOffset),
        byteLength: tensor.byteLength,
      }),
    );
    // Each input's memory (an owned tensor's block, a frame's GstMemory) stays while the thread
    // reads it, even if the caller disposes the tensor or its call ends first.
    const holds = ordered.map((tensor, index) => this.#holds.hold(nativeTensorSource(tensor, `input "${this.inputs[index]!.name}"`)));
    this.#inflight.enter();
    let results: readonly SessionOutput[];
    try {
      results = await this.#thread.infer(requests);
    } catch (error) {
      const failed = inferenceFailed(this.path, (error as Error).message, error);
      Error.captureStackTrace(failed, OnnxRuntimeRunner.prototype.infer);
      throw failed;
    } finally {
      for (const held of holds) this.#holds.letGo(held);
      this.#inflight.leave();
    }
    const byName = new Map(results.map((output) => [output.name, output]));
    return this.outputs.map((info) => outputTensor(byName.get(info.name), info.name, this.path));
  }

  dispose(): Promise<void> {
    this.#disposing ??= this.#inflight.idle().then(() => {
      threads.unregister(this);
      return this.#thread.release();
    });
    return this.#disposing;
  }
}

function inferenceFailed(path: string, reason: string, cause?: unknown): RunnerError {
  return new RunnerError("ERR_DS_ELEMENT_RUNNER_FAILED", `ONNX Runtime inference on ${path} failed: ${reason}`, cause === undefined ? undefined : { cause });
}

function checkHostTensor(tensor: TensorHandle, name: string, path: string): void {
  if (tensor.device.type === "cuda") {
    throw new InvalidValueError(
      expectedMessage(
        "a host tensor (cpu or cuda_host)",
        name,
        `a tensor on cuda:${tensor.device.id} (ONNX Runtime runs ${path} on the CPU here: copy the tensor with toHost(), or use a TensorRT engine)`,
      ),
    );
  }
}

function outputTensor(value: SessionOutput | undefined, name: string, path: string): TensorHandle {
  if (value === undefined) {
    throw new RunnerError("ERR_DS_ELEMENT_RUNNER_FAILED", `ONNX Runtime inference on ${path} returned no output "${name}"`);
  }
  const type = value.type === "bool" ? "uint8" : value.type;
  if (!DTYPES.includes(type as DType) || !ArrayBuffer.isView(value.data)) {
    throw new RunnerError(
      "ERR_DS_ELEMENT_RUNNER_FAILED",
      `ONNX Runtime inference on ${path}: output "${name}" is ${value.type}, which a TensorHandle cannot hold ` +
        `(${DTYPES.join(", ")}, and bool as uint8): change the model's output type`,
    );
  }
  const data = value.data;
  const array = type === "uint8" && !(data instanceof Uint8Array) ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength) : data;
  return TensorHandle.fromTypedArray(array, value.dims, { dtype: type as DType });
}

/** @internal loadRunner's ONNX Runtime branch. */
export async function loadOnnxRunner(path: string, options: LoadRunnerOptions): Promise<Runner> {
  const ortPath = resolveOnnxRuntime(path);
  await checkModelFile(path);
  const sessionOptions: Record<string, unknown> = { executionProviders: ["cpu"], graphOptimizationLevel: "all" };
  if (options.intraOpThreads !== undefined) sessionOptions.intraOpNumThreads = options.intraOpThreads;
  const { holds, libraryPath } = nativeParts(path);
  const thread = new SessionThread({ ortPath, libraryPath, modelPath: path, sessionOptions });
  let loaded: Loaded;
  try {
    loaded = await thread.loaded;
  } catch (error) {
    thread.terminate();
    const { message, stage } = error as Error & { stage?: string };
    if (stage === "package") throw packageMissing(path, message, error);
    if (stage === "model") throw loadError(path, `ONNX Runtime refused it: ${message}`, error);
    throw loadError(path, `its ONNX Runtime thread did not start: ${message}`, error);
  }
  const runner = new OnnxRuntimeRunner(path, thread, loaded, holds);
  const unusable = runner.inputs.find((input) => !DTYPES.includes(input.dtype as DType));
  if (unusable !== undefined) {
    await runner.dispose();
    throw loadError(
      path,
      `input "${unusable.name}" is ${unusable.dtype} ${describeShape(unusable.shape)}, which a TensorHandle cannot hold (${DTYPES.join(", ")})`,
    );
  }
  return runner;
}
