import { format } from "node:util";
import { callerLocation } from "./caller-location.js";

/** GstDebugLevel numbers the host's `log` takes. */
export const LOG_LEVEL = { error: 1, warn: 2, info: 4, debug: 5, trace: 7 } as const;

/**
 * Where a logger's lines go: the host's GST_DEBUG category, or a test's collector.
 * `level` is a GstDebugLevel number (1 error, 2 warning, 4 info, 5 debug, 7 trace).
 *
 * @example
 * ```ts
 * const lines: string[] = [];
 * const sink: LogSink = (level, message) => lines.push(`${level} ${message}`);
 * const counter = FrameCounter.create({ location: "/tmp/c.jsonl" }, { onLog: sink });
 * ```
 */
export type LogSink = (level: number, message: string, file?: string, line?: number) => void;

/**
 * An element's logger (`this.log`). Lines go to the GST_DEBUG category named after the
 * element, so `GST_DEBUG=framecounter:5` shows debug lines of that element only; errors and
 * warnings carry the file and line of the TypeScript call. Arguments are formatted like
 * `console.log`'s.
 *
 * @example
 * ```ts
 * start() {
 *   this.log.info("writing counts to", this.props.location);
 * }
 * transform(batch: BatchMeta) {
 *   this.log.trace(`batch of ${batch.numFrames}`);
 * }
 * ```
 */
export interface ElementLogger {
  /** GST_LEVEL_ERROR (1). */
  error(...args: unknown[]): void;
  /** GST_LEVEL_WARNING (2). */
  warn(...args: unknown[]): void;
  /** GST_LEVEL_INFO (4). */
  info(...args: unknown[]): void;
  /** GST_LEVEL_DEBUG (5). */
  debug(...args: unknown[]): void;
  /** GST_LEVEL_TRACE (7). */
  trace(...args: unknown[]): void;
}

function message(args: unknown[]): string {
  return args.length === 1 && typeof args[0] === "string" ? args[0] : format(...args);
}

/**
 * Levels whose lines carry the caller's file and line. Locating a call costs a few µs (V8
 * builds a stack trace), fine for errors and warnings but not for per-frame debug/trace lines
 * that GST_DEBUG usually discards.
 */
const LOCATED_UP_TO = LOG_LEVEL.warn;

/** A logger writing to `sink`; errors and warnings are located in the user's sources. */
export function createLogger(sink: LogSink): ElementLogger {
  const emit = (level: number, args: unknown[], caller: Function): void => {
    const location = level <= LOCATED_UP_TO ? callerLocation(caller) : undefined;
    if (location) sink(level, message(args), location.file, location.line);
    else sink(level, message(args));
  };
  const logger: ElementLogger = {
    error(...args) {
      emit(LOG_LEVEL.error, args, logger.error);
    },
    warn(...args) {
      emit(LOG_LEVEL.warn, args, logger.warn);
    },
    info(...args) {
      emit(LOG_LEVEL.info, args, logger.info);
    },
    debug(...args) {
      emit(LOG_LEVEL.debug, args, logger.debug);
    },
    trace(...args) {
      emit(LOG_LEVEL.trace, args, logger.trace);
    },
  };
  return Object.freeze(logger);
}
