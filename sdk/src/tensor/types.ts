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
 * memory: RGB = R,G,B; RGBA = R,G,B,A; BGR = B,G,R; BGRx = B,G,R,x; GRAY8 = Y; RGBx = R,G,B,x;
 * BGRA = B,G,R,A; ARGB = A,R,G,B; ABGR = A,B,G,R (alpha and x bytes are not colour).
 *
 * @example
 * ```ts
 * const frame = buffer.extract(0);
 * if (frame.format === "BGRx") console.log("blue first, 4 bytes a pixel");
 * ```
 */
export type PackedPixelFormat = "RGB" | "RGBA" | "BGR" | "BGRx" | "GRAY8" | "RGBx" | "BGRA" | "ARGB" | "ABGR";

/**
 * A planar 8-bit 4:2:0 YUV format, as decoders and `nvstreammux` produce by default: `"NV12"`
 * (a Y plane, then one plane of U,V pairs), `"NV21"` (V,U pairs) or `"I420"` (Y, U and V
 * planes). Each chroma sample covers 2×2 pixels. A frame of these formats is one
 * {@link TensorHandle} with its {@link TensorHandle.planes} (docs/frames.md).
 *
 * @example
 * ```ts
 * const frame = buffer.extract(0);
 * if (frame.format === "NV12") {
 *   const [luma, chroma] = frame.planes; // [h, w, 1] and [h/2, w/2, 2]
 * }
 * ```
 */
export type PlanarPixelFormat = "NV12" | "NV21" | "I420";

/**
 * A frame format {@link GstBuffer.extract} gives and {@link preprocess} reads: packed
 * ({@link PackedPixelFormat}) or planar YUV ({@link PlanarPixelFormat}).
 *
 * @example
 * ```ts
 * const format: PixelFormat = buffer.extract(0).format!; // e.g. "NV12" after nvstreammux
 * ```
 */
export type PixelFormat = PackedPixelFormat | PlanarPixelFormat;

/**
 * How a YUV frame's values become RGB: the `matrix` of coefficients (ITU-R BT.601, BT.709 or
 * BT.2020) and the `range` of the values (`"limited"`: Y 16..235, U/V 16..240, GStreamer's
 * `16_235`; `"full"`: 0..255). From the caps' `colorimetry` (GStreamer's default when they
 * name none: BT.601 up to 576 lines, BT.709 above, BT.2020 from 2160; limited), or from the
 * NvBufSurface colour format (`NV12` BT.601 limited, `NV12_ER` full, `NV12_709` BT.709, ...).
 *
 * @example
 * ```ts
 * const { matrix, range } = buffer.extract(0).colorimetry!; // "bt709", "limited" for 1080p
 * ```
 */
export interface Colorimetry {
  /** `"bt601"`, `"bt709"` or `"bt2020"`. */
  readonly matrix: "bt601" | "bt709" | "bt2020";
  /** `"limited"` (video) or `"full"` (JPEG). */
  readonly range: "limited" | "full";
}

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
export const PACKED_PIXEL_FORMATS: readonly PackedPixelFormat[] = Object.freeze([
  "RGB",
  "RGBA",
  "BGR",
  "BGRx",
  "GRAY8",
  "RGBx",
  "BGRA",
  "ARGB",
  "ABGR",
]);

/** @internal */
export const PLANAR_PIXEL_FORMATS: readonly PlanarPixelFormat[] = Object.freeze(["NV12", "NV21", "I420"]);

/** @internal */
export const PIXEL_FORMATS: readonly PixelFormat[] = Object.freeze([...PACKED_PIXEL_FORMATS, ...PLANAR_PIXEL_FORMATS]);

/** @internal Bytes per element. */
export const DTYPE_SIZE: Readonly<Record<DType, number>> = Object.freeze({
  uint8: 1,
  int8: 1,
  int32: 4,
  int64: 8,
  float16: 2,
  float32: 4,
});

/** @internal Channels (bytes) per pixel; planar formats: of the Y plane. */
export const FORMAT_CHANNELS: Readonly<Record<PixelFormat, number>> = Object.freeze({
  RGB: 3,
  RGBA: 4,
  BGR: 3,
  BGRx: 4,
  GRAY8: 1,
  RGBx: 4,
  BGRA: 4,
  ARGB: 4,
  ABGR: 4,
  NV12: 1,
  NV21: 1,
  I420: 1,
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
