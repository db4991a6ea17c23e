import { format } from "node:util";
import { callerLocation } from "./caller-location.js";

/** GstDebugLevel numbers the host's `log` takes. */
export const LOG_LEVEL = { error: 1, warn: 2, info: 4, debug: 5, trace: 7 } as const;

/** Where a logger's lines go: the host's GST_DEBUG category, or a test's collector. */
export type LogSink = (level: number, message: string, file?: string, line?: number) => void;

/**
 * An element's logger (`this.log`). Lines go to the GST_DEBUG category named after the
 * element, so `GST_DEBUG=framecounter:5` shows debug lines of that element only, with the
 * file and line of the TypeScript call. Arguments are formatted like `console.log`'s.
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

/** A logger writing to `sink`, locating each call in the user's sources. */
export function createLogger(sink: LogSink): ElementLogger {
  const emit = (level: number, args: unknown[], caller: Function): void => {
    const location = callerLocation(caller);
    sink(level, message(args), location?.file, location?.line);
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
