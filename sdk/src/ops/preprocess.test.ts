// preprocess() (native preprocess_cpu through the binding) against an independent plain-JS
// reference written from the documented maths, in double precision: letterbox/stretch
// geometry, bilinear sampling with half-pixel centres (edge pixels clamped), channel order,
// scale/mean/std, NCHW/NHWC, and float16 through this file's own float → half conversion.
// Random frames of odd sizes, padded rows, several frames per batch.
//
// Tolerances (the native side computes in float32, the reference in float64):
// - float32: |native − reference| ≤ 5e-3 pixel units × scale/|std[c]| + 2e-6 × (1 + |reference|).
//   The first term is float32's rounding of the source position (≤ 2^-23 × ~100 px, so a
//   bilinear weight off by ~1e-5) times a step of up to 255 between neighbouring pixels, carried
//   through the normalisation; the second the rounding of the normalisation itself. Seen:
//   at most 27% of the bound.
// - float16: |half(native) − reference| ≤ the float32 bound + one half-ulp of the reference
//   (seen: at most 46% of it), and ≥ 99% of the halves bit-equal to this file's own rounding
//   of the reference (seen: 99.5%; the rest are values within float32's error of a rounding
//   boundary, mostly near 0 where halves are dense).
// - uint8: |native − reference| ≤ 1 (a value that lands near .5), and ≥ 99% equal (seen: all).
// - transforms: scales equal as float32, pads and sizes exact.
import { afterAll, describe, expect, it } from "vitest";
import { InvalidTypeError, InvalidValueError, StaleHandleError, TensorError } from "../errors/errors.js";
import { inFrameCall, makeFrameBuffer } from "../test-support/frames.js";
import { seededRandom } from "../test-support/seeded-random.mjs";
import { requireStandaloneBinding } from "../test-support/standalone-binding.js";
import { TensorHandle } from "../tensor/tensor-handle.js";
import { FORMAT_CHANNELS, type PixelFormat } from "../tensor/types.js";
import { FrameTransform } from "./frame-transform.js";
import { preprocess, type PreprocessOptions } from "./preprocess.js";

const addon = requireStandaloneBinding();
const binding = addon.tensor;
const buffers: object[] = [];
afterAll(() => {
  for (const buffer of buffers) addon.harness.releaseBuffer(buffer);
});

// ---------------------------------------------------------------- the reference

interface Image {
  width: number;
  height: number;
  format: PixelFormat;
  /** Row pitch in bytes. */
  pitch: number;
  bytes: Uint8Array;
}

function randomImage(width: number, height: number, format: PixelFormat, seed: number, padding = 0): Image {
  const next = seededRandom(seed);
  const pitch = width * FORMAT_CHANNELS[format] + padding;
  const bytes = new Uint8Array(pitch * height);
  for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(next() * 256);
  return { width, height, format, pitch, bytes };
}

/** The byte of each output channel (RGB order) within a pixel of `format`. */
function rgbOffsets(format: PixelFormat): [number, number, number] {
  switch (format) {
    case "RGB":
    case "RGBA":
    case "RGBx":
      return [0, 1, 2];
    case "BGR":
    case "BGRx":
    case "BGRA":
      return [2, 1, 0];
    case "ARGB":
      return [1, 2, 3];
    case "ABGR":
      return [3, 2, 1];
    case "GRAY8":
      return [0, 0, 0];
    default:
      throw new Error(`${format} is not packed`);
  }
}

interface Geometry {
  resizedWidth: number;
  resizedHeight: number;
  padX: number;
  padY: number;
}

function geometry(image: Image, options: Required<PreprocessOptions>): Geometry {
  if (options.mode === "stretch") return { resizedWidth: options.width, resizedHeight: options.height, padX: 0, padY: 0 };
  const factor = Math.min(options.width / image.width, options.height / image.height);
  const resizedWidth = Math.min(Math.max(Math.round(image.width * factor), 1), options.width);
  const resizedHeight = Math.min(Math.max(Math.round(image.height * factor), 1), options.height);
  return {
    resizedWidth,
    resizedHeight,
    padX: options.center ? Math.floor((options.width - resizedWidth) / 2) : 0,
    padY: options.center ? Math.floor((options.height - resizedHeight) / 2) : 0,
  };
}

/** Bilinear sample of channel byte `offset` at continuous source position (sx, sy), clamped. */
function sample(image: Image, sx: number, sy: number, offset: number): number {
  const bpp = FORMAT_CHANNELS[image.format];
  const x = Math.min(Math.max(sx, 0), image.width - 1);
  const y = Math.min(Math.max(sy, 0), image.height - 1);
  const x0 = Math.floor(x);
  const y0 = Math.floor(y);
  const x1 = Math.min(x0 + 1, image.width - 1);
  const y1 = Math.min(y0 + 1, image.height - 1);
  const wx = x - x0;
  const wy = y - y0;
  const at = (px: number, py: number) => image.bytes[py * image.pitch + px * bpp + offset] as number;
  const top = at(x0, y0) * (1 - wx) + at(x1, y0) * wx;
  const bottom = at(x0, y1) * (1 - wx) + at(x1, y1) * wx;
  return top * (1 - wy) + bottom * wy;
}

/** The reference output in float64 (uint8: rounded half up), flat in the requested layout. */
function reference(images: Image[], options: Required<PreprocessOptions>): Float64Array {
  const { width: W, height: H } = options;
  const C = options.channels;
  const out = new Float64Array(images.length * C * H * W);
  const mean = options.mean as [number, number, number];
  const std = options.std as [number, number, number];
  images.forEach((image, n) => {
    const g = geometry(image, options);
    const rgb = rgbOffsets(image.format);
    // Output channel c reads this byte of the pixel.
    const offsets = C === 1 ? [0] : options.channelOrder === "RGB" ? rgb : [rgb[2], rgb[1], rgb[0]];
    for (let y = 0; y < H; y++) {
      for (let x = 0; x < W; x++) {
        const inside = x >= g.padX && x < g.padX + g.resizedWidth && y >= g.padY && y < g.padY + g.resizedHeight;
        const sx = (x - g.padX + 0.5) * (image.width / g.resizedWidth) - 0.5;
        const sy = (y - g.padY + 0.5) * (image.height / g.resizedHeight) - 0.5;
        for (let c = 0; c < C; c++) {
          const pixel = inside ? sample(image, sx, sy, offsets[c] as number) : options.padValue;
          const value =
            options.dtype === "uint8" ? Math.floor(pixel + 0.5) : (pixel * options.scale - (mean[c] as number)) / (std[c] as number);
          const index = options.layout === "NCHW" ? ((n * C + c) * H + y) * W + x : ((n * H + y) * W + x) * C + c;
          out[index] = value;
        }
      }
    }
  });
  return out;
}

/** IEEE binary16 bits of a number, rounded to nearest even (this file's own conversion). */
function toHalfBits(value: number): number {
  if (Number.isNaN(value)) return 0x7e00;
  const sign = value < 0 || Object.is(value, -0) ? 0x8000 : 0;
  const magnitude = Math.abs(value);
  const roundEven = (x: number) => {
    const floor = Math.floor(x);
    const rest = x - floor;
    return rest > 0.5 || (rest === 0.5 && floor % 2 === 1) ? floor + 1 : floor;
  };
  if (magnitude < 2 ** -14) return sign | roundEven(magnitude / 2 ** -24); // subnormal (1024 becomes the smallest normal)
  let exponent = Math.floor(Math.log2(magnitude));
  if (2 ** exponent > magnitude) exponent--;
  if (2 ** (exponent + 1) <= magnitude) exponent++;
  let mantissa = roundEven((magnitude / 2 ** exponent - 1) * 1024);
  if (mantissa === 1024) {
    mantissa = 0;
    exponent++;
  }
  if (exponent > 15) return sign | 0x7c00;
  return sign | ((exponent + 15) << 10) | mantissa;
}

function fromHalfBits(bits: number): number {
  const sign = bits & 0x8000 ? -1 : 1;
  const exponent = (bits >> 10) & 0x1f;
  const mantissa = bits & 0x3ff;
  if (exponent === 0) return sign * mantissa * 2 ** -24;
  if (exponent === 31) return mantissa ? NaN : sign * Infinity;
  return sign * (1 + mantissa / 1024) * 2 ** (exponent - 15);
}

function resolved(options: PreprocessOptions): Required<PreprocessOptions> {
  const three = (v: number | readonly number[] | undefined, fallback: number) =>
    (v === undefined ? [fallback, fallback, fallback] : typeof v === "number" ? [v, v, v] : [...v]) as [number, number, number];
  return {
    mode: "letterbox",
    center: true,
    padValue: 114,
    channelOrder: "RGB",
    channels: 3,
    scale: 1 / 255,
    layout: "NCHW",
    dtype: "float32",
    ...options,
    mean: three(options.mean, 0),
    std: three(options.std, 1),
  };
}

/** Runs preprocess on `images` (as fromTypedArray frames) and compares with the reference. */
function compare(images: Image[], options: PreprocessOptions, frames?: TensorHandle[]): { worst: number; exact: number } {
  const inputs =
    frames ??
    images.map((image) => {
      if (image.pitch !== image.width * FORMAT_CHANNELS[image.format]) throw new Error("fromTypedArray frames are dense");
      return TensorHandle.fromTypedArray(image.bytes, [image.height, image.width, FORMAT_CHANNELS[image.format]], { format: image.format });
    });
  const full = resolved(options);
  const { tensor, transforms } = preprocess(inputs, options);
  const expected = reference(images, full);
  const C = full.channels;
  expect(tensor.shape).toEqual(full.layout === "NCHW" ? [images.length, C, full.height, full.width] : [images.length, full.height, full.width, C]);
  expect(tensor.dtype).toBe(full.dtype);
  expect(tensor.device).toEqual({ type: "cpu", id: 0 });
  expect(tensor.owned).toBe(true);
  images.forEach((image, n) => {
    const g = geometry(image, full);
    const t = transforms[n]!;
    expect(t).toBeInstanceOf(FrameTransform);
    expect([t.resizedWidth, t.resizedHeight, t.padX, t.padY, t.frameWidth, t.frameHeight]).toEqual([
      g.resizedWidth,
      g.resizedHeight,
      g.padX,
      g.padY,
      image.width,
      image.height,
    ]);
    expect(t.scaleX).toBe(Math.fround(g.resizedWidth / image.width));
    expect(t.scaleY).toBe(Math.fround(g.resizedHeight / image.height));
  });

  const data = tensor.toTypedArray();
  expect(data.length).toBe(expected.length);
  const std = full.std as [number, number, number];
  const channelOf = (i: number) => (full.layout === "NCHW" ? Math.floor(i / (full.width * full.height)) % C : i % C);
  const float32Bound = (i: number, want: number) => (5e-3 * full.scale) / Math.abs(std[channelOf(i)] as number) + 2e-6 * (1 + Math.abs(want));
  let worst = 0;
  let exact = 0;
  for (let i = 0; i < expected.length; i++) {
    const want = expected[i] as number;
    if (full.dtype === "float16") {
      const got = (data as Uint16Array)[i] as number;
      const bits = toHalfBits(want);
      const halfUlp = 2 ** Math.max(Math.floor(Math.log2(Math.abs(want) || 2 ** -24)) - 10, -24);
      const error = Math.abs(fromHalfBits(got) - want);
      worst = Math.max(worst, error / (float32Bound(i, want) + halfUlp));
      if (got === bits) exact++;
      if (error > float32Bound(i, want) + halfUlp) {
        expect.fail(`element ${i}: half 0x${got.toString(16)} (${fromHalfBits(got)}) vs reference ${want} (0x${bits.toString(16)})`);
      }
    } else if (full.dtype === "uint8") {
      const got = (data as Uint8Array)[i] as number;
      const diff = Math.abs(got - want);
      worst = Math.max(worst, diff);
      if (diff === 0) exact++;
      if (diff > 1) expect.fail(`element ${i}: ${got} vs reference ${want}`);
    } else {
      const got = (data as Float32Array)[i] as number;
      const error = Math.abs(got - want);
      worst = Math.max(worst, error / float32Bound(i, want));
      if (error > float32Bound(i, want)) expect.fail(`element ${i}: ${got} vs reference ${want}`);
    }
  }
  tensor.dispose();
  if (full.dtype !== "float32") expect(exact / expected.length).toBeGreaterThanOrEqual(0.99);
  return { worst, exact };
}

// ---------------------------------------------------------------- tests

describe("the reference's own float16 conversion", () => {
  it("matches known halves", () => {
    expect([1, -2, 65504, 2 ** -24, 0.1, 0.5, 1 / 3, 0, 1e6, 2 ** -25, 3 * 2 ** -25].map(toHalfBits)).toEqual([
      0x3c00, 0xc000, 0x7bff, 0x0001, 0x2e66, 0x3800, 0x3555, 0x0000, 0x7c00, 0x0000, 0x0002,
    ]);
    for (const bits of [0x0001, 0x03ff, 0x0400, 0x3c00, 0x7bff, 0xbc01]) expect(toHalfBits(fromHalfBits(bits))).toBe(bits);
  });
});

describe("preprocess against the reference", () => {
  it("letterboxes odd-sized RGB into NCHW float32 (YOLO defaults)", () => {
    compare([randomImage(37, 23, "RGB", 1)], { width: 64, height: 48 });
  });

  it("letterboxes a batch of different sizes and formats, not centred, BGR out, mean/std", () => {
    compare([randomImage(37, 23, "RGB", 2), randomImage(19, 41, "BGRx", 3), randomImage(50, 50, "GRAY8", 4), randomImage(7, 5, "RGBA", 5)], {
      width: 33,
      height: 29,
      center: false,
      channelOrder: "BGR",
      padValue: 0,
      mean: [0.485, 0.456, 0.406],
      std: [0.229, 0.224, 0.225],
    });
  });

  it("reads RGBx, BGRA, ARGB and ABGR (alpha first or last, ignored)", () => {
    compare([randomImage(23, 17, "RGBx", 21), randomImage(17, 23, "BGRA", 22), randomImage(30, 11, "ARGB", 23), randomImage(9, 14, "ABGR", 24)], {
      width: 24,
      height: 20,
      channelOrder: "BGR",
      mean: 0.5,
    });
  });

  it("stretches into NHWC (upscale on one axis, downscale on the other)", () => {
    compare([randomImage(101, 13, "BGR", 6), randomImage(3, 3, "RGB", 7)], { width: 40, height: 31, mode: "stretch", layout: "NHWC", scale: 1, mean: 128, std: 64 });
  });

  it("gives float16 halves (rounded to nearest even)", () => {
    compare([randomImage(29, 31, "RGB", 8), randomImage(64, 17, "BGRx", 9)], { width: 45, height: 37, dtype: "float16", mean: 0.5, std: 0.25 });
  });

  it("gives uint8 resized pixels, NHWC", () => {
    compare([randomImage(61, 47, "RGBA", 10)], { width: 32, height: 32, dtype: "uint8", layout: "NHWC", mode: "stretch" });
  });

  it("gives one channel for GRAY8 into a one-channel network", () => {
    compare([randomImage(23, 17, "GRAY8", 11)], { width: 16, height: 16, channels: 1 });
  });

  it("reads extracted frames with padded rows, zero-copy, mixed with JS frames", () => {
    const made = makeFrameBuffer(addon, { format: "BGR", width: 21, height: 11, frames: 2 }); // rows of 63 → 64 bytes
    buffers.push(made.buffer);
    const extra = randomImage(15, 9, "RGB", 12);
    inFrameCall(addon, made, (buffer) => {
      const frames = [buffer.extract(0), buffer.extract(1)];
      const images: Image[] = [0, 1].map((b) => ({
        width: 21,
        height: 11,
        format: "BGR" as const,
        pitch: made.stride,
        bytes: made.bytes.subarray(b * made.frameBytes, (b + 1) * made.frameBytes),
      }));
      const own = TensorHandle.fromTypedArray(extra.bytes, [9, 15, 3], { format: "RGB" });
      compare([...images, extra], { width: 24, height: 20, std: [0.5, 0.25, 1] }, [...frames, own]);
    });
  });
});

describe("preprocess's contract", () => {
  const image = () => TensorHandle.fromTypedArray(randomImage(8, 6, "RGB", 13).bytes, [6, 8, 3], { format: "RGB" });

  it("takes one frame or an array", () => {
    const { tensor, transforms } = preprocess(image(), { width: 8, height: 8 });
    expect(tensor.shape).toEqual([1, 3, 8, 8]);
    expect(transforms).toHaveLength(1);
    tensor.dispose();
  });

  it("maps boxes between network and frame pixels", () => {
    const { tensor, transforms } = preprocess(TensorHandle.fromTypedArray(new Uint8Array(200 * 100 * 3), [100, 200, 3], { format: "RGB" }), {
      width: 64,
      height: 64,
    });
    tensor.dispose();
    const t = transforms[0]!;
    expect([t.scaleX, t.scaleY, t.padX, t.padY]).toEqual([0.3199999928474426, 0.3199999928474426, 0, 16]);
    const box = { left: 10, top: 20, width: 30, height: 40 };
    const network = t.toNetwork(box);
    expect(network.top).toBeCloseTo(20 * 0.32 + 16, 5);
    const back = t.toFrame(network);
    expect(back.left).toBeCloseTo(10, 4);
    expect(back.height).toBeCloseTo(40, 4);
    expect(t.clip({ left: -5, top: 90, width: 300, height: 20 })).toEqual({ left: 0, top: 90, width: 200, height: 10 });
  });

  it("validates options with the project's message shape", () => {
    expect(() => preprocess(image(), { width: 0, height: 8 })).toThrow(
      "Expected a whole number from 1 to 16384 for options.width of preprocess() but received 0",
    );
    expect(() => preprocess(image(), { width: 8, height: 8, mode: "crop" as "stretch" })).toThrow(
      'Expected "letterbox" or "stretch" for options.mode of preprocess() but received "crop"',
    );
    expect(() => preprocess(image(), { width: 8, height: 8, std: [1, 0, 1] })).toThrow(
      "Expected a finite number other than 0 for options.std[1] of preprocess() but received 0",
    );
    expect(() => preprocess(image(), { width: 8, height: 8, padValue: 256 })).toThrow(InvalidValueError);
    expect(() => preprocess(image(), { width: 8, height: 8, center: 1 as unknown as boolean })).toThrow(InvalidTypeError);
    expect(() => preprocess([], { width: 8, height: 8 })).toThrow("Expected at least one frame for frames of preprocess() but received an empty array");
  });

  it("rejects tensors that are not frames, and one-channel output of colour frames", () => {
    const scores = TensorHandle.fromTypedArray(new Float32Array(6), [2, 3]);
    expect(() => preprocess(scores, { width: 8, height: 8 })).toThrow(
      "Expected a frame ([height, width, channels] uint8 with a pixel format, pixels contiguous) for frames[0] but received " +
        "a float32 tensor of shape [2, 3] on cpu",
    );
    expect(() => preprocess(image(), { width: 8, height: 8, channels: 1 })).toThrow(RangeError);
  });

  it("refuses frames of an ended call and disposed tensors", () => {
    const made = makeFrameBuffer(addon, { format: "RGB", width: 4, height: 4 });
    buffers.push(made.buffer);
    const frame = inFrameCall(addon, made, (buffer) => buffer.extract(0));
    expect(() => preprocess(frame, { width: 8, height: 8 })).toThrow(StaleHandleError);
    expect(() => preprocess(frame, { width: 8, height: 8 })).toThrow(
      "TensorHandle used after its transform() call returned (passing it to frames[0] of preprocess())",
    );
    const own = image();
    own.dispose();
    expect(() => preprocess(own, { width: 8, height: 8 })).toThrow(TensorError);
  });

  it("reuses the pool for outputs of the same size", () => {
    const frame = image();
    preprocess(frame, { width: 32, height: 32 }).tensor.dispose();
    const before = binding.stats();
    preprocess(frame, { width: 32, height: 32 }).tensor.dispose();
    const after = binding.stats();
    expect(after.reuses).toBe(before.reuses + 1);
    expect(after.allocations).toBe(before.allocations);
  });
});
