/**
 * What a synthetic batch carries of NVIDIA components' metas (nvtracker's, nvdspreprocess's,
 * nvinfer's ROI meta) and of the frames' sensor information, and how the harness writes them
 * (portable backend: the metas as their NVIDIA writers attach them; both backends: the sensor
 * information as the source bin sets it).
 */
import type { PreprocessBatchMeta, PreprocessDataType, PreprocessTensorMeta, RoiMeta } from "../metadata/preprocess-meta.js";
import type { SensorInfo } from "../metadata/sensor-info.js";
import type { Box } from "../metadata/values.js";
import { PREPROCESS_DATA_TYPES } from "../metadata/preprocess-meta.js";
import { TRACKER_STATES, type ReidMeta, type TrackerState, type TrackerStream, type TrackerTarget, type TrackerTargetFrame } from "../metadata/tracker-meta.js";
import type { NativePreprocessBatch, NativeRoi, NativeTrackerTargets } from "../native/component-meta-binding.js";
import {
  PAYLOAD_PREPROCESS_BATCH,
  PAYLOAD_ROI,
  PAYLOAD_TRACKER_BATCH_REID,
  PAYLOAD_TRACKER_OBJECT_REID,
  PAYLOAD_TRACKER_PAST_FRAME,
  PAYLOAD_TRACKER_SHADOW_LIST,
  PAYLOAD_TRACKER_TERMINATED_LIST,
  type StandaloneHarness,
  type UserMetaLevel,
} from "../native/meta-binding.js";

const BATCH_LEVEL: UserMetaLevel = 0;
const FRAME_LEVEL: UserMetaLevel = 1;
const OBJECT_LEVEL: UserMetaLevel = 2;
const PREPROCESS_ELEMENT_SIZES = [4, 1, 1, 4, 4, 8, 8, 2];

/**
 * One past frame of a target (`NvDsTargetMiscDataFrame`); see {@link TrackerTargetFrame}.
 *
 * @example
 * ```ts
 * const seen: TrackerTargetFrameInit = { frameNum: 41, bbox: { left: 10, top: 20, width: 40, height: 80 } };
 * ```
 */
export interface TrackerTargetFrameInit {
  /** See {@link TrackerTargetFrame.frameNum}. */
  frameNum: number;
  /** See {@link TrackerTargetFrame.bbox}. */
  bbox: Box;
  /** Default 1. */
  confidence?: number;
  /** Default 0. */
  age?: number;
  /** Default `"active"`. */
  trackerState?: TrackerState;
  /** Default 1. */
  visibility?: number;
  /** Default [0, 0]. */
  worldFeet?: readonly [number, number];
}

/**
 * One target (`NvDsTargetMiscDataObject`); see {@link TrackerTarget}.
 *
 * @example
 * ```ts
 * const car: TrackerTargetInit = { uniqueId: 7n, classId: 2, objLabel: "car", frames: [seen] };
 * ```
 */
export interface TrackerTargetInit {
  /** See {@link TrackerTarget.uniqueId} (a guint64: a bigint or a safe integer). */
  uniqueId: bigint | number;
  /** Default 0. */
  classId?: number;
  /** Default "". */
  objLabel?: string;
  /** See {@link TrackerTarget.frames}. */
  frames: TrackerTargetFrameInit[];
}

/**
 * One stream's targets (`NvDsTargetMiscDataStream`); see {@link TrackerStream}.
 *
 * @example
 * ```ts
 * const stream: TrackerStreamInit = { streamId: 0, targets: [car] };
 * ```
 */
export interface TrackerStreamInit {
  /** See {@link TrackerStream.streamId}. */
  streamId: number;
  /** Default `streamId`. */
  surfaceStreamId?: bigint | number;
  /** See {@link TrackerStream.targets}. */
  targets: TrackerTargetInit[];
}

/**
 * What nvtracker attaches to the batch (portable backend only; on DeepStream nvtracker does):
 * target lists as `NVDS_TRACKER_PAST_FRAME_META`, `_TERMINATED_LIST_META` and
 * `_SHADOW_LIST_META`, and the batch's re-ID embeddings (`NVDS_TRACKER_BATCH_REID_META`).
 *
 * @example
 * ```ts
 * const tracker: TrackerMetaInit = { pastFrame: [{ streamId: 0, targets: [car] }] };
 * ```
 */
export interface TrackerMetaInit {
  /** The past-frame list's streams (`NVDS_TRACKER_PAST_FRAME_META`). */
  pastFrame?: TrackerStreamInit[];
  /** The terminated tracks' streams (`NVDS_TRACKER_TERMINATED_LIST_META`). */
  terminatedList?: TrackerStreamInit[];
  /** The shadow tracks' streams (`NVDS_TRACKER_SHADOW_LIST_META`). */
  shadowList?: TrackerStreamInit[];
  /** The batch's embeddings (`NVDS_TRACKER_BATCH_REID_META`): `data` holds `featureSize` floats per embedding. */
  batchReid?: {
    /** See {@link ReidMeta.featureSize}. */
    featureSize: number;
    /** See {@link ReidMeta.data}. */
    data: Float32Array;
  };
}

/**
 * A region of interest (`NvDsRoiMeta`); see {@link RoiMeta}.
 *
 * @example
 * ```ts
 * const roi: RoiInit = { roi: { left: 0, top: 0, width: 160, height: 120 }, scaleRatioX: 2, scaleRatioY: 2 };
 * ```
 */
export interface RoiInit {
  /** See {@link RoiMeta.roi}. */
  roi: Box;
  /** Default: the frame's `batchId` (for a frame's ROI), else none. */
  frameBatchId?: number;
  /** Default: the frame's `sourceId` (for a frame's ROI), else none. */
  frameSourceId?: number;
  /** Default: none. */
  objectId?: bigint | number;
  /** Default 1. */
  scaleRatioX?: number;
  /** Default 1. */
  scaleRatioY?: number;
  /** Default 0. */
  offsetLeft?: number;
  /** Default 0. */
  offsetTop?: number;
}

/**
 * The tensor of a preprocess batch meta (`NvDsPreProcessTensorMeta`); see
 * {@link PreprocessTensorMeta}. No memory is made: `devicePointer` is carried as given.
 *
 * @example
 * ```ts
 * const tensor: PreprocessTensorInit = { tensorName: "input_1", tensorShape: [2, 3, 224, 224] };
 * ```
 */
export interface PreprocessTensorInit {
  /** See {@link PreprocessTensorMeta.tensorName}. */
  tensorName: string;
  /** See {@link PreprocessTensorMeta.tensorShape}. */
  tensorShape: number[];
  /** Default `"float32"`. */
  dataType?: PreprocessDataType;
  /** Default: the shape's product times the element size. */
  bufferSize?: number;
  /** Default 0. */
  gpuId?: number;
  /** Default 0. */
  metaId?: number;
  /** Default false. */
  maintainAspectRatio?: boolean;
  /** Default 0n. */
  devicePointer?: bigint;
}

/**
 * What nvdspreprocess attaches to the batch (`GstNvDsPreProcessBatchMeta`; portable backend
 * only); see {@link PreprocessBatchMeta}.
 *
 * @example
 * ```ts
 * const preprocess: PreprocessBatchInit = { targetUniqueIds: [2], tensor, rois: [roi] };
 * ```
 */
export interface PreprocessBatchInit {
  /** See {@link PreprocessBatchMeta.targetUniqueIds}. */
  targetUniqueIds: number[];
  /** See {@link PreprocessBatchMeta.tensor}; default none. */
  tensor?: PreprocessTensorInit;
  /** See {@link PreprocessBatchMeta.rois}. */
  rois: RoiInit[];
}

/**
 * A frame's sensor information (`sensorInfo_meta`); see {@link SensorInfo}. Both backends.
 *
 * @example
 * ```ts
 * const sensorInfo: SensorInfoInit = { sensorId: "cam-north", sensorName: "North gate", uri: "rtsp://10.0.0.7/1" };
 * ```
 */
export interface SensorInfoInit {
  /** Default: the frame's `sourceId`. */
  sourceId?: number;
  /** See {@link SensorInfo.uri}; default none (NULL). */
  uri?: string;
  /** See {@link SensorInfo.sensorId}; default none (NULL). */
  sensorId?: string;
  /** See {@link SensorInfo.sensorName}; default none (NULL). */
  sensorName?: string;
}

function targets(streams: readonly TrackerStreamInit[]): NativeTrackerTargets {
  return {
    streams: streams.map((stream) => ({
      streamId: stream.streamId,
      surfaceStreamId: BigInt(stream.surfaceStreamId ?? stream.streamId),
      targets: stream.targets.map((target) => ({
        uniqueId: BigInt(target.uniqueId),
        classId: target.classId ?? 0,
        objLabel: target.objLabel ?? "",
        frames: target.frames.map((frame) => ({
          frameNum: frame.frameNum,
          ...frame.bbox,
          confidence: frame.confidence ?? 1,
          age: frame.age ?? 0,
          trackerState: TRACKER_STATES.indexOf(frame.trackerState ?? "active"),
          visibility: frame.visibility ?? 1,
          worldFeetX: frame.worldFeet?.[0] ?? 0,
          worldFeetY: frame.worldFeet?.[1] ?? 0,
        })),
      })),
    })),
  };
}

function roi(init: RoiInit, frame?: { batchId: number; sourceId: number }): NativeRoi {
  return {
    ...init.roi,
    frameBatchId: init.frameBatchId ?? frame?.batchId ?? null,
    frameSourceId: init.frameSourceId ?? frame?.sourceId ?? init.frameBatchId ?? null,
    objectId: init.objectId === undefined ? null : BigInt(init.objectId),
    scaleRatioX: init.scaleRatioX ?? 1,
    scaleRatioY: init.scaleRatioY ?? 1,
    offsetLeft: init.offsetLeft ?? 0,
    offsetTop: init.offsetTop ?? 0,
  };
}

function preprocess(init: PreprocessBatchInit): NativePreprocessBatch {
  const tensor = init.tensor;
  const dataType = PREPROCESS_DATA_TYPES.indexOf(tensor?.dataType ?? "float32");
  return {
    targetUniqueIds: [...init.targetUniqueIds],
    tensor:
      tensor === undefined
        ? null
        : {
            tensorName: tensor.tensorName,
            dataType,
            tensorShape: [...tensor.tensorShape],
            bufferSize: tensor.bufferSize ?? tensor.tensorShape.reduce((a, b) => a * b, 1) * (PREPROCESS_ELEMENT_SIZES[dataType] ?? 4),
            gpuId: tensor.gpuId ?? 0,
            metaId: tensor.metaId ?? 0,
            maintainAspectRatio: tensor.maintainAspectRatio ?? false,
            devicePointer: tensor.devicePointer ?? 0n,
          },
    rois: init.rois.map((r) => roi(r)),
  };
}

/** @internal Attaches the batch's tracker and preprocess metas, in that order. */
export function writeBatchComponents(harness: StandaloneHarness, callId: number, tracker: TrackerMetaInit | undefined, batches: readonly PreprocessBatchInit[] | undefined): void {
  const lists = [
    [PAYLOAD_TRACKER_PAST_FRAME, tracker?.pastFrame],
    [PAYLOAD_TRACKER_TERMINATED_LIST, tracker?.terminatedList],
    [PAYLOAD_TRACKER_SHADOW_LIST, tracker?.shadowList],
  ] as const;
  for (const [kind, streams] of lists) if (streams !== undefined) harness.addComponentMeta(callId, BATCH_LEVEL, 0, kind, targets(streams));
  if (tracker?.batchReid !== undefined) harness.addComponentMeta(callId, BATCH_LEVEL, 0, PAYLOAD_TRACKER_BATCH_REID, tracker.batchReid);
  for (const init of batches ?? []) harness.addComponentMeta(callId, BATCH_LEVEL, 0, PAYLOAD_PREPROCESS_BATCH, preprocess(init));
}

/** @internal Sets the frame's sensor information and attaches its ROI metas. */
export function writeFrameComponents(
  harness: StandaloneHarness,
  callId: number,
  frame: { batchId: number; sourceId: number },
  sensorInfo: SensorInfoInit | undefined,
  rois: readonly RoiInit[] | undefined,
): void {
  if (sensorInfo !== undefined) {
    harness.setSensorInfo(callId, frame.batchId, {
      sourceId: sensorInfo.sourceId ?? frame.sourceId,
      uri: sensorInfo.uri ?? null,
      sensorId: sensorInfo.sensorId ?? null,
      sensorName: sensorInfo.sensorName ?? null,
    });
  }
  for (const init of rois ?? []) harness.addComponentMeta(callId, FRAME_LEVEL, frame.batchId, PAYLOAD_ROI, roi(init, frame));
}

/** @internal Attaches an object's re-ID embedding (`featureSize` = its length). */
export function writeObjectReid(harness: StandaloneHarness, callId: number, row: number, reid: Float32Array | undefined): void {
  if (reid !== undefined) harness.addComponentMeta(callId, OBJECT_LEVEL, row, PAYLOAD_TRACKER_OBJECT_REID, { featureSize: reid.length, data: reid });
}
