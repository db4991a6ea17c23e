/**
 * The vocabulary of tensors: where memory lives, element types and frame formats, named as
 * DLPack and GStreamer name them.
 */

/**
 * Where a tensor's memory lives: `"cpu"` (host memory), `"cuda"` (GPU memory; the CPU cannot
 * read it without a copy) or `"cuda_host"` (pinned host memory, readable by the CPU and by the
 * GPU alike). DLPack's kDLCPU, kDLCUDA and kDLCUDAHost.
 *
 * @example
 * ```ts
 * const onGpu: DeviceType = tensor.device.type;
 * if (onGpu === "cuda") console.log("stays on the GPU");
 * ```
 */
export type DeviceType = "cpu" | "cuda" | "cuda_host";

/**
 * A device: its type and index (the CUDA device ordinal; 0 for `"cpu"`).
 *
 * @example
 * ```ts
 * const { type, id } = tensor.device; // { type: "cuda", id: 0 }
 * ```
 */
export interface Device {
  /** See {@link DeviceType}. */
  readonly type: DeviceType;
  /** CUDA device ordinal; 0 for the CPU. */
  readonly id: number;
}

/**
 * Element type of a tensor. `"float16"` is IEEE binary16, seen from JS as raw `Uint16Array`
 * bits (Node has no Float16Array).
 *
 * @example
 * ```ts
 * const bytes = tensor.byteLength / (tensor.dtype === "float32" ? 4 : 1);
 * ```
 */
export type DType = "uint8" | "int8" | "int32" | "int64" | "float16" | "float32";

/**
 * A packed 8-bit frame format, named as GStreamer's `video/x-raw` caps name it. Byte order in
 * memory: RGB = R,G,B; RGBA = R,G,B,A; BGR = B,G,R; BGRx = B,G,R,x; GRAY8 = Y.
 *
 * @example
 * ```ts
 * const frame = buffer.extract(0);
 * if (frame.format === "BGRx") console.log("blue first, 4 bytes a pixel");
 * ```
 */
export type PixelFormat = "RGB" | "RGBA" | "BGR" | "BGRx" | "GRAY8";

/**
 * What {@link TensorHandle.toTypedArray} returns for each {@link DType}: `uint8` →
 * `Uint8Array`, `int8` → `Int8Array`, `int32` → `Int32Array`, `int64` → `BigInt64Array`,
 * `float16` → `Uint16Array` (raw bits), `float32` → `Float32Array`.
 *
 * @example
 * ```ts
 * const data: TensorData = tensor.toTypedArray();
 * if (data instanceof Float32Array) console.log(data[0]);
 * ```
 */
export type TensorData = Uint8Array | Int8Array | Int32Array | BigInt64Array | Uint16Array | Float32Array;

/** @internal */
export const DTYPES: readonly DType[] = Object.freeze(["uint8", "int8", "int32", "int64", "float16", "float32"]);

/** @internal */
export const PIXEL_FORMATS: readonly PixelFormat[] = Object.freeze(["RGB", "RGBA", "BGR", "BGRx", "GRAY8"]);

/** @internal Bytes per element. */
export const DTYPE_SIZE: Readonly<Record<DType, number>> = Object.freeze({
  uint8: 1,
  int8: 1,
  int32: 4,
  int64: 8,
  float16: 2,
  float32: 4,
});

/** @internal Channels (bytes) per pixel. */
export const FORMAT_CHANNELS: Readonly<Record<PixelFormat, number>> = Object.freeze({
  RGB: 3,
  RGBA: 4,
  BGR: 3,
  BGRx: 4,
  GRAY8: 1,
});

type TypedArrayConstructor = new (buffer: ArrayBufferLike, byteOffset: number, length: number) => TensorData;

/** @internal The typed array class of each dtype. */
export const DTYPE_ARRAY: Readonly<Record<DType, TypedArrayConstructor>> = Object.freeze({
  uint8: Uint8Array,
  int8: Int8Array,
  int32: Int32Array,
  int64: BigInt64Array,
  float16: Uint16Array,
  float32: Float32Array,
});
