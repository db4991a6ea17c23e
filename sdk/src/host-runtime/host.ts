/**
 * host.js's logic: loads element bundles, drives their instances for the runtime, and turns
 * every failure into an element error with the user's stack. It speaks to bundles only through
 * host protocol v1, so bundles built with another SDK copy work unchanged.
 */
import { userStack, withUserStack } from "./user-stack.js";
import { AsyncLocalStorage } from "node:async_hooks";
import { statSync, writeSync, type Stats } from "node:fs";
import { createRequire, findSourceMap } from "node:module";
import { fileURLToPath } from "node:url";
import {
  HOST_PROTOCOL_V1,
  TRANSFORM_DROP_V1,
  type ElementAdapterV1,
  type ElementInstanceV1,
  type HostServicesV1,
} from "../protocol/host-protocol-v1.js";
import type { Caps } from "../stream/caps.js";
import type { StreamEvent } from "../stream/stream-event.js";
import type { HostControls, NativeHandlers, StackFrame } from "../native/runtime-binding.js";
import type { NativeBindings } from "../native/loader.js";
import { DevReloader, type DevOptions } from "./dev-reload.js";
import { checkManifestAgreement } from "./manifest-agreement.js";

/** Seams for tests; the real host uses Node's require and process. */
export interface HostOptions {
  requireBundle?: (bundlePath: string) => unknown;
  /**
   * Runs the microtask queue, then the nextTick queue (what closing a Node callback scope
   * does). Default: Node's own, `process._tickCallback`, taken before any user code runs.
   */
  runQueues?: () => void;
  /**
   * Handles what a queued callback threw while transform() drained the queues. Default:
   * Node's global uncaught-exception handler, `process._fatalException`, which emits
   * 'uncaughtException' (the host reports it on the element) and repairs Node's async context
   * stack that the throw left half-entered, exactly as when Node's own scope drains.
   */
  onQueueError?: (thrown: unknown) => void;
  /** Where uncaught errors are listened for. Default: process. */
  errorSource?: ErrorSource;
  /** Dev mode (`ds-element dev`): reload element bundles when they are rebuilt. Off by default. */
  dev?: DevOptions;
}

/** Emits the process's uncaught errors (process itself, or an EventEmitter in tests). */
export interface ErrorSource {
  on(event: "uncaughtException" | "unhandledRejection", listener: (error: unknown) => void): unknown;
}

/** What startHost returns: the installed handlers (for tests) and the attribution store. */
export interface Host {
  readonly handlers: NativeHandlers;
  /**
   * The instance whose code is running, or undefined. Between calls it may still name the
   * last instance whose transform() ran on the fast path (see `transform` below).
   */
  currentInstance(): number | undefined;
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === "object" && value !== null && typeof (value as { then?: unknown }).then === "function";
}

/** Whatever user code threw, as an Error whose message and stack native code can show. */
export function toError(thrown: unknown): Error {
  if (thrown instanceof Error) return thrown;
  if (typeof thrown === "object" && thrown !== null && typeof (thrown as Error).message === "string") {
    return thrown as Error;
  }
  let text: string;
  try {
    text = typeof thrown === "string" ? JSON.stringify(thrown) : String(thrown);
  } catch {
    text = Object.prototype.toString.call(thrown);
  }
  return new Error(`Element code threw a non-Error value: ${text}`);
}

/** `call`, throwing what it throws with the user's stack. */
function reportingUserStack<A extends unknown[], R>(call: (...args: A) => R): (...args: A) => R {
  return (...args) => {
    try {
      return call(...args);
    } catch (thrown) {
      throw withUserStack(thrown);
    }
  };
}

function rethrowAsError(thrown: unknown): never {
  throw withUserStack(toError(thrown));
}

/** A returned Promise keeps its result; a rejection becomes an Error. */
function settle(result: unknown): unknown {
  return isThenable(result) ? Promise.resolve(result).then(undefined, rethrowAsError) : undefined;
}

/** settle() for transform: TRANSFORM_DROP_V1 (Element.DROP) reaches the binding, which drops the buffer. */
function settleTransform(result: unknown): unknown {
  return result === TRANSFORM_DROP_V1 ? result : settle(result);
}

function describeExport(value: unknown): string {
  if (value === undefined) return "undefined (the bundle has no default export)";
  if (typeof value === "function") return `${value.name ? `class ${value.name}` : "a function"}, which does not extend Element`;
  return typeof value === "object" && value !== null ? "an object" : String(value);
}

// Call helpers with no closures, so the per-buffer path allocates nothing of its own.
const callStart = (instance: ElementInstanceV1): unknown => instance.start();
const callStop = (instance: ElementInstanceV1): unknown => instance.stop();
const callCaps = (instance: ElementInstanceV1, caps: Caps): unknown => instance.caps(caps);
const callEvent = (instance: ElementInstanceV1, event: StreamEvent): unknown => instance.event(event);
const callTransform = (instance: ElementInstanceV1, state: Float64Array): unknown => instance.transform(state);
const callProperty = (instance: ElementInstanceV1, jsName: string, value: unknown): unknown =>
  instance.property(jsName, value);

/**
 * transform() for a call the runtime made outside a Node callback scope (its per-buffer fast
 * path), inside the instance's attribution. When it returns nothing (or throws), the queues a
 * scope's end would have run are run here; a nextTick callback that throws is an uncaught
 * exception in Node, and goes the same way here (`report`), the rest of the queue still running.
 * When it returns a Promise, the queues are left to the runtime, which runs them once it has
 * attached its callbacks: run now, they would settle a Promise rejected at once (an async
 * transform() that throws before its first await) with nobody listening yet, and Node would
 * report an unhandled rejection, then warn that it was handled after all.
 */
function callTransformAndDrain(
  instance: ElementInstanceV1,
  state: Float64Array,
  runQueues: () => void,
  report: (thrown: unknown) => void,
): unknown {
  let result: unknown;
  try {
    result = callTransform(instance, state);
  } catch (thrown) {
    drain(runQueues, report);
    throw thrown;
  }
  if (isThenable(result)) return settle(result);
  drain(runQueues, report);
  return result === TRANSFORM_DROP_V1 ? result : undefined;
}

function drain(runQueues: () => void, report: (thrown: unknown) => void): void {
  for (;;) {
    try {
      runQueues();
      return;
    } catch (thrown) {
      report(thrown);
    }
  }
}

/** "file" for a regular file (symbolic links followed), what else is there, or undefined when nothing is. */
function fileKind(path: string): string | undefined {
  let stats: Stats;
  try {
    stats = statSync(path);
  } catch {
    return undefined;
  }
  if (stats.isFile()) return "file";
  if (stats.isFIFO()) return "a FIFO (named pipe)";
  if (stats.isDirectory()) return "a directory";
  if (stats.isSocket()) return "a socket";
  return stats.isCharacterDevice() || stats.isBlockDevice() ? "a device" : "something else";
}

/** Drops a bundle from the require cache, so that the next require loads the file again. */
function forgetBundle(requireBundle: (bundlePath: string) => unknown, bundlePath: string): void {
  const loader = requireBundle as Partial<NodeJS.Require>;
  if (loader.cache === undefined || loader.resolve === undefined) return;
  delete loader.cache[loader.resolve(bundlePath)];
}

/** A path for a stack line: source maps name sources by file: URL. */
function displayPath(source: string): string {
  if (!source.startsWith("file:")) return source;
  try {
    return fileURLToPath(source);
  } catch {
    return source;
  }
}

/**
 * `    at function (file:line:column)` lines for frames the runtime captured, mapped through the
 * bundle's source map (bundles carry one) to the user's TypeScript where it has an entry.
 */
export function formatStack(frames: readonly StackFrame[]): string {
  return frames
    .map((frame) => {
      let { function: name, script, line, column } = frame;
      try {
        const entry = findSourceMap(script)?.findEntry(line - 1, column - 1) as
          | { originalSource?: string; originalLine?: number; originalColumn?: number; name?: string }
          | undefined;
        if (entry?.originalSource !== undefined && entry.originalLine !== undefined && entry.originalColumn !== undefined) {
          script = displayPath(entry.originalSource);
          line = entry.originalLine + 1;
          column = entry.originalColumn + 1;
        }
      } catch {
        // No map, or one that does not parse: the bundle's position is still right.
      }
      return `    at ${name || "<anonymous>"} (${script}:${line}:${column})`;
    })
    .join("\n");
}

/** A function property of `process` that Node 18 has but does not document, bound. */
function processFunction(name: "_tickCallback" | "_fatalException"): ((...args: unknown[]) => unknown) | undefined {
  const value = (process as unknown as Record<string, unknown>)[name];
  return typeof value === "function" ? (value.bind(process) as (...args: unknown[]) => unknown) : undefined;
}

/** Installs the handlers on `native` and the process-wide error attribution. */
export function startHost(native: HostControls, bindings: NativeBindings, options: HostOptions = {}): Host {
  const requireBundle = options.requireBundle ?? createRequire(__filename);
  const runQueues = options.runQueues ?? (processFunction("_tickCallback") as (() => void) | undefined);
  const fatalException = processFunction("_fatalException");
  const context = new AsyncLocalStorage<number>();
  const adapters = new Map<string, ElementAdapterV1>();
  const instances = new Map<number, ElementInstanceV1>();

  const services: HostServicesV1 = {
    log: (instanceId, level, message, file, line) => native.log(instanceId, level, message, file, line),
    postError: (instanceId, message, debug) => native.postError(instanceId, message, debug),
    bindings,
  };

  /** An error no waited-for call carries: to the element whose code raised it, else to all. */
  const postUnowned = (prefix: string, thrown: unknown): void => {
    const error = toError(thrown);
    const message = `${prefix}: ${error.message}`;
    const debug = typeof error.stack === "string" ? userStack(error.stack) : message;
    try {
      const owner = context.getStore();
      const live = native.liveInstances();
      const targets = owner !== undefined && live.includes(owner) ? [owner] : live;
      for (const id of targets) native.postError(id, message, debug);
    } catch {
      // Throwing from an 'uncaughtException' listener would end the process: drop it instead.
    }
  };

  /** `fresh`: load the bundle again even when cached (dev mode, after a rebuild). */
  const loadAdapter = (elementName: string, bundlePath: string, fresh = false): ElementAdapterV1 => {
    const cached = adapters.get(bundlePath);
    if (cached && !fresh) return cached;
    const kind = fileKind(bundlePath);
    if (kind !== "file") {
      // Anything but a regular file could block the require below in a read no deadline can end (a FIFO).
      throw new Error(
        `Expected the bundle of element ${elementName} at ${bundlePath} but received ${kind === undefined ? "no such file" : `${kind}, not a regular file`}; run \`ds-element build\` again`,
      );
    }
    let exports: unknown;
    try {
      if (fresh) forgetBundle(requireBundle, bundlePath);
      exports = requireBundle(bundlePath);
    } catch (thrown) {
      const cause = toError(thrown);
      const error = new Error(
        `Cannot load the bundle of element ${elementName} (${bundlePath}): ${cause.name}: ${cause.message}`,
        { cause },
      );
      // The cause's stack holds the bundle line (for a SyntaxError) or the user's frames.
      error.stack = `${error.message}\n${cause.stack ?? ""}`;
      throw error;
    }
    const candidate = (exports as { default?: unknown } | null)?.default ?? exports;
    const factory = (candidate as Record<symbol, unknown> | null)?.[HOST_PROTOCOL_V1];
    if (typeof factory !== "function") {
      throw new Error(
        `Expected an element class (export default class ... extends Element.define({...})) for the default export of ${bundlePath} ` +
          `but received ${describeExport(candidate)}`,
      );
    }
    const adapter = (factory as (services: HostServicesV1) => ElementAdapterV1).call(candidate, services);
    if (adapter.name !== elementName) {
      throw new Error(
        `Expected element ${elementName} in ${bundlePath} but received a class declaring "${adapter.name}"; run \`ds-element build\` again`,
      );
    }
    checkManifestAgreement(elementName, bundlePath, adapter.manifest());
    adapters.set(bundlePath, adapter);
    return adapter;
  };

  const reportUncaught =
    options.onQueueError ??
    ((thrown: unknown): void => {
      if (fatalException === undefined || fatalException(thrown) !== true) {
        postUnowned("Uncaught exception in element code", thrown);
      }
    });

  const instanceOf = (instanceId: number): ElementInstanceV1 => {
    const instance = instances.get(instanceId);
    if (instance === undefined) {
      throw new Error(
        `Expected a live element instance for id ${instanceId} but received none (its creation failed or it was destroyed)`,
      );
    }
    return instance;
  };

  const dev =
    options.dev === undefined
      ? undefined
      : new DevReloader(options.dev, {
          reload: (elementName, bundlePath) => loadAdapter(elementName, bundlePath, true),
          runAs: (instanceId, run) => context.run(instanceId, run),
          runWithDeadline: native.runWithDeadline?.bind(native),
          deadlineMs: native.callDeadlineMs?.bind(native),
          report: (instanceId, level, line) => {
            if (options.dev?.print) options.dev.print(line);
            else writeSync(2, `ds-element dev: ${line}\n`);
            if (instanceId !== undefined) native.log(instanceId, level === "error" ? 1 : 4, line);
          },
        });

  // Every handler that runs user code: what it throws reaches native code with the user's stack
  // (withUserStack); what it rejects with, through settle(). transform() does it inline, being
  // the per-buffer path.
  const handlers: NativeHandlers = {
    drainsQueues: runQueues !== undefined,
    formatStack,
    create: reportingUserStack((instanceId: number, elementName: string, bundlePath: string, props: Record<string, unknown>) => {
      const adapter = loadAdapter(elementName, bundlePath);
      const instance = context.run(instanceId, () => adapter.instantiate(instanceId, props ?? {}));
      instances.set(instanceId, dev === undefined ? instance : dev.wrap(instanceId, elementName, bundlePath, props ?? {}, instance));
    }),
    start: reportingUserStack((instanceId: number) => settle(context.run(instanceId, callStart, instanceOf(instanceId)))),
    stop: reportingUserStack((instanceId: number) => settle(context.run(instanceId, callStop, instanceOf(instanceId)))),
    caps: reportingUserStack((instanceId: number, caps: Caps) => settle(context.run(instanceId, callCaps, instanceOf(instanceId), caps))),
    event: reportingUserStack((instanceId: number, event: StreamEvent) => settle(context.run(instanceId, callEvent, instanceOf(instanceId), event))),
    // An invalid value throws here; a rejected async onPropertyChange is reported by the
    // runtime, which nobody waits on for property changes.
    property: reportingUserStack((instanceId: number, jsName: string, value: unknown) =>
      settle(context.run(instanceId, callProperty, instanceOf(instanceId), jsName, value)),
    ),
    transform(instanceId, drainQueues) {
      try {
        const instance = instances.get(instanceId) ?? instanceOf(instanceId);
        if (drainQueues === true && runQueues !== undefined) {
          // Outside any callback scope the current async resource is Node's top-level one: the
          // store set on it is what run() would set, without run()'s argument array and restore
          // (~250 of the ~5 700 instructions a buffer costs, callgrind). It stays set after the
          // call; other handlers use run(), and callbacks run with the store of the resource
          // they were queued from.
          if (context.getStore() !== instanceId) context.enterWith(instanceId);
          return callTransformAndDrain(instance, native.transformState, runQueues, reportUncaught);
        }
        return settleTransform(context.run(instanceId, callTransform, instance, native.transformState));
      } catch (thrown) {
        throw withUserStack(thrown);
      }
    },
    destroy(instanceId) {
      const instance = instances.get(instanceId);
      instances.delete(instanceId);
      instance?.destroy();
    },
  };

  const errorSource: ErrorSource = options.errorSource ?? process;
  errorSource.on("uncaughtException", (error: unknown) => postUnowned("Uncaught exception in element code", error));
  errorSource.on("unhandledRejection", (reason: unknown) => postUnowned("Unhandled promise rejection in element code", reason));

  native.setHandlers(handlers);
  return { handlers, currentInstance: () => context.getStore() };
}
