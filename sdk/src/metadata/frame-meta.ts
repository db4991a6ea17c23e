import { MetaStateError, StaleHandleError } from "../errors/errors.js";
import type { NativeBulkOptions, NativeObjectColumns } from "../native/meta-binding.js";
import { FRAME_FIELDS, type FrameFieldName, NVINFER_OBJECT, OBJ_FRAME_INDEX, OBJ_PARENT_ROW, STATE_FRAME_STRIDE, STATE_FRAMES_BASE } from "../protocol/transform-state.js";
import { ADDED, checkAddable, checkSameCall, notAHandle, notIn, REMOVED } from "./call/handle-checks.js";
import { displayInternals, type DisplayMeta, type DisplayMetaJSON } from "./display-meta.js";
import { objectAtRow, objectCoreOf, tensorOutputs, type ObjectMeta, type ObjectMetaJSON } from "./object-meta.js";
import type { TensorOutputMeta } from "./tensor-output-meta.js";
import { toSensorInfo, type SensorInfo } from "./sensor-info.js";
import { defineRecordFields, recordFieldsJSON, type RecordFieldsJSON } from "./call/record-fields.js";
import type { TransformScope } from "./call/transform-scope.js";
import { FRAME_LEVEL, userInternals, type UserMeta, type UserMetaJSON } from "./user-meta.js";
import {
  checkBoundedString,
  checkConfidence,
  checkFinite,
  checkInt32,
  checkSize,
  checkUint32,
  invalid,
  invalidReceived,
} from "./call/validation.js";
import { makeColor, makeLabelText, type ColorInit, type TextParamsInit } from "./values.js";

const HANDLE = "FrameMeta";

/** @internal What code outside the metadata classes (the overlay) needs of a FrameMeta. */
export interface FrameInternals {
  /** The frame's call and its index in the batch, or undefined when `value` is not a FrameMeta. */
  locate(value: unknown): { scope: TransformScope; index: number } | undefined;
}

/** @internal Assigned by FrameMeta's static block. */
export let frameInternals: FrameInternals;

/**
 * Columns of N detections for {@link FrameMeta.addObjects}: one entry per object in each typed
 * array (all of the same length), plus values shared by all of them.
 *
 * @example
 * ```ts
 * const columns: ObjectColumns = {
 *   left: new Float32Array([10, 200]), top: new Float32Array([20, 40]),
 *   width: new Float32Array([50, 60]), height: new Float32Array([80, 90]),
 *   confidence: new Float32Array([0.9, 0.7]), classId: new Int32Array([0, 2]),
 *   labels: ["person", "bicycle", "car"], uniqueComponentId: 1, borderColor: { green: 1 },
 *   labelText: { font: { size: 14 } },
 * };
 * ```
 */
export interface ObjectColumns {
  /** Left edges, px (`rect_params.left`, also `detector_bbox_info`). */
  left: Float32Array;
  /** Top edges, px. */
  top: Float32Array;
  /** Widths, px (>= 0). */
  width: Float32Array;
  /** Heights, px (>= 0). */
  height: Float32Array;
  /** Confidences, 0..1 or -0.1; 0 when omitted. */
  confidence?: Float32Array;
  /** Class ids; 0 when omitted. */
  classId?: Int32Array;
  /** Labels by class id: each object's `label` is `labels[classId]` when there is one. */
  labels?: readonly string[];
  /** `unique_component_id` of every object; 0 when omitted. */
  uniqueComponentId?: number;
  /** `rect_params.border_width` of every object; nvinfer's 3 when omitted. */
  borderWidth?: number;
  /**
   * `rect_params.border_color` of every object; nvinfer's red (`{1, 0, 0, 1}`, its colour for
   * a class without one of its own) when omitted; given: missing components 0, alpha 1.
   */
  borderColor?: ColorInit;
  /**
   * Each object's `text_params`, as nvinfer writes them: its label as `display_text`, above the
   * box's top left corner (`x_offset = left`, `y_offset = top - 10`, at least 0), font "Serif"
   * 11 white on a black background unless `font`, `setBgColor` or `bgColor` say otherwise.
   * Objects without a label get no text. `false`: `text_params` left empty (nvdsosd draws no label).
   */
  labelText?: false | Pick<TextParamsInit, "font" | "setBgColor" | "bgColor">;
}

/**
 * The values {@link FrameMeta.addObjects} shares across all of a call's objects, given apart
 * from the columns (its second argument): a detector then passes the `Detections` that nms and
 * mapBoxes return as they are. Building `{ ...boxes, labels }` for each frame instead cost
 * 8.5–8.7 µs a frame against 4.6–5.3 this way (6 objects, Node 20, the 2-core development VM):
 * V8 copies an object spread slowly once properties are added after it (bench/RESULTS.md,
 * "addObjects' shared values apart").
 *
 * @example
 * ```ts
 * const boxes = mapBoxes(nms(detections), transform);
 * frame.addObjects(boxes, { labels: this.classNames, uniqueComponentId: 1 });
 * ```
 */
export type ObjectOptions = Pick<ObjectColumns, "labels" | "uniqueComponentId" | "borderWidth" | "borderColor" | "labelText">;

/**
 * The plain values of a {@link FrameMeta}, as {@link FrameMeta.toJSON} returns them: its
 * fields (`ntpTimestamp` as a decimal string: JSON has no 64-bit integers) and its lists.
 *
 * @example
 * ```ts
 * const frames: FrameMetaJSON[] = batch.frameItems.map((frame) => frame.toJSON());
 * ```
 */
export interface FrameMetaJSON extends RecordFieldsJSON<FrameMeta, FrameFieldName> {
  /** Each object's {@link ObjectMeta.toJSON}. */
  objectItems: ObjectMetaJSON[];
  /** Each display meta's {@link DisplayMeta.toJSON}. */
  displayMetaItems: DisplayMetaJSON[];
  /** Each user meta's {@link UserMeta.toJSON}. */
  userMetaItems: UserMetaJSON[];
}

/**
 * One frame of a batch, with DeepStream's `NvDsFrameMeta` field names in camelCase, and the
 * objects, display and user metadata attached to it. In a plain GStreamer pipeline (no batch
 * metadata upstream) the host makes a one-frame batch: frameNum counts buffers, bufPts is the
 * buffer PTS, the sizes come from the negotiated caps, and sourceId, padIndex and batchId are 0.
 * Before an `nvstreammux` such a frame may be read but not written: the muxer would keep those
 * ids, so writing there stops the pipeline with an error (docs/metadata.md, "Where an element
 * may stand").
 *
 * Reading fields costs no native call. Writable fields are checked and written through at once.
 *
 * Valid only during the transform() call that received it (see {@link StaleHandleError}).
 *
 * @example
 * ```ts
 * transform(batch: BatchMeta) {
 *   for (const frame of batch.frameItems) {
 *     this.log.debug(`source ${frame.sourceId} frame ${frame.frameNum}: ${frame.objectItems.length} objects`);
 *   }
 * }
 * ```
 */
export class FrameMeta {
  readonly #scope: TransformScope;
  readonly #index: number;
  readonly #base: number;
  #objectItems: readonly ObjectMeta[] | undefined;
  #displayMetaItems: readonly DisplayMeta[] | undefined;
  #userMetaItems: readonly UserMeta[] | undefined;

  /** @internal Frames come from `batch.frameItems`; user code never constructs them. */
  constructor(scope: TransformScope, index: number) {
    this.#scope = scope;
    this.#index = index;
    this.#base = STATE_FRAMES_BASE + index * STATE_FRAME_STRIDE;
  }

  /** Sets bInferDone, as nvinfer does on the frames it infers; sent once (a write sends the whole record). */
  #markInferred(): void {
    if (!this.inferDone) this.inferDone = true;
  }

  /** Writes slots of the frame's record and sends the record (restored if native code refuses). */
  #write(slot: number, values: readonly number[]): void {
    const scope = this.#scope;
    const state = scope.state;
    const at = this.#base + slot;
    const previous = state.slice(at, at + values.length);
    state.set(values, at);
    try {
      scope.meta.writeFrame(scope.callId, this.#index, state);
    } catch (error) {
      state.set(previous, at);
      throw error;
    }
  }

  /**
   * The frame's objects (`obj_meta_list`), in list order: one native call on first access, then
   * kept until this call adds or removes objects of the frame. A real array: iterate it as often
   * as you like. The object you added is the one listed (`===`).
   *
   * @example
   * ```ts
   * for (const obj of frame.objectItems) if (obj.confidence < 0.3) frame.removeObjectMeta(obj);
   * ```
   */
  get objectItems(): readonly ObjectMeta[] {
    if (!this.#scope.alive) throw new StaleHandleError(HANDLE, "objectItems");
    if (this.#objectItems === undefined) {
      const scope = this.#scope;
      const { rows, count } = scope.listRows(this.#index);
      const objects = new Array<ObjectMeta>(count);
      for (let i = 0; i < count; i++) objects[i] = objectAtRow(scope, rows[i] as number);
      this.#objectItems = Object.freeze(objects);
    }
    return this.#objectItems;
  }

  /**
   * Adds an object acquired with `batch.acquireObjectMeta()` to this frame
   * (`nvds_add_obj_meta_to_frame`), with an optional parent already in a frame of the batch
   * (this one or another). Its values are sent with it; later writes are sent when transform()
   * settles. As nvinfer's detector does, the object gets its box as `detectorBboxInfo` when that
   * is still zero, and its label as text above the box when its text is still empty; the
   * frame's `inferDone` is set.
   *
   * @example
   * ```ts
   * const plate = batch.acquireObjectMeta();
   * plate.label = "plate";
   * plate.rectParams = { left: 100, top: 200, width: 60, height: 20 };
   * frame.addObjectMeta(plate, car);
   * ```
   */
  addObjectMeta(obj: ObjectMeta, parent?: ObjectMeta): void {
    const scope = this.#scope;
    if (!scope.alive) throw new StaleHandleError(HANDLE, "addObjectMeta()", "calling");
    const core = objectCoreOf(obj) ?? notAHandle("ObjectMeta", "FrameMeta.addObjectMeta obj", obj);
    checkSameCall(core.scope, scope, "ObjectMeta", "addObjectMeta");
    checkAddable(core.status, "ObjectMeta", "addObjectMeta", "removeObjectMeta");
    let parentRow = -1;
    if (parent !== undefined) {
      const parentCore = objectCoreOf(parent) ?? notAHandle("ObjectMeta", "FrameMeta.addObjectMeta parent", parent);
      checkSameCall(parentCore.scope, scope, "ObjectMeta", "addObjectMeta");
      if (parentCore.status !== ADDED) {
        const received = parentCore.status === REMOVED ? "one removed with removeObjectMeta" : "one acquired but never added";
        throw new MetaStateError(`Expected an ObjectMeta added to a frame for addObjectMeta's parent but received ${received}`);
      }
      parentRow = parentCore.row;
    }
    if (core.fresh) core.deriveOnAdd();
    const meta = scope.meta;
    meta.addObject(scope.callId, core.row, this.#index, parentRow, core.changedLabel(), core.changedText(), core.changedMask());
    this.#markInferred();
    core.status = ADDED;
    core.frameIndex = this.#index;
    core.sent();
    const table = scope.table;
    table[core.base + OBJ_PARENT_ROW] = parentRow;
    table[core.base + OBJ_FRAME_INDEX] = this.#index;
    this.#objectItems = undefined;
  }

  /**
   * Removes one of this frame's objects (`nvds_remove_obj_meta_from_frame`): it goes back to
   * the pool with its classifier and user metadata, and cannot be used afterwards. Objects
   * whose parent it was keep living, without a parent.
   *
   * @example
   * ```ts
   * for (const obj of frame.objectItems) if (obj.rectParams.width < 4) frame.removeObjectMeta(obj);
   * ```
   */
  removeObjectMeta(obj: ObjectMeta): void {
    const scope = this.#scope;
    if (!scope.alive) throw new StaleHandleError(HANDLE, "removeObjectMeta()", "calling");
    const core = objectCoreOf(obj) ?? notAHandle("ObjectMeta", "FrameMeta.removeObjectMeta obj", obj);
    checkSameCall(core.scope, scope, "ObjectMeta", "removeObjectMeta");
    if (core.status !== ADDED || core.frameIndex !== this.#index) notIn(core.status, "ObjectMeta", "frame", "removeObjectMeta", "removeObjectMeta");
    const meta = scope.meta;
    meta.removeObject(scope.callId, core.row, this.#index);
    core.status = REMOVED;
    core.frameIndex = -1;
    this.#objectItems = undefined;
  }

  /**
   * Adds N objects from typed-array columns in one native call (the fast path for detectors):
   * every row is checked first, and on an error nothing is added. Each object is what nvinfer's
   * detector writes (docs/metadata.md, "What nvinfer writes"): `rect_params` and
   * `detector_bbox_info` from the columns, `object_id` untracked, a 3 px red border and its
   * label as text unless the columns say otherwise; the frame's `inferDone` is set. Returns the
   * number added. The new objects appear in `objectItems` (read it again after this call).
   *
   * The values shared by every object (labels, unique component id, border, label text) may
   * come in `options` instead of the columns ({@link ObjectOptions}); when `options` is given,
   * those of the columns are not read.
   *
   * @example
   * ```ts
   * const added = frame.addObjects({ left, top, width, height, confidence: scores, classId: classes, labels: this.props.labels });
   * // a detector's boxes as they come from nms and mapBoxes, the shared values apart:
   * frame.addObjects(mapBoxes(nms(detections), transform), { labels: this.props.labels, uniqueComponentId: 1 });
   * ```
   */
  addObjects(columns: ObjectColumns, options?: ObjectOptions): number {
    const scope = this.#scope;
    if (!scope.alive) throw new StaleHandleError(HANDLE, "addObjects()", "calling");
    const { native, options: nativeOptions } = checkColumns(columns, options);
    const meta = scope.meta;
    const added = meta.addObjects(scope.callId, this.#index, native, nativeOptions);
    this.#objectItems = undefined;
    this.#markInferred();
    return added;
  }

  /**
   * What nvdsosd will draw on the frame (`display_meta_list`): DeepStream's display metas as they
   * are in the buffer, at most 16 elements of a kind each.
   *
   * @example
   * ```ts
   * const texts = frame.displayMetaItems.flatMap((display) => display.texts.map((text) => text.displayText));
   * ```
   */
  get displayMetaItems(): readonly DisplayMeta[] {
    if (!this.#scope.alive) throw new StaleHandleError(HANDLE, "displayMetaItems");
    return (this.#displayMetaItems ??= displayInternals.list(this.#scope, this.#index));
  }

  /**
   * Adds a display meta (from `batch.acquireDisplayMeta()`) to the frame
   * (`nvds_add_display_meta_to_frame`), chained over as many DeepStream display metas as its
   * element counts need. It is read-only afterwards.
   *
   * @example
   * ```ts
   * frame.addDisplayMeta(batch.acquireDisplayMeta().addText({ displayText: "hello", xOffset: 8, yOffset: 8 }));
   * ```
   */
  addDisplayMeta(display: DisplayMeta): void {
    if (!this.#scope.alive) throw new StaleHandleError(HANDLE, "addDisplayMeta()", "calling");
    displayInternals.add(this.#scope, this.#index, display);
    this.#displayMetaItems = undefined;
  }

  /**
   * Removes a display meta from the frame (every link of a chained one).
   *
   * @example
   * ```ts
   * for (const display of frame.displayMetaItems) frame.removeDisplayMeta(display);
   * ```
   */
  removeDisplayMeta(display: DisplayMeta): void {
    if (!this.#scope.alive) throw new StaleHandleError(HANDLE, "removeDisplayMeta()", "calling");
    displayInternals.remove(this.#scope, this.#index, display);
    this.#displayMetaItems = undefined;
  }

  /**
   * User metadata attached to the frame (`frame_user_meta_list`), including nvinfer's tensor
   * output metas (kind `"tensor-output"`) and other components' (kind `"foreign"`).
   *
   * @example
   * ```ts
   * const totals = frame.userMetaItems.find((user) => user.metaType === "ACME.COUNTER.TOTALS")?.json;
   * ```
   */
  get userMetaItems(): readonly UserMeta[] {
    if (!this.#scope.alive) throw new StaleHandleError(HANDLE, "userMetaItems");
    return (this.#userMetaItems ??= userInternals.list(this.#scope, FRAME_LEVEL, this.#index));
  }

  /**
   * nvinfer's raw output tensors for the frame (primary inference with `output-tensor-meta=1`).
   *
   * @example
   * ```ts
   * const output = frame.tensorItems[0]?.layers[0];
   * ```
   */
  get tensorItems(): readonly TensorOutputMeta[] {
    if (!this.#scope.alive) throw new StaleHandleError(HANDLE, "tensorItems");
    return tensorOutputs(this.userMetaItems);
  }

  /**
   * The frame's sensor information (`sensorInfo_meta`): sensor id, name and URI as the source
   * bin (nvmultiurisrcbin) set them; a copy, safe to keep.
   *
   * @example
   * ```ts
   * const camera = frame.sensorInfo.sensorName ?? `source ${frame.sourceId}`;
   * ```
   */
  get sensorInfo(): SensorInfo {
    if (!this.#scope.alive) throw new StaleHandleError(HANDLE, "sensorInfo");
    return toSensorInfo(this.#scope.meta.readSensorInfo(this.#scope.callId, this.#index));
  }

  /**
   * Attaches a user meta (from `batch.acquireUserMeta()`, payload set) to the frame
   * (`nvds_add_user_meta_to_frame`).
   *
   * @example
   * ```ts
   * const user = batch.acquireUserMeta();
   * user.setJson("ACME.COUNTER.TOTALS", { people: 3 });
   * frame.addUserMeta(user);
   * ```
   */
  addUserMeta(user: UserMeta): void {
    if (!this.#scope.alive) throw new StaleHandleError(HANDLE, "addUserMeta()", "calling");
    userInternals.add(this.#scope, FRAME_LEVEL, this.#index, user, HANDLE);
    this.#userMetaItems = undefined;
  }

  /**
   * Removes one of the frame's user metas (`nvds_remove_user_meta_from_frame`).
   *
   * @example
   * ```ts
   * for (const user of frame.userMetaItems) if (user.metaType === "ACME.TMP.SCRATCH") frame.removeUserMeta(user);
   * ```
   */
  removeUserMeta(user: UserMeta): void {
    if (!this.#scope.alive) throw new StaleHandleError(HANDLE, "removeUserMeta()", "calling");
    userInternals.remove(this.#scope, FRAME_LEVEL, this.#index, user, HANDLE, "frame");
    this.#userMetaItems = undefined;
  }

  /**
   * The frame's values as a plain object with its objects, display and user metadata, safe to
   * keep after transform() returns.
   *
   * @example
   * ```ts
   * const frames = batch.frameItems.map((frame) => frame.toJSON());
   * setTimeout(() => this.log.info(`${frames[0]?.objectItems.length} objects`), 1000); // fine: plain values
   * ```
   */
  toJSON(): FrameMetaJSON {
    return {
      ...(recordFieldsJSON(this, FRAME_FIELDS) as Omit<FrameMetaJSON, "objectItems" | "displayMetaItems" | "userMetaItems">),
      objectItems: this.objectItems.map((obj) => obj.toJSON()),
      displayMetaItems: this.displayMetaItems.map((display) => display.toJSON()),
      userMetaItems: this.userMetaItems.map((user) => user.toJSON()),
    };
  }

  static {
    // batchId, padIndex, ... : one accessor per FRAME_FIELDS entry, over the frame's record in
    // the call's state array (declared below, in `interface FrameMeta`).
    defineRecordFields(FrameMeta, FRAME_FIELDS, {
      owner: HANDLE,
      check: (frame, member, action) => {
        if (!frame.#scope.alive) throw new StaleHandleError(HANDLE, member, action);
      },
      array: (frame) => frame.#scope.state,
      base: (frame) => frame.#base,
      write: (frame, slot, values) => frame.#write(slot, values),
    });
    frameInternals = {
      locate: (value) => (value instanceof FrameMeta ? { scope: value.#scope, index: value.#index } : undefined),
    };
  }
}

// generated: frame-fields (npm run generate)
/** FrameMeta's fields held in its record: accessors made from the descriptors in protocol/transform-state.ts (metadata/call/record-fields.ts). */
export interface FrameMeta {
  /**
   * Frame number within its source (`frame_num`, int32).
   *
   * Writes are checked first (an integer from -2147483648 to 2147483647): an invalid value throws and changes nothing.
   *
   * @example
   * ```ts
   * if (frame.frameNum % 30 === 0) this.log.info(`frame ${frame.frameNum}`);
   * ```
   */
  frameNum: number;

  /**
   * Source (camera/stream) the frame came from (`source_id`, uint32).
   *
   * Writes are checked first (an integer from 0 to 4294967295): an invalid value throws and changes nothing.
   *
   * @example
   * ```ts
   * this.counts.set(frame.sourceId, (this.counts.get(frame.sourceId) ?? 0) + 1);
   * ```
   */
  sourceId: number;

  /**
   * Sink pad of the muxer the frame came in on (`pad_index`, uint32).
   *
   * Writes are checked first (an integer from 0 to 4294967295): an invalid value throws and changes nothing.
   *
   * @example
   * ```ts
   * const camera = this.cameras[frame.padIndex];
   * ```
   */
  padIndex: number;

  /**
   * Index of this frame inside the batch (`batch_id`): which surface of the batched buffer holds it.
   *
   * @example
   * ```ts
   * const tensor = buffer.extract(frame.batchId);
   * ```
   */
  readonly batchId: number;

  /**
   * Presentation timestamp of the frame's original buffer in ns (`buf_pts`); undefined when it
   * had none. Write an integer >= 0 or undefined.
   *
   * Writes are checked first (an integer from 0 to 2^53 - 1, or undefined (-1 natively) for none): an invalid value throws and changes nothing.
   *
   * @example
   * ```ts
   * const seconds = (frame.bufPts ?? 0) / 1e9;
   * ```
   */
  bufPts: number | undefined;

  /**
   * Wall-clock time the source captured the frame, ns since the Unix epoch (`ntp_timestamp`,
   * uint64); set by nvstreammux when `attach-sys-ts` or RTCP sender reports give one.
   *
   * Writes are checked first (a bigint from 0n to 2^64 - 1 (two exact 32-bit halves natively, high first)): an invalid value throws and changes nothing.
   *
   * @example
   * ```ts
   * const captured = new Date(Number(frame.ntpTimestamp / 1_000_000n));
   * ```
   */
  ntpTimestamp: bigint;

  /**
   * Width of the frame as the source produced it (`source_frame_width`, uint32).
   *
   * Writes are checked first (an integer from 0 to 4294967295): an invalid value throws and changes nothing.
   *
   * @example
   * ```ts
   * const scaleX = frame.sourceFrameWidth / frame.pipelineWidth;
   * ```
   */
  sourceFrameWidth: number;

  /**
   * Height of the frame as the source produced it (`source_frame_height`, uint32).
   *
   * Writes are checked first (an integer from 0 to 4294967295): an invalid value throws and changes nothing.
   *
   * @example
   * ```ts
   * const scaleY = frame.sourceFrameHeight / frame.pipelineHeight;
   * ```
   */
  sourceFrameHeight: number;

  /**
   * Width of the frame in this pipeline's buffers (`pipeline_width`, uint32).
   *
   * Writes are checked first (an integer from 0 to 4294967295): an invalid value throws and changes nothing.
   *
   * @example
   * ```ts
   * const right = Math.min(obj.rectParams.left + obj.rectParams.width, frame.pipelineWidth);
   * ```
   */
  pipelineWidth: number;

  /**
   * Height of the frame in this pipeline's buffers (`pipeline_height`, uint32).
   *
   * Writes are checked first (an integer from 0 to 4294967295): an invalid value throws and changes nothing.
   *
   * @example
   * ```ts
   * const bottom = Math.min(obj.rectParams.top + obj.rectParams.height, frame.pipelineHeight);
   * ```
   */
  pipelineHeight: number;

  /**
   * Surface type (`surface_type`, uint32; 0 for a regular frame, other values for 360° cameras).
   *
   * Writes are checked first (an integer from 0 to 4294967295): an invalid value throws and changes nothing.
   *
   * @example
   * ```ts
   * if (frame.surfaceType !== 0) return; // only regular surfaces
   * ```
   */
  surfaceType: number;

  /**
   * Which of the frame's surfaces this is (`surface_index`, uint32).
   *
   * Writes are checked first (an integer from 0 to 4294967295): an invalid value throws and changes nothing.
   *
   * @example
   * ```ts
   * const view = `${frame.sourceId}/${frame.surfaceIndex}`;
   * ```
   */
  surfaceIndex: number;

  /**
   * Number of surfaces the source frame has (`num_surfaces_per_frame`, 1 for a regular frame).
   *
   * Writes are checked first (an integer from 0 to 2147483647): an invalid value throws and changes nothing.
   *
   * @example
   * ```ts
   * const multi = frame.numSurfacesPerFrame > 1;
   * ```
   */
  numSurfacesPerFrame: number;

  /**
   * Whether inference ran on this frame (`bInferDone`); nvinfer's `interval` skips frames.
   * Set it when your element infers, so downstream elements can tell.
   *
   * Writes are checked first (a boolean (0 or 1 natively)): an invalid value throws and changes nothing.
   *
   * @example
   * ```ts
   * frame.inferDone = true;
   * ```
   */
  inferDone: boolean;

  /**
   * Four integers for your own use (`misc_frame_info`), set as a whole. int64 in DeepStream;
   * exact here up to 2^53.
   *
   * Writes are checked first (four integers, each exact up to 2^53): an invalid value throws and changes nothing.
   *
   * @example
   * ```ts
   * frame.miscFrameInfo = [this.sceneId, 0, 0, 0];
   * ```
   */
  miscFrameInfo: readonly [number, number, number, number];
}
// end generated: frame-fields

const BULK = "FrameMeta.addObjects";

function checkColumn<T extends Float32Array | Int32Array>(
  value: unknown,
  type: new (length: number) => T,
  member: string,
  length: number,
): T {
  const name = `${BULK}.${member}`;
  if (!(value instanceof type)) return invalid(`a ${type.name}`, name, value, true);
  if (length >= 0 && value.length !== length) {
    return invalidReceived(`a ${type.name} of ${length} values (as many as left)`, name, `${value.length} values`);
  }
  return value;
}

/** Checks every column and row in JS (names in TS terms); returns what the binding takes. */
function checkColumns(columns: ObjectColumns, given: ObjectOptions | undefined): { native: NativeObjectColumns; options: NativeBulkOptions } {
  if (typeof columns !== "object" || columns === null) invalid("an object of columns", BULK, columns, true);
  if (given !== undefined && (typeof given !== "object" || given === null)) invalid("an object of options", `${BULK} options`, given, true);
  // The shared values, and the name errors give them under.
  const shared: ObjectOptions = given ?? columns;
  const sharedName = given === undefined ? BULK : `${BULK} options`;
  const left = checkColumn(columns.left, Float32Array, "left", -1);
  const count = left.length;
  const top = checkColumn(columns.top, Float32Array, "top", count);
  const width = checkColumn(columns.width, Float32Array, "width", count);
  const height = checkColumn(columns.height, Float32Array, "height", count);
  const confidence = columns.confidence === undefined ? undefined : checkColumn(columns.confidence, Float32Array, "confidence", count);
  const classId = columns.classId === undefined ? undefined : checkColumn(columns.classId, Int32Array, "classId", count);
  for (let row = 0; row < count; row++) {
    // The common case passes these four comparisons; names are built only on failure.
    const l = left[row] as number;
    const t = top[row] as number;
    const w = width[row] as number;
    const h = height[row] as number;
    if (!(Number.isFinite(l) && Number.isFinite(t) && w >= 0 && w !== Infinity && h >= 0 && h !== Infinity)) {
      checkFinite(l, `${BULK}.left[${row}]`);
      checkFinite(t, `${BULK}.top[${row}]`);
      checkSize(w, `${BULK}.width[${row}]`);
      checkSize(h, `${BULK}.height[${row}]`);
    }
    if (confidence !== undefined) {
      const c = confidence[row] as number;
      if (!(c >= 0 && c <= 1)) checkConfidence(c, `${BULK}.confidence[${row}]`);
    }
  }
  let labels: string[] | undefined;
  if (shared.labels !== undefined) {
    if (!Array.isArray(shared.labels)) invalid("an array of strings", `${sharedName}.labels`, shared.labels, true);
    labels = shared.labels.map((label, index) => checkBoundedString(label, `${sharedName}.labels[${index}]`));
  }
  const options: NativeBulkOptions = {
    uniqueComponentId: shared.uniqueComponentId === undefined ? 0 : checkInt32(shared.uniqueComponentId, `${sharedName}.uniqueComponentId`),
    borderWidth: shared.borderWidth === undefined ? NVINFER_OBJECT.borderWidth : checkUint32(shared.borderWidth, `${sharedName}.borderWidth`),
    borderColor: makeColor(shared.borderColor, `${sharedName}.borderColor`, NVINFER_OBJECT.borderColor),
    text: makeLabelText(shared.labelText, `${sharedName}.labelText`),
    labels,
  };
  return { native: { left, top, width, height, confidence, classId }, options };
}
