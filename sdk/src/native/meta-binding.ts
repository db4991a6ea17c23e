/**
 * The metadata half of the native binding: what `sdk/src/metadata/` calls to read and write a
 * buffer's batch metadata through native-host/src/meta/batch.h (both backends). The same
 * functions are exported twice:
 * - by libdsnode-runtime.so.0 (binding export `meta`), inside GStreamer pipelines;
 * - by the standalone binding dsnode_standalone.node (export `meta`, plus `harness`), which
 *   `ds-element/testing` loads into an ordinary Node to run transforms on synthetic batches.
 *
 * Conventions (docs/internals/metadata-design.md §5):
 * - Every function takes the call id first (`state[STATE_CALL_ID]`). A call id that is not
 *   live throws an Error with `code: "ERR_DS_ELEMENT_STALE_HANDLE"`.
 * - Objects are **rows**: small integers the native side assigns per call, indexing the
 *   call's object table (a JS-owned Float64Array of OBJ_STRIDE doubles per row, bound with
 *   `bindObjectTable`). Numeric fields travel through the table; strings, text params and
 *   masks as arguments.
 * - Classifiers, label infos, display and user metas are **indices** the native side assigns
 *   per call (separate counters per kind), returned by the add/list functions.
 * - Invalid values throw RangeError/TypeError with `code: "ERR_DS_ELEMENT_INVALID_VALUE"`
 *   and the message shapes of metadata-design.md §4 (DeepStream field paths); state errors
 *   (added twice, removed from the wrong parent, removed row) throw Error with
 *   `code: "ERR_DS_ELEMENT_META_STATE"`. A failed call changes nothing.
 *
 * @internal
 */
import type { ComponentMetaBinding, ComponentMetaHarness } from "./component-meta-binding.js";

import type { NativeEventMsg } from "./event-msg-binding.js";

/** NvOSD_ColorParams. Components 0..1. */
export interface NativeColor {
  red: number;
  green: number;
  blue: number;
  alpha: number;
}

/** NvOSD_FontParams. */
export interface NativeFont {
  // generated: native-font-params (npm run generate)
  name: string;
  size: number;
  color: NativeColor;
  // end generated: native-font-params
}

/** NvOSD_TextParams. */
export interface NativeText {
  // generated: native-text-params (npm run generate)
  displayText: string;
  xOffset: number;
  yOffset: number;
  font: NativeFont;
  setBgColor: boolean;
  bgColor: NativeColor;
  // end generated: native-text-params
}

/** NvOSD_MaskParams: `data.length` must be `width * height`. */
export interface NativeMask {
  data: Float32Array;
  threshold: number;
  width: number;
  height: number;
}

/** NvOSD_RectParams (display meta rects; objects carry theirs in the table). */
export interface NativeRect {
  // generated: native-rect (npm run generate)
  left: number;
  top: number;
  width: number;
  height: number;
  borderWidth: number;
  borderColor: NativeColor;
  hasBgColor: boolean;
  bgColor: NativeColor;
  hasColorInfo: boolean;
  colorId: number;
  rotationAngle: number;
  // end generated: native-rect
}

/** NvOSD_LineParams. */
export interface NativeLine {
  // generated: native-line-params (npm run generate)
  x1: number;
  y1: number;
  x2: number;
  y2: number;
  lineWidth: number;
  lineColor: NativeColor;
  // end generated: native-line-params
}

/** NvOSD_ArrowParams; arrowHead 0 start, 1 end, 2 both. */
export interface NativeArrow {
  // generated: native-arrow-params (npm run generate)
  x1: number;
  y1: number;
  x2: number;
  y2: number;
  arrowWidth: number;
  arrowHead: 0 | 1 | 2;
  arrowColor: NativeColor;
  // end generated: native-arrow-params
}

/** NvOSD_CircleParams. */
export interface NativeCircle {
  // generated: native-circle-params (npm run generate)
  xc: number;
  yc: number;
  radius: number;
  circleColor: NativeColor;
  hasBgColor: boolean;
  bgColor: NativeColor;
  circleWidth: number;
  // end generated: native-circle-params
}

/** One logical display meta (any number of each kind; native chains physical metas of ≤ 16). */
export interface NativeDisplayContent {
  rects: NativeRect[];
  texts: NativeText[];
  lines: NativeLine[];
  arrows: NativeArrow[];
  circles: NativeCircle[];
}

/** One physical NvDsDisplayMeta as read back. */
export interface NativeDisplay extends NativeDisplayContent {
  index: number;
  miscOsdData: number[];
}

/** NvDsLabelInfo. */
export interface NativeLabelInfo {
  // generated: native-label-info (npm run generate)
  numClasses: number;
  resultLabel: string;
  resultClassId: number;
  labelId: number;
  resultProb: number;
  // end generated: native-label-info
}

/** NvDsClassifierMeta with its label infos. */
export interface NativeClassifier {
  // generated: native-classifier (npm run generate)
  numLabels: number;
  uniqueComponentId: number;
  classifierType: string;
  // end generated: native-classifier
  labels: NativeLabelInfo[];
}

/** What the list functions return: the same plus the per-call indices. */
export interface NativeClassifierRead extends NativeClassifier {
  index: number;
  labels: (NativeLabelInfo & { index: number })[];
}

/** Payload kinds (model.h PayloadKind; the table: native/payload-kinds.mjs). */
// generated: payload kinds (scripts/generate-shared-names.mjs: do not edit)
/** Payload kind 0: opaque bytes. */
export const PAYLOAD_BYTES = 0;
/** Payload kind 1: UTF-8 JSON text. */
export const PAYLOAD_JSON = 1;
/** Payload kind 2: nvinfer's NvDsInferTensorMeta (read-only). */
export const PAYLOAD_TENSOR_OUTPUT = 2;
/** Payload kind 3: another component's user meta: type number only, payload unknown. */
export const PAYLOAD_FOREIGN = 3;
/** Payload kind 4: DeepStream's NvDsEventMsgMeta (meta/event_msg.h), added whole. */
export const PAYLOAD_EVENT_MSG = 4;
/** Payload kind 5: nvdsanalytics' NvDsAnalyticsFrameMeta (meta/analytics_meta.h; read-only). */
export const PAYLOAD_ANALYTICS_FRAME = 5;
/** Payload kind 6: nvdsanalytics' NvDsAnalyticsObjInfo (meta/analytics_meta.h; read-only). */
export const PAYLOAD_ANALYTICS_OBJECT = 6;
/** Payload kind 7: nvinfer's NvDsInferSegmentationMeta (meta/segmentation_meta.h). */
export const PAYLOAD_SEGMENTATION = 7;
/** Payload kind 8: nvtracker's NVDS_TRACKER_PAST_FRAME_META (meta/component_meta.h; read-only). */
export const PAYLOAD_TRACKER_PAST_FRAME = 8;
/** Payload kind 9: nvtracker's NVDS_TRACKER_BATCH_REID_META (meta/component_meta.h; read-only). */
export const PAYLOAD_TRACKER_BATCH_REID = 9;
/** Payload kind 10: nvtracker's NVDS_TRACKER_OBJ_REID_META (meta/component_meta.h; read-only). */
export const PAYLOAD_TRACKER_OBJECT_REID = 10;
/** Payload kind 11: nvtracker's NVDS_TRACKER_TERMINATED_LIST_META (meta/component_meta.h; read-only). */
export const PAYLOAD_TRACKER_TERMINATED_LIST = 11;
/** Payload kind 12: nvtracker's NVDS_TRACKER_SHADOW_LIST_META (meta/component_meta.h; read-only). */
export const PAYLOAD_TRACKER_SHADOW_LIST = 12;
/** Payload kind 13: nvdspreprocess' NVDS_PREPROCESS_BATCH_META (meta/component_meta.h; read-only). */
export const PAYLOAD_PREPROCESS_BATCH = 13;
/** Payload kind 14: nvdspreprocess' NVDS_ROI_META (meta/component_meta.h; read-only). */
export const PAYLOAD_ROI = 14;
/** Each payload kind's `UserMeta.kind`, indexed by its number. */
export const PAYLOAD_KIND_NAMES = [
  "bytes",
  "json",
  "tensor-output",
  "foreign",
  "event-msg",
  "analytics-frame",
  "analytics-object",
  "segmentation",
  "tracker-past-frame",
  "tracker-batch-reid",
  "tracker-object-reid",
  "tracker-terminated-list",
  "tracker-shadow-list",
  "preprocess-batch",
  "roi",
] as const;
/** The kinds of NVIDIA components' read-only metas (component_meta.h). */
export type ComponentPayloadKind = 8 | 9 | 10 | 11 | 12 | 13 | 14;
// end generated: payload kinds

/** Where a user meta hangs: 0 batch (owner ignored), 1 frame (owner = frame index), 2 object (owner = row). */
export type UserMetaLevel = 0 | 1 | 2;

/** A user meta as read back. `payload` is a copy (null for tensor-output and foreign metas). */
export interface NativeUserMeta {
  index: number;
  metaType: string;
  metaTypeId: number;
  /** PayloadKind: 0..7 here, 8..14 component-meta-binding.ts's. */
  kind: number;
  payload: Uint8Array | null;
}

/** nvdsanalytics' NvDsAnalyticsFrameMeta: maps as plain objects (class id keys as text). */
export interface NativeAnalyticsFrame {
  ocStatus: Record<string, boolean>;
  objInROIcnt: Record<string, number>;
  objLCCurrCnt: Record<string, number>;
  objLCCumCnt: Record<string, number>;
  uniqueId: number;
  objCnt: Record<string, number>;
}

/** nvdsanalytics' NvDsAnalyticsObjInfo. */
export interface NativeAnalyticsObject {
  roiStatus: string[];
  ocStatus: string[];
  lcStatus: string[];
  dirStatus: string;
  uniqueId: number;
  objStatus: string;
}

/** nvinfer's NvDsInferSegmentationMeta as read: the maps are zero-copy views (detached when the call ends), null when absent. */
export interface NativeSegmentation {
  classes: number;
  width: number;
  height: number;
  uniqueId: number;
  classMap: ArrayBuffer | null;
  classProbabilities: ArrayBuffer | null;
}

/** A NvDsInferSegmentationMeta to attach (maps copied). */
export interface NativeSegmentationInit {
  classes: number;
  width: number;
  height: number;
  uniqueId: number;
  classMap: Int32Array;
  classProbabilities: Float32Array | null;
}

/** One layer of nvinfer's tensor output meta. */
export interface NativeTensorLayer {
  layerName: string;
  /** NvDsInferDataType: 0 FLOAT, 1 HALF, 2 INT8, 3 INT32, 4 INT64, 5 UINT8 (model.h). */
  dataType: number;
  dims: number[];
  numElements: number;
  bindingIndex: number;
  /** Zero-copy view of out_buf_ptrs_host[i] (detached when the call ends); null when none. */
  host: ArrayBuffer | null;
  /** out_buf_ptrs_dev[i] as a bigint (0n when none). */
  devicePointer: bigint;
}

/** NvDsInferTensorMeta. */
export interface NativeTensorOutput {
  uniqueId: number;
  gpuId: number;
  networkWidth: number;
  networkHeight: number;
  networkChannels: number;
  maintainAspectRatio: boolean;
  symmetricPadding: boolean;
  layers: NativeTensorLayer[];
}

/** Columns of the bulk path; every column has `count` entries. */
export interface NativeObjectColumns {
  left: Float32Array;
  top: Float32Array;
  width: Float32Array;
  height: Float32Array;
  confidence?: Float32Array | undefined;
  classId?: Int32Array | undefined;
}

/** Options of the bulk path applied to every object. */
export interface NativeBulkOptions {
  uniqueComponentId: number;
  borderWidth: number;
  borderColor: NativeColor;
  /** Every object's text params (display_text = its label, offsets from its box); null or absent: none. */
  text?: NativeText | null;
  /** obj_label = labels[class_id] when in range. */
  labels?: string[] | undefined;
}

/** The functions; see the file comment for the conventions. */
export interface MetaBinding extends ComponentMetaBinding {
  /** Must equal META_LAYOUT_VERSION (sdk/src/protocol/transform-state.ts). */
  readonly layoutVersion: number;

  // ---- frames (records live in the call's state array)
  /** Validates and writes frame `frameIndex` from its record in `state` (the writable fields: frameNum, bufPts, sourceId, padIndex, batchId, sizes, ntp, surface*, inferDone, misc). */
  writeFrame(callId: number, frameIndex: number, state: Float64Array): void;

  // ---- objects
  /** Binds the object table used by this call's later object functions (again after JS grows it). */
  bindObjectTable(callId: number, table: Float64Array): void;
  /** Acquires an object from the batch's pool; fills its row with DeepStream's defaults and returns the row. Throws RangeError when the bound table has no room (JS grows, rebinds, retries). */
  acquireObject(callId: number): number;
  /**
   * Writes the row's fields (label/text/mask: null keeps what the object has) and adds it to
   * frame `frameIndex` under `parentRow` (-1: none). Text `true`: nvinfer's text params for the
   * object's label (after `label`), placed above its box (what the bulk path writes).
   */
  addObject(callId: number, row: number, frameIndex: number, parentRow: number, label: string | null, text: NativeText | true | null, mask: NativeMask | null): void;
  /** Writes an acquired, added or listed object's fields from its row (null keeps; text `true` as for addObject). */
  writeObject(callId: number, row: number, label: string | null, text: NativeText | true | null, mask: NativeMask | null): void;
  /** Removes the object from frame `frameIndex`; its row is dead afterwards. */
  removeObject(callId: number, row: number, frameIndex: number): void;
  /**
   * The frame's objects in list order: gives each a row (the same row every time within a
   * call, including rows of objects this call added), fills their numeric fields (and
   * OBJ_PARENT_ROW, giving parents rows too), and writes the rows to `out[0..count)`.
   * Returns the count, or -(rows the table needs) when the table or `out` is too small.
   */
  listObjects(callId: number, frameIndex: number, out: Int32Array): number;
  /** The object's strings, text params and mask (mask null when it has none). */
  readObjectExtras(callId: number, row: number): { label: string; text: NativeText; mask: NativeMask | null };
  /** Bulk add (all or nothing); returns the number added. No rows are assigned. */
  addObjects(callId: number, frameIndex: number, columns: NativeObjectColumns, options: NativeBulkOptions): number;

  // ---- classifiers and label infos
  /** Acquires, fills and adds a classifier with its label infos to the object; returns its index. */
  addClassifier(callId: number, objectRow: number, classifier: NativeClassifier): number;
  /** Adds one label info to an added classifier; returns its index. */
  addLabelInfo(callId: number, classifierIndex: number, label: NativeLabelInfo): number;
  removeClassifier(callId: number, objectRow: number, classifierIndex: number): void;
  removeLabelInfo(callId: number, classifierIndex: number, labelIndex: number): void;
  listClassifiers(callId: number, objectRow: number): NativeClassifierRead[];

  // ---- display metas
  /** Adds one logical display meta (chained past 16 per kind); returns the physical metas' indices. */
  addDisplay(callId: number, frameIndex: number, content: NativeDisplayContent): number[];
  removeDisplay(callId: number, frameIndex: number, displayIndex: number): void;
  listDisplays(callId: number, frameIndex: number): NativeDisplay[];

  // ---- user metas
  /** Acquires, fills and adds a user meta (kind PAYLOAD_BYTES or PAYLOAD_JSON); returns its index. */
  addUserMeta(callId: number, level: UserMetaLevel, owner: number, metaType: string, kind: 0 | 1, payload: Uint8Array): number;
  removeUserMeta(callId: number, level: UserMetaLevel, owner: number, userIndex: number): void;
  listUserMetas(callId: number, level: UserMetaLevel, owner: number): NativeUserMeta[];
  /** nvinfer's tensor output of a listed user meta of kind PAYLOAD_TENSOR_OUTPUT. */
  readTensorOutput(callId: number, userIndex: number): NativeTensorOutput;
  /** Adds an event message (a new NVDS_EVENT_MSG_META user meta, validated); returns its index. */
  addEventMsg(callId: number, level: UserMetaLevel, owner: number, msg: NativeEventMsg): number;
  /** The event message of a listed user meta of kind PAYLOAD_EVENT_MSG. */
  readEventMsg(callId: number, userIndex: number): NativeEventMsg;
  /** nvdsanalytics' frame meta of a listed user meta of kind PAYLOAD_ANALYTICS_FRAME. */
  readAnalyticsFrame(callId: number, userIndex: number): NativeAnalyticsFrame;
  /** nvdsanalytics' object meta of a listed user meta of kind PAYLOAD_ANALYTICS_OBJECT. */
  readAnalyticsObject(callId: number, userIndex: number): NativeAnalyticsObject;
  /** The segmentation meta of a listed user meta of kind PAYLOAD_SEGMENTATION. */
  readSegmentation(callId: number, userIndex: number): NativeSegmentation;
  /** Attaches a new segmentation meta (NVDSINFER_SEGMENTATION_META, validated) at a level; returns its user meta index. */
  addSegmentation(callId: number, level: UserMetaLevel, owner: number, segmentation: NativeSegmentationInit): number;
}

/** The standalone binding's extra functions (dsnode_standalone.node `harness`). */
export interface StandaloneHarness extends ComponentMetaHarness {
  /** The metadata backend the harness's batches use: the build's ("deepstream" on a DeepStream build). */
  readonly backend: "portable" | "deepstream";
  /** A new GstBuffer with an empty batch meta (NvDsBatchMeta on a DeepStream build, else the portable batch) of `maxFramesInBatch`, holding `size` bytes (zeroed). */
  createBuffer(maxFramesInBatch: number, size: number): object;
  /** Copies `pixels` into the buffer's memory at `offset`. */
  writeBuffer(buffer: object, offset: number, pixels: Uint8Array): void;
  /** gst_buffer_copy (deep-copies the batch meta, as a tee branch's copy would). */
  copyBuffer(buffer: object): object;
  /** Appends a frame (fields from a frame record laid out as in the state array, at index 0 of `record`). */
  addFrame(buffer: object, record: Float64Array): void;
  /** Sets the buffer's PTS/DTS/duration (-1: none). */
  setTimes(buffer: object, pts: number, dts: number, duration: number): void;
  /** Opens a call on the buffer: fills `state` (header + frames) and returns the call id. */
  openCall(buffer: object, state: Float64Array): number;
  /** Ends the call: un-added metas go back to the pool, the call id goes stale. */
  closeCall(callId: number): void;
  /** Attaches nvinfer-shaped tensor output (portable only) at a level; returns the user meta index in this call. */
  addTensorOutput(callId: number, level: UserMetaLevel, owner: number, output: Omit<NativeTensorOutput, "layers"> & { layers: (Omit<NativeTensorLayer, "host" | "devicePointer"> & { data: Uint8Array })[] }): number;
  /**
   * Writes the object's row (as the table holds it) unchecked, as a C writer upstream could
   * (nvinfer's confidence 1.25, crop mode's negative widths): for tests of what elements keep.
   */
  writeObjectAsUpstream(callId: number, row: number): void;
  /** Attaches nvdsanalytics' frame meta (NVDS_USER_FRAME_META_NVDSANALYTICS) at a level, as nvdsanalytics would; returns its user meta index. */
  addAnalyticsFrame(callId: number, level: UserMetaLevel, owner: number, value: NativeAnalyticsFrame): number;
  /** Attaches nvdsanalytics' object meta (NVDS_USER_OBJ_META_NVDSANALYTICS) at a level; returns its user meta index. */
  addAnalyticsObject(callId: number, level: UserMetaLevel, owner: number, value: NativeAnalyticsObject): number;
  /** Frees the buffer now (otherwise GC does). */
  releaseBuffer(buffer: object): void;
  /**
   * What the plugin would know of the buffer's stream, for frame access (Buffer.extract):
   * `caps` as `gst_caps_from_string` reads them (fixed, one structure, e.g.
   * `"video/x-raw,format=RGB,width=320,height=240"`; a `(memory:...)` feature sets the
   * memory kind). Frame b lies at b × (stride × height) in the buffer's memory, rows `stride`
   * bytes apart: GStreamer's default stride for the format (RGB/BGR rows rounded up to 4
   * bytes) unless `stride` is given, which attaches a GstVideoMeta saying so (e.g.
   * `width × 3` for unpadded RGB rows). No open call on the buffer.
   */
  setVideo(buffer: object, caps: string, stride?: number): void;
}
