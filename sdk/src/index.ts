/**
 * ds-element: write GStreamer / DeepStream elements in TypeScript.
 *
 * @example
 * ```ts
 * import { Element, z, type BatchMeta, type GstBuffer } from "ds-element";
 * ```
 * @packageDocumentation
 */

// ---------------------------------------------------------------- elements
export { z } from "zod";
export { Element, type ElementClass, type CreateOptions, type TransformResult } from "./element/element.js";
export type { ElementDeclaration } from "./element/declaration.js";
export type { ElementLogger, LogSink } from "./element/logger.js";
export {
  InferenceElement,
  type InferenceElementClass,
  type InferenceBatch,
  type PreprocessedFrames,
  type ModelProps,
  type ModelShape,
  type ModelInput,
  type ModelProperty,
} from "./element/inference-element.js";

// ---------------------------------------------------------------- the buffer and its stream
export { GstBuffer } from "./stream/gst-buffer.js";
export type { Caps, Structure } from "./stream/caps.js";
export type { StreamEvent, StreamEventType, SourceEventType } from "./stream/stream-event.js";
export type { Source } from "./stream/source.js";
export { SourceState, type SourceKey } from "./element/source-state.js";

// ---------------------------------------------------------------- metadata (NvDsBatchMeta and below)
export { BatchMeta, type BatchMetaJSON } from "./metadata/batch-meta.js";
export { FrameMeta, type FrameMetaJSON, type ObjectColumns, type ObjectOptions } from "./metadata/frame-meta.js";
export { ObjectMeta, type ObjectMetaJSON, type ObjectMetaReference, type MaskParamsJSON } from "./metadata/object-meta.js";
export { ClassifierMeta, type ClassifierMetaJSON } from "./metadata/classifier-meta.js";
export { LabelInfo, type LabelInfoJSON } from "./metadata/label-info.js";
export { DisplayMeta, type DisplayMetaJSON } from "./metadata/display-meta.js";
export { UserMeta, type UserMetaJSON, type UserMetaKind } from "./metadata/user-meta.js";
export type { ComponentMetaKind } from "./metadata/component-user-meta.js";
export type { TrackerState, TrackerTargetFrame, TrackerTarget, TrackerStream, TrackerTargetList, ReidMeta } from "./metadata/tracker-meta.js";
export type { PreprocessBatchMeta, PreprocessTensorMeta, PreprocessDataType, RoiMeta } from "./metadata/preprocess-meta.js";
export type { SensorInfo } from "./metadata/sensor-info.js";
export {
  type EventMsgMeta,
  type EventMsgInit,
  type EventType,
  type EventObjectType,
  type VehicleObject,
  type PersonObject,
  type FaceObject,
} from "./metadata/event-msg-meta.js";
export {
  defineUserMeta,
  UserMetaDefinition,
  type UserMetaOwner,
  type UserMetaSource,
  type UserMetaReadResult,
} from "./metadata/typed-user-meta.js";
export {
  TensorOutputMeta,
  type TensorOutputMetaJSON,
  type TensorLayerJSON,
  type TensorLayer,
  type TensorLayerData,
  type TensorDataType,
  type NetworkInfo,
} from "./metadata/tensor-output-meta.js";
export type { AnalyticsFrameMeta, AnalyticsObjectInfo, AnalyticsFrameInit, AnalyticsObjectInit } from "./metadata/analytics-meta.js";
export { SegmentationMeta, type SegmentationMetaJSON, type SegmentationInit } from "./metadata/segmentation-meta.js";
// The values metadata is made of: DeepStream's NvOSD_*Params, one family for objects and display meta.
export type {
  Color,
  ColorInit,
  Box,
  BoxInit,
  RectParams,
  RectParamsInit,
  TextParams,
  TextParamsInit,
  FontParams,
  FontParamsInit,
  MaskParams,
  LineParams,
  LineParamsInit,
  ArrowParams,
  ArrowParamsInit,
  ArrowHead,
  CircleParams,
  CircleParamsInit,
} from "./metadata/values.js";

// ---------------------------------------------------------------- tensors and pre-processing
export {
  TensorHandle,
  cropRegion,
  type TensorHandleJSON,
  type FromTypedArrayOptions,
  type ToDLPackOptions,
} from "./tensor/tensor-handle.js";
export type { Colorimetry, Device, DeviceType, DType, PackedPixelFormat, PixelFormat, PlanarPixelFormat, TensorData } from "./tensor/types.js";
export { tensorStats, type TensorStats } from "./tensor/tensor-stats.js";
export { preprocess, type PreprocessOptions, type PreprocessResult } from "./ops/preprocess.js";
export { FrameTransform } from "./ops/frame-transform.js";

// ---------------------------------------------------------------- runners
export { loadRunner, type Runner, type RunnerBackend, type RunnerInputs, type TensorInfo, type LoadRunnerOptions } from "./runners/index.js";

// ---------------------------------------------------------------- post-processing
export { type Detections, type Detection, detectionItems, detectionsFrom } from "./postprocess/detections.js";
export {
  decodeYolo,
  DEFAULT_CONFIDENCE_THRESHOLD,
  type DecodeYoloOptions,
  type YoloTensor,
  type YoloLayout,
  type BatchDetections,
} from "./postprocess/decode-yolo.js";
export { bestClasses, type BestClasses, type ScoreTensor } from "./postprocess/best-classes.js";
export { nms, DEFAULT_IOU_THRESHOLD, DEFAULT_MAX_DETECTIONS, type NmsOptions } from "./postprocess/nms.js";
export { mapBoxes, letterboxTransform, type LetterboxOptions, type MapBoxesOptions } from "./postprocess/map-boxes.js";
export { PostprocessScratch } from "./postprocess/scratch.js";
export { parseLabels, readLabelFile } from "./postprocess/labels.js";

// ---------------------------------------------------------------- drawing
export { drawOverlay, type OverlayOptions, type OverlayStats } from "./osd/draw-overlay.js";

// ---------------------------------------------------------------- errors
export {
  StaleHandleError,
  PropertyValidationError,
  ElementDefinitionError,
  InvalidValueError,
  InvalidTypeError,
  MetaStateError,
  TensorError,
  RunnerError,
  type RunnerErrorCode,
} from "./errors/errors.js";

// ---------------------------------------------------------------- build output (element.json) and version
export type { ManifestV1, ManifestProperty, ManifestPropertyType, ManifestEnumValue } from "./protocol/manifest.js";
export { SDK_VERSION } from "./version.js";
