import { afterEach, describe, expect, it } from "vitest";
import { requireStandaloneBinding } from "../test-support/standalone-binding.js";
import { TensorHandle } from "../tensor/tensor-handle.js";
import { decodeYolo, useNativeArgmax } from "./decode-yolo.js";
import { detectionItems } from "./detections.js";

/** A YOLOv8-style [batch, 4 + C, N] output with scores that make the argmax work: ties, NaN, runs. */
function output(batch: number, classes: number, candidates: number, seed: number): Float32Array {
  let state = seed;
  const random = () => ((state = (state * 1103515245 + 12345) >>> 0) / 2 ** 32);
  const data = new Float32Array(batch * (4 + classes) * candidates);
  for (let b = 0; b < batch; b++) {
    const base = b * (4 + classes) * candidates;
    for (let i = 0; i < candidates; i++) {
      data[base + i] = random() * 640;
      data[base + candidates + i] = random() * 640;
      data[base + 2 * candidates + i] = 4 + random() * 100;
      data[base + 3 * candidates + i] = 4 + random() * 100;
    }
    for (let c = 0; c < classes; c++) {
      for (let i = 0; i < candidates; i++) {
        const r = random();
        // Mostly background, some objects, exact ties (0.5), NaN and -Infinity now and then.
        data[base + (4 + c) * candidates + i] = r < 0.01 ? NaN : r < 0.02 ? -Infinity : r < 0.05 ? 0.5 : r < 0.1 ? random() : random() * 0.02;
      }
    }
  }
  return data;
}

const binding = requireStandaloneBinding().tensor;

describe("decodeYolo's native class argmax", () => {
  afterEach(() => useNativeArgmax(true));

  it("is there in this build", () => {
    expect(typeof binding.classArgmax).toBe("function");
  });

  it.each([
    { batch: 1, classes: 80, candidates: 8400, threshold: 0.25 },
    { batch: 3, classes: 17, candidates: 1001, threshold: 0.001 },
    { batch: 2, classes: 2, candidates: 4096, threshold: 0.5 },
  ])("gives exactly the TypeScript results: $batch x [4 + $classes, $candidates], threshold $threshold", ({ batch, classes, candidates, threshold }) => {
    const data = output(batch, classes, candidates, classes * 7 + candidates);
    const dims = [batch, 4 + classes, candidates];
    const native = decodeYolo({ data, dims }, { confidenceThreshold: threshold }).map((d) => [...detectionItems(d)]);
    useNativeArgmax(false);
    const typescript = decodeYolo({ data, dims }, { confidenceThreshold: threshold }).map((d) => [...detectionItems(d)]);
    expect(native.reduce((n, d) => n + d.length, 0)).toBeGreaterThan(0);
    expect(native).toEqual(typescript);
  });

  it("checks its arguments natively too", () => {
    expect(() => binding.classArgmax(new Float32Array(10), 0, 2, 8, new Float32Array(8), new Int32Array(8))).toThrow(
      "Expected data of at least 16 elements and result arrays of 8 for classArgmax but received 10, 8 and 8",
    );
    expect(() => binding.classArgmax(new Float64Array(16) as never, 0, 2, 8, new Float32Array(8), new Int32Array(8))).toThrow(
      /^Expected a Float32Array for data but received/,
    );
  });
});

describe("decodeYolo of a TensorHandle", () => {
  it("decodes a host tensor as its data and shape, and the results outlive the tensor", () => {
    const data = output(2, 3, 50, 11);
    const dims = [2, 7, 50];
    const tensor = TensorHandle.fromTypedArray(data, dims);
    const fromTensor = decodeYolo(tensor, { confidenceThreshold: 0.05 }).map((d) => [...detectionItems(d)]);
    tensor.dispose();
    const fromArrays = decodeYolo({ data, dims }, { confidenceThreshold: 0.05 }).map((d) => [...detectionItems(d)]);
    expect(fromTensor.reduce((n, d) => n + d.length, 0)).toBeGreaterThan(0);
    expect(fromTensor).toEqual(fromArrays);
  });

  it("refuses a tensor that is not float32, naming its dtype", () => {
    const tensor = TensorHandle.fromTypedArray(new Uint8Array(7 * 4), [7, 4]);
    expect(() => decodeYolo(tensor)).toThrow("Expected a float32 tensor (convert other types first) for decodeYolo output but received a uint8 tensor");
  });
});
