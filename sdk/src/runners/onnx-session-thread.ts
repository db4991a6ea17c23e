/**
 * An ONNX Runtime session's own thread: the messages it speaks and the JS thread's end of it.
 * onnxruntime-node creates sessions and runs them synchronously on the thread that calls it;
 * run on the JS thread, a model's set-up (graph optimisation, seconds for a large model) and
 * every inference would hold up every element of the process. So each runner's session lives
 * in a worker thread of its own (onnx-session-worker.ts): loading a new model in the background
 * leaves the old one inferring, and the JS thread only posts messages.
 *
 * Inputs are read in place: the runner sends each input's host address and the worker views
 * that memory through the native binding (`tensor.hostView`), while the runner keeps the memory
 * alive with a DLPack capsule until the answer arrives. (onnxruntime-node refuses tensors over a
 * SharedArrayBuffer, so memory cannot be shared the plain JS way.) Outputs are ArrayBuffers the
 * worker transfers back: moved, not copied.
 *
 * @internal
 */
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { Worker } from "node:worker_threads";
import { sdkRoot } from "../cli/sdk-root.js";
import { RUNTIME_KEY_V1, type RuntimeInfoV1 } from "../native/runtime-binding.js";

/** The file `ds-element build-host` bundles onnx-session-worker.ts into, beside host.js. */
export const SESSION_WORKER_FILE = "onnx-session-worker.js";

/**
 * Where the worker's bundle is: beside host.js inside GStreamer (an element's dist/dsnode/,
 * which the runtime's bootstrap names); in the SDK's dist/ elsewhere (ds-element/testing, the
 * SDK's own tests, which run after its build).
 */
export function sessionWorkerPath(): string {
  const runtime = (globalThis as Record<symbol, Partial<RuntimeInfoV1> | undefined>)[RUNTIME_KEY_V1];
  const hostJs = runtime?.hostJsPath;
  const path = typeof hostJs === "string" && hostJs !== "" ? join(dirname(hostJs), SESSION_WORKER_FILE) : join(sdkRoot(), "dist", SESSION_WORKER_FILE);
  if (!existsSync(path)) {
    throw new Error(
      `Expected the ONNX Runtime session worker at ${path} but received no such file: ` +
        "build the SDK (`npm run build -w ds-element`) or the element (`ds-element build`) again",
    );
  }
  return path;
}

/** What the thread is started with (`workerData`). */
export interface SessionThreadData {
  /** onnxruntime-node's main file, resolved by the runner. */
  readonly ortPath: string;
  /** The binary the native bindings come from (NativeBindings.libraryPath). */
  readonly libraryPath: string;
  readonly modelPath: string;
  /** ONNX Runtime's session options. */
  readonly sessionOptions: Readonly<Record<string, unknown>>;
}

/** An input or output as onnxruntime-node describes it. */
export interface SessionValueMetadata {
  readonly name: string;
  readonly isTensor: boolean;
  readonly type?: string;
  readonly shape?: readonly (number | string)[];
}

/** One input of an inference: memory of the main thread, read in place. */
export interface SessionInput {
  readonly name: string;
  /** ONNX Runtime's element type name (`"bool"` for bool inputs held as uint8). */
  readonly type: string;
  readonly dims: readonly number[];
  /** Host address of the first element. */
  readonly address: bigint;
  readonly byteLength: number;
}

/** One output, its memory transferred to the main thread. */
export interface SessionOutput {
  readonly name: string;
  readonly type: string;
  readonly dims: readonly number[];
  readonly data: unknown;
}

/** Runner → thread. */
export type SessionRequest = { readonly kind: "infer"; readonly id: number; readonly inputs: readonly SessionInput[] } | { readonly kind: "release" };

/** Thread → runner. `stage` says which part of loading failed. */
export type SessionReply =
  | {
      readonly kind: "loaded";
      readonly inputNames: readonly string[];
      readonly outputNames: readonly string[];
      readonly inputMetadata: readonly SessionValueMetadata[];
      readonly outputMetadata: readonly SessionValueMetadata[];
    }
  | { readonly kind: "load-failed"; readonly stage: "binding" | "package" | "model"; readonly message: string }
  | { readonly kind: "result"; readonly id: number; readonly outputs: readonly SessionOutput[] }
  | { readonly kind: "failed"; readonly id: number; readonly message: string };

/** What the thread answers once the session is set up. */
export type Loaded = Extract<SessionReply, { kind: "loaded" }>;

interface Pending {
  resolve(outputs: readonly SessionOutput[]): void;
  reject(error: Error): void;
}

/**
 * The JS thread's end of a session thread. Holds no reference to the runner, so a runner
 * dropped without dispose() can be collected (and its thread ended). The worker keeps the
 * process alive only while something waits for it: a load, an inference, the release.
 */
export class SessionThread {
  readonly #worker: Worker;
  readonly #pending = new Map<number, Pending>();
  #nextId = 1;
  readonly #loaded: Promise<Loaded>;
  /** Set when the thread stopped unasked or failed to load: every later call fails with it. */
  #failure: string | undefined;
  readonly #exited: Promise<void>;

  constructor(data: SessionThreadData) {
    this.#worker = new Worker(sessionWorkerPath(), { workerData: data });
    let settleLoad!: { resolve(loaded: Loaded): void; reject(error: Error): void };
    this.#loaded = new Promise((resolve, reject) => (settleLoad = { resolve, reject }));
    this.#exited = new Promise((resolve) => this.#worker.once("exit", () => resolve()));
    this.#worker.on("message", (reply: SessionReply) => {
      switch (reply.kind) {
        case "loaded":
          this.#worker.unref();
          settleLoad.resolve(reply);
          break;
        case "load-failed":
          this.#failure = reply.message;
          settleLoad.reject(Object.assign(new Error(reply.message), { stage: reply.stage }));
          break;
        case "result":
        case "failed":
          this.#settle(reply);
          break;
      }
    });
    const stopped = (reason: string): void => {
      this.#failure ??= `its ONNX Runtime thread stopped (${reason})`;
      settleLoad.reject(new Error(this.#failure));
      for (const [id, pending] of this.#pending) {
        this.#pending.delete(id);
        pending.reject(new Error(this.#failure));
      }
    };
    this.#worker.on("error", (error) => stopped(error.message));
    this.#worker.on("exit", (code) => stopped(`exit code ${code}`));
  }

  /** Resolves with the session's inputs and outputs; rejects with `stage` set when it did not load. */
  get loaded(): Promise<Loaded> {
    return this.#loaded;
  }

  /** Why the thread cannot serve, if it cannot. */
  get failure(): string | undefined {
    return this.#failure;
  }

  infer(inputs: readonly SessionInput[]): Promise<readonly SessionOutput[]> {
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      if (this.#pending.size === 0) this.#worker.ref();
      this.#pending.set(id, { resolve, reject });
      this.#post({ kind: "infer", id, inputs });
    });
  }

  #settle(reply: Extract<SessionReply, { kind: "result" | "failed" }>): void {
    const pending = this.#pending.get(reply.id);
    if (pending === undefined) return;
    this.#pending.delete(reply.id);
    if (this.#pending.size === 0) this.#worker.unref();
    if (reply.kind === "result") pending.resolve(reply.outputs);
    else pending.reject(new Error(reply.message));
  }

  #post(request: SessionRequest): void {
    this.#worker.postMessage(request);
  }

  /** Frees the session and ends the thread; resolves once it has exited. */
  release(): Promise<void> {
    this.#failure ??= "its session was released";
    this.#worker.ref();
    this.#post({ kind: "release" });
    return this.#exited;
  }

  /** Ends the thread at once (a runner collected without dispose()). */
  terminate(): void {
    void this.#worker.terminate();
  }
}
