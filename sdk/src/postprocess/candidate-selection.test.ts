// decodeYolo's native candidate selection (native-host/src/postprocess/candidates.h) and
// bestClasses, through the real binding. On a CUDA tensor a kernel selects the candidates; here
// (no GPU) the same rule runs as its CPU reference on host tensors (useCandidateSelection
// "native"), and must give exactly the host scan's detections. The kernel = reference half runs
// on the GPU machine: scripts/gpu/run-postprocess-device.sh.
import { afterEach, describe, expect, it } from "vitest";
import { requireStandaloneBinding } from "../test-support/standalone-binding.js";
import { TensorHandle } from "../tensor/tensor-handle.js";
import { bestClasses } from "./best-classes.js";
import { decodeYolo, useCandidateSelection, type DecodeYoloOptions, type YoloLayout } from "./decode-yolo.js";
import { detectionItems } from "./detections.js";
import { nms } from "./nms.js";

const binding = requireStandaloneBinding().tensor;

/** mulberry32: uncorrelated draws (an LCG's successive draws were not, and few outputs came out all low). */
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = Math.imul(state ^ (state >>> 15), state | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

/** A score from few values (ties, exactly 0.25), NaN and ±Infinity now and then, or anything. */
function score(random: () => number, low: boolean): number {
  const r = random();
  if (low) return r * 0.2;
  return r < 0.01 ? NaN : r < 0.02 ? -Infinity : r < 0.03 ? Infinity : r < 0.4 ? Math.floor(random() * 8) / 8 : random();
}

/** [batch, 4 + C, N] or [batch, N, 4 + C]; boxes sometimes negative or NaN (not boxes: dropped). */
function output(random: () => number, batch: number, classes: number, candidates: number, layout: YoloLayout, low: boolean): Float32Array {
  const channels = 4 + classes;
  const data = new Float32Array(batch * channels * candidates);
  const at = (image: number, channel: number, anchor: number) =>
    image * channels * candidates + (layout === "channels-first" ? channel * candidates + anchor : anchor * channels + channel);
  for (let image = 0; image < batch; image++) {
    for (let anchor = 0; anchor < candidates; anchor++) {
      for (let k = 0; k < 4; k++) {
        const r = random();
        data[at(image, k, anchor)] = r < 0.01 ? NaN : r < 0.02 ? -3 : random() * 640;
      }
      for (let c = 0; c < classes; c++) data[at(image, 4 + c, anchor)] = score(random, low);
    }
  }
  return data;
}

const items = (images: ReturnType<typeof decodeYolo>) => images.map((image) => [...detectionItems(image)]);

/** Decodes `data` as a host TensorHandle through the native selection, and as arrays through the scan. */
function bothPaths(data: Float32Array, dims: number[], options: DecodeYoloOptions) {
  const tensor = TensorHandle.fromTypedArray(data, dims);
  useCandidateSelection("native");
  const selected = decodeYolo(tensor, options);
  const selectedItems = items(selected);
  const selectedKept = selected.map((image) => [...detectionItems(nms(image))]);
  useCandidateSelection("auto");
  const scanned = decodeYolo({ data, dims }, options);
  tensor.dispose();
  return { selected: selectedItems, scanned: items(scanned), selectedKept, scannedKept: scanned.map((image) => [...detectionItems(nms(image))]) };
}

describe("decodeYolo's native candidate selection (the CUDA kernel's rule)", () => {
  afterEach(() => useCandidateSelection("auto"));

  it("gives exactly the host scan's detections on 300 random outputs (ties, NaN, ±Infinity, all below the threshold)", () => {
    const random = generator(28);
    const thresholds = [0, 0.001, 0.25, 0.3, 0.5, 0.875, 1];
    let detections = 0;
    let empty = 0;
    for (let round = 0; round < 300; round++) {
      const batch = 1 + Math.floor(random() * 3);
      const classes = 1 + Math.floor(random() * 40);
      const candidates = Math.floor(random() * 300);
      const layout: YoloLayout = random() < 0.5 ? "channels-first" : "channels-last";
      const low = random() < 0.2;
      const data = output(random, batch, classes, candidates, layout, low);
      const dims = layout === "channels-first" ? [batch, 4 + classes, candidates] : [batch, candidates, 4 + classes];
      const options: DecodeYoloOptions = {
        layout,
        confidenceThreshold: thresholds[Math.floor(random() * thresholds.length)],
        ...(random() < 0.3 ? { classes: [0, Math.floor(classes / 2)] } : {}),
        ...(random() < 0.2 ? { maxCandidates: Math.floor(random() * 20) } : {}),
      };
      const { selected, scanned, selectedKept, scannedKept } = bothPaths(data, dims, options);
      expect(selected, `round ${round}`).toEqual(scanned);
      expect(selectedKept, `round ${round}`).toEqual(scannedKept);
      const found = selected.reduce((n, image) => n + image.length, 0);
      detections += found;
      if (found === 0) empty++;
    }
    // Not vacuous: many detections, and some outputs with none.
    expect(detections).toBeGreaterThan(3000);
    expect(empty).toBeGreaterThan(10);
  });

  it.each([
    { threshold: 0.25, layout: "channels-first" as const },
    { threshold: 0.001, layout: "channels-first" as const },
    { threshold: 0.25, layout: "channels-last" as const },
  ])("gives exactly the host scan's detections on a real-shaped YOLOv8 output ($layout, threshold $threshold)", ({ threshold, layout }) => {
    const random = generator(8400);
    const data = new Float32Array(84 * 8400);
    // Background scores near 0, 40 objects on three neighbouring anchors each.
    for (let i = 0; i < data.length; i++) data[i] = random() * 0.02;
    const at = (channel: number, anchor: number) => (layout === "channels-first" ? channel * 8400 + anchor : anchor * 84 + channel);
    for (let anchor = 0; anchor < 8400; anchor++) {
      for (let k = 0; k < 4; k++) data[at(k, anchor)] = 4 + random() * 600;
    }
    for (let object = 0; object < 40; object++) {
      const anchor = Math.floor(random() * 8398);
      const classId = Math.floor(random() * 80);
      for (let k = 0; k < 3; k++) data[at(4 + classId, anchor + k)] = 0.3 + random() * 0.65;
    }
    const dims = layout === "channels-first" ? [1, 84, 8400] : [1, 8400, 84];
    const { selected, scanned, selectedKept, scannedKept } = bothPaths(data, dims, { confidenceThreshold: threshold, layout });
    expect(selected[0]!.length).toBeGreaterThanOrEqual(threshold === 0.25 ? 100 : 8400);
    expect(selected).toEqual(scanned);
    expect(selectedKept).toEqual(scannedKept);
  });

  it("compares the threshold in double, as the scan does: float32(0.7) is below 0.7", () => {
    // float32(0.7) = 0.69999998…: the scan drops it at 0.7; a threshold rounded to float32 for
    // the compare would keep it. float32(0.7) + 1 ulp passes either way.
    const data = new Float32Array([10, 10, 10, 4, 4, 4, 2, 2, 2, 2, 2, 2, 0.7, Math.fround(0.7) + 2 ** -24, 0.1]);
    const { selected, scanned } = bothPaths(data, [5, 3], { confidenceThreshold: 0.7 });
    expect(selected).toEqual(scanned);
    expect(selected[0]!.map((detection) => detection.confidence)).toEqual([Math.fround(0.7) + 2 ** -24]);
  });

  it("checks its tensor natively", () => {
    const tensor = TensorHandle.fromTypedArray(new Float32Array(10), [2, 5]);
    const source = { kind: "js", data: new Float32Array(10), dtype: "float32", shape: [2, 5], strides: [5, 1], byteOffset: 0 } as never;
    expect(() => binding.yoloCandidates(source, true, 1, 2, 3, 0.25)).toThrow(
      /^Expected a dense float32 tensor of 18 values for yoloCandidates but received /,
    );
    expect(() => binding.yoloCandidates(source, true, 65536, 1, 65536, 0.25)).toThrow(
      "Expected at most 2147483647 anchors (batch × candidates) for yoloCandidates but received 4294967296",
    );
    tensor.dispose();
  });
});

describe("bestClasses", () => {
  it.each([1, 2, 5, 31, 32, 33, 80, 1000])("gives each row's best class and score natively as in the scan (%i classes)", (classes) => {
    const random = generator(classes);
    const rows = 37;
    const data = new Float32Array(rows * classes);
    for (let i = 0; i < data.length; i++) data[i] = score(random, false);
    data.fill(NaN, 0, classes); // row 0: every score NaN → class -1
    data.fill(-Infinity, classes, 2 * classes); // row 1: -Infinity → class -1
    const tensor = TensorHandle.fromTypedArray(data, [rows, classes]);
    const native = bestClasses(tensor);
    tensor.dispose();
    const scanned = bestClasses({ data, dims: [rows, classes] });
    expect(native.classIds).toEqual(scanned.classIds);
    expect(native.scores).toEqual(scanned.scores);
    expect([native.classIds[0], native.classIds[1], native.scores[0]]).toEqual([-1, -1, -Infinity]);
  });

  it("keeps the lowest class of a tie and skips NaN", () => {
    const { classIds, scores } = bestClasses({ data: new Float32Array([NaN, 0.5, 0.7, 0.2, 0.7, 0.7]), dims: [2, 3] });
    expect([...classIds]).toEqual([2, 1]);
    expect([...scores]).toEqual([Math.fround(0.7), Math.fround(0.7)]);
    expect([...bestClasses({ data: new Float32Array([0.1, 0.9]), dims: [2] }).classIds]).toEqual([1]);
  });

  it("refuses what it cannot read, naming the value", () => {
    expect(() => bestClasses({ data: new Float32Array(5), dims: [2, 3] })).toThrow("Expected 6 values (dims [2,3]) for bestClasses output.data but received 5 values");
    expect(() => bestClasses({ data: new Float32Array(0), dims: [] })).toThrow(
      /^Expected at least one integer size, the classes last and at least 1 for bestClasses output.dims but received/,
    );
    const bytes = TensorHandle.fromTypedArray(new Uint8Array(6), [2, 3]);
    expect(() => bestClasses(bytes)).toThrow("Expected a float32 tensor (convert other types first) for bestClasses output but received a uint8 tensor");
    bytes.dispose();
  });
});
