import {
  FRAME_BATCH_ID,
  FRAME_BUF_PTS,
  FRAME_HEIGHT,
  FRAME_NUM,
  FRAME_PAD_INDEX,
  FRAME_SOURCE_ID,
  FRAME_WIDTH,
  STATE_FRAME_STRIDE,
  STATE_FRAMES_BASE,
} from "../protocol/transform-state.js";
import { readClockTime, readState, type TransformScope } from "./transform-scope.js";

const HANDLE = "FrameMeta";

/**
 * One frame of a batch, with DeepStream's `NvDsFrameMeta` field names in camelCase. In a plain
 * GStreamer pipeline (no batch metadata upstream) the host makes a one-frame batch: frameNum
 * counts buffers, bufPts is the buffer PTS, the sizes come from the negotiated caps, and
 * sourceId, padIndex and batchId are 0.
 *
 * Valid only during the transform() call that received it (see {@link StaleHandleError}).
 *
 * @example
 * ```ts
 * transform(batch: BatchMeta) {
 *   for (const frame of batch.frameItems) {
 *     this.log.debug(`source ${frame.sourceId} frame ${frame.frameNum} at ${frame.bufPts ?? "no"} ns`);
 *   }
 * }
 * ```
 */
export class FrameMeta {
  readonly #scope: TransformScope;
  readonly #base: number;

  /** @internal Frames come from `batch.frameItems`; user code never constructs them. */
  constructor(scope: TransformScope, index: number) {
    this.#scope = scope;
    this.#base = STATE_FRAMES_BASE + index * STATE_FRAME_STRIDE;
  }

  /** Index of this frame inside the batch (`batch_id`): which surface of the batched buffer holds it. */
  get batchId(): number {
    return readState(this.#scope, this.#base + FRAME_BATCH_ID, HANDLE, "batchId");
  }

  /** Sink pad of the muxer the frame came in on (`pad_index`). */
  get padIndex(): number {
    return readState(this.#scope, this.#base + FRAME_PAD_INDEX, HANDLE, "padIndex");
  }

  /** Source (camera/stream) the frame came from (`source_id`). */
  get sourceId(): number {
    return readState(this.#scope, this.#base + FRAME_SOURCE_ID, HANDLE, "sourceId");
  }

  /** Frame number within its source (`frame_num`). */
  get frameNum(): number {
    return readState(this.#scope, this.#base + FRAME_NUM, HANDLE, "frameNum");
  }

  /** Presentation timestamp of the frame's original buffer in ns (`buf_pts`); undefined when it had none. */
  get bufPts(): number | undefined {
    return readClockTime(this.#scope, this.#base + FRAME_BUF_PTS, HANDLE, "bufPts");
  }

  /** Width of the frame as the source produced it (`source_frame_width`). */
  get sourceFrameWidth(): number {
    return readState(this.#scope, this.#base + FRAME_WIDTH, HANDLE, "sourceFrameWidth");
  }

  /** Height of the frame as the source produced it (`source_frame_height`). */
  get sourceFrameHeight(): number {
    return readState(this.#scope, this.#base + FRAME_HEIGHT, HANDLE, "sourceFrameHeight");
  }

  /** Width of the frame in this pipeline's buffers (`pipeline_width`). */
  get pipelineWidth(): number {
    return readState(this.#scope, this.#base + FRAME_WIDTH, HANDLE, "pipelineWidth");
  }

  /** Height of the frame in this pipeline's buffers (`pipeline_height`). */
  get pipelineHeight(): number {
    return readState(this.#scope, this.#base + FRAME_HEIGHT, HANDLE, "pipelineHeight");
  }

  /**
   * The frame's values as a plain object, safe to keep after transform() returns.
   *
   * @example
   * ```ts
   * const frames = batch.frameItems.map((frame) => frame.toJSON());
   * setTimeout(() => console.log(frames[0]?.frameNum), 1000); // fine: plain values
   * ```
   */
  toJSON(): {
    /** See {@link FrameMeta.batchId}. */
    batchId: number;
    /** See {@link FrameMeta.padIndex}. */
    padIndex: number;
    /** See {@link FrameMeta.sourceId}. */
    sourceId: number;
    /** See {@link FrameMeta.frameNum}. */
    frameNum: number;
    /** See {@link FrameMeta.bufPts}. */
    bufPts: number | undefined;
    /** See {@link FrameMeta.sourceFrameWidth}. */
    sourceFrameWidth: number;
    /** See {@link FrameMeta.sourceFrameHeight}. */
    sourceFrameHeight: number;
    /** See {@link FrameMeta.pipelineWidth}. */
    pipelineWidth: number;
    /** See {@link FrameMeta.pipelineHeight}. */
    pipelineHeight: number;
  } {
    return {
      batchId: this.batchId,
      padIndex: this.padIndex,
      sourceId: this.sourceId,
      frameNum: this.frameNum,
      bufPts: this.bufPts,
      sourceFrameWidth: this.sourceFrameWidth,
      sourceFrameHeight: this.sourceFrameHeight,
      pipelineWidth: this.pipelineWidth,
      pipelineHeight: this.pipelineHeight,
    };
  }
}
