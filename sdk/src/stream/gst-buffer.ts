import { STATE_DTS, STATE_DURATION, STATE_PTS, STATE_SIZE } from "../protocol/transform-state.js";
import { extractFrame } from "../tensor/extract.js";
import type { TensorHandle } from "../tensor/tensor-handle.js";
import { readClockTime, readState, type TransformScope } from "../metadata/call/transform-scope.js";

const HANDLE = "GstBuffer";

/**
 * The GstBuffer being transformed (in place). Times are in nanoseconds, `undefined` when the
 * buffer has none. `extract(batchId)` gives a frame's pixels as a zero-copy tensor.
 *
 * Valid only during the transform() call that received it (see {@link StaleHandleError}).
 * Named after GStreamer's type so that it never hides Node's global `Buffer`.
 *
 * @example
 * ```ts
 * import type { GstBuffer } from "ds-element";
 * transform(batch: BatchMeta, buffer: GstBuffer) {
 *   if (buffer.pts !== undefined) this.lastPtsMs = buffer.pts / 1e6;
 * }
 * ```
 */
export class GstBuffer {
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
   * The pixels of frame `batchId` (a {@link FrameMeta.batchId}; 0 for a plain one-frame
   * buffer) as a zero-copy {@link TensorHandle}: `[height, width, channels]` uint8, the row
   * pitch in `strides[0]`, `format` from the caps. System memory gives a `"cpu"` view whose
   * `toTypedArray()` reads and writes the frame in place; `video/x-raw(memory:CUDAMemory)`
   * and DeepStream's `video/x-raw(memory:NVMM)` give the device pointer (`"cuda"`), nothing
   * copied. Valid only during this call, like the buffer. The same batchId gives the same
   * handle.
   *
   * Packed RGB, RGBA, BGR, BGRx and GRAY8 only: other formats throw a {@link TensorError}
   * naming the caps and the conversion to put before the element (e.g.
   * `videoconvert ! video/x-raw,format=RGB`).
   *
   * @example
   * ```ts
   * for (const frame of batch.frameItems) {
   *   const pixels = buffer.extract(frame.batchId);
   *   const { tensor, transforms } = preprocess(pixels, { width: 640, height: 640 });
   * }
   * ```
   */
  extract(batchId = 0): TensorHandle {
    return extractFrame(this.#scope, batchId);
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
    /** See {@link GstBuffer.pts}. */
    pts: number | undefined;
    /** See {@link GstBuffer.dts}. */
    dts: number | undefined;
    /** See {@link GstBuffer.duration}. */
    duration: number | undefined;
    /** See {@link GstBuffer.size}. */
    size: number;
  } {
    return { pts: this.pts, dts: this.dts, duration: this.duration, size: this.size };
  }
}
