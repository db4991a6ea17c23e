/**
 * Keeps element code from ending the host process: `process.exit()` and `process.abort()`
 * throw in their caller instead, before Node emits 'exit', so the error carries the user's
 * stack and becomes an element error. The runtime's bootstrap guards `process.reallyExit`
 * (what Node's own exit paths call) and installs Node's process-exit handler as the last line
 * of defence.
 */

interface ExitFunctions {
  exit: (code?: unknown) => never;
  abort: () => never;
}

function exitError(call: string, caller: Function): Error {
  const error = Object.assign(new Error(`${call} called by element code; an element cannot exit the host process`), {
    code: "ERR_DS_ELEMENT_PROCESS_EXIT",
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
}
