/**
 * The ONNX Runtime backend: `.onnx` models on the CPU through the npm package
 * `onnxruntime-node`, which the element's project depends on (the SDK does not: most elements
 * never load a model, and the package is 45 MB). Inputs are read in place: an ONNX Runtime
 * tensor is made over the TensorHandle's own memory.
 *
 * onnxruntime-node runs sessions synchronously on the thread that calls them (the JS thread):
 * creating a session and each inference keep that thread busy for their duration. The file is
 * read asynchronously first, so only the graph's own set-up counts.
 */
import { readFile, stat } from "node:fs/promises";
import { createRequire } from "node:module";
import { expectedMessage } from "../errors/describe-value.js";
import { InvalidValueError, RunnerError } from "../errors/errors.js";
import { TensorHandle } from "../tensor/tensor-handle.js";
import { DTYPES, type DType } from "../tensor/types.js";
import { checkedInputs, describeShape, InflightCounter } from "./runner-inputs.js";
import type { LoadRunnerOptions, Runner, RunnerInputs, TensorInfo } from "./types.js";

/** The parts of onnxruntime-node's API this backend uses (it ships its own types; the SDK does not depend on it). */
interface OrtTensor {
  readonly type: string;
  readonly dims: readonly number[];
  readonly data: unknown;
}
interface OrtValueMetadata {
  readonly name: string;
  readonly isTensor: boolean;
  readonly type?: string;
  readonly shape?: readonly (number | string)[];
}
interface OrtSession {
  readonly inputNames: readonly string[];
  readonly outputNames: readonly string[];
  readonly inputMetadata?: readonly OrtValueMetadata[];
  readonly outputMetadata?: readonly OrtValueMetadata[];
  run(feeds: Record<string, OrtTensor>): Promise<Record<string, OrtTensor>>;
  release(): Promise<void>;
}
interface OrtModule {
  readonly InferenceSession: { create(model: Uint8Array, options?: Record<string, unknown>): Promise<OrtSession> };
  readonly Tensor: new (type: string, data: unknown, dims: readonly number[]) => OrtTensor;
}

const PACKAGE = "onnxruntime-node";
let ort: OrtModule | undefined;

/**
 * onnxruntime-node, resolved from this file: inside a built element that is the bundle, whose
 * node_modules/ holds the copy `ds-element build` made; in a project's tests, the project's
 * node_modules. The name is a variable so that bundlers leave the require alone.
 */
function requireOnnxRuntime(path: string): OrtModule {
  if (ort !== undefined) return ort;
  const name = PACKAGE;
  try {
    ort = createRequire(__filename)(name) as OrtModule;
  } catch (error) {
    throw new RunnerError(
      "ERR_DS_ELEMENT_RUNNER_LOAD",
      `Cannot load the ONNX model ${path}: the ONNX Runtime backend needs the npm package ${PACKAGE}, ` +
        `which could not be loaded (${(error as Error).message.split("\n")[0]}): add it to the element's project ` +
        `(\`npm install ${PACKAGE}\`) and run \`ds-element build\` again`,
      { cause: error },
    );
  }
  return ort;
}

/** ONNX type names the SDK's tensors hold as they are; bool is held as uint8 (0 or 1). */
function dtypeOf(type: string | undefined): DType | string {
  if (type === "bool") return "uint8";
  return type ?? "unknown";
}

function infoOf(metadata: OrtValueMetadata | undefined, name: string): TensorInfo {
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

async function readModel(path: string): Promise<Uint8Array> {
  const fail = (reason: string, cause?: unknown): never => {
    throw new RunnerError("ERR_DS_ELEMENT_RUNNER_LOAD", `Cannot load the ONNX model ${path}: ${reason}`, { cause });
  };
  let size = 0;
  try {
    const info = await stat(path);
    if (info.isDirectory()) fail("it is a directory");
    size = info.size;
  } catch (error) {
    if (error instanceof RunnerError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    fail(code === "ENOENT" ? "no such file" : (error as Error).message, error);
  }
  if (size === 0) fail("the file is empty");
  return readFile(path);
}

class OnnxRuntimeRunner implements Runner {
  readonly backend = "onnxruntime" as const;
  readonly inputs: readonly TensorInfo[];
  readonly outputs: readonly TensorInfo[];
  #session: OrtSession | undefined;
  readonly #inflight = new InflightCounter();
  #disposing: Promise<void> | undefined;

  constructor(
    readonly path: string,
    session: OrtSession,
    private readonly module: OrtModule,
  ) {
    this.#session = session;
    const inputMeta = new Map((session.inputMetadata ?? []).map((meta) => [meta.name, meta]));
    const outputMeta = new Map((session.outputMetadata ?? []).map((meta) => [meta.name, meta]));
    this.inputs = Object.freeze(session.inputNames.map((name) => infoOf(inputMeta.get(name), name)));
    this.outputs = Object.freeze(session.outputNames.map((name) => infoOf(outputMeta.get(name), name)));
  }

  async infer(inputs: RunnerInputs): Promise<TensorHandle[]> {
    const session = this.#session;
    if (session === undefined || this.#disposing !== undefined) {
      throw new RunnerError(
        "ERR_DS_ELEMENT_RUNNER_DISPOSED",
        `Expected a live runner for infer but received one disposed by dispose() (${this.path})`,
      );
    }
    const ordered = checkedInputs(this.inputs, inputs, this.path, checkHostTensor);
    const feeds: Record<string, OrtTensor> = {};
    for (const [index, info] of this.inputs.entries()) {
      const tensor = ordered[index]!;
      // The typed array is a view of the handle's own memory: ONNX Runtime reads it in place.
      feeds[info.name] = new this.module.Tensor(tensor.dtype, tensor.toTypedArray(), tensor.shape);
    }
    this.#inflight.enter();
    let results: Record<string, OrtTensor>;
    try {
      results = await session.run(feeds);
    } catch (error) {
      throw new RunnerError(
        "ERR_DS_ELEMENT_RUNNER_FAILED",
        `ONNX Runtime inference on ${this.path} failed: ${(error as Error).message}`,
        { cause: error },
      );
    } finally {
      this.#inflight.leave();
    }
    return this.outputs.map((info) => outputTensor(results[info.name], info.name, this.path));
  }

  dispose(): Promise<void> {
    this.#disposing ??= this.#inflight.idle().then(async () => {
      const session = this.#session;
      this.#session = undefined;
      await session?.release();
    });
    return this.#disposing;
  }
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

function outputTensor(value: OrtTensor | undefined, name: string, path: string): TensorHandle {
  if (value === undefined) {
    throw new RunnerError("ERR_DS_ELEMENT_RUNNER_FAILED", `ONNX Runtime inference on ${path} returned no output "${name}"`);
  }
  const type = value.type === "bool" ? "uint8" : value.type;
  if (!DTYPES.includes(type as DType)) {
    throw new RunnerError(
      "ERR_DS_ELEMENT_RUNNER_FAILED",
      `ONNX Runtime inference on ${path}: output "${name}" is ${value.type}, which a TensorHandle cannot hold ` +
        `(${DTYPES.join(", ")}, and bool as uint8): change the model's output type`,
    );
  }
  const data = value.data as ArrayBufferView;
  const array = type === "uint8" && !(data instanceof Uint8Array) ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength) : data;
  return TensorHandle.fromTypedArray(array, value.dims, { dtype: type as DType });
}

/** @internal loadRunner's ONNX Runtime branch. */
export async function loadOnnxRunner(path: string, options: LoadRunnerOptions): Promise<Runner> {
  const module = requireOnnxRuntime(path);
  const bytes = await readModel(path);
  const sessionOptions: Record<string, unknown> = { executionProviders: ["cpu"], graphOptimizationLevel: "all" };
  if (options.intraOpThreads !== undefined) sessionOptions.intraOpNumThreads = options.intraOpThreads;
  let session: OrtSession;
  try {
    session = await module.InferenceSession.create(bytes, sessionOptions);
  } catch (error) {
    throw new RunnerError(
      "ERR_DS_ELEMENT_RUNNER_LOAD",
      `Cannot load the ONNX model ${path}: ONNX Runtime refused it: ${(error as Error).message}`,
      { cause: error },
    );
  }
  const runner = new OnnxRuntimeRunner(path, session, module);
  const unusable = runner.inputs.find((input) => !DTYPES.includes(input.dtype as DType));
  if (unusable !== undefined) {
    await session.release();
    throw new RunnerError(
      "ERR_DS_ELEMENT_RUNNER_LOAD",
      `Cannot load the ONNX model ${path}: input "${unusable.name}" is ${unusable.dtype} ${describeShape(unusable.shape)}, ` +
        `which a TensorHandle cannot hold (${DTYPES.join(", ")})`,
    );
  }
  return runner;
}
