// TensorHandle.crop over the real native binding (the standalone binding): a crop is a view of the
// frame's own memory; native consumers (preprocess, toHost) read the same pixels as a dense
// copy of the region made in JS; boxes are rounded outward and clipped like nvinfer's.
import { afterAll, describe, expect, it } from "vitest";
import { InvalidTypeError, InvalidValueError, StaleHandleError, TensorError } from "../errors/errors.js";
import { preprocess } from "../ops/preprocess.js";
import { inFrameCall, makeFrameBuffer } from "../test-support/frames.js";
import { requireStandaloneBinding } from "../test-support/standalone-binding.js";
import { cropRegion, TensorHandle } from "./tensor-handle.js";
import type { PixelFormat } from "./types.js";

const addon = requireStandaloneBinding();
const buffers: object[] = [];
afterAll(() => {
  for (const buffer of buffers) addon.harness.releaseBuffer(buffer);
});

function frameBuffer(format: PixelFormat, width: number, height: number, frames = 1) {
  const made = makeFrameBuffer(addon, { format, width, height, frames });
  buffers.push(made.buffer);
  return made;
}

/** The region's pixels, copied densely in JS from what makeFrameBuffer wrote. */
function denseRegion(made: ReturnType<typeof frameBuffer>, frame: number, [left, top, width, height]: number[], channels: number): Uint8Array {
  const out = new Uint8Array(width! * height! * channels);
  for (let y = 0; y < height!; y++) {
    for (let x = 0; x < width!; x++) {
      for (let c = 0; c < channels; c++) out[(y * width! + x) * channels + c] = made.pixel(frame, top! + y, left! + x, c);
    }
  }
  return out;
}

describe("cropRegion", () => {
  it("rounds a box outward to whole pixels and clips it to the image", () => {
    expect(cropRegion({ left: 10, top: 20, width: 30, height: 40 }, 640, 480)).toEqual([10, 20, 30, 40]);
    expect(cropRegion({ left: -4.5, top: 10.2, width: 20, height: 20 }, 640, 480)).toEqual([0, 10, 16, 21]);
    expect(cropRegion({ left: 630, top: 470, width: 50, height: 50 }, 640, 480)).toEqual([630, 470, 10, 10]);
  });

  it("refuses a box with no pixel in the image, and a box that is not one", () => {
    expect(() => cropRegion({ left: 700, top: 0, width: 10, height: 10 }, 640, 480)).toThrow(InvalidValueError);
    expect(() => cropRegion({ left: 700, top: 0, width: 10, height: 10 }, 640, 480)).toThrow(
      'Expected a box with pixels inside the 640x480 image for box of cropRegion() but received {"left":700,"top":0,"width":10,"height":10}',
    );
    expect(() => cropRegion({ left: 5, top: 5, width: 0, height: 10 }, 640, 480)).toThrow(InvalidValueError);
    expect(() => cropRegion({ left: Number.NaN, top: 0, width: 1, height: 1 }, 640, 480)).toThrow(InvalidTypeError);
  });
});

describe("TensorHandle.crop of a frame", () => {
  it("is a view of the frame's memory: same strides, the region's shape and first byte", () => {
    const made = frameBuffer("RGB", 33, 17);
    inFrameCall(addon, made, (buffer) => {
      const frame = buffer.extract(0);
      const crop = frame.crop({ left: 5, top: 3, width: 10, height: 7 });
      expect(crop.toJSON()).toEqual({
        device: { type: "cpu", id: 0 },
        dtype: "uint8",
        shape: [7, 10, 3],
        strides: frame.strides,
        byteOffset: 3 * made.stride + 5 * 3,
        byteLength: 6 * made.stride + 10 * 3,
        format: "RGB",
        owned: false,
      });
      expect(crop.dataPtr).toBe(frame.dataPtr);
      const pixels = crop.toTypedArray() as Uint8Array;
      expect(pixels[0]).toBe(made.pixel(0, 3, 5, 0));
      // Writes go to the frame.
      pixels[made.stride + 3 + 2] = 77;
      expect((frame.toTypedArray() as Uint8Array)[4 * made.stride + 6 * 3 + 2]).toBe(77);
    });
  });

  it.each(["RGB", "RGBA", "BGRx", "GRAY8"] as const)("%s: toHost() of a crop equals a dense copy of the region", (format) => {
    const made = frameBuffer(format, 41, 29, 2);
    const channels = format === "GRAY8" ? 1 : format === "RGB" ? 3 : 4;
    inFrameCall(addon, made, (buffer) => {
      const region = [7, 4, 13, 20];
      const copy = buffer.extract(1).crop({ left: 7, top: 4, width: 13, height: 20 }).toHost();
      try {
        expect(copy.shape).toEqual([20, 13, channels]);
        expect(Array.from(copy.toTypedArray() as Uint8Array)).toEqual(Array.from(denseRegion(made, 1, region, channels)));
      } finally {
        copy.dispose();
      }
    });
  });

  it("feeds preprocess() the region: the same network input as the region copied into a JS image", () => {
    const made = frameBuffer("RGB", 64, 48, 2);
    inFrameCall(addon, made, (buffer) => {
      const boxes = [
        { frame: 0, region: [0, 0, 20, 10] },
        { frame: 1, region: [30, 12, 34, 36] },
        { frame: 0, region: [50, 40, 14, 8] },
      ];
      const crops = boxes.map(({ frame, region: [left, top, width, height] }) =>
        buffer.extract(frame).crop({ left: left!, top: top!, width: width!, height: height! }),
      );
      const copies = boxes.map(({ frame, region }) =>
        TensorHandle.fromTypedArray(denseRegion(made, frame, region, 3), [region[3]!, region[2]!, 3], { format: "RGB" }),
      );
      const options = { width: 16, height: 16, mode: "stretch" } as const;
      const fromCrops = preprocess(crops, options);
      const fromCopies = preprocess(copies, options);
      try {
        expect(fromCrops.tensor.shape).toEqual([3, 3, 16, 16]);
        expect(Array.from(fromCrops.tensor.toTypedArray() as Float32Array)).toEqual(Array.from(fromCopies.tensor.toTypedArray() as Float32Array));
        expect(fromCrops.transforms.map((t) => [t.frameWidth, t.frameHeight])).toEqual([[20, 10], [34, 36], [14, 8]]);
      } finally {
        fromCrops.tensor.dispose();
        fromCopies.tensor.dispose();
      }
    });
  });

  it("crops a crop relative to it, and clips an object box that leaves the frame", () => {
    const made = frameBuffer("RGBA", 40, 30);
    inFrameCall(addon, made, (buffer) => {
      const inner = buffer.extract(0).crop({ left: 10, top: 5, width: 20, height: 20 }).crop({ left: 2, top: 3, width: 4, height: 4 });
      const copy = inner.toHost();
      expect(Array.from(copy.toTypedArray() as Uint8Array)).toEqual(Array.from(denseRegion(made, 0, [12, 8, 4, 4], 4)));
      copy.dispose();
      const clipped = buffer.extract(0).crop({ left: 35.5, top: -3, width: 20, height: 10 });
      expect(clipped.shape).toEqual([7, 5, 4]);
    });
  });

  it("ends with the call, like the frame", () => {
    const made = frameBuffer("RGB", 8, 8);
    const crop = inFrameCall(addon, made, (buffer) => buffer.extract(0).crop({ left: 1, top: 1, width: 2, height: 2 }));
    expect(() => crop.toHost()).toThrow(StaleHandleError);
  });

  it("refuses a box outside the frame and a tensor that is not an image", () => {
    const made = frameBuffer("RGB", 8, 8);
    inFrameCall(addon, made, (buffer) => {
      expect(() => buffer.extract(0).crop({ left: 8, top: 0, width: 2, height: 2 })).toThrow(
        'Expected a box with pixels inside the 8x8 image for box of TensorHandle.crop() but received {"left":8,"top":0,"width":2,"height":2}',
      );
    });
    const scores = TensorHandle.fromTypedArray(new Float32Array(6), [1, 2, 3]);
    expect(() => scores.crop({ left: 0, top: 0, width: 1, height: 1 })).toThrow(TensorError);
    expect(() => scores.crop({ left: 0, top: 0, width: 1, height: 1 })).toThrow(
      "Expected an image (a frame from Buffer.extract(), or fromTypedArray() with a format) for TensorHandle.crop() but received a float32 tensor of shape [1, 2, 3]",
    );
  });
});

describe("TensorHandle.crop of a JS image", () => {
  it("views the region of the typed array", () => {
    const pixels = Uint8Array.from({ length: 4 * 5 * 3 }, (_, index) => index);
    const image = TensorHandle.fromTypedArray(pixels, [4, 5, 3], { format: "RGB" });
    const crop = image.crop({ left: 1, top: 2, width: 3, height: 2 });
    expect(crop.shape).toEqual([2, 3, 3]);
    expect(crop.strides).toEqual([15, 3, 1]);
    expect((crop.toTypedArray() as Uint8Array)[0]).toBe(2 * 15 + 3);
    const copy = crop.toHost();
    expect(Array.from(copy.toTypedArray() as Uint8Array)).toEqual([33, 34, 35, 36, 37, 38, 39, 40, 41, 48, 49, 50, 51, 52, 53, 54, 55, 56]);
    copy.dispose();
  });
});
