/**
 * An ONNX Runtime session's thread (the worker onnx-session-thread.ts starts): loads the model
 * named in `workerData` ({@link SessionThreadData}) and answers each {@link SessionRequest} with a
 * {@link SessionReply}. Inferences run one at a time, in the order they were posted
 * (onnxruntime-node runs a session synchronously on the thread that calls it).
 *
 * Bundled on its own (`ds-element build-host` writes onnx-session-worker.js beside host.js):
 * a worker runs a file, and this one must run the same from the SDK, an element's dist/ and
 * the SDK's tests.
 *
 * @internal
 */
import { readFileSync } from "node:fs";
import { parentPort, workerData } from "node:worker_threads";
import { openHostView, type HostView } from "../native/loader.js";
import type { SessionInput, SessionOutput, SessionReply, SessionRequest, SessionThreadData } from "./onnx-session-thread.js";

/** The parts of onnxruntime-node this thread uses. */
interface OrtTensor {
  readonly type: string;
  readonly dims: readonly number[];
  readonly data: unknown;
}
interface OrtSession {
  readonly inputNames: readonly string[];
  readonly outputNames: readonly string[];
  readonly inputMetadata: Extract<SessionReply, { kind: "loaded" }>["inputMetadata"];
  readonly outputMetadata: Extract<SessionReply, { kind: "loaded" }>["outputMetadata"];
  run(feeds: Record<string, OrtTensor>): Promise<Record<string, OrtTensor | undefined>>;
  release(): Promise<void>;
}
interface Ort {
  InferenceSession: { create(model: Uint8Array, options: Readonly<Record<string, unknown>>): Promise<OrtSession> };
  Tensor: new (type: string, data: ArrayBufferView, dims: readonly number[]) => OrtTensor;
}

type TypedArrayClass = new (buffer: ArrayBuffer, byteOffset: number, length: number) => ArrayBufferView;

/** The typed array of each ONNX element type an input may have (`bool` held as uint8). */
const ARRAYS: Record<string, TypedArrayClass & { readonly BYTES_PER_ELEMENT: number }> = {
  float32: Float32Array,
  float64: Float64Array,
  float16: Uint16Array,
  int8: Int8Array,
  uint8: Uint8Array,
  bool: Uint8Array,
  int16: Int16Array,
  uint16: Uint16Array,
  int32: Int32Array,
  uint32: Uint32Array,
  int64: BigInt64Array,
  uint64: BigUint64Array,
};

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

const port = parentPort;
if (port === null) throw new Error("onnx-session-worker runs as a worker thread (started by SessionThread)");
const data = workerData as SessionThreadData;
const reply = (message: SessionReply, transfer?: ArrayBuffer[]): void => port.postMessage(message, transfer);

let ort: Ort;
let session: OrtSession;
let view: HostView;

async function load(): Promise<boolean> {
  let stage: "binding" | "package" | "model" = "binding";
  try {
    view = openHostView(data.libraryPath);
    stage = "package";
    ort = require(data.ortPath) as Ort;
    stage = "model";
    session = await ort.InferenceSession.create(readFileSync(data.modelPath), data.sessionOptions);
  } catch (error) {
    reply({ kind: "load-failed", stage, message: messageOf(error) });
    return false;
  }
  const { inputNames, outputNames, inputMetadata, outputMetadata } = session;
  reply({ kind: "loaded", inputNames, outputNames, inputMetadata, outputMetadata });
  return true;
}

async function infer(id: number, inputs: readonly SessionInput[]): Promise<void> {
  let results: Record<string, OrtTensor | undefined>;
  try {
    const feeds: Record<string, OrtTensor> = {};
    for (const input of inputs) {
      const Array = ARRAYS[input.type];
      if (Array === undefined) throw new Error(`input "${input.name}" has type ${input.type}, which cannot be fed from a tensor`);
      const memory = input.byteLength === 0 ? new ArrayBuffer(0) : view(input.address, input.byteLength);
      feeds[input.name] = new ort.Tensor(input.type, new Array(memory, 0, input.byteLength / Array.BYTES_PER_ELEMENT), input.dims);
    }
    results = await session.run(feeds);
  } catch (error) {
    reply({ kind: "failed", id, message: messageOf(error) });
    return;
  }
  const outputs: SessionOutput[] = [];
  const transfer = new Set<ArrayBuffer>();
  for (const name of session.outputNames) {
    const value = results[name];
    if (value === undefined) continue;
    outputs.push({ name, type: value.type, dims: value.dims, data: value.data });
    if (ArrayBuffer.isView(value.data) && value.data.buffer instanceof ArrayBuffer) transfer.add(value.data.buffer);
  }
  reply({ kind: "result", id, outputs }, [...transfer]);
}

const loading = load();
port.on("message", (request: SessionRequest) => {
  if (request.kind === "infer") {
    void infer(request.id, request.inputs);
  } else {
    // The runner asks only once no inference is in flight.
    void loading.then(async (loaded) => {
      if (loaded) await session.release();
      port.close();
    });
  }
});
