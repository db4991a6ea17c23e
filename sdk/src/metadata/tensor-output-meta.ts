import type { StaleHandleError } from "../errors/errors.js";
import type { NativeTensorLayer, NativeTensorOutput } from "../native/meta-binding.js";
import type { TransformScope } from "./call/transform-scope.js";
import { scopedNative } from "./scoped-native.js";

const TYPE = "TensorOutputMeta";

/**
 * Element type of an output layer (`NvDsInferDataType`: FLOAT, HALF, INT8, INT32, INT64, UINT8).
 *
 * @example
 * ```ts
 * const isFloat = (type: TensorDataType) => type === "float32" || type === "float16";
 * ```
 */
export type TensorDataType = "float32" | "float16" | "int8" | "int32" | "int64" | "uint8";

/**
 * A layer's host data as a typed array of its element type. JavaScript has no float16 array
 * on Node 20: `float16` layers come as a `Uint16Array` of raw IEEE half-precision bits.
 *
 * @example
 * ```ts
 * const scores = layer.data instanceof Float32Array ? layer.data : undefined;
 * ```
 */
export type TensorLayerData = Float32Array | Uint16Array | Int8Array | Int32Array | BigInt64Array | Uint8Array;

/** @internal The data types by `NvDsInferDataType` number (FLOAT, HALF, INT8, INT32, INT64, UINT8). */
export const DATA_TYPES: readonly TensorDataType[] = ["float32", "float16", "int8", "int32", "int64", "uint8"];
/** @internal Bytes per element, by `NvDsInferDataType` number. */
export const ELEMENT_SIZES: readonly number[] = [4, 2, 1, 4, 8, 1];

/**
 * One output layer of nvinfer's raw tensor output (`NvDsInferLayerInfo` with its buffers).
 *
 * @example
 * ```ts
 * const [boxes] = tensor.layers.filter((layer) => layer.name === "boxes");
 * if (boxes?.data instanceof Float32Array) decode(boxes.data, boxes.dims);
 * ```
 */
export interface TensorLayer {
  /** Layer name in the network (`layerName`). */
  readonly name: string;
  /** Element type (`dataType`). */
  readonly dataType: TensorDataType;
  /** Dimensions without the batch dimension (`inferDims.d[0..numDims)`). */
  readonly dims: readonly number[];
  /** Number of elements (`inferDims.numElements`). */
  readonly numElements: number;
  /**
   * Zero-copy view of the host copy of the layer (`out_buf_ptrs_host[i]`); undefined when
   * nvinfer kept none. The memory belongs to the buffer: the view is emptied (detached) when
   * the transform() call ends, so copy what you keep (`data.slice()`).
   */
  readonly data: TensorLayerData | undefined;
  /** Device pointer of the layer (`out_buf_ptrs_dev[i]`), 0n when none. */
  readonly devicePointer: bigint;
}

/**
 * The network input size nvinfer used (`network_info`).
 *
 * @example
 * ```ts
 * const scale = frame.sourceFrameWidth / tensor.networkInfo.width;
 * ```
 */
export interface NetworkInfo {
  /** Input width, px. */
  readonly width: number;
  /** Input height, px. */
  readonly height: number;
  /** Input channels. */
  readonly channels: number;
}

/**
 * A layer in a {@link TensorOutputMetaJSON}: {@link TensorLayer} without its data, the device
 * pointer as a hexadecimal string.
 *
 * @example
 * ```ts
 * const shapes = tensor.toJSON().layers.map((layer: TensorLayerJSON) => layer.dims);
 * ```
 */
export interface TensorLayerJSON {
  /** See {@link TensorLayer.name}. */
  name: string;
  /** See {@link TensorLayer.dataType}. */
  dataType: TensorDataType;
  /** See {@link TensorLayer.dims}. */
  dims: number[];
  /** See {@link TensorLayer.numElements}. */
  numElements: number;
  /** See {@link TensorLayer.devicePointer}, as "0x…". */
  devicePointer: string;
}

/**
 * The plain values of a {@link TensorOutputMeta} without the tensor data, as
 * {@link TensorOutputMeta.toJSON} returns them. Device pointers are hexadecimal strings.
 *
 * @example
 * ```ts
 * const summary: TensorOutputMetaJSON = tensor.toJSON();
 * ```
 */
export interface TensorOutputMetaJSON {
  /** See {@link TensorOutputMeta.uniqueId}. */
  uniqueId: number;
  /** See {@link TensorOutputMeta.gpuId}. */
  gpuId: number;
  /** See {@link TensorOutputMeta.networkInfo}. */
  networkInfo: NetworkInfo;
  /** See {@link TensorOutputMeta.maintainAspectRatio}. */
  maintainAspectRatio: boolean;
  /** See {@link TensorOutputMeta.symmetricPadding}. */
  symmetricPadding: boolean;
  /** Each layer without its data. */
  layers: TensorLayerJSON[];
}

/**
 * nvinfer's raw output tensors for a frame (primary inference) or an object (secondary), from
 * a user meta of type `NVDSINFER_TENSOR_OUTPUT_META` (nvinfer with `output-tensor-meta=1`):
 * `frame.tensorItems`, `obj.tensorItems`. Read-only.
 *
 * Valid only during the transform() call that received it (see {@link StaleHandleError}).
 *
 * @example
 * ```ts
 * for (const tensor of frame.tensorItems) {
 *   if (tensor.uniqueId !== 1) continue; // nvinfer gie-unique-id=1
 *   const output = tensor.layers[0];
 *   if (output?.data instanceof Float32Array) this.decode(output.data, output.dims, frame);
 * }
 * ```
 */
export class TensorOutputMeta {
  readonly #check: (member: string) => NativeTensorOutput;
  #layers: readonly TensorLayer[] | undefined;

  /** @internal Tensor outputs come from `tensorItems`; user code never constructs them. */
  constructor(scope: TransformScope, native: NativeTensorOutput) {
    this.#check = scopedNative(scope, native, TYPE);
  }

  /**
   * Id of the nvinfer instance that produced it (`unique_id`: its `gie-unique-id`).
   *
   * @example
   * ```ts
   * const primary = frame.tensorItems.find((tensor) => tensor.uniqueId === 1);
   * ```
   */
  get uniqueId(): number {
    return this.#check("uniqueId").uniqueId;
  }

  /**
   * GPU the device buffers are on (`gpu_id`).
   *
   * @example
   * ```ts
   * this.log.debug(`outputs on GPU ${tensor.gpuId}`);
   * ```
   */
  get gpuId(): number {
    return this.#check("gpuId").gpuId;
  }

  /**
   * The network's input size (`network_info`).
   *
   * @example
   * ```ts
   * const { width, height } = tensor.networkInfo;
   * ```
   */
  get networkInfo(): NetworkInfo {
    const native = this.#check("networkInfo");
    return Object.freeze({ width: native.networkWidth, height: native.networkHeight, channels: native.networkChannels });
  }

  /**
   * Whether the input was scaled keeping the aspect ratio (`maintain_aspect_ratio`).
   *
   * @example
   * ```ts
   * const letterboxed = tensor.maintainAspectRatio;
   * ```
   */
  get maintainAspectRatio(): boolean {
    return this.#check("maintainAspectRatio").maintainAspectRatio;
  }

  /**
   * Whether the letterbox padding is on both sides (`symmetric_padding`).
   *
   * @example
   * ```ts
   * const centred = tensor.maintainAspectRatio && tensor.symmetricPadding;
   * ```
   */
  get symmetricPadding(): boolean {
    return this.#check("symmetricPadding").symmetricPadding;
  }

  /**
   * The output layers, in nvinfer's order.
   *
   * @example
   * ```ts
   * const names = tensor.layers.map((layer) => layer.name);
   * ```
   */
  get layers(): readonly TensorLayer[] {
    const native = this.#check("layers");
    return (this.#layers ??= Object.freeze(native.layers.map(toLayer)));
  }

  /**
   * The values without the tensor data, safe to keep after transform() returns.
   *
   * @example
   * ```ts
   * this.shapes = frame.tensorItems.map((tensor) => tensor.toJSON().layers.map((layer) => layer.dims));
   * ```
   */
  toJSON(): TensorOutputMetaJSON {
    const native = this.#check("toJSON()");
    return {
      uniqueId: native.uniqueId,
      gpuId: native.gpuId,
      networkInfo: { width: native.networkWidth, height: native.networkHeight, channels: native.networkChannels },
      maintainAspectRatio: native.maintainAspectRatio,
      symmetricPadding: native.symmetricPadding,
      layers: native.layers.map((layer) => ({
        name: layer.layerName,
        dataType: DATA_TYPES[layer.dataType] ?? "float32",
        dims: layer.dims.slice(),
        numElements: layer.numElements,
        devicePointer: `0x${layer.devicePointer.toString(16)}`,
      })),
    };
  }
}

function toLayer(layer: NativeTensorLayer): TensorLayer {
  const dataType = DATA_TYPES[layer.dataType] ?? "float32";
  return Object.freeze({
    name: layer.layerName,
    dataType,
    dims: Object.freeze(layer.dims.slice()),
    numElements: layer.numElements,
    data: layer.host === null ? undefined : view(layer.host, layer.dataType, layer.numElements),
    devicePointer: layer.devicePointer,
  });
}

function view(host: ArrayBuffer, dataType: number, numElements: number): TensorLayerData {
  const size = ELEMENT_SIZES[dataType] ?? 1;
  const length = Math.min(numElements, Math.floor(host.byteLength / size));
  switch (dataType) {
    case 0:
      return new Float32Array(host, 0, length);
    case 1:
      return new Uint16Array(host, 0, length);
    case 2:
      return new Int8Array(host, 0, length);
    case 3:
      return new Int32Array(host, 0, length);
    case 4:
      return new BigInt64Array(host, 0, length);
    default:
      return new Uint8Array(host, 0, length);
  }
}
