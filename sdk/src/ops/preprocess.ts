import { describeValue, expectedMessage } from "../errors/describe-value.js";
import { InvalidTypeError, InvalidValueError } from "../errors/errors.js";
import { tensorBinding } from "../native/installed-bindings.js";
import type { NativePreprocessOptions } from "../native/tensor-binding.js";
import { nativeTensorSource, ownedTensorFromNative, TensorHandle } from "../tensor/tensor-handle.js";
import { frameTransformsFromNative, type FrameTransform } from "./frame-transform.js";

const WHERE = "preprocess()";
const MAX_OUTPUT_SIDE = 16384;

/** Options of {@link preprocess}. Only the network size is required. */
export interface PreprocessOptions {
  /** Network input width, pixels (1..16384). */
  width: number;
  /** Network input height, pixels (1..16384). */
  height: number;
  /**
   * `"letterbox"` (default) keeps the aspect ratio and pads; `"stretch"` scales each axis to
   * the network size.
   */
  mode?: "letterbox" | "stretch";
  /** Letterbox: pad both sides equally (default `true`), else put the image top-left. */
  center?: boolean;
  /** The padding colour in pixel units, 0..255 (default 114, as YOLO models are trained). */
  padValue?: number;
  /** Output channel order (default `"RGB"`), whatever the frames' format. */
  channelOrder?: "RGB" | "BGR";
  /** 3 (default), or 1 for GRAY8 frames into a one-channel network. */
  channels?: 1 | 3;
  /**
   * Float outputs: `out[c] = (pixel × scale − mean[c]) / std[c]`, `c` in output channel
   * order. Default scale 1/255, mean 0, std 1. One number applies to every channel.
   */
  scale?: number;
  /** See {@link PreprocessOptions.scale}. */
  mean?: number | readonly [number, number, number];
  /** See {@link PreprocessOptions.scale}; no zero. */
  std?: number | readonly [number, number, number];
  /** `"NCHW"` (default) or `"NHWC"`. */
  layout?: "NCHW" | "NHWC";
  /**
   * `"float32"` (default), `"float16"` (IEEE half, rounded to nearest even) or `"uint8"` (the
   * resized pixel rounded; scale, mean and std are ignored).
   */
  dtype?: "float32" | "float16" | "uint8";
}

/** What {@link preprocess} returns. */
export interface PreprocessResult {
  /**
   * One network input for all frames: `[frames, channels, height, width]` (NCHW) or
   * `[frames, height, width, channels]` (NHWC), owned, on the frames' device: `"cuda"`
   * frames give a `"cuda"` tensor on their GPU, host frames a `"cpu"` tensor. Dispose it when
   * done (or let GC).
   */
  tensor: TensorHandle;
  /** Per frame, in order: how to map boxes between network and frame pixels. */
  transforms: FrameTransform[];
}

/**
 * Turns frames into one network input, as nvinfer's pre-processing does: letterbox or
 * stretch resize (bilinear, half-pixel centres), channel order, scale/mean/std
 * normalisation, NCHW or NHWC, float32/float16/uint8. The frames are `Buffer.extract()`
 * views or other `[height, width, channels]` uint8 tensors with a `format`; all on one
 * device. CPU frames run on the calling thread; CUDA frames run on their GPU, and the call
 * returns once the GPU is done (the output is complete when you get it).
 *
 * @example
 * ```ts
 * const frames = batch.frameItems.map((f) => buffer.extract(f.batchId));
 * const { tensor, transforms } = preprocess(frames, { width: 640, height: 640, dtype: "float16" });
 * const [output] = await this.runner.infer([tensor]);
 * tensor.dispose();
 * ```
 */
export function preprocess(frames: TensorHandle | readonly TensorHandle[], options: PreprocessOptions): PreprocessResult {
  const list = frames instanceof TensorHandle ? [frames] : frames;
  if (!Array.isArray(list)) {
    throw new InvalidTypeError(expectedMessage("a TensorHandle or an array of them", `frames of ${WHERE}`, describeValue(frames)));
  }
  if (list.length === 0) throw new InvalidValueError(expectedMessage("at least one frame", `frames of ${WHERE}`, "an empty array"));
  const sources = list.map((frame, index) => nativeTensorSource(frame as TensorHandle, `frames[${index}] of ${WHERE}`));
  const resolved = resolveOptions(options);
  const { tensor, transforms } = tensorBinding(WHERE).preprocess(sources, resolved);
  return {
    tensor: ownedTensorFromNative(tensor),
    transforms: frameTransformsFromNative(transforms, list.length),
  };
}

function resolveOptions(options: PreprocessOptions): NativePreprocessOptions {
  if (typeof options !== "object" || options === null) {
    throw new InvalidTypeError(expectedMessage("an options object with width and height", `options of ${WHERE}`, describeValue(options)));
  }
  return {
    width: side(options.width, "width"),
    height: side(options.height, "height"),
    mode: choice(options.mode, "mode", ["letterbox", "stretch"], "letterbox"),
    center: flag(options.center, "center", true),
    padValue: number(options.padValue, "padValue", 114, (v) => v >= 0 && v <= 255, "a number from 0 to 255"),
    channels: choice(options.channels, "channels", [1, 3], 3),
    channelOrder: choice(options.channelOrder, "channelOrder", ["RGB", "BGR"], "RGB"),
    scale: number(options.scale, "scale", 1 / 255, Number.isFinite, "a finite number"),
    mean: triple(options.mean, "mean", 0, (v) => Number.isFinite(v), "a finite number"),
    std: triple(options.std, "std", 1, (v) => Number.isFinite(v) && v !== 0, "a finite number other than 0"),
    layout: choice(options.layout, "layout", ["NCHW", "NHWC"], "NCHW"),
    dtype: choice(options.dtype, "dtype", ["float32", "float16", "uint8"], "float32"),
  };
}

function name(key: string): string {
  return `options.${key} of ${WHERE}`;
}

function side(value: unknown, key: string): number {
  if (typeof value !== "number") throw new InvalidTypeError(expectedMessage(`a whole number from 1 to ${MAX_OUTPUT_SIDE}`, name(key), describeValue(value)));
  if (!Number.isInteger(value) || value < 1 || value > MAX_OUTPUT_SIDE) {
    throw new InvalidValueError(expectedMessage(`a whole number from 1 to ${MAX_OUTPUT_SIDE}`, name(key), describeValue(value)));
  }
  return value;
}

function choice<T extends string | number>(value: unknown, key: string, allowed: readonly T[], fallback: T): T {
  if (value === undefined) return fallback;
  if (!allowed.includes(value as T)) {
    const list = allowed.map((entry) => (typeof entry === "string" ? `"${entry}"` : String(entry)));
    const what = `${list.slice(0, -1).join(", ")} or ${list[list.length - 1]}`;
    const Error = typeof value === typeof fallback ? InvalidValueError : InvalidTypeError;
    throw new Error(expectedMessage(what, name(key), describeValue(value)));
  }
  return value as T;
}

function flag(value: unknown, key: string, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (typeof value !== "boolean") throw new InvalidTypeError(expectedMessage("a boolean", name(key), describeValue(value)));
  return value;
}

function number(value: unknown, key: string, fallback: number, valid: (value: number) => boolean, what: string): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number") throw new InvalidTypeError(expectedMessage(what, name(key), describeValue(value)));
  if (!valid(value)) throw new InvalidValueError(expectedMessage(what, name(key), describeValue(value)));
  return value;
}

function triple(
  value: unknown,
  key: string,
  fallback: number,
  valid: (value: number) => boolean,
  what: string,
): [number, number, number] {
  if (value === undefined) return [fallback, fallback, fallback];
  if (typeof value === "number") {
    const single = number(value, key, fallback, valid, what);
    return [single, single, single];
  }
  if (!Array.isArray(value) || value.length !== 3) {
    throw new InvalidTypeError(expectedMessage(`${what}, or an array of 3`, name(key), describeValue(value)));
  }
  return value.map((entry, index) => number(entry, `${key}[${index}]`, fallback, valid, what)) as [number, number, number];
}
