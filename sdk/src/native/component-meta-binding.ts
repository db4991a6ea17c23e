/**
 * The binding's readers (and the testing harness's writers) of NVIDIA components' metas:
 * nvtracker's past-frame, terminated and shadow lists and re-ID embeddings, nvdspreprocess's
 * batch meta and ROI metas, and the frame's sensor information
 * (native-host/src/binding/component_meta_functions.cpp, component_meta_harness.cpp). Same
 * conventions as meta-binding.ts.
 *
 * @internal
 */
import type { ComponentPayloadKind, UserMetaLevel } from "./meta-binding.js";

// generated: native component structs (npm run generate)
/** NvDsTargetMiscDataFrame as the binding reads it (see protocol/component-fields.ts). */
export interface NativeTrackerTargetFrame {
  frameNum: number;
  /** tBbox's geometry (nvtracker fills only left/top/width/height). */
  left: number;
  top: number;
  width: number;
  height: number;
  confidence: number;
  age: number;
  /** TRACKER_STATE. */
  trackerState: number;
  visibility: number;
  /** ptWorldFeet. */
  worldFeetX: number;
  worldFeetY: number;
}

/** NvDsTargetMiscDataObject as the binding reads it (see protocol/component-fields.ts). */
export interface NativeTrackerTarget {
  uniqueId: bigint;
  classId: number;
  objLabel: string;
  /** list[0..numObj). */
  frames: NativeTrackerTargetFrame[];
}

/** NvDsTargetMiscDataStream as the binding reads it (see protocol/component-fields.ts). */
export interface NativeTrackerStream {
  /** streamID. */
  streamId: number;
  /** surfaceStreamID. */
  surfaceStreamId: bigint;
  /** list[0..numFilled). */
  targets: NativeTrackerTarget[];
}

/** NvDsTargetMiscDataBatch as the binding reads it (see protocol/component-fields.ts). */
export interface NativeTrackerTargets {
  /** list[0..numFilled). */
  streams: NativeTrackerStream[];
}

/** NvDsReidTensorBatch / NvDsObjReid as the binding reads it (see protocol/component-fields.ts). */
export interface NativeReid {
  featureSize: number;
  numVectors: number;
  /** ptr_host, not owned; a zero-copy view, detached when the call ends; null when none. */
  host: ArrayBuffer | null;
  /** ptr_dev, not owned. */
  devicePointer: bigint;
}

/** NvDsRoiMeta as the binding reads it (see protocol/component-fields.ts). */
export interface NativeRoi {
  /** roi's geometry. */
  left: number;
  top: number;
  width: number;
  height: number;
  /** frame_meta->batch_id; null when none. */
  frameBatchId: number | null;
  /** frame_meta->source_id; null when none. */
  frameSourceId: number | null;
  /** object_meta->object_id; null when none. */
  objectId: bigint | null;
  scaleRatioX: number;
  scaleRatioY: number;
  offsetLeft: number;
  offsetTop: number;
}

/** NvDsPreProcessTensorMeta as the binding reads it (see protocol/component-fields.ts). */
export interface NativePreprocessTensor {
  /** device memory: its address only. */
  devicePointer: bigint;
  bufferSize: number;
  tensorShape: number[];
  dataType: number;
  tensorName: string;
  gpuId: number;
  metaId: number;
  maintainAspectRatio: boolean;
}

/** GstNvDsPreProcessBatchMeta as the binding reads it (see protocol/component-fields.ts). */
export interface NativePreprocessBatch {
  targetUniqueIds: number[];
  /** tensor_meta; null when none. */
  tensor: NativePreprocessTensor | null;
  /** roi_vector. */
  rois: NativeRoi[];
}

/** NvDsSensorInfo_meta as the binding reads it (see protocol/component-fields.ts). */
export interface NativeSensorInfo {
  sourceId: number;
  uri: string | null;
  sensorId: string | null;
  sensorName: string | null;
}
// end generated: native component structs

/** The readers, part of the binding's `meta` object. */
export interface ComponentMetaBinding {
  /** A listed user meta of kind 4, 7 or 8 (past-frame, terminated, shadow). */
  readTrackerTargets(callId: number, userIndex: number): NativeTrackerTargets;
  /** A listed user meta of kind 5 or 6 (batch or object re-ID). */
  readReid(callId: number, userIndex: number): NativeReid;
  /** A listed user meta of kind 9. */
  readPreprocessBatch(callId: number, userIndex: number): NativePreprocessBatch;
  /** A listed user meta of kind 10. */
  readRoi(callId: number, userIndex: number): NativeRoi;
  /** Frame `frameIndex`'s sensorInfo_meta. */
  readSensorInfo(callId: number, frameIndex: number): NativeSensorInfo;
}

/** What the harness writes for each component kind (bigints may be given as numbers). */
export type NativeComponentValue =
  | NativeTrackerTargets
  | { featureSize: number; data: Float32Array }
  | NativePreprocessBatch
  | NativeRoi;

/** The testing harness's writers, part of the standalone binding's `harness` object. */
export interface ComponentMetaHarness {
  /** Attaches a component meta (portable backend only) at a level; returns its user meta index in this call. */
  addComponentMeta(callId: number, level: UserMetaLevel, owner: number, kind: ComponentPayloadKind, value: NativeComponentValue): number;
  /** Sets frame `frameIndex`'s sensorInfo_meta (both backends; DeepStream's frame owns g_strdup'd copies). */
  setSensorInfo(callId: number, frameIndex: number, info: NativeSensorInfo): void;
}
