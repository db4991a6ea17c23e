/**
 * Entry of dist/dsnode/bootstrap.js: what the embedded Node runs first, once, on the JS thread
 * (native-host/src/embed/node_embed.cpp runs the bundle as a CommonJS module and calls its
 * `bootstrap` export from Node's LoadEnvironment). It guards the process's exits, keeps what
 * the runtime needs of Node's internals, leaves the runtime's paths for host.js
 * (`Symbol.for("ds-element.runtime.v1")`) and requires host.js. Node's LoadEnvironment only
 * offers the builtin require (which also reaches Node's internal modules), hence createRequire.
 * What it takes of Node's internals is in node-compat.ts, per Node version. Bundled by
 * `ds-element build-host` (CommonJS, for the libnode the host was built against), with nothing
 * outside this SDK.
 */
import { RUNTIME_KEY_V1, type RuntimeInfoV1 } from "../native/runtime-binding.js";
import { installExitGuard } from "./exit-guard.js";
import { asyncIdStackOf, internalAsyncHooks, type AsyncIdStack, type BuiltinRequire } from "./node-compat.js";

/**
 * Called (from Node's process-exit handler) where Node would have ended the process: an
 * uncaught exception that no 'uncaughtException' listener took, or one thrown by such a
 * listener. Returns the element error's message and debug text.
 */
export type AfterFatalException = ((exitCode: number) => [message: string, debug: string]) & {
  /** Undefined where Node's internals are out of reach. */
  readonly asyncIdStack: AsyncIdStack | undefined;
};

/** The process as this file uses it: Node's public one plus `_exiting`. */
type NodeProcess = NodeJS.Process & { _exiting: boolean };

/** The message and stack of what was thrown, whatever it is. */
function describeThrown(error: unknown): [message: string, stack: string] {
  let message: string;
  try {
    message = error instanceof Error ? error.message : String(error);
  } catch {
    message = "(a thrown value that cannot be converted to a string)";
  }
  let stack: string;
  try {
    const value = error !== null && typeof error === "object" ? (error as { stack?: unknown }).stack : undefined;
    stack = typeof value === "string" ? value : message;
  } catch {
    stack = message;
  }
  return [message, stack];
}

/** Runs once, before host.js; returns the runtime's fatal-exception hook. */
export function bootstrap(process: NodeJS.Process, builtinRequire: BuiltinRequire, hostJsPath: string, runtimePath: string): AfterFatalException {
  const node = process as NodeProcess;
  installExitGuard(node as unknown as Parameters<typeof installExitGuard>[0]);

  // For the fatal path below (Node's internals, reachable through the builtin require).
  const asyncHooks = internalAsyncHooks(builtinRequire);
  const { setImmediate } = builtinRequire("timers") as typeof import("node:timers");

  // Remembered for the fatal path below, where Node no longer hands the error to anyone.
  let lastUncaught: { deref(): unknown } | undefined;
  node.on("uncaughtExceptionMonitor", (error: unknown) => {
    lastUncaught = error !== null && typeof error === "object" ? new WeakRef(error) : { deref: () => error };
  });
  const asyncIdStack = asyncIdStackOf(node, builtinRequire);

  const info: RuntimeInfoV1 = Object.freeze({ runtimePath, hostJsPath });
  Object.defineProperty(globalThis, RUNTIME_KEY_V1, { value: info });

  const { createRequire } = builtinRequire("module") as typeof import("node:module");
  createRequire(hostJsPath)(hostJsPath);

  const afterFatalException = (exitCode: number): [string, string] => {
    node._exiting = false;
    node.exitCode = undefined;
    // Expecting to exit, Node skipped what it does after a handled exception: the async context
    // stack still holds the frames the exception unwound, and the next callback scope to close
    // would abort the process ("async hook stack has become corrupted"). Same steps as
    // lib/internal/process/execution.js, handled branch.
    try {
      setImmediate(() => {});
      if (asyncHooks.afterHooksExist()) {
        do {
          const asyncId = asyncHooks.executionAsyncId();
          if (asyncId === 0) asyncHooks.popAsyncContext(0);
          else asyncHooks.emitAfter(asyncId);
        } while (asyncHooks.hasAsyncIdStack());
      }
    } finally {
      asyncHooks.clearAsyncIdStack();
    }
    const error = lastUncaught?.deref();
    lastUncaught = undefined;
    if (error === undefined) return [`JavaScript ended with exit code ${exitCode}; the host process keeps running`, ""];
    const [message, stack] = describeThrown(error);
    return [`Uncaught exception: ${message}`, stack];
  };
  return Object.assign(afterFatalException, { asyncIdStack });
}
