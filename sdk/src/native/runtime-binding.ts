/**
 * The runtime library's JS surface (docs/internals/host-protocol.md), which loader.ts loads.
 * Runs only inside the embedded Node of libdsnode-runtime.so.0, whose bootstrap
 * (native-host/src/embed/node_embed.cpp) defines `globalThis[Symbol.for("ds-element.runtime.v1")]`
 * = `{ runtimePath, hostJsPath }` before it requires host.js.
 */
import type { Caps } from "../stream/caps.js";
import type { StreamEvent } from "../stream/stream-event.js";
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

/** The runtime library's functions that drive host.js (startHost). */
export interface HostControls {
  setHandlers(handlers: NativeHandlers): void;
  /** Filled right before each transform() call; read it anew each call (it may be replaced). */
  readonly transformState: Float64Array;
  log(instanceId: number, level: number, message: string, file?: string, line?: number): void;
  postError(instanceId: number, message: string, debug: string): void;
  liveInstances(): number[];
  /**
   * Runs `run` under the deadline of instance `instanceId`'s calls, though no call is running
   * (dev mode starting a new build): past it, its JavaScript is interrupted and this throws an
   * Error "`what` did not return within …" whose stack says where it was. Optional: test hosts
   * without it run dev builds without a deadline.
   */
  runWithDeadline?<T>(instanceId: number, what: string, run: () => T): T;
  /** The deadline of instance `instanceId`'s calls in ms; 0 when none. */
  callDeadlineMs?(instanceId: number): number;
}

/** What `process.dlopen` of the runtime library exports (loadTensorRT only where TensorRT was built in). */
export interface NativeBinding extends HostControls, RunnerBinding {
  /** Reads and writes the batches transform() receives. */
  readonly meta: MetaBinding;
  /** Frames of the buffers transform() receives, owned tensors and ops. */
  readonly tensor: TensorBinding;
}

/** Where the runtime's bootstrap leaves its paths. */
export const RUNTIME_KEY_V1 = Symbol.for("ds-element.runtime.v1");

/** What the bootstrap leaves under RUNTIME_KEY_V1. */
export interface RuntimeInfoV1 {
  runtimePath: string;
  hostJsPath: string;
}
