import { describeValue, expectedMessage } from "../errors/describe-value.js";
import { InvalidTypeError, InvalidValueError, StaleHandleError, TensorError } from "../errors/errors.js";
import type { Box } from "../metadata/values.js";
import { tensorBinding } from "../native/installed-bindings.js";
import type { NativeTensorInfo, NativeTensorSource, TensorBinding } from "../native/tensor-binding.js";
import {
  DTYPE_ARRAY,
  DTYPE_SIZE,
  DTYPES,
  FORMAT_CHANNELS,
  PACKED_PIXEL_FORMATS,
  type Colorimetry,
  type DType,
  type Device,
  type PixelFormat,
  type TensorData,
} from "./types.js";

const HANDLE = "TensorHandle";
const MAX_DIMS = 8;

/** @internal The life of the transform call a frame view belongs to (TransformScope is one). */
export interface CallLife {
  readonly alive: boolean;
}

/** @internal What a TensorHandle is made of. */
interface TensorInit {
  readonly device: Device;
  readonly dtype: DType;
  readonly shape: readonly number[];
  readonly strides: readonly number[];
  readonly byteOffset: number;
  readonly byteLength: number;
  readonly dataPtr: bigint | undefined;
  readonly format: PixelFormat | undefined;
  readonly owned: boolean;
  readonly source: NativeTensorSource;
  /** Frames only. */
  readonly life: CallLife | undefined;
  /** Host-visible memory: the ArrayBuffer the elements lie in. */
  readonly buffer: ArrayBuffer | undefined;
  /** A tensor over JS memory: the typed array it was made from. */
  readonly data: TensorData | undefined;
  /** Planar frames: every plane (plane 0 describes the same memory as the frame itself). */
  readonly planes?: readonly TensorHandle[];
  /** Planar frames. */
  readonly colorimetry?: Colorimetry;
}

/** The descriptor of a tensor as plain values ({@link TensorHandle.toJSON}). */
export interface TensorHandleJSON {
  /** See {@link TensorHandle.device}. */
  device: Device;
  /** See {@link TensorHandle.dtype}. */
  dtype: DType;
  /** See {@link TensorHandle.shape}. */
  shape: number[];
  /** See {@link TensorHandle.strides}. */
  strides: number[];
  /** See {@link TensorHandle.byteOffset}. */
  byteOffset: number;
  /** See {@link TensorHandle.byteLength}. */
  byteLength: number;
  /** See {@link TensorHandle.format}. */
  format: PixelFormat | undefined;
  /** See {@link TensorHandle.owned}. */
  owned: boolean;
}

/** Options of {@link TensorHandle.fromTypedArray}. */
export interface FromTypedArrayOptions {
  /**
   * The element type; by default the array's own (`Uint16Array` needs `"float16"`, since
   * there is no uint16 dtype).
   */
  dtype?: DType;
  /**
   * A packed frame's pixel format ({@link PackedPixelFormat}): then `shape` is
   * `[height, width, channels]` of uint8. Planar YUV frames come only from
   * {@link GstBuffer.extract}.
   */
  format?: PixelFormat;
}

/** Options of {@link TensorHandle.toDLPack}. */
export interface ToDLPackOptions {
  /**
   * `true`: a DLPack 1.0 `DLManagedTensorVersioned*` (version 1.0, flags 0); `false`
   * (default): a DLPack 0.8 `DLManagedTensor*`, what most consumers read.
   */
  versioned?: boolean;
}

let sourceOf: (tensor: TensorHandle, member: string) => NativeTensorSource;

/**
 * A tensor: DLPack-shaped metadata over memory that stays where it is (host memory, or GPU
 * memory that is never copied unless you ask).
 *
 * Two kinds:
 * - **Frame views** from {@link GstBuffer.extract}: zero-copy views of the buffer being
 *   transformed, `[height, width, channels]` uint8 with the row pitch in `strides[0]`
 *   (planar YUV frames: their Y plane, with every plane in {@link TensorHandle.planes}). Valid
 *   only during the transform() call (later use throws {@link StaleHandleError}; the
 *   ArrayBuffer behind `toTypedArray()` is detached when the call ends). Writes change the
 *   frame in place.
 * - **Owned tensors**: outputs of {@link preprocess}, runners and {@link TensorHandle.toHost},
 *   and {@link TensorHandle.fromTypedArray}. They outlive the call; their pooled memory goes
 *   back to the pool at {@link TensorHandle.dispose} or when the handle and its views are
 *   garbage-collected.
 *
 * @example
 * ```ts
 * transform(batch: BatchMeta, buffer: GstBuffer) {
 *   const frame = buffer.extract(0);          // [H, W, 3] RGB, zero-copy
 *   const [height, width] = frame.shape;
 *   const pixels = frame.toTypedArray() as Uint8Array;
 *   const pitch = frame.strides[0]!;
 *   const red = pixels[(height! >> 1) * pitch + (width! >> 1) * 3]; // centre pixel's red
 * }
 * ```
 */
export class TensorHandle {
  readonly #device: Device;
  readonly #dtype: DType;
  readonly #shape: readonly number[];
  readonly #strides: readonly number[];
  readonly #byteOffset: number;
  readonly #byteLength: number;
  readonly #format: PixelFormat | undefined;
  readonly #owned: boolean;
  readonly #life: CallLife | undefined;
  readonly #planes: readonly TensorHandle[] | undefined;
  readonly #colorimetry: Colorimetry | undefined;
  #dataPtr: bigint | undefined;
  /** Undefined once disposed. */
  #source: NativeTensorSource | undefined;
  #buffer: ArrayBuffer | undefined;
  #array: TensorData | undefined;

  static {
    sourceOf = (tensor, member) => tensor.#use(member, "passing it to");
  }

  /** @internal Tensors come from Buffer.extract, ops, runners and fromTypedArray. */
  constructor(init: TensorInit) {
    this.#device = Object.freeze({ type: init.device.type, id: init.device.id });
    this.#dtype = init.dtype;
    this.#shape = Object.freeze([...init.shape]);
    this.#strides = Object.freeze([...init.strides]);
    this.#byteOffset = init.byteOffset;
    this.#byteLength = init.byteLength;
    this.#dataPtr = init.dataPtr;
    this.#format = init.format;
    this.#owned = init.owned;
    this.#source = init.source;
    this.#life = init.life;
    this.#buffer = init.buffer;
    this.#array = init.data;
    this.#planes = init.planes === undefined ? undefined : Object.freeze([...init.planes]);
    this.#colorimetry =
      init.colorimetry === undefined ? undefined : Object.freeze({ matrix: init.colorimetry.matrix, range: init.colorimetry.range });
  }

  /** Planar frames: what must be done plane by plane. */
  #refusePlanar(member: string): void {
    if (this.#planes === undefined) return;
    throw new TensorError(
      `Expected a packed frame or one plane of a frame for TensorHandle.${member} but received a planar ` +
        `${this.#format} frame; call it on each of frame.planes`,
    );
  }

  /** Frames: throws once the call ended. */
  #check(member: string): void {
    if (this.#life !== undefined && !this.#life.alive) throw new StaleHandleError(HANDLE, member);
  }

  /** The native source, for anything that touches the memory. */
  #use(member: string, action: "reading" | "calling" | "passing it to"): NativeTensorSource {
    if (this.#life !== undefined && !this.#life.alive) throw new StaleHandleError(HANDLE, member, action);
    if (this.#source === undefined) {
      throw new TensorError(
        `TensorHandle used after dispose() (${action} ${member}); an owned tensor's memory goes back to the pool ` +
          "when it is disposed: keep the handle until you are done with it",
      );
    }
    return this.#source;
  }

  /**
   * Where the memory lives: `{ type: "cpu" | "cuda" | "cuda_host", id }`.
   *
   * @example
   * ```ts
   * if (frame.device.type === "cuda") console.log(`frame on GPU ${frame.device.id}`);
   * ```
   */
  get device(): Device {
    this.#check("device");
    return this.#device;
  }

  /**
   * Element type. Frames are `"uint8"`.
   *
   * @example
   * ```ts
   * const isHalf = tensor.dtype === "float16";
   * ```
   */
  get dtype(): DType {
    this.#check("dtype");
    return this.#dtype;
  }

  /**
   * Size of each dimension. Frames: `[height, width, channels]`; preprocess outputs:
   * `[batch, channels, height, width]` (NCHW) or `[batch, height, width, channels]` (NHWC).
   *
   * @example
   * ```ts
   * const [height, width, channels] = frame.shape;
   * ```
   */
  get shape(): readonly number[] {
    this.#check("shape");
    return this.#shape;
  }

  /**
   * Distance between consecutive indices of each dimension, in elements (DLPack's strides).
   * Frames: `[rowPitch, channels, 1]`, the row pitch in bytes (rows may be padded).
   *
   * @example
   * ```ts
   * const [pitch, pixelStride] = frame.strides;
   * const at = (y: number, x: number, c: number) => y * pitch! + x * pixelStride! + c;
   * ```
   */
  get strides(): readonly number[] {
    this.#check("strides");
    return this.#strides;
  }

  /**
   * Bytes from {@link TensorHandle.dataPtr} to the first element (DLPack's `byte_offset`):
   * frame `b` of a multi-frame batch lies `b × frame size` into the buffer's memory.
   *
   * @example
   * ```ts
   * const first = frame.dataPtr + BigInt(frame.byteOffset); // address of pixel (0, 0)
   * ```
   */
  get byteOffset(): number {
    this.#check("byteOffset");
    return this.#byteOffset;
  }

  /**
   * Bytes from the first element to one past the last, row padding included (what
   * `toTypedArray()` covers).
   *
   * @example
   * ```ts
   * console.log(`${frame.byteLength} bytes of pixels`);
   * ```
   */
  get byteLength(): number {
    this.#check("byteLength");
    return this.#byteLength;
  }

  /**
   * Address of the allocation or mapping the tensor lies in (DLPack's `data`): a device
   * pointer for `"cuda"`, a host address otherwise. The first element is at
   * `dataPtr + BigInt(byteOffset)`. For native code; JS reads memory with `toTypedArray()`.
   *
   * @example
   * ```ts
   * myAddon.launch(Number(frame.dataPtr + BigInt(frame.byteOffset)), frame.strides[0]);
   * ```
   */
  get dataPtr(): bigint {
    const source = this.#use("dataPtr", "reading");
    if (this.#dataPtr === undefined && source.kind === "js") {
      this.#dataPtr = binding("TensorHandle.dataPtr").addressOf(source.data);
    }
    return this.#dataPtr ?? 0n;
  }

  /**
   * The pixel format of a frame (`[height, width, channels]` uint8), `undefined` for other
   * tensors.
   *
   * @example
   * ```ts
   * const bgr = frame.format === "BGR" || frame.format === "BGRx";
   * ```
   */
  get format(): PixelFormat | undefined {
    this.#check("format");
    return this.#format;
  }

  /**
   * The planes of the frame, each a zero-copy tensor over the same memory with its own shape
   * and strides (DLPack-shaped; `toTypedArray()`, `toDLPack()` and `toHost()` work on each).
   * Planar frames ({@link PlanarPixelFormat}): NV12/NV21 give `[Y, UV]` — `[height, width, 1]`
   * and `[ceil(height / 2), ceil(width / 2), 2]` —, I420 gives `[Y, U, V]` with U and V
   * `[ceil(height / 2), ceil(width / 2), 1]`; plane 0 describes the same bytes as the frame's
   * own shape and strides. Every other tensor is its own single plane: `[this]`. Planes of a
   * frame are valid only during its call, as the frame.
   *
   * @example
   * ```ts
   * const frame = buffer.extract(0); // NV12
   * const [luma, chroma] = frame.planes;
   * const y = luma!.toTypedArray() as Uint8Array;
   * const uv = chroma!.toTypedArray() as Uint8Array;
   * const u = uv[(row >> 1) * chroma!.strides[0]! + (column >> 1) * 2]; // U of pixel (column, row)
   * ```
   */
  get planes(): readonly TensorHandle[] {
    this.#check("planes");
    return this.#planes ?? [this];
  }

  /**
   * How a planar YUV frame's values become RGB ({@link Colorimetry}): what {@link preprocess}
   * converts with. `undefined` for every other tensor.
   *
   * @example
   * ```ts
   * const frame = buffer.extract(0);
   * if (frame.colorimetry?.range === "full") console.log("JPEG-range YUV");
   * ```
   */
  get colorimetry(): Colorimetry | undefined {
    this.#check("colorimetry");
    return this.#colorimetry;
  }

  /**
   * `true` for tensors that own their memory and outlive the transform call (ops and runner
   * outputs, `toHost()` copies, `fromTypedArray`); `false` for frame views.
   *
   * @example
   * ```ts
   * if (tensor.owned) tensor.dispose();
   * ```
   */
  get owned(): boolean {
    this.#check("owned");
    return this.#owned;
  }

  /**
   * The elements as a typed array over the tensor's own memory (no copy), for `"cpu"` and
   * `"cuda_host"` tensors: index 0 is the first element, and element `(i, j, k)` is at
   * `i × strides[0] + j × strides[1] + k × strides[2]`. See {@link TensorData} for the array
   * type of each dtype. A frame's array writes the frame in place and is detached (length 0)
   * when the call ends. `"cuda"` tensors throw a {@link TensorError}: copy them with
   * {@link TensorHandle.toHost} first.
   *
   * @example
   * ```ts
   * const frame = buffer.extract(0);
   * const pixels = frame.toTypedArray() as Uint8Array;
   * pixels.fill(0, 0, frame.strides[0]); // blacken the first row
   * ```
   */
  toTypedArray(): TensorData {
    this.#use("toTypedArray()", "calling");
    if (this.#device.type === "cuda") {
      throw new TensorError(
        `Expected a tensor in host memory (cpu or cuda_host) for TensorHandle.toTypedArray() but received one on ` +
          `cuda:${this.#device.id}; copy it first with toHost()`,
      );
    }
    if (this.#array === undefined) {
      const buffer = this.#buffer;
      if (buffer === undefined) throw new TensorError("TensorHandle.toTypedArray(): this tensor has no host memory view");
      const Array = DTYPE_ARRAY[this.#dtype];
      this.#array = new Array(buffer, this.#byteOffset, this.#byteLength / DTYPE_SIZE[this.#dtype]);
    }
    return this.#array;
  }

  /**
   * A zero-copy view of a rectangle of this image (a frame from {@link GstBuffer.extract}, or a
   * `[height, width, channels]` image made with {@link TensorHandle.fromTypedArray} and a
   * `format`): same memory, device, strides and format, `[height, width, channels]` of the
   * region. `box` is in pixels; it is rounded outward to whole pixels and clipped to the image,
   * as nvinfer clips object boxes, so an object's `rectParams` can be passed as they are
   * ({@link cropRegion} gives the region the view covers). A frame's crop lives as long as the
   * frame (the transform call). Hand crops to {@link preprocess} to run a model on objects
   * (what `InferenceElement.objectsToProcess` does); CUDA frames stay on the GPU. A planar
   * frame's crop (NV12, NV21, I420) narrows every plane: {@link TensorHandle.planes} of the crop
   * start at the chroma sample covering its first pixel (a crop from an odd column or row begins
   * halfway through that sample), and preprocess converts each pixel with the chroma it has in
   * the whole frame, so a crop converts exactly as the same region of the whole frame.
   *
   * @example
   * ```ts
   * const frame = buffer.extract(frameMeta.batchId);
   * const crops = frameMeta.objectItems.map((obj) => frame.crop(obj.rectParams));
   * const { tensor } = preprocess(crops, { width: 224, height: 224, mode: "stretch" });
   * ```
   */
  crop(box: Box): TensorHandle {
    const where = "TensorHandle.crop()";
    const source = this.#use(where, "calling");
    if (this.#planes !== undefined && source.kind === "frame") return this.#cropPlanar(source, box);
    this.#refusePlanar("crop()");
    if (this.#format === undefined || this.#shape.length !== 3 || (source.kind !== "frame" && source.kind !== "js")) {
      throw new TensorError(
        `Expected an image (a frame from Buffer.extract(), or fromTypedArray() with a format) for ${where} but received ` +
          `a ${this.#dtype} tensor of shape [${this.#shape.join(", ")}]${source.kind === "owned" ? " (an owned tensor)" : ""}`,
      );
    }
    const [height, width] = this.#shape as [number, number, number];
    const region = cropRegion(box, width, height, `box of ${where}`);
    const [left, top, regionWidth, regionHeight] = region;
    const size = DTYPE_SIZE[this.#dtype];
    const shape = [regionHeight, regionWidth, this.#shape[2]!];
    const byteOffset = this.#byteOffset + (top * this.#strides[0]! + left * this.#strides[1]!) * size;
    const byteLength = spanElements(shape, this.#strides) * size;
    const cropSource: NativeTensorSource =
      source.kind === "frame"
        ? { kind: "frame", callId: source.callId, batchId: source.batchId, region: composeRegion(source.region, region) }
        : { ...source, shape, byteOffset };
    return new TensorHandle({
      device: this.#device,
      dtype: this.#dtype,
      shape,
      strides: this.#strides,
      byteOffset,
      byteLength,
      dataPtr: this.#dataPtr,
      format: this.#format,
      owned: false,
      source: cropSource,
      life: this.#life,
      buffer: source.kind === "js" ? source.data.buffer as ArrayBuffer : this.#buffer,
      data: undefined,
    });
  }

  /** A planar frame's crop: the frame's native view of the region, every plane narrowed to it. */
  #cropPlanar(source: Extract<NativeTensorSource, { kind: "frame" }>, box: Box): TensorHandle {
    const [height, width] = this.#shape as [number, number];
    const region = composeRegion(source.region, cropRegion(box, width, height, "box of TensorHandle.crop()"));
    const info = binding("TensorHandle.crop()").extract(source.callId, source.batchId, region);
    return frameTensorFromNative(info, this.#life!, source.callId, source.batchId, region);
  }

  /**
   * Copies the tensor into a new owned, dense `"cpu"` tensor (frames keep their format; row
   * padding is dropped). Always a copy, whatever the device: the way to keep a frame's pixels
   * after the call, and to read a `"cuda"` tensor. Dispose the copy when done (or let GC).
   *
   * @example
   * ```ts
   * const copy = buffer.extract(0).toHost();  // survives the transform() call
   * this.lastFrame?.dispose();
   * this.lastFrame = copy;
   * ```
   */
  toHost(): TensorHandle {
    const source = this.#use("toHost()", "calling");
    this.#refusePlanar("toHost()");
    return ownedTensorFromNative(binding("TensorHandle.toHost()").toHost(source));
  }

  /**
   * Exports the tensor for another native addon as a DLPack capsule: a Node-API external
   * whose data pointer is a `DLManagedTensor*` (DLPack 0.8; `{ versioned: true }`:
   * `DLManagedTensorVersioned*`, DLPack 1.0). The consumer reads it with
   * `napi_get_value_external` and **borrows** it: it keeps a reference to the external
   * (`napi_create_reference`) for as long as it uses the memory and never calls `deleter`
   * itself; the external's finalizer calls `deleter` when it is garbage-collected. The capsule
   * keeps the memory alive by itself: an owned tensor's block stays out of the pool even after
   * `dispose()`, a frame's GstMemory stays allocated after its call (later elements may still
   * change its pixels). GstCudaMemory frames live in GStreamer's own CUDA context, not the
   * device's primary one (see docs/tensors.md).
   *
   * @example
   * ```ts
   * const capsule = frame.toDLPack();
   * myAddon.consume(capsule); // C: DLManagedTensor* t; napi_get_value_external(env, arg, (void**)&t);
   * ```
   */
  toDLPack(options: ToDLPackOptions = {}): object {
    const source = this.#use("toDLPack()", "calling");
    this.#refusePlanar("toDLPack()");
    const versioned = options.versioned ?? false;
    if (typeof versioned !== "boolean") {
      throw new InvalidTypeError(expectedMessage("a boolean", "options.versioned of TensorHandle.toDLPack()", describeValue(versioned)));
    }
    return binding("TensorHandle.toDLPack()").toDLPack(source, versioned);
  }

  /**
   * Owned tensors: gives the memory back to the pool now (views from `toTypedArray()` are
   * detached; DLPack capsules keep their own reference) and makes the handle unusable.
   * Frame views: does nothing (they end with their call). Calling it twice is harmless.
   *
   * @example
   * ```ts
   * const { tensor } = preprocess(frames, { width: 640, height: 640 });
   * try { await this.runner.infer([tensor]); } finally { tensor.dispose(); }
   * ```
   */
  dispose(): void {
    const source = this.#source;
    if (source === undefined || !this.#owned) return;
    this.#source = undefined;
    this.#array = undefined;
    this.#buffer = undefined;
    if (source.kind === "owned") binding("TensorHandle.dispose()").release(source.storage);
    else if (source.kind === "device") source.release();
  }

  /**
   * The descriptor as plain values, safe to keep after the call.
   *
   * @example
   * ```ts
   * this.log.debug(JSON.stringify(frame.toJSON()));
   * ```
   */
  toJSON(): TensorHandleJSON {
    this.#check("toJSON()");
    return {
      device: { ...this.#device },
      dtype: this.#dtype,
      shape: [...this.#shape],
      strides: [...this.#strides],
      byteOffset: this.#byteOffset,
      byteLength: this.#byteLength,
      format: this.#format,
      owned: this.#owned,
    };
  }

  /**
   * Wraps JS memory as a dense `"cpu"` tensor, without copying: the tensor reads and writes
   * `data`'s memory, which stays the garbage collector's (dispose() only drops the handle's
   * reference). How runners in JS (ONNX Runtime) hand back their outputs, and how to feed
   * your own pixels to {@link preprocess} (`{ format }`, shape `[height, width, channels]`).
   *
   * @example
   * ```ts
   * const scores = TensorHandle.fromTypedArray(new Float32Array(2 * 80), [2, 80]);
   * const image = TensorHandle.fromTypedArray(rgbBytes, [480, 640, 3], { format: "RGB" });
   * ```
   */
  static fromTypedArray(data: ArrayBufferView, shape: readonly number[], options: FromTypedArrayOptions = {}): TensorHandle {
    const where = "TensorHandle.fromTypedArray()";
    const dtype = options.dtype ?? dtypeOfArray(data);
    if (dtype === undefined || !DTYPES.includes(dtype)) {
      if (options.dtype !== undefined) {
        throw new InvalidValueError(expectedMessage(`one of ${DTYPES.map((d) => `"${d}"`).join(", ")}`, `options.dtype of ${where}`, describeValue(options.dtype)));
      }
      throw new InvalidTypeError(
        expectedMessage(
          "a Uint8Array, Int8Array, Int32Array, BigInt64Array, Float32Array or Uint16Array (float16)",
          `data of ${where}`,
          describeArray(data),
        ),
      );
    }
    const Expected = DTYPE_ARRAY[dtype];
    const matches = data instanceof Expected || (dtype === "uint8" && data instanceof Uint8ClampedArray);
    if (!matches) {
      throw new InvalidTypeError(expectedMessage(`a ${Expected.name} (dtype "${dtype}")`, `data of ${where}`, describeArray(data)));
    }
    const typed = data as TensorData | Uint8ClampedArray;
    const dims = checkShape(shape, `shape of ${where}`);
    const count = dims.reduce((product, dim) => product * dim, 1);
    if (count !== typed.length) {
      throw new InvalidValueError(
        expectedMessage(`a shape of ${typed.length} elements (the array's length)`, `shape of ${where}`, `[${dims.join(", ")}] (${count} elements)`),
      );
    }
    const format = options.format;
    if (format !== undefined) {
      if (!(PACKED_PIXEL_FORMATS as readonly string[]).includes(format)) {
        throw new InvalidValueError(
          expectedMessage(
            `one of ${PACKED_PIXEL_FORMATS.map((f) => `"${f}"`).join(", ")} (packed formats)`,
            `options.format of ${where}`,
            describeValue(format),
          ),
        );
      }
      const channels = FORMAT_CHANNELS[format];
      if (dtype !== "uint8" || dims.length !== 3 || dims[2] !== channels) {
        throw new InvalidValueError(
          expectedMessage(
            `uint8 data of shape [height, width, ${channels}] (format "${format}")`,
            `shape of ${where}`,
            `${dtype} data of shape [${dims.join(", ")}]`,
          ),
        );
      }
    }
    const strides = denseStrides(dims);
    const array = typed instanceof Uint8ClampedArray ? new Uint8Array(typed.buffer, typed.byteOffset, typed.length) : typed;
    return new TensorHandle({
      device: { type: "cpu", id: 0 },
      dtype,
      shape: dims,
      strides,
      byteOffset: typed.byteOffset,
      byteLength: typed.byteLength,
      dataPtr: undefined,
      format,
      owned: true,
      source: { kind: "js", data: array, dtype, shape: dims, strides, byteOffset: typed.byteOffset, format },
      life: undefined,
      buffer: undefined,
      data: array,
    });
  }
}

function binding(what: string): TensorBinding {
  return tensorBinding(what);
}

function dtypeOfArray(data: unknown): DType | undefined {
  if (data instanceof Uint8Array || data instanceof Uint8ClampedArray) return "uint8";
  if (data instanceof Int8Array) return "int8";
  if (data instanceof Int32Array) return "int32";
  if (data instanceof BigInt64Array) return "int64";
  if (data instanceof Float32Array) return "float32";
  return undefined;
}

function describeArray(value: unknown): string {
  if (ArrayBuffer.isView(value)) return `a ${value.constructor.name} of ${value.byteLength} bytes`;
  return describeValue(value);
}

function checkShape(shape: unknown, name: string): number[] {
  if (!Array.isArray(shape)) throw new InvalidTypeError(expectedMessage("an array of dimensions", name, describeValue(shape)));
  if (shape.length > MAX_DIMS) {
    throw new InvalidValueError(expectedMessage(`at most ${MAX_DIMS} dimensions`, name, `${shape.length}`));
  }
  for (const dim of shape) {
    if (typeof dim !== "number" || !Number.isSafeInteger(dim) || dim < 0) {
      throw new InvalidValueError(expectedMessage("whole numbers ≥ 0", name, describeValue(shape)));
    }
  }
  return [...(shape as number[])];
}

/** Elements from the first to one past the last of a strided tensor. */
function spanElements(shape: readonly number[], strides: readonly number[]): number {
  if (shape.some((dim) => dim === 0)) return 0;
  return shape.reduce((span, dim, d) => span + (dim - 1) * strides[d]!, 1);
}

/** A crop of a crop: the inner region is relative to the outer one. */
function composeRegion(outer: readonly number[] | undefined, inner: readonly [number, number, number, number]): [number, number, number, number] {
  return outer === undefined ? [...inner] : [outer[0]! + inner[0], outer[1]! + inner[1], inner[2], inner[3]];
}

/**
 * The whole pixels of an image of `width` × `height` that `box` covers, as
 * `[left, top, width, height]`: the box rounded outward and clipped to the image, as
 * {@link TensorHandle.crop} takes it. A box with no pixel inside the image is an
 * InvalidValueError.
 *
 * @example
 * ```ts
 * cropRegion({ left: -4.5, top: 10.2, width: 20, height: 20 }, 640, 480); // [0, 10, 16, 21]
 * ```
 */
export function cropRegion(box: Box, width: number, height: number, name = "box of cropRegion()"): [number, number, number, number] {
  const values = typeof box === "object" && box !== null ? [box.left, box.top, box.width, box.height] : [];
  if (values.length !== 4 || values.some((value) => typeof value !== "number" || !Number.isFinite(value))) {
    throw new InvalidTypeError(expectedMessage("a box { left, top, width, height } of finite numbers", name, describeValue(box)));
  }
  const region = imageRegion(box, width, height);
  if (region === undefined) {
    throw new InvalidValueError(
      expectedMessage(`a box with pixels inside the ${width}x${height} image`, name, JSON.stringify({ left: box.left, top: box.top, width: box.width, height: box.height })),
    );
  }
  return region;
}

/** @internal {@link cropRegion} of a checked box, undefined when it has no pixel inside the image. */
export function imageRegion(box: Box, width: number, height: number): [number, number, number, number] | undefined {
  const left = Math.max(0, Math.floor(box.left));
  const top = Math.max(0, Math.floor(box.top));
  const right = Math.min(width, Math.ceil(box.left + box.width));
  const bottom = Math.min(height, Math.ceil(box.top + box.height));
  return right <= left || bottom <= top || !(right - left > 0) || !(bottom - top > 0) ? undefined : [left, top, right - left, bottom - top];
}

/** @internal Row-major strides, in elements, of a dense tensor of `shape`. */
export function denseStrides(shape: readonly number[]): number[] {
  const strides = new Array<number>(shape.length);
  let stride = 1;
  for (let d = shape.length - 1; d >= 0; d--) {
    strides[d] = stride;
    stride *= shape[d] as number;
  }
  return strides;
}

function fromInfo(
  info: NativeTensorInfo,
  source: NativeTensorSource,
  owned: boolean,
  life: CallLife | undefined,
  planes?: readonly TensorHandle[],
): TensorHandle {
  return new TensorHandle({
    device: { type: info.device, id: info.deviceId },
    dtype: info.dtype,
    shape: info.shape,
    strides: info.strides,
    byteOffset: info.byteOffset,
    byteLength: info.byteLength,
    dataPtr: info.dataPtr,
    format: info.format,
    owned,
    source,
    life,
    buffer: info.buffer,
    data: undefined,
    planes,
    colorimetry: info.colorimetry,
  });
}

/**
 * @internal An owned tensor from what native code returned (ops, runners, toHost): the handle
 * holds `info.storage`, whose memory goes back to the pool at dispose() or GC.
 */
export function ownedTensorFromNative(info: NativeTensorInfo): TensorHandle {
  if (info.storage === undefined) throw new Error("ownedTensorFromNative: the native tensor has no storage");
  return fromInfo(info, { kind: "owned", storage: info.storage }, true, undefined);
}

/** What a runner says of an output it allocated on the device. */
export interface DeviceMemoryInit {
  readonly deviceId: number;
  readonly dtype: DType;
  readonly shape: readonly number[];
  readonly dataPtr: bigint;
  readonly byteLength: number;
  /** Hands the memory back to the runner (idempotent); the handle calls it at dispose(). */
  readonly release: () => void;
}

/**
 * @internal An owned, dense CUDA tensor over device memory a runner allocated (TensorRT
 * outputs). dispose() hands the memory back; without it, the runner's own finalizer does
 * when the release function is collected with the handle.
 */
export function deviceTensorFromRunner(init: DeviceMemoryInit): TensorHandle {
  const shape = [...init.shape];
  const strides = denseStrides(shape);
  return new TensorHandle({
    device: { type: "cuda", id: init.deviceId },
    dtype: init.dtype,
    shape,
    strides,
    byteOffset: 0,
    byteLength: init.byteLength,
    dataPtr: init.dataPtr,
    format: undefined,
    owned: true,
    source: { kind: "device", device: "cuda", deviceId: init.deviceId, dtype: init.dtype, shape, strides, byteOffset: 0, dataPtr: init.dataPtr, release: init.release },
    life: undefined,
    buffer: undefined,
    data: undefined,
  });
}

/**
 * @internal A frame view of call `callId` (Buffer.extract), stale when `life` ends; a planar
 * frame with a view per plane (each resolved natively as the frame's plane `p`).
 */
export function frameTensorFromNative(
  info: NativeTensorInfo,
  life: CallLife,
  callId: number,
  batchId: number,
  region?: readonly [number, number, number, number],
): TensorHandle {
  // Objects written out in full, not spread: on Node 18 and 20 an object spread followed by more
  // properties costs about a microsecond a property, which made a planar frame's extract() 19x a
  // packed one's on an H200 (bench/RESULTS.md, "The NV12 extract, found and fixed").
  const frameSource = (plane: number | undefined): NativeTensorSource =>
    region === undefined ? { kind: "frame", callId, batchId, plane } : { kind: "frame", callId, batchId, region, plane };
  // Each plane: the frame's memory with the plane's own layout, no format of its own.
  const planes = info.planes?.map((plane, index) =>
    fromInfo(
      {
        shape: plane.shape,
        strides: plane.strides,
        byteOffset: plane.byteOffset,
        byteLength: plane.byteLength,
        device: info.device,
        deviceId: info.deviceId,
        dtype: "uint8",
        dataPtr: info.dataPtr,
        format: undefined,
        buffer: info.buffer,
        storage: undefined,
      },
      frameSource(index),
      false,
      life,
    ),
  );
  return fromInfo(info, frameSource(undefined), false, life, planes);
}

/**
 * @internal How native code (ops, runners) is given a tensor: the source it resolves to
 * memory. Throws StaleHandleError for a frame of an ended call and TensorError after dispose().
 */
export function nativeTensorSource(tensor: TensorHandle, name: string): NativeTensorSource {
  if (!(tensor instanceof TensorHandle)) {
    throw new InvalidTypeError(expectedMessage("a TensorHandle", name, describeValue(tensor)));
  }
  return sourceOf(tensor, name);
}
