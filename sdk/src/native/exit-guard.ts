/**
 * Keeps element code from ending the host process: `process.exit()`, `process.reallyExit()`
 * and `process.abort()` throw in their caller instead, so the error carries the user's stack
 * and becomes an element error (the runtime also installs Node's process-exit handler as the
 * last line of defence).
 */

interface ExitFunctions {
  exit: (code?: unknown) => never;
  abort: () => never;
  reallyExit?: (code?: unknown) => never;
}

function exitError(call: string, caller: Function): Error {
  const error = new Error(`${call} called by element code; an element cannot exit the host process`);
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
  if (typeof target.reallyExit === "function") {
    target.reallyExit = function reallyExit(code?: unknown): never {
      throw exitError(`process.reallyExit(${formatCode(code)})`, reallyExit);
    };
  }
}
