/**
 * Keeps element code from ending the host process, with one error for every way out:
 * `process.exit()` and `process.abort()` throw in their caller instead, before Node emits
 * 'exit', so the error carries the user's stack and becomes an element error; and
 * `process.reallyExit` (what Node's own exit paths call, meant to be replaceable) throws the
 * same error. Installed once, by the runtime's bootstrap (bootstrap.ts), before host.js loads.
 * Node's process-exit handler (native-host/src/embed/node_embed.cpp) is the last line of
 * defence, for exits that come from Node itself (an uncaught exception).
 */

interface ExitFunctions {
  exit: (code?: unknown) => never;
  abort: () => never;
  reallyExit?: (code?: unknown) => never;
  /** Node sets it before it calls reallyExit; left true, it silently turns process.nextTick into a no-op. */
  _exiting?: boolean;
}

/** The error code of every refused exit. */
export const PROCESS_EXIT_CODE = "ERR_DS_ELEMENT_PROCESS_EXIT";

function exitError(call: string, caller: Function): Error {
  const error = Object.assign(new Error(`${call} called by element code; an element cannot exit the host process`), {
    code: PROCESS_EXIT_CODE,
  });
  Error.captureStackTrace(error, caller);
  return error;
}

function formatCode(code: unknown): string {
  return code === undefined ? "" : typeof code === "string" ? JSON.stringify(code) : String(code);
}

/** Replaces the exit functions of `target` (the real `process` in the host). */
export function installExitGuard(target: ExitFunctions): void {
  target.exit = function exit(code?: unknown): never {
    throw exitError(`process.exit(${formatCode(code)})`, exit);
  };
  target.abort = function abort(): never {
    throw exitError("process.abort()", abort);
  };
  target.reallyExit = function reallyExit(code?: unknown): never {
    target._exiting = false;
    throw exitError(`process.exit(${formatCode(code)})`, reallyExit);
  };
}
