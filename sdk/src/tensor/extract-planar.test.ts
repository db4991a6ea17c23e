// Buffer.extract of planar YUV frames (NV12, NV21, I420) over the real native binding: one
// handle with its planes, each a zero-copy view with GStreamer's own strides and offsets, the
// colorimetry from the caps, multi-frame batches, writes in place, and what is done plane by
// plane (toHost, toDLPack), and crops with their planes.
import { afterAll, describe, expect, it } from "vitest";
import { TensorError } from "../errors/errors.js";
import { inFrameCall, makePlanarBuffer, type PlanarBufferOptions } from "../test-support/frames.js";
import { requireStandaloneBinding } from "../test-support/standalone-binding.js";
import type { TensorHandle } from "./tensor-handle.js";
import { PLANAR_PIXEL_FORMATS, type PlanarPixelFormat } from "./types.js";

const addon = requireStandaloneBinding();
const buffers: object[] = [];
afterAll(() => {
  for (const buffer of buffers) addon.harness.releaseBuffer(buffer);
});

function planarBuffer(options: PlanarBufferOptions) {
  const made = makePlanarBuffer(addon, options);
  buffers.push(made.buffer);
  return made;
}

/** Every sample of `plane` through its strides, as the buffer was written. */
function expectSamples(plane: TensorHandle, expected: (row: number, column: number, byte: number) => number): void {
  const [rows, columns, samples] = plane.shape as [number, number, number];
  const [pitch, step] = plane.strides as [number, number, number];
  const data = plane.toTypedArray() as Uint8Array;
  let mismatches = 0;
  for (let row = 0; row < rows; row++) {
    for (let column = 0; column < columns; column++) {
      for (let byte = 0; byte < samples; byte++) if (data[row * pitch + column * step + byte] !== expected(row, column, byte)) mismatches++;
    }
  }
  expect(mismatches).toBe(0);
}

describe("Buffer.extract of planar frames", () => {
  describe.each(PLANAR_PIXEL_FORMATS)("%s", (format: PlanarPixelFormat) => {
    it("gives one handle with a zero-copy view per plane, strides and offsets from the caps", () => {
      // 7 × 5: odd sides, so chroma is 4 × 3 and every row is padded to 4 bytes.
      const made = planarBuffer({ format, width: 7, height: 5 });
      inFrameCall(addon, made, (buffer) => {
        const frame = buffer.extract(0);
        expect(frame.format).toBe(format);
        expect(frame.shape).toEqual([5, 7, 1]);
        expect(frame.strides).toEqual([8, 1, 1]);
        expect(frame.byteOffset).toBe(0);
        expect(frame.colorimetry).toEqual({ matrix: "bt601", range: "limited" }); // GStreamer's default below 576 lines
        const planes = frame.planes;
        expect(planes).toHaveLength(format === "I420" ? 3 : 2);
        expect(planes.map((plane) => plane.toJSON())).toEqual(
          made.planes.map((layout) => ({
            device: { type: "cpu", id: 0 },
            dtype: "uint8",
            shape: [layout.rows, layout.columns, layout.samples],
            strides: [layout.stride, layout.samples, 1],
            byteOffset: layout.offset,
            byteLength: (layout.rows - 1) * layout.stride + layout.columns * layout.samples,
            format: undefined,
            owned: false,
          })),
        );
        // One mapping: every plane is DLPack's data + byte_offset into the same memory.
        expect(new Set(planes.map((plane) => plane.dataPtr))).toEqual(new Set([frame.dataPtr]));
        expect(planes[0]!.shape).toEqual(frame.shape);
        planes.forEach((plane, p) => expectSamples(plane, (row, column, byte) => made.sample(0, p, row, column, byte)));
        expect(buffer.extract(0).planes).toBe(planes); // the same handle, the same planes
      });
    });

    it("finds frame b of a multi-frame batch at b × frame size, every plane with it", () => {
      const made = planarBuffer({ format, width: 6, height: 4, frames: 3 });
      inFrameCall(addon, made, (buffer) => {
        for (let b = 0; b < 3; b++) {
          const frame = buffer.extract(b);
          expect(frame.byteOffset).toBe(b * made.frameBytes);
          frame.planes.forEach((plane, p) => {
            expect(plane.byteOffset).toBe(b * made.frameBytes + made.planes[p]!.offset);
            expectSamples(plane, (row, column, byte) => made.sample(b, p, row, column, byte));
          });
        }
      });
    });

    it("writes through a plane land in the buffer, and a plane copies and exports on its own", () => {
      const made = planarBuffer({ format, width: 8, height: 6 });
      inFrameCall(addon, made, (buffer) => {
        const chroma = buffer.extract(0).planes[1]!;
        (chroma.toTypedArray() as Uint8Array)[chroma.strides[0]! + chroma.strides[1]!] = 7; // row 1, column 1
        const copy = chroma.toHost();
        expect(copy.shape).toEqual(chroma.shape);
        expect((copy.toTypedArray() as Uint8Array)[chroma.shape[1]! * chroma.shape[2]! + chroma.shape[2]!]).toBe(7);
        copy.dispose();
        expect(addon.tensor.inspectDLPack(chroma.toDLPack(), false)).toMatchObject({ shape: chroma.shape, strides: chroma.strides });
      });
      expect(made.bytes[made.planes[1]!.offset + made.planes[1]!.stride + made.planes[1]!.samples]).not.toBe(7); // the test's copy
      inFrameCall(addon, made, (buffer) => {
        const chroma = buffer.extract(0).planes[1]!;
        expect((chroma.toTypedArray() as Uint8Array)[chroma.strides[0]! + chroma.strides[1]!]).toBe(7);
      });
    });

    it("leaves toHost and toDLPack of the whole frame to its planes", () => {
      const made = planarBuffer({ format, width: 4, height: 4 });
      inFrameCall(addon, made, (buffer) => {
        const frame = buffer.extract(0);
        expect(() => frame.toHost()).toThrow(TensorError);
        expect(() => frame.toHost()).toThrow(
          `Expected a packed frame or one plane of a frame for TensorHandle.toHost() but received a planar ${format} frame; ` +
            "call it on each of frame.planes",
        );
        expect(() => frame.toDLPack()).toThrow(`for TensorHandle.toDLPack() but received a planar ${format} frame`);
      });
    });

    it("crops the frame with its planes, a crop of a crop as the region of the frame", () => {
      const made = planarBuffer({ format, width: 8, height: 6 });
      inFrameCall(addon, made, (buffer) => {
        const frame = buffer.extract(0);
        const crop = frame.crop({ left: 1, top: 1, width: 6, height: 4 });
        const inner = crop.crop({ left: 2, top: 2, width: 3, height: 2 });
        const direct = frame.crop({ left: 3, top: 3, width: 3, height: 2 });
        for (const view of [crop, inner]) {
          expect(view.format).toBe(format);
          expect(view.planes).toHaveLength(frame.planes.length);
        }
        const describe = (view: TensorHandle) => view.planes.map((plane) => [plane.shape, plane.strides, plane.byteOffset]);
        expect(describe(inner)).toEqual(describe(direct));
        expect(inner.planes[0]!.byteOffset).toBe(frame.byteOffset + 3 * frame.strides[0]! + 3);
      });
    });
  });

  it.each([
    ["colorimetry=bt709", { matrix: "bt709", range: "limited" }],
    ["colorimetry=bt601", { matrix: "bt601", range: "limited" }],
    ["colorimetry=1:4:0:0", { matrix: "bt601", range: "full" }],
    ["colorimetry=1:3:5:1", { matrix: "bt709", range: "full" }],
    ["colorimetry=bt2020", { matrix: "bt2020", range: "limited" }],
  ])("reads the colorimetry of the caps (%s)", (capsExtra, colorimetry) => {
    const made = planarBuffer({ format: "NV12", width: 4, height: 2, capsExtra });
    inFrameCall(addon, made, (buffer) => expect(buffer.extract(0).colorimetry).toEqual(colorimetry));
  });

  it("takes GStreamer's default colorimetry for HD caps (BT.709)", () => {
    const made = planarBuffer({ format: "I420", width: 8, height: 720 });
    inFrameCall(addon, made, (buffer) => expect(buffer.extract(0).colorimetry).toEqual({ matrix: "bt709", range: "limited" }));
  });

  it("refuses a colour matrix it cannot convert (SMPTE 240M)", () => {
    const made = planarBuffer({ format: "NV12", width: 4, height: 2, capsExtra: "colorimetry=smpte240m" });
    inFrameCall(addon, made, (buffer) => {
      expect(() => buffer.extract(0)).toThrow(TensorError);
      expect(() => buffer.extract(0)).toThrow(
        "Expected YUV of colour matrix bt601, bt709 or bt2020 for Buffer.extract but received smpte240m (video/x-raw, " +
          "format=(string)NV12, width=(int)4, height=(int)2, framerate=(fraction)30/1, colorimetry=(string)smpte240m); " +
          'convert first, e.g. "videoconvert ! video/x-raw,format=RGB"',
      );
    });
  });

  it("packed frames are their own single plane, without colorimetry", () => {
    const made = planarBuffer({ format: "NV12", width: 2, height: 2 });
    inFrameCall(addon, made, (buffer) => {
      const luma = buffer.extract(0).planes[0]!;
      expect(luma.planes).toEqual([luma]);
      expect(luma.colorimetry).toBeUndefined();
      expect(luma.format).toBeUndefined();
    });
  });
});
