import { StaleHandleError } from "../errors/errors.js";
import { STATE_MAX_FRAMES, STATE_NUM_FRAMES } from "../protocol/transform-state.js";
import { ClassifierMeta } from "./classifier-meta.js";
import { DisplayMeta } from "./display-meta.js";
import { FrameMeta, type FrameMetaJSON } from "./frame-meta.js";
import { LabelInfo } from "./label-info.js";
import { acquireObject, type ObjectMeta } from "./object-meta.js";
import { readState, type TransformScope } from "./call/transform-scope.js";
import { BATCH_LEVEL, UserMeta, userInternals, type UserMetaJSON } from "./user-meta.js";

const HANDLE = "BatchMeta";

/**
 * The plain values of a {@link BatchMeta}, as {@link BatchMeta.toJSON} returns them.
 *
 * @example
 * ```ts
 * const snapshot: BatchMetaJSON = batch.toJSON();
 * ```
 */
export interface BatchMetaJSON {
  /** See {@link BatchMeta.numFrames}. */
  numFrames: number;
  /** See {@link BatchMeta.maxFramesInBatch}. */
  maxFramesInBatch: number;
  /** Each frame's {@link FrameMeta.toJSON}. */
  frameItems: FrameMetaJSON[];
  /** Each batch-level user meta's {@link UserMeta.toJSON}. */
  userMetaItems: UserMetaJSON[];
}

/**
 * The metadata of one batched buffer, mirroring DeepStream's `NvDsBatchMeta`: its frames, the
 * batch-level user metadata, and the pools new metadata is acquired from.
 *
 * Valid only during the transform() call that received it: afterwards every member throws
 * {@link StaleHandleError}. Copy the values you need.
 *
 * @example
 * ```ts
 * transform(batch: BatchMeta, buffer: GstBuffer) {
 *   this.log.debug(`${batch.numFrames} frame(s) in a ${buffer.size}-byte buffer`);
 *   for (const frame of batch.frameItems) this.seen.add(frame.sourceId);
 * }
 * ```
 */
export class BatchMeta {
  readonly #scope: TransformScope;
  #frameItems: readonly FrameMeta[] | undefined;
  #userMetaItems: readonly UserMeta[] | undefined;

  /** @internal Batches come from the host; user code never constructs them. */
  constructor(scope: TransformScope) {
    this.#scope = scope;
    scope.batch = this;
  }

  #live(member: string, action: "reading" | "calling" = "reading"): TransformScope {
    if (!this.#scope.alive) throw new StaleHandleError(HANDLE, member, action);
    return this.#scope;
  }

  /**
   * Number of frames in the batch (`num_frames_in_batch`).
   *
   * @example
   * ```ts
   * if (batch.numFrames === 0) return;
   * ```
   */
  get numFrames(): number {
    return readState(this.#scope, STATE_NUM_FRAMES, HANDLE, "numFrames");
  }

  /**
   * Most frames a batch of this stream can hold (`max_frames_in_batch`: nvstreammux's `batch-size`).
   *
   * @example
   * ```ts
   * const partial = batch.numFrames < batch.maxFramesInBatch;
   * ```
   */
  get maxFramesInBatch(): number {
    return readState(this.#scope, STATE_MAX_FRAMES, HANDLE, "maxFramesInBatch");
  }

  /**
   * The batch's frames, in batch order. A real array: iterate it as often as you like, index
   * it, map it. Built on first access, so elements that never look at frames pay nothing.
   *
   * @example
   * ```ts
   * const sources = batch.frameItems.map((frame) => frame.sourceId);
   * ```
   */
  get frameItems(): readonly FrameMeta[] {
    const scope = this.#live("frameItems");
    if (this.#frameItems === undefined) {
      const count = scope.state[STATE_NUM_FRAMES] ?? 0;
      const frames: FrameMeta[] = new Array<FrameMeta>(count);
      for (let index = 0; index < count; index++) frames[index] = new FrameMeta(scope, index);
      // Not frozen: freezing a fresh array costs V8 a map transition per call, and the
      // readonly type already says the list is not the batch (adding frames is not a push).
      this.#frameItems = frames;
    }
    return this.#frameItems;
  }

  /**
   * User metadata attached to the batch (`batch_user_meta_list`).
   *
   * @example
   * ```ts
   * const config = batch.userMetaItems.find((user) => user.metaType === "ACME.PIPELINE.CONFIG")?.json;
   * ```
   */
  get userMetaItems(): readonly UserMeta[] {
    const scope = this.#live("userMetaItems");
    return (this.#userMetaItems ??= userInternals.list(scope, BATCH_LEVEL, 0));
  }

  /**
   * A new object from the batch's pool (`nvds_acquire_obj_meta_from_pool`), with what nvinfer
   * gives every object it detects: objectId -1 (untracked), a 3 px red border, text params in
   * "Serif" 11 white on black; everything else 0. Fill it, then add it with
   * `frame.addObjectMeta(obj)`, which also gives it what nvinfer derives from the detection
   * unless you wrote it (the box as `detectorBboxInfo`, the label as text above the box; see
   * docs/metadata.md, "What nvinfer writes"); an object never added goes back to the pool when
   * the call ends.
   *
   * @example
   * ```ts
   * const obj = batch.acquireObjectMeta();
   * obj.rectParams = { left: 0, top: 0, width: 10, height: 10 };
   * frame.addObjectMeta(obj);
   * ```
   */
  acquireObjectMeta(): ObjectMeta {
    return acquireObject(this.#live("acquireObjectMeta()", "calling"));
  }

  /**
   * A new classifier result to fill and attach with `obj.addClassifierMeta(classifier)`
   * (`nvds_acquire_classifier_meta_from_pool`; taken from the pool when added).
   *
   * @example
   * ```ts
   * const classifier = batch.acquireClassifierMeta();
   * classifier.classifierType = "color";
   * ```
   */
  acquireClassifierMeta(): ClassifierMeta {
    return new ClassifierMeta(this.#live("acquireClassifierMeta()", "calling"));
  }

  /**
   * A new label info to fill and add with `classifier.addLabelInfo(label)`
   * (`nvds_acquire_label_info_meta_from_pool`).
   *
   * @example
   * ```ts
   * const label = batch.acquireLabelInfo();
   * label.resultLabel = "red";
   * ```
   */
  acquireLabelInfo(): LabelInfo {
    return new LabelInfo(this.#live("acquireLabelInfo()", "calling"));
  }

  /**
   * A new display meta to fill and add with `frame.addDisplayMeta(display)`
   * (`nvds_acquire_display_meta_from_pool`; any number of elements, chained when added).
   *
   * @example
   * ```ts
   * const display = batch.acquireDisplayMeta().addText({ displayText: "hi" });
   * ```
   */
  acquireDisplayMeta(): DisplayMeta {
    return new DisplayMeta(this.#live("acquireDisplayMeta()", "calling"));
  }

  /**
   * A new user meta to fill (`setJson`/`setBytes`) and add to the batch, a frame or an object
   * (`nvds_acquire_user_meta_from_pool`).
   *
   * @example
   * ```ts
   * const user = batch.acquireUserMeta();
   * user.setJson("ACME.COUNTER.TOTALS", { people: 2 });
   * batch.addUserMeta(user);
   * ```
   */
  acquireUserMeta(): UserMeta {
    return new UserMeta(this.#live("acquireUserMeta()", "calling"));
  }

  /**
   * Attaches a user meta to the batch (`nvds_add_user_meta_to_batch`).
   *
   * @example
   * ```ts
   * const user = batch.acquireUserMeta();
   * user.setBytes("ACME.SYNC.MARK", new Uint8Array([1]));
   * batch.addUserMeta(user);
   * ```
   */
  addUserMeta(user: UserMeta): void {
    userInternals.add(this.#live("addUserMeta()", "calling"), BATCH_LEVEL, 0, user, HANDLE);
    this.#userMetaItems = undefined;
  }

  /**
   * Removes one of the batch's user metas (`nvds_remove_user_meta_from_batch`).
   *
   * @example
   * ```ts
   * for (const user of batch.userMetaItems) if (user.metaType === "ACME.SYNC.MARK") batch.removeUserMeta(user);
   * ```
   */
  removeUserMeta(user: UserMeta): void {
    userInternals.remove(this.#live("removeUserMeta()", "calling"), BATCH_LEVEL, 0, user, HANDLE, "batch");
    this.#userMetaItems = undefined;
  }

  /**
   * The batch's values as a plain object (frames with their objects, display and user
   * metadata), safe to keep after transform() returns.
   *
   * @example
   * ```ts
   * this.lastBatch = batch.toJSON();
   * ```
   */
  toJSON(): BatchMetaJSON {
    return {
      numFrames: this.numFrames,
      maxFramesInBatch: this.maxFramesInBatch,
      frameItems: this.frameItems.map((frame) => frame.toJSON()),
      userMetaItems: this.userMetaItems.map((user) => user.toJSON()),
    };
  }
}
