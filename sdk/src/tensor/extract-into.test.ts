// Buffer.extract's fast path (tensor binding extractInto): the frame's descriptor written as
// numbers and read back by frameInfoFrom must be exactly what the binding's object-building
// extract() gives, for every format, planes and colorimetry included, and over the same memory.
import { afterAll, describe, expect, it } from "vitest";
import { FRAME_INFO_LENGTH, frameInfoFrom, type NativeTensorInfo } from "../native/tensor-binding.js";
import { inFrameCall, makeFrameBuffer, makePlanarBuffer } from "../test-support/frames.js";
import { requireStandaloneBinding } from "../test-support/standalone-binding.js";
import { PACKED_PIXEL_FORMATS, PLANAR_PIXEL_FORMATS } from "./types.js";

const addon = requireStandaloneBinding();
const buffers: object[] = [];
afterAll(() => {
  for (const buffer of buffers) addon.harness.releaseBuffer(buffer);
});

/**
 * extract() and extractInto() of every frame of `made`, side by side, each pair checked by
 * expectSame while the call is open (its views are detached when it ends).
 */
function bothWays(made: { buffer: object; frames: number }): { object: NativeTensorInfo; packed: NativeTensorInfo }[] {
  buffers.push(made.buffer);
  return inFrameCall(addon, made, (_buffer, _batch, call) =>
    Array.from({ length: made.frames }, (_, batchId) => {
      const values = new Float64Array(FRAME_INFO_LENGTH).fill(Number.NaN);
      const view = addon.tensor.extractInto(call.callId, batchId, values);
      const pair = { object: addon.tensor.extract(call.callId, batchId), packed: frameInfoFrom(values, view) };
      expectSame(pair);
      return pair;
    }),
  );
}

/** Equal descriptors over the same bytes (two views of one mapping are two ArrayBuffers). */
function expectSame({ object, packed }: { object: NativeTensorInfo; packed: NativeTensorInfo }): void {
  const { buffer: objectView, ...objectRest } = object;
  const { buffer: packedView, ...packedRest } = packed;
  expect(packedRest).toEqual(objectRest);
  expect(packedView).toBeInstanceOf(ArrayBuffer);
  expect(packedView!.byteLength).toBe(objectView!.byteLength);
  expect(Buffer.from(packedView!).equals(Buffer.from(objectView!))).toBe(true);
}

describe("Buffer.extract's numbers (extractInto) against its object (extract)", () => {
  it("the binding writes as many numbers as the SDK reads", () => {
    expect(addon.tensor.frameInfoLength).toBe(FRAME_INFO_LENGTH);
  });

  it.each(PACKED_PIXEL_FORMATS)("%s frames, padded rows, several frames", (format) => {
    const made = makeFrameBuffer(addon, { format, width: 7, height: 5, frames: 3, stride: 7 * 4 + 12 });
    expect(bothWays(made)).toHaveLength(3);
  });

  it.each(PLANAR_PIXEL_FORMATS.flatMap((format) => ["", "colorimetry=bt709", "colorimetry=1:4:0:0", "colorimetry=bt2020"].map((caps) => [format, caps] as const)))(
    "%s frames with their planes (caps: %s)",
    (format, capsExtra) => {
      const made = makePlanarBuffer(addon, { format, width: 9, height: 7, frames: 2, ...(capsExtra ? { capsExtra } : {}) });
      const frames = bothWays(made);
      expect(frames[1]!.packed.planes).toHaveLength(format === "I420" ? 3 : 2);
    },
  );

  it("refuses a short array and an ended call as extract() does", () => {
    const made = makeFrameBuffer(addon, { format: "RGB", width: 4, height: 2 });
    buffers.push(made.buffer);
    const callId = inFrameCall(addon, made, (_buffer, _batch, call) => {
      expect(() => addon.tensor.extractInto(call.callId, 0, new Float64Array(FRAME_INFO_LENGTH - 1))).toThrow(
        new RegExp(`Expected a Float64Array of at least ${FRAME_INFO_LENGTH} for out`),
      );
      expect(() => addon.tensor.extractInto(call.callId, 1, new Float64Array(FRAME_INFO_LENGTH))).toThrow(RangeError);
      return call.callId;
    });
    expect(() => addon.tensor.extractInto(callId, 0, new Float64Array(FRAME_INFO_LENGTH))).toThrow(/ended|no longer|stale|call/i);
  });
});
