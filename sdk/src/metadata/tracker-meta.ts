import type { NativeReid, NativeTrackerTargets } from "../native/component-meta-binding.js";
import { COMPONENT_FIELDS } from "../protocol/component-fields.js";
import { toComponentValue } from "./component-values.js";
import type { Box } from "./values.js";

/**
 * A target's tracking state in a past frame (`TRACKER_STATE`): `EMPTY`, `ACTIVE`, `INACTIVE`
 * (shadow tracking), `TENTATIVE`, `PROJECTED`, `QUASIACTIVE`, in lower case.
 *
 * @example
 * ```ts
 * const confirmed = (state: TrackerState) => state === "active" || state === "quasiactive";
 * ```
 */
// generated: TrackerState values (npm run generate)
export type TrackerState = "empty" | "active" | "inactive" | "tentative" | "projected" | "quasiactive";
// end generated: TrackerState values

/** @internal By TRACKER_STATE number. */
export const TRACKER_STATES = COMPONENT_FIELDS.TrackerTargetFrame.find((member) => member.name === "trackerState")!.values as readonly TrackerState[];

/**
 * One past frame of a target (`NvDsTargetMiscDataFrame`).
 *
 * @example
 * ```ts
 * const lastSeen = target.frames.at(-1)?.frameNum;
 * ```
 */
export interface TrackerTargetFrame {
  // generated: TrackerTargetFrame members (npm run generate)
  /** Frame number (`frameNum`). */
  readonly frameNum: number;
  /** The box, scaled to the frame (`tBbox`). */
  readonly bbox: Readonly<Box>;
  /** Tracking confidence (`confidence`). */
  readonly confidence: number;
  /** Tracking age, frames (`age`). */
  readonly age: number;
  /** Tracker state (`trackerState`). */
  readonly trackerState: TrackerState;
  /** Visibility of the box with respect to the image border (`visibility`). */
  readonly visibility: number;
  /** Feet location on the world ground (`ptWorldFeet`), [x, y]. */
  readonly worldFeet: readonly [number, number];
  // end generated: TrackerTargetFrame members
}

/**
 * One target and its past frames (`NvDsTargetMiscDataObject`).
 *
 * @example
 * ```ts
 * const trail = target.frames.map((frame) => frame.bbox);
 * ```
 */
export interface TrackerTarget {
  // generated: TrackerTarget members (npm run generate)
  /** Tracking id (`uniqueId`): the `objectId` its object has, read as `objectId` is (-1 for UNTRACKED_OBJECT_ID). */
  readonly uniqueId: number;
  /** Class id (`classId`). */
  readonly classId: number;
  /** Class label (`objLabel`). */
  readonly objLabel: string;
  /** Its frames (`list[0..numObj)`), oldest first as nvtracker lists them. */
  readonly frames: readonly TrackerTargetFrame[];
  // end generated: TrackerTarget members
}

/**
 * One stream's targets (`NvDsTargetMiscDataStream`).
 *
 * @example
 * ```ts
 * const ids = stream.targets.map((target) => target.uniqueId);
 * ```
 */
export interface TrackerStream {
  // generated: TrackerStream members (npm run generate)
  /** The stream (`streamID`: the frames' `padIndex`). */
  readonly streamId: number;
  /** The stream id inside nvtracker (`surfaceStreamID`). */
  readonly surfaceStreamId: bigint;
  /** The targets (`list[0..numFilled)`). */
  readonly targets: readonly TrackerTarget[];
  // end generated: TrackerStream members
}

/**
 * A list of targets per stream that nvtracker attaches to the batch (`NvDsTargetMiscDataBatch`):
 * the past-frame data (`NVDS_TRACKER_PAST_FRAME_META`, tracker config `enablePastFrame`), the
 * terminated tracks (`NVDS_TRACKER_TERMINATED_LIST_META`, `outputTerminatedTracks`) or the
 * shadow tracks (`NVDS_TRACKER_SHADOW_LIST_META`, `outputShadowTracks`). A copy: safe to keep.
 *
 * @example
 * ```ts
 * for (const user of batch.userMetaItems) {
 *   if (user.kind !== "tracker-past-frame") continue;
 *   for (const stream of user.asTrackerTargets()!.streams)
 *     for (const target of stream.targets) this.backfill(stream.streamId, target.uniqueId, target.frames);
 * }
 * ```
 */
export interface TrackerTargetList {
  // generated: TrackerTargetList members (npm run generate)
  /** The streams (`list[0..numFilled)`). */
  readonly streams: readonly TrackerStream[];
  // end generated: TrackerTargetList members
}

/**
 * Re-identification embeddings nvtracker attaches (tracker config `outputReidTensor`): the
 * whole batch's (`NvDsReidTensorBatch`, `NVDS_TRACKER_BATCH_REID_META`, on the batch) or one
 * object's (`NvDsObjReid`, `NVDS_TRACKER_OBJ_REID_META`, on the object; `obj.reid`).
 *
 * @example
 * ```ts
 * const embedding = obj.reid?.vector(0);
 * if (embedding) this.gallery.set(obj.objectId, embedding.slice());
 * ```
 */
export interface ReidMeta {
  // generated: ReidMeta members (npm run generate)
  /** Floats per embedding (`featureSize`). */
  readonly featureSize: number;
  /** Embeddings (`numFilled` of the batch's, 1 for an object's). */
  readonly numVectors: number;
  /**
   * The host copy (`ptr_host`), `featureSize × numVectors` floats, zero-copy; undefined when
   * there is none. The memory belongs to nvtracker: the view is emptied (detached) when the
   * transform() call ends, so copy what you keep (`data.slice()`).
   */
  readonly data: Float32Array | undefined;
  /** The device copy (`ptr_dev`), 0n when none. */
  readonly devicePointer: bigint;
  // end generated: ReidMeta members
  /**
   * Embedding `index` as a view into {@link ReidMeta.data}; undefined out of range or without
   * host data.
   */
  vector(index: number): Float32Array | undefined;
}

/** @internal */
export function toTrackerTargetList(native: NativeTrackerTargets): TrackerTargetList {
  return toComponentValue("TrackerTargetBatch", native);
}

/** @internal */
export function toReidMeta(native: NativeReid): ReidMeta {
  const members = toComponentValue<Omit<ReidMeta, "vector">>("ReidTensor", native);
  const { featureSize, numVectors, data } = members;
  return Object.freeze({
    ...members,
    vector(index: number): Float32Array | undefined {
      if (data === undefined || !Number.isInteger(index) || index < 0 || index >= numVectors) return undefined;
      return data.subarray(index * featureSize, (index + 1) * featureSize);
    },
  });
}
