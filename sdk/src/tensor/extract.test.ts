// Buffer.extract over the real native binding (the standalone binding): every supported format,
// strides from the caps and from a GstVideoMeta, multi-frame batches, zero-copy writes, the
// end of the call, and the errors for what cannot be extracted.
import { afterAll, describe, expect, it } from "vitest";
import { InvalidTypeError, InvalidValueError, StaleHandleError, TensorError } from "../errors/errors.js";
import { defaultStride, inFrameCall, makeFrameBuffer } from "../test-support/frames.js";
import { requireStandaloneBinding } from "../test-support/standalone-binding.js";
import type { TensorHandle } from "./tensor-handle.js";
import { FORMAT_CHANNELS, PACKED_PIXEL_FORMATS, type PixelFormat } from "./types.js";

const addon = requireStandaloneBinding();
const binding = addon.tensor;
const buffers: object[] = [];
afterAll(() => {
  for (const buffer of buffers) addon.harness.releaseBuffer(buffer);
});

function frameBuffer(options: Parameters<typeof makeFrameBuffer>[1]) {
  const made = makeFrameBuffer(addon, options);
  buffers.push(made.buffer);
  return made;
}

/** Every pixel of `frame` through its strides, as the test expects to find it. */
function expectPixels(frame: TensorHandle, expected: (y: number, x: number, c: number) => number): void {
  const [height, width, channels] = frame.shape as [number, number, number];
  const [pitch, step, one] = frame.strides as [number, number, number];
  const data = frame.toTypedArray() as Uint8Array;
  let mismatches = 0;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      for (let c = 0; c < channels; c++) if (data[y * pitch + x * step + c * one] !== expected(y, x, c)) mismatches++;
    }
  }
  expect(mismatches).toBe(0);
}

describe("Buffer.extract", () => {
  describe.each(PACKED_PIXEL_FORMATS)("%s", (format: PixelFormat) => {
    const channels = FORMAT_CHANNELS[format];

    it("gives a zero-copy [height, width, channels] view with the caps' stride", () => {
      // 5 pixels: RGB/BGR/GRAY8 rows are padded to a multiple of 4 bytes by GStreamer.
      const made = frameBuffer({ format, width: 5, height: 3 });
      const stride = defaultStride(format, 5);
      inFrameCall(addon, made, (buffer) => {
        const frame = buffer.extract(0);
        expect(frame.toJSON()).toEqual({
          device: { type: "cpu", id: 0 },
          dtype: "uint8",
          shape: [3, 5, channels],
          strides: [stride, channels, 1],
          byteOffset: 0,
          byteLength: 2 * stride + 5 * channels,
          format,
          owned: false,
        });
        expect(frame.dataPtr).toBeGreaterThan(0n);
        const data = frame.toTypedArray();
        expect(data).toBeInstanceOf(Uint8Array);
        expect(data.length).toBe(frame.byteLength);
        expectPixels(frame, (y, x, c) => made.pixel(0, y, x, c));
      });
    });

    it("reads the stride from a GstVideoMeta", () => {
      const stride = 7 * channels + 9; // odd, unaligned padding
      const made = frameBuffer({ format, width: 7, height: 4, stride });
      inFrameCall(addon, made, (buffer) => {
        const frame = buffer.extract();
        expect(frame.strides).toEqual([stride, channels, 1]);
        expect(frame.byteLength).toBe(3 * stride + 7 * channels);
        expectPixels(frame, (y, x, c) => made.pixel(0, y, x, c));
      });
    });
  });

  it("finds frame b of a multi-frame batch at b × frame size", () => {
    const made = frameBuffer({ format: "RGB", width: 9, height: 5, frames: 3 });
    inFrameCall(addon, made, (buffer, batch) => {
      expect(batch.numFrames).toBe(3);
      const frames = batch.frameItems.map((item) => buffer.extract(item.batchId));
      expect(frames.map((frame) => frame.byteOffset)).toEqual([0, made.frameBytes, 2 * made.frameBytes]);
      expect(new Set(frames.map((frame) => frame.dataPtr)).size).toBe(1); // one mapping, DLPack's data + byte_offset
      frames.forEach((frame, b) => expectPixels(frame, (y, x, c) => made.pixel(b, y, x, c)));
      expect(() => buffer.extract(3)).toThrow("Expected a batchId from 0 to 2 (the batch holds 3 frames) for Buffer.extract but received 3");
      expect(() => buffer.extract(3)).toThrow(RangeError);
      expect(() => buffer.extract(3)).toThrow(InvalidValueError);
    });
  });

  it("gives the same handle for the same batchId within a call", () => {
    const made = frameBuffer({ format: "GRAY8", width: 3, height: 3, frames: 2 });
    inFrameCall(addon, made, (buffer) => {
      expect(buffer.extract(1)).toBe(buffer.extract(1));
      expect(buffer.extract(0)).toBe(buffer.extract());
      expect(buffer.extract(0)).not.toBe(buffer.extract(1));
    });
  });

  it("writes through the view land in the buffer (in place)", () => {
    const made = frameBuffer({ format: "BGRx", width: 6, height: 4 });
    inFrameCall(addon, made, (buffer) => {
      const frame = buffer.extract(0);
      const data = frame.toTypedArray() as Uint8Array;
      const at = 2 * frame.strides[0]! + 3 * 4;
      data[at] = 1;
      data[at + 1] = 2;
      data[at + 2] = 3;
      // A copy made later in the call sees the write.
      const copy = frame.toHost();
      expect(Array.from((copy.toTypedArray() as Uint8Array).subarray(2 * 6 * 4 + 3 * 4, 2 * 6 * 4 + 3 * 4 + 3))).toEqual([1, 2, 3]);
      copy.dispose();
    });
    inFrameCall(addon, made, (buffer) => {
      const frame = buffer.extract(0);
      expectPixels(frame, (y, x, c) => (y === 2 && x === 3 && c < 3 ? c + 1 : made.pixel(0, y, x, c)));
    });
  });

  it("goes stale with its call: members throw, the typed array is detached", () => {
    const made = frameBuffer({ format: "RGBA", width: 4, height: 2 });
    let frame: TensorHandle | undefined;
    let data: Uint8Array | undefined;
    let kept: object | undefined;
    inFrameCall(addon, made, (buffer) => {
      kept = buffer;
      frame = buffer.extract(0);
      data = frame.toTypedArray() as Uint8Array;
      expect(data.length).toBe(4 * 4 * 2);
    });
    expect(data!.length).toBe(0);
    expect(data!.buffer.byteLength).toBe(0);
    expect(() => frame!.shape).toThrow(StaleHandleError);
    expect(() => frame!.shape).toThrow(
      "TensorHandle used after its transform() call returned (reading shape); a handle is valid only during the call " +
        "that received it: copy the values you need (e.g. `const { frameNum } = frame`) before transform() returns",
    );
    expect(() => frame!.toTypedArray()).toThrow(StaleHandleError);
    expect(() => frame!.toHost()).toThrow(StaleHandleError);
    expect(() => frame!.toDLPack()).toThrow(StaleHandleError);
    expect(() => frame!.dataPtr).toThrow(StaleHandleError);
    expect(() => frame!.dispose()).not.toThrow();
    expect(() => (kept as { extract(id: number): unknown }).extract(0)).toThrow(
      "GstBuffer used after its transform() call returned (calling extract())",
    );
  });

  it("checks batchId before asking native code", () => {
    const made = frameBuffer({ format: "RGB", width: 2, height: 2 });
    inFrameCall(addon, made, (buffer) => {
      expect(() => buffer.extract(-1)).toThrow("Expected a whole number ≥ 0 for batchId of Buffer.extract() but received -1");
      expect(() => buffer.extract(-1)).toThrow(RangeError);
      expect(() => buffer.extract(0.5)).toThrow(InvalidValueError);
      expect(() => buffer.extract("0" as unknown as number)).toThrow(InvalidTypeError);
    });
  });

  describe("what cannot be extracted", () => {
    function extractError(caps: string, format: PixelFormat = "RGB"): Error {
      const made = frameBuffer({ format, width: 4, height: 2, caps });
      return inFrameCall(addon, made, (buffer) => {
        try {
          buffer.extract(0);
        } catch (error) {
          return error as Error;
        }
        throw new Error("extract did not throw");
      });
    }

    const SUPPORTED = "an RGB, RGBA, BGR, BGRx, GRAY8, RGBx, BGRA, ARGB, ABGR, NV12, NV21 or I420 frame";

    it.each(["YUY2", "UYVY", "P010_10LE", "GRAY16_LE"])("%s names the caps and the conversion", (format) => {
      const error = extractError(`video/x-raw,format=${format},width=4,height=2,framerate=30/1`);
      expect(error).toBeInstanceOf(TensorError);
      expect((error as TensorError).code).toBe("ERR_DS_ELEMENT_TENSOR");
      expect(error.message).toBe(
        `Expected ${SUPPORTED} for Buffer.extract but received ${format} ` +
          `(video/x-raw, format=(string)${format}, width=(int)4, height=(int)2, framerate=(fraction)30/1); ` +
          `convert first, e.g. "videoconvert ! video/x-raw,format=RGB" ` +
          `(or "nvvideoconvert ! video/x-raw(memory:NVMM),format=RGBA" in DeepStream)`,
      );
    });

    it("caps that are not raw video", () => {
      expect(extractError("audio/x-raw,format=S16LE,rate=48000,channels=2,layout=interleaved").message).toBe(
        "Expected raw video (video/x-raw) for Buffer.extract but received audio/x-raw, format=(string)S16LE, " +
          "rate=(int)48000, channels=(int)2, layout=(string)interleaved; convert first, e.g. " +
          '"videoconvert ! video/x-raw,format=RGB" (or "nvvideoconvert ! video/x-raw(memory:NVMM),format=RGBA" in DeepStream)',
      );
    });

    it("memory it cannot read (GL)", () => {
      expect(extractError("video/x-raw(memory:GLMemory),format=RGBA,width=4,height=2").message).toBe(
        "Expected raw video in system memory, memory:CUDAMemory or memory:NVMM for Buffer.extract but received " +
          "video/x-raw(memory:GLMemory), format=(string)RGBA, width=(int)4, height=(int)2; convert first, e.g. " +
          '"videoconvert ! video/x-raw,format=RGB" (or "nvvideoconvert ! video/x-raw(memory:NVMM),format=RGBA" in DeepStream)',
      );
    });

    it("CUDAMemory caps over system memory", () => {
      const error = extractError("video/x-raw(memory:CUDAMemory),format=RGBA,width=4,height=2", "RGBA");
      expect(error).toBeInstanceOf(TensorError);
      expect(error.message).toBe(
        "Expected one GstCudaMemory (caps video/x-raw(memory:CUDAMemory), format=(string)RGBA, width=(int)4, " +
          'height=(int)2) for Buffer.extract but received 1 memory of type "SystemMemory"',
      );
    });

    it("CUDAMemory in an unsupported format suggests cudaconvert", () => {
      expect(extractError("video/x-raw(memory:CUDAMemory),format=YUY2,width=4,height=2").message).toBe(
        `Expected ${SUPPORTED} for Buffer.extract but received YUY2 ` +
          "(video/x-raw(memory:CUDAMemory), format=(string)YUY2, width=(int)4, height=(int)2); convert first, e.g. " +
          '"cudaconvert ! video/x-raw(memory:CUDAMemory),format=RGBA" (or "cudadownload ! videoconvert ! video/x-raw,format=RGB")',
      );
    });

    it.skipIf(binding.deepstreamCompiled)("NVMM in a build without DeepStream", () => {
      expect(extractError("video/x-raw(memory:NVMM),format=RGBA,width=4,height=2", "RGBA").message).toBe(
        "Expected system memory or memory:CUDAMemory for Buffer.extract but received video/x-raw(memory:NVMM), " +
          "format=(string)RGBA, width=(int)4, height=(int)2: NVMM frames need ds-element-native built with DeepStream " +
          "(DS_SDK_ROOT or /opt/nvidia/deepstream/deepstream at build time)",
      );
    });

    it("a buffer too small for its caps", () => {
      const made = frameBuffer({ format: "RGB", width: 4, height: 2, caps: "video/x-raw,format=RGB,width=40,height=20" });
      inFrameCall(addon, made, (buffer) => {
        expect(() => buffer.extract(0)).toThrow(
          "Expected a buffer of at least 2400 bytes for Buffer.extract of frame 0 (40x20 RGB, stride 120) but received 24 bytes",
        );
      });
    });

    it("a buffer whose caps are unknown (the standalone binding without setVideo)", () => {
      const buffer = addon.harness.createBuffer(1, 16);
      buffers.push(buffer);
      inFrameCall(addon, { buffer, frames: 0 }, (handle) => {
        expect(() => handle.extract(0)).toThrow(
          "Expected a buffer whose caps are known for Buffer.extract but received one without caps " +
            "(in the standalone binding, call harness.setVideo(buffer, caps) first)",
        );
      });
    });
  });
});
