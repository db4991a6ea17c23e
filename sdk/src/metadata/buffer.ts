import { STATE_DTS, STATE_DURATION, STATE_PTS, STATE_SIZE } from "../protocol/transform-state.js";
import { readClockTime, readState, type TransformScope } from "./transform-scope.js";

const HANDLE = "Buffer";

/**
 * The GstBuffer being transformed (in place). Times are in nanoseconds, `undefined` when the
 * buffer has none. Later versions add frame access (`extract(batchId)` → tensor handle).
 *
 * Valid only during the transform() call that received it (see {@link StaleHandleError}).
 * Note: this is ds-element's `Buffer`, not Node's; import it as a type where both are used.
 *
 * @example
 * ```ts
 * import type { Buffer } from "ds-element";
 * transform(batch: BatchMeta, buffer: Buffer) {
 *   if (buffer.pts !== undefined) this.lastPtsMs = buffer.pts / 1e6;
 * }
 * ```
 */
export class Buffer {
  readonly #scope: TransformScope;

  /** @internal Buffers come from the host; user code never constructs them. */
  constructor(scope: TransformScope) {
    this.#scope = scope;
  }

  /**
   * Presentation timestamp in ns (`GST_BUFFER_PTS`), undefined when none.
   *
   * @example
   * ```ts
   * const seconds = (buffer.pts ?? 0) / 1e9;
   * ```
   */
  get pts(): number | undefined {
    return readClockTime(this.#scope, STATE_PTS, HANDLE, "pts");
  }

  /**
   * Decoding timestamp in ns (`GST_BUFFER_DTS`), undefined when none.
   *
   * @example
   * ```ts
   * const reordered = buffer.dts !== undefined && buffer.dts !== buffer.pts;
   * ```
   */
  get dts(): number | undefined {
    return readClockTime(this.#scope, STATE_DTS, HANDLE, "dts");
  }

  /**
   * Duration in ns (`GST_BUFFER_DURATION`), undefined when none.
   *
   * @example
   * ```ts
   * const fps = buffer.duration ? 1e9 / buffer.duration : undefined;
   * ```
   */
  get duration(): number | undefined {
    return readClockTime(this.#scope, STATE_DURATION, HANDLE, "duration");
  }

  /**
   * Size of the buffer's memory in bytes (`gst_buffer_get_size`).
   *
   * @example
   * ```ts
   * this.bytes += buffer.size;
   * ```
   */
  get size(): number {
    return readState(this.#scope, STATE_SIZE, HANDLE, "size");
  }

  /**
   * The buffer's values as a plain object, safe to keep after transform() returns.
   *
   * @example
   * ```ts
   * const { pts, duration } = buffer.toJSON();
   * ```
   */
  toJSON(): {
    /** See {@link Buffer.pts}. */
    pts: number | undefined;
    /** See {@link Buffer.dts}. */
    dts: number | undefined;
    /** See {@link Buffer.duration}. */
    duration: number | undefined;
    /** See {@link Buffer.size}. */
    size: number;
  } {
    return { pts: this.pts, dts: this.dts, duration: this.duration, size: this.size };
  }
}
