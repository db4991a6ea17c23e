/**
 * The tensor half of the native binding (native-host/src/binding/tensor_binding.h): frame
 * views over the buffer of a running transform call, owned tensors from the native pool,
 * DLPack capsules and the pre-processing ops. Exported as `tensor` by libdsnode-runtime.so.0
 * (inside GStreamer) and by the standalone binding dsnode_standalone.node (ordinary Node).
 *
 * Conventions:
 * - Shapes and strides are arrays of whole numbers; strides count elements (DLPack).
 * - `dataPtr` is the base of the allocation or mapping; the first element is at
 *   `dataPtr + byteOffset` (DLPack's `data` and `byte_offset`).
 * - Errors: invalid arguments throw TypeError/RangeError with `code: "ERR_DS_ELEMENT_INVALID_VALUE"`;
 *   a frame or tensor that cannot be used throws Error with `code: "ERR_DS_ELEMENT_TENSOR"`;
 *   a call that ended throws `ERR_DS_ELEMENT_STALE_HANDLE`.
 *
 * @internal
 */
import type { OverlayStats } from "../osd/draw-overlay.js";
import type { Colorimetry, DType, DeviceType, PixelFormat } from "../tensor/types.js";

/** Bumped with any change of the functions below (native: kTensorBindingVersion); checked by loader.ts. */
export const TENSOR_BINDING_VERSION = 3;

/** A tensor as native code describes it. */
export interface NativeTensorInfo {
  device: DeviceType;
  deviceId: number;
  dtype: DType;
  shape: number[];
  /** In elements. */
  strides: number[];
  byteOffset: number;
  /** Bytes from the first element to one past the last. */
  byteLength: number;
  dataPtr: bigint;
  format: PixelFormat | undefined;
  /**
   * Host-visible memory (cpu, cuda_host): an ArrayBuffer whose byte 0 is at `dataPtr`.
   * Frames: detached when the call ends. Owned: detached by `release`; it keeps the storage
   * alive. Undefined for device memory.
   */
  buffer: ArrayBuffer | undefined;
  /** Owned tensors: the native storage (`release` gives the memory back). */
  storage: object | undefined;
  /** Planar frames (NV12, NV21, I420): every plane, over the same memory (plane 0 is this descriptor). */
  planes?: NativePlaneInfo[];
  /** Planar frames: how their YUV becomes RGB. */
  colorimetry?: Colorimetry;
}

/** One plane of a planar frame: [rows, columns, bytes a sample] uint8. */
export interface NativePlaneInfo {
  shape: number[];
  strides: number[];
  byteOffset: number;
  byteLength: number;
}

/** How a tensor is named to native code (TensorHandle's internal source). */
export type NativeTensorSource =
  | {
      readonly kind: "frame";
      readonly callId: number;
      readonly batchId: number;
      /** A crop of the frame (TensorHandle.crop): [left, top, width, height] in pixels, inside it. */
      readonly region?: readonly [number, number, number, number];
      /** One plane of a planar frame (TensorHandle.planes). */
      readonly plane?: number;
    }
  | { readonly kind: "owned"; readonly storage: object }
  | {
      readonly kind: "js";
      /** Any typed array over the tensor's ArrayBuffer. */
      readonly data: ArrayBufferView;
      readonly dtype: DType;
      readonly shape: readonly number[];
      readonly strides: readonly number[];
      /** From the start of `data.buffer`. */
      readonly byteOffset: number;
      readonly format: PixelFormat | undefined;
    }
  | {
      /** Device memory a runner owns (TensorRT outputs), kept alive by the TS handle. */
      readonly kind: "device";
      readonly device: "cuda";
      readonly deviceId: number;
      readonly dtype: DType;
      readonly shape: readonly number[];
      readonly strides: readonly number[];
      readonly byteOffset: number;
      readonly dataPtr: bigint;
      /** Gives the memory back to its runner; called once, at dispose(). */
      readonly release: () => void;
    };

/** Every option of preprocess, filled in and checked by the TS side. */
export interface NativePreprocessOptions {
  width: number;
  height: number;
  mode: "letterbox" | "stretch";
  center: boolean;
  padValue: number;
  channels: 1 | 3;
  channelOrder: "RGB" | "BGR";
  scale: number;
  mean: [number, number, number];
  std: [number, number, number];
  layout: "NCHW" | "NHWC";
  dtype: "uint8" | "float32" | "float16";
}

/** What a consumer addon reads from a DLPack capsule (inspectDLPack). */
export interface NativeDLPackView {
  versioned: boolean;
  versionMajor?: number;
  versionMinor?: number;
  flags?: number;
  hasDeleter: boolean;
  hasManagerContext: boolean;
  /** DLDeviceType: 1 CPU, 2 CUDA, 3 CUDA host. */
  deviceType: number;
  deviceId: number;
  ndim: number;
  dtypeCode: number;
  dtypeBits: number;
  dtypeLanes: number;
  shape: number[];
  strides: number[] | null;
  byteOffset: number;
  data: bigint;
  /** The elements, copied in row-major order (host-visible capsules only). */
  elements?: Uint8Array;
}

/** Counters of the native tensor code. */
export interface NativeTensorStats {
  /** Copies from device memory to the host, ever (toHost() of CUDA tensors). */
  hostCopies: number;
  hostCopyBytes: number;
  /** The pool of owned tensors. */
  liveBlocks: number;
  liveBytes: number;
  cachedBlocks: number;
  cachedBytes: number;
  allocations: number;
  reuses: number;
}

export interface TensorBinding {
  readonly version: number;
  /** The build holds the CUDA code (pool, CUDA ops); a GPU may still be missing. */
  readonly cudaCompiled: boolean;
  /** The build reads NVMM frames (NvBufSurface). */
  readonly deepstreamCompiled: boolean;
  /**
   * Frame `batchId` of the call's buffer (mapped once per call, unmapped at its end); with
   * `region` ([left, top, width, height] in the frame), that region of it, planes included.
   */
  extract(callId: number, batchId: number, region?: readonly number[]): NativeTensorInfo;
  /**
   * What `extract(callId, batchId)` describes, written as numbers into `out` (`FRAME_INFO_*`,
   * at least `frameInfoLength` of them; {@link frameInfoFrom} reads them back) rather than
   * built as an object: the fast path of Buffer.extract. Returns the frame's host view, or
   * undefined for device memory.
   */
  extractInto(callId: number, batchId: number, out: Float64Array): ArrayBuffer | undefined;
  /** How many numbers extractInto writes. */
  readonly frameInfoLength: number;
  /** A new owned tensor (uninitialised memory) from the pool. */
  allocate(device: DeviceType, deviceId: number, dtype: DType, shape: readonly number[], format?: PixelFormat): NativeTensorInfo;
  /** Gives an owned tensor's memory back to the pool now and detaches its view; idempotent. */
  release(storage: object): void;
  /** A dense, owned cpu copy (frames keep their format). */
  toHost(source: NativeTensorSource): NativeTensorInfo;
  /** An external holding a DLManagedTensor* (versioned: DLManagedTensorVersioned*). */
  toDLPack(source: NativeTensorSource, versioned: boolean): object;
  /** Reads a capsule back as a consumer addon would. */
  inspectDLPack(capsule: object, versioned: boolean): NativeDLPackView;
  /** The address of `data.buffer`'s first byte. */
  addressOf(data: ArrayBufferView): bigint;
  /**
   * An ArrayBuffer over `byteLength` bytes of host memory at `address`, which it does not own:
   * how a worker thread reads the main thread's tensors in place (loader.ts, openHostView).
   */
  hostView(address: bigint, byteLength: number): ArrayBuffer;
  /**
   * Keeps a tensor's memory (pooled block, frame memory, JS ArrayBuffer) until `letGo`, even
   * after the tensor is disposed or its call ends: for work that reads it elsewhere (a worker
   * thread). A hold dropped without `letGo` lets go when collected.
   */
  hold(source: NativeTensorSource): object;
  /** Ends a hold now; harmless twice. */
  letGo(hold: object): void;
  /** Frames → one owned network input on their device; transforms: 8 numbers per frame. */
  preprocess(frames: readonly NativeTensorSource[], options: NativePreprocessOptions): { tensor: NativeTensorInfo; transforms: Float64Array };
  stats(): NativeTensorStats;
  /** Frees the pool's cached blocks. */
  trimPool(): void;
  /**
   * decodeYolo's class-major argmax over `data[first ..]` (`classes` rows of `candidates`
   * scores) into `bestScore`/`bestClass` (-Infinity/-1 where every score is NaN).
   */
  classArgmax(data: Float32Array, first: number, classes: number, candidates: number, bestScore: Float32Array, bestClass: Int32Array): void;
  /**
   * The anchors of a dense float32 YOLO output (`batch` × (4 + `classes`) × `candidates`, on the
   * host or a CUDA device) whose best class score is `>= threshold`, in anchor order: `ids` holds
   * (image × candidates + anchor, class id) and `values` (score, cx, cy, w, h) per anchor. On a
   * CUDA tensor a kernel selects them and only they are copied (`copiedBytes`; 0 on the host);
   * native-host/src/postprocess/candidates.h.
   */
  yoloCandidates(
    tensor: NativeTensorSource,
    channelsFirst: boolean,
    batch: number,
    classes: number,
    candidates: number,
    threshold: number,
  ): { ids: Int32Array; values: Float32Array; copiedBytes: number };
  /** Each row's best class and its score (-1 / -Infinity where no score beats -Infinity) of a dense float32 `[rows, classes]`, host or CUDA. */
  rowArgmax(tensor: NativeTensorSource, rows: number, classes: number): { classIds: Int32Array; scores: Float32Array; copiedBytes: number };
  /**
   * Draws frame `frameIndex` of the call's batch (its objects and display metas, as committed)
   * on its pixels, in place (native-host/src/osd/overlay.h).
   */
  drawOverlay(callId: number, frameIndex: number, options: NativeOverlayOptions): OverlayStats;
}

/** What drawOverlay draws. */
export interface NativeOverlayOptions {
  boxes: boolean;
  text: boolean;
  masks: boolean;
  displayMeta: boolean;
}

// ---------------------------------------------------------------- extractInto's numbers
// The slots of extractInto's Float64Array (native: kFrameInfo*, tensor_binding_internal.h).
const FRAME_INFO_DEVICE = 0;
const FRAME_INFO_DEVICE_ID = 1;
const FRAME_INFO_DTYPE = 2;
const FRAME_INFO_FORMAT = 3;
// Slot 4 is ndim, 3 for every frame and plane (rows, columns, samples): read as such.
const FRAME_INFO_SHAPE = 5;
const FRAME_INFO_STRIDES = 8;
const FRAME_INFO_BYTE_OFFSET = 11;
const FRAME_INFO_BYTE_LENGTH = 12;
const FRAME_INFO_DATA_HIGH = 13;
const FRAME_INFO_DATA_LOW = 14;
const FRAME_INFO_PLANE_COUNT = 15;
const FRAME_INFO_COLOR_MATRIX = 16;
const FRAME_INFO_COLOR_RANGE = 17;
const FRAME_INFO_PLANES = 18;
const FRAME_INFO_PLANE_STRIDE = 8;
/** How many numbers a frame's descriptor takes (the binding's `frameInfoLength` must equal it). */
export const FRAME_INFO_LENGTH = FRAME_INFO_PLANES + 3 * FRAME_INFO_PLANE_STRIDE;

// Native enums by value: DLPack's device codes, tensor::DType, ops::PixelFormat, ops::ColorMatrix
// and ops::ColorRange.
const DEVICES: Record<number, DeviceType> = { 1: "cpu", 2: "cuda", 3: "cuda_host" };
const DTYPES: readonly DType[] = ["uint8", "int8", "int32", "int64", "float16", "float32"];
const FORMATS: readonly PixelFormat[] = ["RGB", "RGBA", "BGR", "BGRx", "GRAY8", "RGBx", "BGRA", "ARGB", "ABGR", "NV12", "NV21", "I420"];
const MATRICES: readonly Colorimetry["matrix"][] = ["bt601", "bt709", "bt2020"];
const RANGES: readonly Colorimetry["range"][] = ["limited", "full"];

/** Three dimensions (every frame and plane has three: rows, columns, samples) from `at`. */
function dimsAt(values: Float64Array, at: number): number[] {
  return [values[at]!, values[at + 1]!, values[at + 2]!];
}

/** The NativeTensorInfo of a frame that extractInto wrote into `values`, with its host view. */
export function frameInfoFrom(values: Float64Array, buffer: ArrayBuffer | undefined): NativeTensorInfo {
  const format = values[FRAME_INFO_FORMAT]!;
  // User-space and CUDA addresses are below 2^53: one conversion instead of a shift and an or.
  const address = values[FRAME_INFO_DATA_HIGH]! * 2 ** 32 + values[FRAME_INFO_DATA_LOW]!;
  const info: NativeTensorInfo = {
    device: DEVICES[values[FRAME_INFO_DEVICE]!]!,
    deviceId: values[FRAME_INFO_DEVICE_ID]!,
    dtype: DTYPES[values[FRAME_INFO_DTYPE]!]!,
    shape: dimsAt(values, FRAME_INFO_SHAPE),
    strides: dimsAt(values, FRAME_INFO_STRIDES),
    byteOffset: values[FRAME_INFO_BYTE_OFFSET]!,
    byteLength: values[FRAME_INFO_BYTE_LENGTH]!,
    dataPtr: Number.isSafeInteger(address) ? BigInt(address) : (BigInt(values[FRAME_INFO_DATA_HIGH]!) << 32n) | BigInt(values[FRAME_INFO_DATA_LOW]!),
    format: format < 0 ? undefined : FORMATS[format],
    buffer,
    storage: undefined,
  };
  const planeCount = values[FRAME_INFO_PLANE_COUNT]!;
  if (planeCount > 0) {
    const planes: NativePlaneInfo[] = [];
    for (let p = 0, at = FRAME_INFO_PLANES; p < planeCount; p++, at += FRAME_INFO_PLANE_STRIDE) {
      planes.push({ shape: dimsAt(values, at), strides: dimsAt(values, at + 3), byteOffset: values[at + 6]!, byteLength: values[at + 7]! });
    }
    info.planes = planes;
    info.colorimetry = { matrix: MATRICES[values[FRAME_INFO_COLOR_MATRIX]!]!, range: RANGES[values[FRAME_INFO_COLOR_RANGE]!]! };
  }
  return info;
}
