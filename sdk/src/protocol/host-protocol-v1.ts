/**
 * The versioned contract between host.js (the JS side of the native runtime) and element
 * bundles. host.js and a bundle may carry different copies of this SDK, so they meet only
 * through `Symbol.for("ds-element.host.v1")`, a static method on every element class, and the
 * plain interfaces below. Changing these shapes means a new version (v2), kept beside v1.
 */
import type { Caps } from "../stream/caps.js";
import type { StreamEvent } from "../stream/stream-event.js";
import type { MetaBinding } from "../native/meta-binding.js";
import type { RunnerBinding } from "../native/runner-binding.js";
import type { TensorBinding } from "../native/tensor-binding.js";
import type { ManifestV1 } from "./manifest.js";

/** Key of the static adapter factory on element classes. */
export const HOST_PROTOCOL_V1: unique symbol = Symbol.for("ds-element.host.v1");

/**
 * What `ElementInstanceV1.transform` returns, or its Promise resolves to, when the buffer must
 * be dropped (`Element.DROP`): the plugin returns GST_BASE_TRANSFORM_FLOW_DROPPED. Any other
 * value passes the buffer on. A registered symbol, so that every SDK copy and the native
 * binding (which compares with `Symbol.for("ds-element.drop")`) agree on it.
 */
export const TRANSFORM_DROP_V1: unique symbol = Symbol.for("ds-element.drop");

/** What the host offers an element: logging and out-of-band errors. */
export interface HostServicesV1 {
  /** level: 1 error, 2 warning, 4 info, 5 debug, 7 trace (GstDebugLevel numbering). */
  log(instanceId: number, level: number, message: string, file?: string, line?: number): void;
  /** Reports an error that happened outside a call the host waits for. */
  postError(instanceId: number, message: string, debug: string): void;
  /**
   * The native bindings (sdk/src/native/loader.ts, NativeBindings), all from one binary, which
   * the element adapter installs for the bundle's SDK copy (sdk/src/native/installed-bindings.ts).
   * Absent where no transform runs (`ds-element build` reading the manifest); metadata, tensor
   * and runner calls then fail with an error saying so.
   */
  readonly bindings?: NativeBindingsV1 | undefined;
}

/**
 * The bindings a host hands over: the binary's metadata functions
 * (sdk/src/native/meta-binding.ts) for the batches `transform` receives, its tensor functions
 * (sdk/src/native/tensor-binding.ts: frames, owned tensors, ops), its runner functions
 * (sdk/src/native/runner-binding.ts: `loadTensorRT` where the build found TensorRT), and the
 * binary's path (worker threads load it again).
 */
export interface NativeBindingsV1 {
  readonly meta: MetaBinding;
  readonly tensor: TensorBinding;
  readonly runners: RunnerBinding;
  readonly libraryPath: string;
}

/** One element instance, driven by the host. Returned Promises are awaited by the host. */
export interface ElementInstanceV1 {
  start(): unknown;
  stop(): unknown;
  caps(caps: Caps): unknown;
  event(event: StreamEvent): unknown;
  /** Validates and applies one property; throws when the schema rejects the value. */
  property(jsName: string, value: unknown): unknown;
  /**
   * `state` is the binding's transformState, filled for this call. Returns (or resolves to)
   * {@link TRANSFORM_DROP_V1} to drop the buffer; anything else passes it on.
   */
  transform(state: Float64Array): unknown;
  destroy(): void;
  /**
   * Dev mode (`ds-element dev`) only: the user's element object, handed to the next build's
   * `hotReload`. Absent from bundles older than it.
   */
  readonly element?: object;
  /**
   * Dev mode only: this instance, already started, takes over from `previous` (the `element`
   * of the instance it replaces, built from an earlier version of the same source) at the next
   * buffer; calls the user's `onHotReload(previous)`. Absent from bundles older than it.
   */
  hotReload?(previous: object): unknown;
}

/** What `ElementClass[HOST_PROTOCOL_V1](services)` returns. */
export interface ElementAdapterV1 {
  readonly protocolVersion: 1;
  readonly sdkVersion: string;
  /** The element (factory) name. */
  readonly name: string;
  /** The element.json content this class declares (entry: "index.js"). */
  manifest(): ManifestV1;
  /** Validates the properties (keyed by JS name) and constructs the user's class. */
  instantiate(instanceId: number, props: Record<string, unknown>): ElementInstanceV1;
}

/** The static factory's signature. */
export type HostAdapterFactoryV1 = (services: HostServicesV1) => ElementAdapterV1;
