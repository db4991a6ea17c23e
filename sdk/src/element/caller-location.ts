/**
 * Where a log call came from, as the user's TypeScript file and line. Captures two V8 call
 * sites (no stack string is built) and maps the bundle position through the bundle's source
 * map, which Node loads once per file. Costs about a microsecond; skipped entirely when no
 * source map is loaded (the position would only point into the bundle).
 */
import { findSourceMap } from "node:module";
import { fileURLToPath } from "node:url";

/** A source position. */
export interface SourceLocation {
  file: string;
  line: number;
}

type PrepareStackTrace = ErrorConstructor["prepareStackTrace"];

const captureCallSites: PrepareStackTrace = (_error, callSites) => callSites;

function toPath(source: string): string {
  return source.startsWith("file://") ? fileURLToPath(source) : source;
}

/**
 * The location of the caller of the function `skip` (e.g. the user line that called
 * `this.log.info`), or undefined when it cannot be told cheaply.
 */
export function callerLocation(skip: Function): SourceLocation | undefined {
  const holder: { stack?: unknown } = {};
  const previousPrepare = Error.prepareStackTrace;
  const previousLimit = Error.stackTraceLimit;
  try {
    Error.prepareStackTrace = captureCallSites;
    Error.stackTraceLimit = 1;
    Error.captureStackTrace(holder, skip);
    const sites = holder.stack as NodeJS.CallSite[] | undefined;
    const site = sites?.[0];
    const file = site?.getFileName();
    const line = site?.getLineNumber();
    const column = site?.getColumnNumber();
    if (!file || !line || !column) return undefined;
    const map = findSourceMap(file);
    if (!map) return undefined;
    const entry = map.findEntry(line - 1, column - 1) as { originalSource?: string; originalLine?: number };
    if (!entry.originalSource || entry.originalLine === undefined) return undefined;
    return { file: toPath(entry.originalSource), line: entry.originalLine + 1 };
  } catch {
    return undefined;
  } finally {
    Error.prepareStackTrace = previousPrepare;
    Error.stackTraceLimit = previousLimit;
  }
}
