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

/** NvDsTargetMiscDataFrame (tBbox's geometry flattened, ptWorldFeet as X/Y). */
export interface NativeTrackerTargetFrame {
  frameNum: number;
  left: number;
  top: number;
  width: number;
  height: number;
  confidence: number;
  age: number;
  /** TRACKER_STATE: 0 EMPTY .. 5 QUASIACTIVE. */
  trackerState: number;
  visibility: number;
  worldFeetX: number;
  worldFeetY: number;
}

/** NvDsTargetMiscDataObject. */
export interface NativeTrackerTarget {
  uniqueId: bigint;
  classId: number;
  objLabel: string;
  frames: NativeTrackerTargetFrame[];
}

/** NvDsTargetMiscDataStream. */
export interface NativeTrackerStream {
  streamId: number;
  surfaceStreamId: bigint;
  targets: NativeTrackerTarget[];
}

/** NvDsTargetMiscDataBatch. */
export interface NativeTrackerTargets {
  streams: NativeTrackerStream[];
}

/** NvDsReidTensorBatch (numVectors = numFilled) or NvDsObjReid (numVectors = 1). */
export interface NativeReid {
  featureSize: number;
  numVectors: number;
  /** Zero-copy view of ptr_host (featureSize × numVectors floats), detached when the call ends; null when none. */
  host: ArrayBuffer | null;
  /** ptr_dev as a bigint (0n when none). */
  devicePointer: bigint;
}

/** NvDsRoiMeta: the roi's geometry and what its frame/object pointers lead to. */
export interface NativeRoi {
  left: number;
  top: number;
  width: number;
  height: number;
  /** frame_meta->batch_id; null when frame_meta is NULL. */
  frameBatchId: number | null;
  /** frame_meta->source_id; null when frame_meta is NULL. */
  frameSourceId: number | null;
  /** object_meta->object_id; null when object_meta is NULL. */
  objectId: bigint | null;
  scaleRatioX: number;
  scaleRatioY: number;
  offsetLeft: number;
  offsetTop: number;
}

/** NvDsPreProcessTensorMeta. */
export interface NativePreprocessTensor {
  tensorName: string;
  /** NvDsDataType: 0 FP32, 1 UINT8, 2 INT8, 3 UINT32, 4 INT32, 5 INT64, 6 UINT64, 7 FP16. */
  dataType: number;
  tensorShape: number[];
  bufferSize: number;
  gpuId: number;
  metaId: number;
  maintainAspectRatio: boolean;
  /** raw_tensor_buffer (device memory) as a bigint. */
  devicePointer: bigint;
}

/** GstNvDsPreProcessBatchMeta. */
export interface NativePreprocessBatch {
  targetUniqueIds: number[];
  tensor: NativePreprocessTensor | null;
  rois: NativeRoi[];
}

/** NvDsSensorInfo_meta (null: a NULL string). */
export interface NativeSensorInfo {
  sourceId: number;
  uri: string | null;
  sensorId: string | null;
  sensorName: string | null;
}

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
