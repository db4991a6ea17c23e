import { StaleHandleError } from "../errors/errors.js";
import { STATE_NUM_FRAMES } from "../protocol/transform-state.js";
import { FrameMeta } from "./frame-meta.js";
import { readState, type TransformScope } from "./transform-scope.js";

const HANDLE = "BatchMeta";

/**
 * The metadata of one batched buffer, mirroring DeepStream's `NvDsBatchMeta`: the frames it
 * carries, and (in later versions) their objects, classifier, user and display metadata.
 *
 * Valid only during the transform() call that received it: afterwards every member throws
 * {@link StaleHandleError}. Copy the values you need.
 *
 * @example
 * ```ts
 * transform(batch: BatchMeta, buffer: Buffer) {
 *   this.log.debug(`${batch.numFrames} frame(s) in a ${buffer.size}-byte buffer`);
 *   for (const frame of batch.frameItems) this.seen.add(frame.sourceId);
 * }
 * ```
 */
export class BatchMeta {
  readonly #scope: TransformScope;
  #frameItems: readonly FrameMeta[] | undefined;

  /** @internal Batches come from the host; user code never constructs them. */
  constructor(scope: TransformScope) {
    this.#scope = scope;
  }

  /** Number of frames in the batch (`num_frames_in_batch`). */
  get numFrames(): number {
    return readState(this.#scope, STATE_NUM_FRAMES, HANDLE, "numFrames");
  }

  /**
   * The batch's frames, in batch order. A real array: iterate it as often as you like, index
   * it, map it. Built on first access, so elements that never look at frames pay nothing.
   */
  get frameItems(): readonly FrameMeta[] {
    if (!this.#scope.alive) throw new StaleHandleError(HANDLE, "frameItems");
    if (this.#frameItems === undefined) {
      const count = this.#scope.state[STATE_NUM_FRAMES] ?? 0;
      const frames: FrameMeta[] = new Array<FrameMeta>(count);
      for (let index = 0; index < count; index++) frames[index] = new FrameMeta(this.#scope, index);
      // Not frozen: freezing a fresh array costs V8 a map transition per call, and the
      // readonly type already says the list is not the batch (adding frames is not a push).
      this.#frameItems = frames;
    }
    return this.#frameItems;
  }

  /**
   * The batch's values as a plain object, safe to keep after transform() returns.
   *
   * @example
   * ```ts
   * this.lastBatch = batch.toJSON();
   * ```
   */
  toJSON(): {
    /** See {@link BatchMeta.numFrames}. */
    numFrames: number;
    /** Each frame's {@link FrameMeta.toJSON}. */
    frameItems: ReturnType<FrameMeta["toJSON"]>[];
  } {
    return { numFrames: this.numFrames, frameItems: this.frameItems.map((frame) => frame.toJSON()) };
  }
}
