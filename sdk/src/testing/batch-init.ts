/**
 * What a test describes: the synthetic batch the harness builds, as plain data. Field names
 * are the metadata API's (DeepStream's in camelCase), so a batch reads like what upstream
 * elements (nvstreammux, nvinfer, nvtracker) would have left in the buffer.
 */
// The metadata classes and ElementHarness are named only in TSDoc links, which resolve through these imports.
import type { BatchMeta } from "../metadata/batch-meta.js";
import type { AnalyticsFrameInit, AnalyticsObjectInit } from "../metadata/analytics-meta.js";
import type { ClassifierMeta } from "../metadata/classifier-meta.js";
import type { FrameMeta } from "../metadata/frame-meta.js";
import type { LabelInfo } from "../metadata/label-info.js";
import type { ObjectMeta } from "../metadata/object-meta.js";
import type { SegmentationInit } from "../metadata/segmentation-meta.js";
import type { NetworkInfo, TensorDataType, TensorLayer, TensorLayerData, TensorOutputMeta } from "../metadata/tensor-output-meta.js";
import type { GstBuffer } from "../stream/gst-buffer.js";
import type { PixelFormat } from "../tensor/types.js";
import type { BoxInit, MaskParams, RectParamsInit, TextParamsInit } from "../metadata/values.js";
import type { ElementHarness } from "./element-harness.js";
import type { PreprocessBatchInit, RoiInit, SensorInfoInit, TrackerMetaInit } from "./component-meta-init.js";

/**
 * Video formats a synthetic frame can have (GStreamer's names): every format
 * {@link GstBuffer.extract} gives. Packed: each pixel in consecutive bytes (RGB and BGR 3 bytes,
 * RGBA, BGRx, RGBx, BGRA, ARGB and ABGR 4, GRAY8 1). Planar 4:2:0 YUV (what decoders and
 * nvstreammux produce): NV12 (a Y plane, then a plane of U,V pairs), NV21 (V,U pairs), I420 (Y,
 * U and V planes).
 *
 * @example
 * ```ts
 * const format: VideoFormat = "NV12";
 * ```
 */
export type VideoFormat = PixelFormat;

/**
 * A user meta already in the buffer (`NvDsUserMeta`): a type `ORG.COMPONENT.DESCRIPTION` and
 * a JSON value or bytes, as `setJson` / `setBytes` would set them; or one of NVIDIA's typed
 * metas, as the element that writes it would attach it: nvdsanalytics' frame meta
 * (`analyticsFrame`, on a frame) or object meta (`analyticsObject`, on an object), nvinfer's
 * segmentation (`segmentation`, on a frame or an object).
 *
 * @example
 * ```ts
 * const zone: UserMetaInit = { type: "ACME.ZONES.CONFIG", json: { zones: [[0, 0, 100, 100]] } };
 * const raw: UserMetaInit = { type: "ACME.SYNC.MARK", bytes: new Uint8Array([1, 2]) };
 * const counts: UserMetaInit = { analyticsFrame: { objInROIcnt: { Entrance: 2 }, objLCCumCnt: { Door: 7 } } };
 * const inZone: UserMetaInit = { analyticsObject: { roiStatus: ["Entrance"] } };
 * const mask: UserMetaInit = { segmentation: { classes: 2, width: 4, height: 2, classMap: new Int32Array(8) } };
 * ```
 */
export type UserMetaInit =
  | {
      /** The meta type (`UserMeta.metaType`). */
      type: string;
      /** A JSON-serialisable payload (`UserMeta.setJson`). */
      json: unknown;
    }
  | {
      /** The meta type (`UserMeta.metaType`). */
      type: string;
      /** A byte payload (`UserMeta.setBytes`; copied). */
      bytes: Uint8Array;
    }
  | {
      /** nvdsanalytics' frame meta (`NvDsAnalyticsFrameMeta`); members left out are empty or 0. */
      analyticsFrame: AnalyticsFrameInit;
    }
  | {
      /** nvdsanalytics' object meta (`NvDsAnalyticsObjInfo`); members left out are empty or 0. */
      analyticsObject: AnalyticsObjectInit;
    }
  | {
      /** A segmentation result (`NvDsInferSegmentationMeta`, `UserMeta.setSegmentation`). */
      segmentation: SegmentationInit;
    };

/**
 * One result of a classifier already in the buffer (`NvDsLabelInfo`); omitted members are 0
 * or empty, as `batch.acquireLabelInfo()` leaves them.
 *
 * @example
 * ```ts
 * const red: LabelInfoInit = { resultLabel: "red", resultClassId: 2, resultProb: 0.93 };
 * ```
 */
export interface LabelInfoInit {
  // generated: label-info-init (npm run generate)
  /** See {@link LabelInfo.numClasses}. */
  numClasses?: number;
  /** See {@link LabelInfo.resultLabel}. */
  resultLabel?: string;
  /** See {@link LabelInfo.resultClassId}. */
  resultClassId?: number;
  /** See {@link LabelInfo.labelId}. */
  labelId?: number;
  /** See {@link LabelInfo.resultProb}. */
  resultProb?: number;
  // end generated: label-info-init
}

/**
 * A secondary classifier's result on an object (`NvDsClassifierMeta`), as an sgie would have
 * attached it.
 *
 * @example
 * ```ts
 * const color: ClassifierInit = { classifierType: "color", uniqueComponentId: 2, labels: [{ resultLabel: "red", resultProb: 0.9 }] };
 * ```
 */
export interface ClassifierInit {
  // generated: classifier-init (npm run generate)
  /** See {@link ClassifierMeta.numLabels}; default: the number of `labels`. */
  numLabels?: number;
  /** See {@link ClassifierMeta.uniqueComponentId}. */
  uniqueComponentId?: number;
  /** See {@link ClassifierMeta.classifierType}. */
  classifierType?: string;
  // end generated: classifier-init
  /** Its label infos, in order. */
  labels?: LabelInfoInit[];
}

/**
 * One output layer of a synthetic nvinfer tensor output. `data` holds `dims`' product of
 * elements; its type gives the layer's data type unless `dataType` says otherwise (a
 * `Uint16Array` is taken as `float16` bits).
 *
 * @example
 * ```ts
 * const scores: TensorLayerInit = { name: "scores", dims: [2, 4], data: new Float32Array(8) };
 * ```
 */
export interface TensorLayerInit {
  /** See {@link TensorLayer.name}. */
  name: string;
  /** See {@link TensorLayer.dims} (without the batch dimension). */
  dims: number[];
  /** The layer's host data (`out_buf_ptrs_host[i]`; copied). */
  data: TensorLayerData;
  /** See {@link TensorLayer.dataType}; default: from the type of `data`. */
  dataType?: TensorDataType;
}

/**
 * nvinfer's raw output as `output-tensor-meta=1` attaches it (`NvDsInferTensorMeta`): on a frame
 * for a primary nvinfer, on an object for a secondary one. Reads back as `tensorItems`.
 *
 * @example
 * ```ts
 * const output: TensorOutputInit = {
 *   uniqueId: 1,
 *   networkInfo: { width: 640, height: 640, channels: 3 },
 *   layers: [{ name: "output0", dims: [84, 8400], data: new Float32Array(84 * 8400) }],
 * };
 * ```
 */
export interface TensorOutputInit {
  /** See {@link TensorOutputMeta.uniqueId} (nvinfer's `gie-unique-id`); default 1. */
  uniqueId?: number;
  /** See {@link TensorOutputMeta.gpuId}; default 0. */
  gpuId?: number;
  /** See {@link TensorOutputMeta.networkInfo}; default: the frame's width and height, 3 channels. */
  networkInfo?: NetworkInfo;
  /** See {@link TensorOutputMeta.maintainAspectRatio}; default false. */
  maintainAspectRatio?: boolean;
  /** See {@link TensorOutputMeta.symmetricPadding}; default false. */
  symmetricPadding?: boolean;
  /** The output layers, in binding order. */
  layers: TensorLayerInit[];
}

/**
 * An object already in the buffer, as a detector or tracker upstream would have left it. The
 * members are {@link ObjectMeta}'s writable ones; omitted members keep the defaults of
 * `batch.acquireObjectMeta()` (objectId -1, the rest 0 or empty).
 *
 * @example
 * ```ts
 * const car: ObjectInit = {
 *   classId: 2, label: "car", confidence: 0.8, uniqueComponentId: 1,
 *   rectParams: { left: 100, top: 80, width: 120, height: 60 },
 *   classifiers: [{ classifierType: "color", labels: [{ resultLabel: "red", resultProb: 0.9 }] }],
 * };
 * const plate: ObjectInit = { classId: 0, label: "plate", parent: 0, rectParams: { left: 150, top: 120, width: 30, height: 10 } };
 * ```
 */
export interface ObjectInit {
  // generated: object-init (npm run generate)
  /** See {@link ObjectMeta.classId}. */
  classId?: number;
  /** See {@link ObjectMeta.objectId}. */
  objectId?: number;
  /** See {@link ObjectMeta.uniqueComponentId}. */
  uniqueComponentId?: number;
  /** See {@link ObjectMeta.confidence}. */
  confidence?: number;
  /** See {@link ObjectMeta.trackerConfidence}. */
  trackerConfidence?: number;
  /** See {@link ObjectMeta.label}. */
  label?: string;
  /** See {@link ObjectMeta.rectParams}. */
  rectParams?: RectParamsInit;
  /** See {@link ObjectMeta.textParams}. */
  textParams?: TextParamsInit;
  /** See {@link ObjectMeta.maskParams}. */
  maskParams?: MaskParams;
  /** See {@link ObjectMeta.detectorBboxInfo}. */
  detectorBboxInfo?: BoxInit;
  /** See {@link ObjectMeta.trackerBboxInfo}. */
  trackerBboxInfo?: BoxInit;
  /** See {@link ObjectMeta.miscObjInfo}. */
  miscObjInfo?: readonly [number, number, number, number];
  // end generated: object-init
  /** The index of its parent among the frame's earlier `objects` (see {@link ObjectMeta.parent}). */
  parent?: number;
  /** Classifier results on it, in order. */
  classifiers?: ClassifierInit[];
  /** User metas on it, in order. */
  userMeta?: UserMetaInit[];
  /** Tensor outputs on it (a secondary nvinfer's), after its `userMeta`. */
  tensorOutputs?: TensorOutputInit[];
  /** nvtracker's re-ID embedding of it (`NVDS_TRACKER_OBJ_REID_META`; portable backend only), after its tensor outputs: see {@link ObjectMeta.reid}. */
  reid?: Float32Array;
}

/**
 * One frame of a synthetic batch: its pixels (the buffer's memory holds every frame's pixels
 * one after another, packed) and what upstream left on it. The frame members are
 * {@link FrameMeta}'s; `width` and `height` are the pipeline's (`pipelineWidth/Height`) and
 * the caps'.
 *
 * @example
 * ```ts
 * const pixels = new Uint8Array(4 * 2 * 3); // 4x2 RGB, black
 * pixels.set([255, 255, 255], (1 * 4 + 2) * 3); // one white pixel at x 2, y 1
 * const frame: FrameInit = { width: 4, height: 2, pixels, sourceId: 1, objects: [{ classId: 0, rectParams: { width: 2, height: 2 } }] };
 * ```
 */
export interface FrameInit {
  /** Width in pixels; default 320 (videotestsrc's). Every frame of a batch has the same caps. */
  width?: number;
  /** Height in pixels; default 240. */
  height?: number;
  /** Pixel format; default `"RGB"`. */
  format?: VideoFormat;
  /**
   * The frame's pixels, row by row without padding: `width * height * bytes per pixel` bytes
   * for packed formats; for planar ones every plane after the previous, the Y plane
   * (`width * height`) then the chroma (NV12/NV21: `ceil(width / 2) * 2 * ceil(height / 2)`
   * bytes of pairs; I420: U then V, `ceil(width / 2) * ceil(height / 2)` each). Default black
   * (zeros; planar: Y 16, U and V 128). The buffer holds them as GStreamer lays such a frame
   * out (planar rows padded to 4 bytes); the element reads them with
   * `buffer.extract(frame.batchId)`, its planes with `.planes`.
   *
   * @example
   * ```ts
   * // A 4x2 NV12 frame: 8 bytes of Y, then one row of two U,V pairs.
   * const frame: FrameInit = { format: "NV12", width: 4, height: 2, pixels: Uint8Array.of(16, 16, 235, 235, 16, 16, 235, 235, 128, 128, 90, 240) };
   * ```
   */
  pixels?: Uint8Array;
  // generated: frame-init (npm run generate)
  /** See {@link FrameMeta.frameNum}; default: one more than the previous frame of this `sourceId` in this harness, else 0. */
  frameNum?: number;
  /** See {@link FrameMeta.sourceId}; default: the frame's index in the batch (one source per muxer pad). */
  sourceId?: number;
  /** See {@link FrameMeta.padIndex}; default: the frame's `sourceId`. */
  padIndex?: number;
  /** See {@link FrameMeta.bufPts}; default: the batch's `pts`. */
  bufPts?: number;
  /** See {@link FrameMeta.ntpTimestamp}; default 0n. */
  ntpTimestamp?: bigint;
  /** See {@link FrameMeta.sourceFrameWidth}; default `width`. */
  sourceFrameWidth?: number;
  /** See {@link FrameMeta.sourceFrameHeight}; default `height`. */
  sourceFrameHeight?: number;
  /** See {@link FrameMeta.surfaceType}; default 0. */
  surfaceType?: number;
  /** See {@link FrameMeta.surfaceIndex}; default 0. */
  surfaceIndex?: number;
  /** See {@link FrameMeta.numSurfacesPerFrame}; default 1. */
  numSurfacesPerFrame?: number;
  /** See {@link FrameMeta.inferDone}; default false. */
  inferDone?: boolean;
  /** See {@link FrameMeta.miscFrameInfo}; default zeros. */
  miscFrameInfo?: readonly [number, number, number, number];
  // end generated: frame-init
  /** Objects on the frame, in list order. */
  objects?: ObjectInit[];
  /** User metas on the frame, in order. */
  userMeta?: UserMetaInit[];
  /** Tensor outputs on the frame (a primary nvinfer's), after its `userMeta`. */
  tensorOutputs?: TensorOutputInit[];
  /** The frame's sensor information (`sensorInfo_meta`; both backends): see {@link FrameMeta.sensorInfo}. */
  sensorInfo?: SensorInfoInit;
  /** ROI metas on the frame (`NVDS_ROI_META`, as nvinfer attaches them; portable backend only), after its tensor outputs. */
  rois?: RoiInit[];
}

/**
 * A synthetic batched buffer: what {@link ElementHarness.push} turns into a GstBuffer with a
 * batch meta, as nvstreammux and the elements after it would have made it. Times are in
 * nanoseconds; omitted ones are none (`GST_CLOCK_TIME_NONE`, `undefined` in `GstBuffer`).
 *
 * @example
 * ```ts
 * const batch: BatchInit = {
 *   pts: 40_000_000,
 *   frames: [{ sourceId: 0 }, { sourceId: 1, objects: [{ classId: 2, rectParams: { left: 10, top: 10, width: 50, height: 40 } }] }],
 *   userMeta: [{ type: "ACME.PIPELINE.CONFIG", json: { site: "north" } }],
 * };
 * ```
 */
export interface BatchInit {
  /** The frames, in batch order (`batchId` is the index); default one frame of 320x240 RGB. */
  frames?: FrameInit[];
  /** See {@link BatchMeta.maxFramesInBatch} (nvstreammux's `batch-size`); default the number of frames. */
  maxFramesInBatch?: number;
  /** Batch-level user metas, in order. */
  userMeta?: UserMetaInit[];
  /** The buffer's PTS (`GstBuffer.pts`), ns. */
  pts?: number;
  /** The buffer's DTS (`GstBuffer.dts`), ns. */
  dts?: number;
  /** The buffer's duration (`Buffer.duration`), ns. */
  duration?: number;
  /** nvtracker's batch metas (portable backend only), after `userMeta`. */
  tracker?: TrackerMetaInit;
  /** nvdspreprocess's batch metas (portable backend only), after `tracker`. */
  preprocess?: PreprocessBatchInit[];
}
