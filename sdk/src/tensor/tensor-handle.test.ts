// Owned tensors (toHost copies, fromTypedArray), DLPack capsules read back natively as a
// consumer addon reads them, dispose() and garbage collection returning pooled memory.
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { afterAll, describe, expect, it } from "vitest";
import { InvalidTypeError, InvalidValueError, TensorError } from "../errors/errors.js";
import { inFrameCall, makeFrameBuffer } from "../test-support/frames.js";
import { requireStandaloneBinding } from "../test-support/standalone-binding.js";
import { nativeTensorSource, TensorHandle } from "./tensor-handle.js";

const addon = requireStandaloneBinding();
const binding = addon.tensor;
const buffers: object[] = [];
afterAll(() => {
  for (const buffer of buffers) addon.harness.releaseBuffer(buffer);
});

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

/** Collects until `done()` (napi finalizers run after the collection, on a later turn). */
async function collectUntil(done: () => boolean): Promise<boolean> {
  for (let attempt = 0; attempt < 50; attempt++) {
    gc();
    await new Promise((resolve) => setImmediate(resolve));
    if (done()) return true;
  }
  return false;
}

function rgbFrames(frames = 1) {
  const made = makeFrameBuffer(addon, { format: "RGB", width: 5, height: 3, frames });
  buffers.push(made.buffer);
  return made;
}

describe("toHost", () => {
  it("copies a frame into a dense owned cpu tensor that outlives the call", () => {
    const made = rgbFrames();
    const copy = inFrameCall(addon, made, (buffer) => buffer.extract(0).toHost());
    expect(copy.toJSON()).toEqual({
      device: { type: "cpu", id: 0 },
      dtype: "uint8",
      shape: [3, 5, 3],
      strides: [15, 3, 1],
      byteOffset: 0,
      byteLength: 45,
      format: "RGB",
      owned: true,
    });
    const data = copy.toTypedArray() as Uint8Array;
    for (let y = 0; y < 3; y++) for (let x = 0; x < 5; x++) for (let c = 0; c < 3; c++) expect(data[y * 15 + x * 3 + c]).toBe(made.pixel(0, y, x, c));
    copy.dispose();
  });

  it("copies every time, also for cpu tensors", () => {
    const source = TensorHandle.fromTypedArray(new Float32Array([1, 2, 3, 4]), [2, 2]);
    const copy = source.toHost();
    expect(copy.dtype).toBe("float32");
    expect(Array.from(copy.toTypedArray() as Float32Array)).toEqual([1, 2, 3, 4]);
    (source.toTypedArray() as Float32Array)[0] = 9;
    expect((copy.toTypedArray() as Float32Array)[0]).toBe(1);
    expect(copy.dataPtr).not.toBe(source.dataPtr);
    copy.dispose();
  });
});

describe("what native code is handed", () => {
  it("names the kinds of source it knows when given another", () => {
    const bogus = { kind: "bogus" } as unknown as Parameters<typeof binding.toHost>[0];
    expect(() => binding.toHost(bogus)).toThrow(InvalidValueError);
    expect(() => binding.toHost(bogus)).toThrow('Expected "frame", "owned", "js" or "device" for tensor.kind but received "bogus"');
  });
});

describe("dispose", () => {
  it("returns the memory to the pool at once and detaches the views", () => {
    const source = TensorHandle.fromTypedArray(new Uint8Array(1000).fill(7), [10, 100]);
    const before = binding.stats();
    const copy = source.toHost();
    expect(binding.stats().liveBlocks).toBe(before.liveBlocks + 1);
    const view = copy.toTypedArray();
    expect(view.length).toBe(1000);
    copy.dispose();
    expect(binding.stats().liveBlocks).toBe(before.liveBlocks);
    expect(view.length).toBe(0);
    expect(() => copy.toTypedArray()).toThrow(TensorError);
    expect(() => copy.toTypedArray()).toThrow(
      "TensorHandle used after dispose() (calling toTypedArray()); an owned tensor's memory goes back to the pool when " +
        "it is disposed: keep the handle until you are done with it",
    );
    expect(() => copy.dataPtr).toThrow(TensorError);
    expect(copy.shape).toEqual([10, 100]); // the description stays readable
    expect(() => copy.dispose()).not.toThrow();
  });

  it("reuses pooled memory of the same size class", () => {
    const source = TensorHandle.fromTypedArray(new Uint8Array(4096), [4096]);
    const first = source.toHost();
    first.dispose();
    const reuses = binding.stats().reuses;
    const second = source.toHost();
    expect(binding.stats().reuses).toBe(reuses + 1);
    second.dispose();
  });
});

describe("garbage collection", () => {
  it("gives owned memory back once the handle and its views are collected", async () => {
    const baseline = binding.stats().liveBlocks;
    const source = TensorHandle.fromTypedArray(new Uint8Array(64 * 1024), [64, 1024]);
    let view: Uint8Array | undefined;
    (() => {
      for (let i = 0; i < 20; i++) source.toHost();
      view = source.toHost().toTypedArray() as Uint8Array; // the handle goes, the view stays
    })();
    expect(binding.stats().liveBlocks).toBe(baseline + 21);
    expect(await collectUntil(() => binding.stats().liveBlocks === baseline + 1)).toBe(true);
    expect(view!.length).toBe(64 * 1024); // still readable: the view keeps its memory
    view = undefined;
    expect(await collectUntil(() => binding.stats().liveBlocks === baseline)).toBe(true);
  });
});

describe("fromTypedArray", () => {
  it("wraps JS memory without copying", () => {
    const data = new Float32Array(6);
    const tensor = TensorHandle.fromTypedArray(data, [2, 3]);
    expect(tensor.toJSON()).toEqual({
      device: { type: "cpu", id: 0 },
      dtype: "float32",
      shape: [2, 3],
      strides: [3, 1],
      byteOffset: 0,
      byteLength: 24,
      format: undefined,
      owned: true,
    });
    expect(tensor.toTypedArray()).toBe(data);
    expect(tensor.dataPtr).toBe(binding.addressOf(data));
  });

  it("keeps the view's offset into its ArrayBuffer (DLPack's byte_offset)", () => {
    const whole = new Int32Array(10);
    const part = whole.subarray(4, 10);
    const tensor = TensorHandle.fromTypedArray(part, [3, 2]);
    expect(tensor.byteOffset).toBe(16);
    expect(tensor.dataPtr).toBe(binding.addressOf(whole));
    part[0] = 42;
    const copy = tensor.toHost();
    expect((copy.toTypedArray() as Int32Array)[0]).toBe(42);
    copy.dispose();
  });

  it("takes every dtype, float16 as Uint16Array bits", () => {
    expect(TensorHandle.fromTypedArray(new Int8Array(2), [2]).dtype).toBe("int8");
    expect(TensorHandle.fromTypedArray(new BigInt64Array(2), [2]).dtype).toBe("int64");
    expect(TensorHandle.fromTypedArray(new Uint8ClampedArray(2), [2]).toTypedArray()).toBeInstanceOf(Uint8Array);
    const half = TensorHandle.fromTypedArray(new Uint16Array([0x3c00]), [1], { dtype: "float16" });
    expect(half.dtype).toBe("float16");
    expect(half.toTypedArray()).toBeInstanceOf(Uint16Array);
  });

  it("describes a frame of your own pixels", () => {
    const frame = TensorHandle.fromTypedArray(new Uint8Array(4 * 2 * 3), [4, 2, 3], { format: "BGR" });
    expect(frame.format).toBe("BGR");
    expect(frame.strides).toEqual([6, 3, 1]);
  });

  it("rejects what does not fit, naming it", () => {
    expect(() => TensorHandle.fromTypedArray(new Float32Array(6), [4, 2])).toThrow(
      "Expected a shape of 6 elements (the array's length) for shape of TensorHandle.fromTypedArray() but received [4, 2] (8 elements)",
    );
    expect(() => TensorHandle.fromTypedArray(new Uint16Array(2), [2])).toThrow(InvalidTypeError);
    expect(() => TensorHandle.fromTypedArray(new Uint16Array(2), [2])).toThrow(
      "Expected a Uint8Array, Int8Array, Int32Array, BigInt64Array, Float32Array or Uint16Array (float16) for data of " +
        "TensorHandle.fromTypedArray() but received a Uint16Array of 4 bytes",
    );
    expect(() => TensorHandle.fromTypedArray(new Float32Array(2), [2], { dtype: "int32" })).toThrow(
      'Expected a Int32Array (dtype "int32") for data of TensorHandle.fromTypedArray() but received a Float32Array of 8 bytes',
    );
    expect(() => TensorHandle.fromTypedArray(new Uint8Array(8), [2, 4], { format: "RGB" })).toThrow(
      'Expected uint8 data of shape [height, width, 3] (format "RGB") for shape of TensorHandle.fromTypedArray() but received uint8 data of shape [2, 4]',
    );
    expect(() => TensorHandle.fromTypedArray(new Uint8Array(2), [2, -1])).toThrow(InvalidValueError);
    expect(() => TensorHandle.fromTypedArray(new Uint8Array(2), [1, 1, 1, 1, 1, 1, 1, 1, 2])).toThrow(
      "Expected at most 8 dimensions for shape of TensorHandle.fromTypedArray() but received 9",
    );
  });

  it("dispose() only lets go of the array", () => {
    const tensor = TensorHandle.fromTypedArray(new Uint8Array(3), [3]);
    tensor.dispose();
    expect(() => tensor.toTypedArray()).toThrow(TensorError);
  });
});

describe("toDLPack", () => {
  it("exports a frame as a DLManagedTensor a consumer reads back", () => {
    const made = rgbFrames(2);
    inFrameCall(addon, made, (buffer) => {
      const frame = buffer.extract(1);
      const capsule = frame.toDLPack();
      const seen = binding.inspectDLPack(capsule, false);
      const dense = frame.toHost();
      expect(seen).toEqual({
        versioned: false,
        hasDeleter: true,
        hasManagerContext: true,
        deviceType: 1, // kDLCPU
        deviceId: 0,
        ndim: 3,
        dtypeCode: 1, // kDLUInt
        dtypeBits: 8,
        dtypeLanes: 1,
        shape: [3, 5, 3],
        strides: [16, 3, 1],
        byteOffset: made.frameBytes,
        data: frame.dataPtr,
        elements: dense.toTypedArray(),
      });
      dense.dispose();
    });
  });

  it("exports the versioned layout (DLPack 1.0) on request", () => {
    const tensor = TensorHandle.fromTypedArray(new Float32Array([0.5, -2, 8]), [3]);
    const seen = binding.inspectDLPack(tensor.toDLPack({ versioned: true }), true);
    expect(seen).toMatchObject({
      versioned: true,
      versionMajor: 1,
      versionMinor: 0,
      flags: 0,
      deviceType: 1,
      dtypeCode: 2, // kDLFloat
      dtypeBits: 32,
      shape: [3],
      strides: [1],
      byteOffset: 0,
      data: tensor.dataPtr,
    });
    expect(Array.from(new Float32Array(seen.elements!.buffer, seen.elements!.byteOffset, 3))).toEqual([0.5, -2, 8]);
  });

  it("keeps the memory alive after dispose() until the capsule is collected", async () => {
    const baseline = binding.stats().liveBlocks;
    const source = TensorHandle.fromTypedArray(new Int32Array([1, 2, 3, 4]), [4]);
    let capsule: object | undefined = (() => {
      const owned = source.toHost();
      const made = owned.toDLPack();
      owned.dispose();
      return made;
    })();
    expect(binding.stats().liveBlocks).toBe(baseline + 1);
    const seen = binding.inspectDLPack(capsule, false);
    expect(Array.from(new Int32Array(seen.elements!.buffer, seen.elements!.byteOffset, 4))).toEqual([1, 2, 3, 4]);
    capsule = undefined;
    expect(await collectUntil(() => binding.stats().liveBlocks === baseline)).toBe(true);
  });

  it("keeps a frame's memory after its call ends", () => {
    const made = rgbFrames();
    const capsule = inFrameCall(addon, made, (buffer) => buffer.extract(0).toDLPack());
    const seen = binding.inspectDLPack(capsule, false);
    expect(seen.elements![0]).toBe(made.pixel(0, 0, 0, 0));
    expect(seen.elements![3 * 5 * 3 - 1]).toBe(made.pixel(0, 2, 4, 2));
  });
});

// What the ONNX Runtime runner's session thread relies on (runners/onnx-session-thread.ts).
describe("holds and host views (the binding, for worker threads)", () => {
  const hold = binding.hold!.bind(binding);
  const letGo = binding.letGo!.bind(binding);
  const hostView = binding.hostView!.bind(binding);

  it("a hold keeps an owned tensor's block out of the pool after dispose(), until letGo", () => {
    const baseline = binding.stats().liveBlocks;
    const owned = TensorHandle.fromTypedArray(new Float32Array([1, 2, 3]), [3]).toHost();
    const held = hold(nativeTensorSource(owned, "the test tensor"));
    owned.dispose();
    expect(binding.stats().liveBlocks).toBe(baseline + 1);
    letGo(held);
    expect(binding.stats().liveBlocks).toBe(baseline);
    letGo(held);
    expect(binding.stats().liveBlocks).toBe(baseline);
  });

  it("a hold that is never let go ends when collected", async () => {
    const baseline = binding.stats().liveBlocks;
    (() => {
      const owned = TensorHandle.fromTypedArray(new Float32Array([1, 2, 3]), [3]).toHost();
      hold(nativeTensorSource(owned, "the test tensor"));
      owned.dispose();
    })();
    expect(binding.stats().liveBlocks).toBe(baseline + 1);
    expect(await collectUntil(() => binding.stats().liveBlocks === baseline)).toBe(true);
  });

  it("a host view reads and writes the tensor's own memory", () => {
    const owned = TensorHandle.fromTypedArray(new Int32Array([7, 8, 9]), [3]).toHost();
    const view = new Int32Array(hostView(owned.dataPtr + BigInt(owned.byteOffset), owned.byteLength));
    expect(Array.from(view)).toEqual([7, 8, 9]);
    view[1] = 80;
    expect(Array.from(owned.toTypedArray() as Int32Array)).toEqual([7, 80, 9]);
    owned.dispose();
  });

  it("refuses what is not an address, a length or a hold, with the one message shape", () => {
    expect(() => hostView(0n, 4)).toThrow("Expected a host address (a non-zero bigint) for address but received 0n");
    expect(() => hostView(4096 as never, 4)).toThrow("Expected a host address (a non-zero bigint) for address but received 4096");
    expect(() => hostView(4096n, 0)).toThrow("Expected a whole number of bytes from 1 to 2^53 - 1 for byteLength but received 0");
    expect(() => hostView(4096n, 1.5)).toThrow("Expected a whole number of bytes from 1 to 2^53 - 1 for byteLength but received 1.5");
    expect(() => letGo({})).toThrow("Expected a hold from tensor.hold() for hold but received an object");
  });
});
