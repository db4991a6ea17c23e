import type { NativePreprocessBatch, NativeRoi } from "../native/component-meta-binding.js";
import { COMPONENT_FIELDS } from "../protocol/component-fields.js";
import { toComponentValue } from "./component-values.js";
import type { Box } from "./values.js";

/**
 * Element type of nvdspreprocess's tensor (`NvDsDataType`: FP32, UINT8, INT8, UINT32, INT32,
 * INT64, UINT64, FP16).
 *
 * @example
 * ```ts
 * const bytesPerElement = (type: PreprocessDataType) => (type === "float16" ? 2 : type === "uint8" || type === "int8" ? 1 : 4);
 * ```
 */
// generated: PreprocessDataType values (npm run generate)
export type PreprocessDataType = "float32" | "uint8" | "int8" | "uint32" | "int32" | "int64" | "uint64" | "float16";
// end generated: PreprocessDataType values

/** @internal By NvDsDataType number. */
export const PREPROCESS_DATA_TYPES = COMPONENT_FIELDS.PreprocessTensor.find((member) => member.name === "dataType")!.values as readonly PreprocessDataType[];

/**
 * A region of interest (`NvDsRoiMeta`): in nvdspreprocess's batch meta
 * ({@link PreprocessBatchMeta.rois}), and as the `NVDS_ROI_META` user meta nvinfer attaches to
 * frames (and objects) when it infers on nvdspreprocess's tensor (`input-tensor-meta=1`).
 * A copy: safe to keep.
 *
 * @example
 * ```ts
 * const toFrame = (roi: RoiMeta, x: number) => (x - roi.offsetLeft) / roi.scaleRatioX + roi.roi.left;
 * ```
 */
export interface RoiMeta {
  // generated: RoiMeta members (npm run generate)
  /** The region in the frame, px (`roi`). */
  readonly roi: Readonly<Box>;
  /** The frame's `batchId` (`frame_meta->batch_id`); undefined when it names none. */
  readonly frameBatchId: number | undefined;
  /** The frame's `sourceId` (`frame_meta->source_id`); undefined when it names none. */
  readonly frameSourceId: number | undefined;
  /** The object's `objectId` when the ROI is an object (`object_meta->object_id`, read as `objectId` is); else undefined. */
  readonly objectId: number | undefined;
  /** Horizontal scale from the ROI to the tensor (`scale_ratio_x`). */
  readonly scaleRatioX: number;
  /** Vertical scale (`scale_ratio_y`). */
  readonly scaleRatioY: number;
  /** Horizontal padding offset in the tensor, px (`offset_left`). */
  readonly offsetLeft: number;
  /** Vertical padding offset (`offset_top`). */
  readonly offsetTop: number;
  // end generated: RoiMeta members
}

/**
 * The tensor nvdspreprocess prepared for nvinfer (`NvDsPreProcessTensorMeta`). Its memory is
 * device memory on `gpuId` (nvdspreprocess's CUDA tensor pool): hand `devicePointer` to a CUDA
 * consumer; it belongs to the buffer and is valid while the buffer is.
 *
 * @example
 * ```ts
 * const [batchSize, channels, height, width] = tensor.tensorShape;
 * ```
 */
export interface PreprocessTensorMeta {
  // generated: PreprocessTensorMeta members (npm run generate)
  /** Device address of the tensor (`raw_tensor_buffer`). */
  readonly devicePointer: bigint;
  /** Size in bytes (`buffer_size`). */
  readonly bufferSize: number;
  /** Shape, batch dimension first (`tensor_shape`). */
  readonly tensorShape: readonly number[];
  /** Element type (`data_type`). */
  readonly dataType: PreprocessDataType;
  /** The model input layer it is for (`tensor_name`). */
  readonly tensorName: string;
  /** GPU the memory is on (`gpu_id`). */
  readonly gpuId: number;
  /** Which of the buffer's tensors it is, when the ROIs exceed one batch (`meta_id`). */
  readonly metaId: number;
  /** Whether scaling kept the aspect ratio (`maintain_aspect_ratio`). */
  readonly maintainAspectRatio: boolean;
  // end generated: PreprocessTensorMeta members
}

/**
 * What nvdspreprocess attaches to the batch for each tensor it prepares
 * (`GstNvDsPreProcessBatchMeta`, `NVDS_PREPROCESS_BATCH_META`): the nvinfer instances it is
 * for, the tensor and the ROIs in tensor order. A copy: safe to keep.
 *
 * @example
 * ```ts
 * for (const user of batch.userMetaItems) {
 *   const preprocess = user.asPreprocessBatch();
 *   if (preprocess?.targetUniqueIds.includes(2)) this.rois = preprocess.rois;
 * }
 * ```
 */
export interface PreprocessBatchMeta {
  // generated: PreprocessBatchMeta members (npm run generate)
  /** The `gie-unique-id`s of the nvinfers it is for (`target_unique_ids`). */
  readonly targetUniqueIds: readonly number[];
  /** The prepared tensor (`tensor_meta`); undefined when none. */
  readonly tensor: PreprocessTensorMeta | undefined;
  /** The ROIs, one per tensor batch entry (`roi_vector`). */
  readonly rois: readonly RoiMeta[];
  // end generated: PreprocessBatchMeta members
}

/** @internal */
export function toRoiMeta(native: NativeRoi): RoiMeta {
  return toComponentValue("RoiMeta", native);
}

/** @internal */
export function toPreprocessBatchMeta(native: NativePreprocessBatch): PreprocessBatchMeta {
  return toComponentValue("PreprocessBatch", native);
}
