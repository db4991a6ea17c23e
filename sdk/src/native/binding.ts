/**
 * The native binding's JS surface (docs/internals/host-protocol.md) and the one place that
 * loads it. Runs only inside the embedded Node of libdsnode-runtime.so.0, whose bootstrap
 * (native-host/src/embed/node_embed.cpp) defines `globalThis[Symbol.for("ds-element.runtime.v1")]`
 * = `{ runtimePath, hostJsPath }` before it requires host.js.
 */
import type { Caps } from "../stream/caps.js";
import type { StreamEvent } from "../stream/stream-event.js";
import { META_LAYOUT_VERSION } from "../protocol/transform-state.js";
import type { MetaBinding } from "./meta-binding.js";
import type { RunnerBinding } from "./runner-binding.js";
import type { TensorBinding } from "./tensor-binding.js";

/** The handlers host.js installs; the runtime calls them on the JS thread. */
export interface NativeHandlers {
  /**
   * True when transform() honours its `drainQueues` argument. The runtime then calls it
   * outside a Node callback scope when it can (docs/internals/host-protocol.md), and the
   * handler runs the microtask and nextTick queues itself before it returns.
   */
  readonly drainsQueues?: boolean;
  create(instanceId: number, elementName: string, bundlePath: string, props: Record<string, unknown>): unknown;
  start(instanceId: number): unknown;
  stop(instanceId: number): unknown;
  caps(instanceId: number, caps: Caps): unknown;
  event(instanceId: number, event: StreamEvent): unknown;
  property(instanceId: number, jsName: string, value: unknown): unknown;
  transform(instanceId: number, drainQueues?: boolean): unknown;
  destroy(instanceId: number): void;
  /**
   * Formats where JavaScript was when the runtime interrupted it (a call past its deadline):
   * one `    at function (file:line:column)` line per frame, in the user's sources where the
   * bundle's source map says so. Optional; without it the runtime prints the bundle's positions.
   */
  formatStack?(frames: readonly StackFrame[]): string;
}

/** One frame of a stack the runtime captured (1-based line and column in the script). */
export interface StackFrame {
  function: string;
  script: string;
  line: number;
  column: number;
}

/** What `process.dlopen` of the runtime library exports (loadTensorRT only where TensorRT was built in). */
export interface NativeBinding extends RunnerBinding {
  setHandlers(handlers: NativeHandlers): void;
  /** Filled right before each transform() call; read it anew each call (it may be replaced). */
  readonly transformState: Float64Array;
  log(instanceId: number, level: number, message: string, file?: string, line?: number): void;
  postError(instanceId: number, message: string, debug: string): void;
  liveInstances(): number[];
  /** Reads and writes the batches transform() receives. */
  readonly meta: MetaBinding;
  /**
   * Frames of the buffers transform() receives, owned tensors and ops. The runtime library
   * always exports it; host.test.ts drives host.js with stand-ins that do not (the one loader
   * of issue 15's second step types the bindings once).
   */
  readonly tensor?: TensorBinding;
}

/** Where the runtime's bootstrap leaves its paths. */
export const RUNTIME_KEY_V1 = Symbol.for("ds-element.runtime.v1");

/** What the bootstrap leaves under RUNTIME_KEY_V1. */
export interface RuntimeInfoV1 {
  runtimePath: string;
  hostJsPath: string;
}

const REQUIRED_FUNCTIONS = ["setHandlers", "log", "postError", "liveInstances"] as const;

/** Loads the binding from the runtime library the bootstrap names. */
export function loadBinding(): NativeBinding {
  const info = (globalThis as Record<symbol, Partial<RuntimeInfoV1> | undefined>)[RUNTIME_KEY_V1];
  const runtimePath = info?.runtimePath;
  if (typeof runtimePath !== "string" || runtimePath === "") {
    throw new Error(
      `Expected the path of libdsnode-runtime.so.0 for globalThis[Symbol.for("ds-element.runtime.v1")].runtimePath but received ${String(runtimePath)}; ` +
        "host.js runs only inside the ds-element runtime, whose bootstrap sets it",
    );
  }
  const module = { exports: {} as Record<string, unknown> };
  try {
    process.dlopen(module, runtimePath);
  } catch (error) {
    throw new Error(
      `Cannot load the ds-element binding from ${runtimePath} (${process.platform}-${process.arch}, Node ${process.versions.node}): ` +
        `${(error as Error).message}; rebuild it with \`npm run build -w ds-element-native\``,
      { cause: error },
    );
  }
  const binding = module.exports;
  const missing = REQUIRED_FUNCTIONS.filter((name) => typeof binding[name] !== "function");
  if (missing.length > 0 || !(binding.transformState instanceof Float64Array)) {
    throw new Error(
      `Expected the binding exports setHandlers, log, postError, liveInstances and transformState for ${runtimePath} ` +
        `but received ${Object.keys(binding).join(", ") || "none"}; host.js and the runtime library come from different builds`,
    );
  }
  const meta = binding.meta as Partial<MetaBinding> | undefined;
  if (meta?.layoutVersion !== META_LAYOUT_VERSION) {
    throw new Error(
      `Expected metadata layout version ${META_LAYOUT_VERSION} for ${runtimePath} but received ${String(meta?.layoutVersion)}; ` +
        "host.js and the runtime library come from different builds: rebuild with `npm run build`",
    );
  }
  return binding as unknown as NativeBinding;
}
