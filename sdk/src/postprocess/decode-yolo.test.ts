// decodeYolo against hand-computed candidates: each expected row is worked out from the
// candidate above it (left = cx - w/2, top = cy - h/2, the best class and its score).
import { describe, expect, expectTypeOf, it } from "vitest";
import { InvalidTypeError, InvalidValueError } from "../errors/errors.js";
import type { ObjectColumns } from "../metadata/frame-meta.js";
import type { TensorLayer } from "../metadata/tensor-output-meta.js";
import { yoloOutput, type Candidate } from "../test-support/yolo-output.js";
import { decodeYolo, type BatchDetections } from "./decode-yolo.js";
import { detectionItems, type Detections } from "./detections.js";
import { nms } from "./nms.js";
import { PostprocessScratch } from "./scratch.js";

const f = Math.fround;

/** Rows as [left, top, width, height, confidence, classId]. */
function rows(detections: Detections): number[][] {
  return [...detectionItems(detections)].map((box) => [box.left, box.top, box.width, box.height, box.confidence, box.classId]);
}

// Two classes. Expected with the default threshold 0.25 (>=):
const THREE: Candidate[] = [
  { cx: 50, cy: 50, w: 20, h: 10, scores: [0.9, 0.1] }, //     kept: class 0, [40, 45, 20, 10]
  { cx: 100, cy: 100, w: 10, h: 10, scores: [0.2, 0.25] }, // kept: exactly at the threshold
  { cx: 10, cy: 10, w: 4, h: 4, scores: [0.24, 0.1] }, //      dropped: below it
];

describe("decodeYolo thresholds", () => {
  it("keeps candidates whose best score is >= the threshold (default 0.25)", () => {
    const [candidates] = decodeYolo(yoloOutput([THREE]));
    expect(rows(candidates)).toEqual([
      [40, 45, 20, 10, f(0.9), 0],
      [95, 95, 10, 10, 0.25, 1],
    ]);
    expect(candidates.count).toBe(2);
  });

  it("applies the given threshold", () => {
    expect(rows(decodeYolo(yoloOutput([THREE]), { confidenceThreshold: 0.5 })[0])).toEqual([[40, 45, 20, 10, f(0.9), 0]]);
    expect(decodeYolo(yoloOutput([THREE]), { confidenceThreshold: 0 })[0].count).toBe(3);
    expect(decodeYolo(yoloOutput([THREE]), { confidenceThreshold: 1 })[0].count).toBe(0);
  });

  it("gives columns exactly count long (what frame.addObjects requires)", () => {
    const [candidates] = decodeYolo(yoloOutput([THREE]));
    for (const column of [candidates.left, candidates.top, candidates.width, candidates.height, candidates.confidence, candidates.classId]) {
      expect(column.length).toBe(2);
    }
  });
});

describe("decodeYolo argmax", () => {
  it("takes the best class; a tie goes to the lowest class id", () => {
    const [candidates] = decodeYolo(yoloOutput([[{ cx: 8, cy: 8, w: 4, h: 2, scores: [0.3, 0.7, 0.7, 0.1] }]]));
    expect(rows(candidates)).toEqual([[6, 7, 4, 2, f(0.7), 1]]);
  });

  it("never lets a NaN score win, and drops a candidate with only NaN scores", () => {
    const image: Candidate[] = [
      { cx: 8, cy: 8, w: 4, h: 2, scores: [Number.NaN, 0.5, 0.4] },
      { cx: 8, cy: 8, w: 4, h: 2, scores: [Number.NaN, Number.NaN, Number.NaN] },
    ];
    for (const layout of ["channels-first", "channels-last"] as const) {
      expect(rows(decodeYolo(yoloOutput([image], layout), { layout })[0])).toEqual([[6, 7, 4, 2, 0.5, 1]]);
    }
  });

  it("drops candidates whose box is negative or not finite", () => {
    const output = yoloOutput([
      [
        { cx: 8, cy: 8, w: -4, h: 2, scores: [0.9] },
        { cx: Number.NaN, cy: 8, w: 4, h: 2, scores: [0.9] },
        { cx: 8, cy: 8, w: Number.POSITIVE_INFINITY, h: 2, scores: [0.9] },
        { cx: 8, cy: 8, w: 0, h: 0, scores: [0.9] },
      ],
    ]);
    expect(rows(decodeYolo(output)[0])).toEqual([[8, 8, 0, 0, f(0.9), 0]]);
  });
});

describe("decodeYolo class filter", () => {
  const output = yoloOutput([
    [
      { cx: 10, cy: 10, w: 2, h: 2, scores: [0.9, 0.8, 0] }, // best is class 0
      { cx: 20, cy: 20, w: 2, h: 2, scores: [0.1, 0.6, 0] }, // best is class 1
      { cx: 30, cy: 30, w: 2, h: 2, scores: [0, 0, 0.3] }, //   best is class 2
    ],
  ]);

  it("keeps only the listed classes", () => {
    expect(rows(decodeYolo(output, { classes: [1, 2] })[0])).toEqual([
      [19, 19, 2, 2, f(0.6), 1],
      [29, 29, 2, 2, f(0.3), 2],
    ]);
  });

  it("filters after the argmax: a box whose best class is not listed is dropped, not relabelled", () => {
    expect(rows(decodeYolo(output, { classes: [1] })[0])).toEqual([[19, 19, 2, 2, f(0.6), 1]]);
  });

  it("keeps nothing for an empty list", () => {
    expect(decodeYolo(output, { classes: [] })[0].count).toBe(0);
  });
});

describe("decodeYolo layouts and batches", () => {
  const imageA: Candidate[] = [
    { cx: 50, cy: 60, w: 20, h: 10, scores: [0.1, 0.8, 0.3] },
    { cx: 5, cy: 6, w: 2, h: 4, scores: [0.05, 0.1, 0.2] },
    { cx: 300, cy: 200, w: 40, h: 80, scores: [0.5, 0.5, 0.4] },
  ];
  const imageB: Candidate[] = [
    { cx: 1, cy: 1, w: 2, h: 2, scores: [0, 0, 0] },
    { cx: 100, cy: 100, w: 50, h: 50, scores: [0.3, 0.2, 0.95] },
    { cx: 7, cy: 9, w: 4, h: 6, scores: [0.26, 0, 0] },
  ];
  const expectedA = [
    [40, 55, 20, 10, f(0.8), 1],
    [280, 160, 40, 80, 0.5, 0],
  ];
  const expectedB = [
    [75, 75, 50, 50, f(0.95), 2],
    [5, 6, 4, 6, f(0.26), 0],
  ];

  it.each(["channels-first", "channels-last"] as const)("decodes %s with and without a batch dim", (layout) => {
    expect(rows(decodeYolo(yoloOutput([imageA], layout, false), { layout })[0])).toEqual(expectedA);
    expect(rows(decodeYolo(yoloOutput([imageA], layout, true), { layout })[0])).toEqual(expectedA);
  });

  it.each(["channels-first", "channels-last"] as const)("decodes each image of a %s batch", (layout) => {
    const perImage = decodeYolo(yoloOutput([imageA, imageB], layout), { layout });
    expect(perImage).toHaveLength(2);
    expect(perImage.map(rows)).toEqual([expectedA, expectedB]);
  });

  it("takes a plain Float32Array with numClasses and batchSize", () => {
    const { data } = yoloOutput([imageA, imageB]);
    expect(decodeYolo(data, { numClasses: 3, batchSize: 2 }).map(rows)).toEqual([expectedA, expectedB]);
    expect(rows(decodeYolo(yoloOutput([imageA]).data, { numClasses: 3 })[0])).toEqual(expectedA);
  });

  it("takes the transposed layout for a plain Float32Array too", () => {
    const { data } = yoloOutput([imageA, imageB], "channels-last");
    expect(decodeYolo(data, { numClasses: 3, batchSize: 2, layout: "channels-last" }).map(rows)).toEqual([expectedA, expectedB]);
  });

  it("decodes zero candidates to empty results", () => {
    const perImage = decodeYolo({ data: new Float32Array(0), dims: [2, 84, 0] });
    expect(perImage.map((candidates) => candidates.count)).toEqual([0, 0]);
  });
});

describe("decodeYolo channels-first loops", () => {
  it("gives the same boxes when it switches from skipping low scores to the plain argmax mid-tensor", () => {
    // 64 candidates, 4 classes. Class 0: one score over 0.25 (few: the gated loop goes on);
    // class 1: 16 over it (> 64 / 16: the rest of the rows take the plain loop); classes 2
    // and 3 then beat some of the earlier bests. Channels-last decodes in one plain loop.
    const image = Array.from({ length: 64 }, (_, i): Candidate => ({
      cx: i,
      cy: 2 * i,
      w: 4,
      h: 6,
      scores: [i === 5 ? 0.9 : 0.01, i % 4 === 0 ? 0.3 + i / 1000 : 0.02, i % 8 === 0 ? 0.35 : 0.2, i % 3 === 0 ? 0.5 : 0],
    }));
    const first = rows(decodeYolo(yoloOutput([image], "channels-first"))[0]);
    const last = rows(decodeYolo(yoloOutput([image], "channels-last"), { layout: "channels-last" })[0]);
    expect(first).toEqual(last);
    expect(first.find((row) => row[0] === 3)).toEqual([3, 7, 4, 6, f(0.9), 0]); // candidate 5
    expect(first.find((row) => row[0] === 2)).toEqual([2, 5, 4, 6, f(0.304), 1]); // candidate 4
    expect(first.find((row) => row[0] === 6)).toEqual([6, 13, 4, 6, f(0.35), 2]); // candidate 8: 0.35 beats 0.308
    expect(first.filter((row) => row[5] === 3)).toHaveLength(22); // the multiples of 3 in 0..63: 0.5 beats all but 0.9
  });
});

describe("decodeYolo maxCandidates", () => {
  const output = yoloOutput([
    [
      { cx: 1, cy: 1, w: 2, h: 2, scores: [0.5] },
      { cx: 2, cy: 2, w: 2, h: 2, scores: [0.9] },
      { cx: 3, cy: 3, w: 2, h: 2, scores: [0.5] },
      { cx: 4, cy: 4, w: 2, h: 2, scores: [0.7] },
    ],
  ]);

  it("keeps the best scores, still in candidate order", () => {
    expect(rows(decodeYolo(output, { maxCandidates: 2 })[0]).map((row) => row[0])).toEqual([1, 3]);
  });

  it("breaks a tie at the cut by the lower candidate index", () => {
    expect(rows(decodeYolo(output, { maxCandidates: 3 })[0]).map((row) => row[0])).toEqual([0, 1, 3]);
  });

  it("applies per image of a batch", () => {
    const batch = yoloOutput([
      [
        { cx: 1, cy: 1, w: 2, h: 2, scores: [0.5] },
        { cx: 2, cy: 2, w: 2, h: 2, scores: [0.9] },
      ],
      [
        { cx: 3, cy: 3, w: 2, h: 2, scores: [0.8] },
        { cx: 4, cy: 4, w: 2, h: 2, scores: [0.6] },
      ],
    ]);
    expect(decodeYolo(batch, { maxCandidates: 1 }).map((candidates) => rows(candidates).map((row) => row[0]))).toEqual([[1], [2]]);
  });

  it("keeps none with 0", () => {
    expect(decodeYolo(output, { maxCandidates: 0 })[0].count).toBe(0);
  });
});

describe("decodeYolo scratch", () => {
  it("gives the same results, as views of arrays reused from call to call", () => {
    const scratch = new PostprocessScratch();
    const output = yoloOutput([THREE]);
    const [first] = decodeYolo(output, { scratch });
    const firstRows = rows(first);
    const [second] = decodeYolo(output, { scratch });
    expect(rows(second)).toEqual(firstRows);
    expect(firstRows).toEqual(rows(decodeYolo(output)[0]));
    expect(second.left.buffer).toBe(first.left.buffer);
  });

  it("grows when a call needs more room", () => {
    const scratch = new PostprocessScratch();
    decodeYolo(yoloOutput([THREE]), { scratch });
    const many = Array.from({ length: 1000 }, (_, i): Candidate => ({ cx: i, cy: i, w: 2, h: 2, scores: [0.5] }));
    const [candidates] = decodeYolo(yoloOutput([many]), { scratch });
    expect(candidates.count).toBe(1000);
    expect(candidates.left[999]).toBe(998);
  });
});

describe("decodeYolo without a scratch", () => {
  // Such calls share working arrays; their results must still be the caller's alone.
  it("gives results that later calls leave as they are", () => {
    const [first] = decodeYolo(yoloOutput([THREE]));
    const firstRows = rows(first);
    const many = Array.from({ length: 300 }, (_, i): Candidate => ({ cx: i, cy: i, w: 2, h: 2, scores: [0.5] }));
    const [second] = decodeYolo(yoloOutput([many]));
    decodeYolo(yoloOutput([THREE]), { maxCandidates: 1 });
    expect(rows(first)).toEqual(firstRows);
    expect(second.count).toBe(300);
    expect(second.left[299]).toBe(298);
  });
});

describe("decodeYolo arguments", () => {
  const output = yoloOutput([THREE]);

  it("rejects what it cannot decode, naming the argument", () => {
    expect(() => decodeYolo(output, { numClasses: 3 })).toThrow(
      new InvalidValueError("Expected 2 (the tensor's 6 channels-first channels minus 4 box values) for decodeYolo options.numClasses but received 3"),
    );
    expect(() => decodeYolo({ data: new Uint16Array(6), dims: [6, 1] })).toThrow(
      new InvalidTypeError("Expected a Float32Array (a float32 output; convert other types first) for decodeYolo output.data but received a Uint16Array of 6 values"),
    );
    expect(() => decodeYolo({ data: undefined, dims: [6, 1] })).toThrow(InvalidTypeError);
    expect(() => decodeYolo({ data: new Float32Array(12), dims: [6, 3] })).toThrow(
      new InvalidValueError("Expected 18 values (dims [6,3]) for decodeYolo output.data but received 12 values"),
    );
    expect(() => decodeYolo({ data: new Float32Array(12), dims: [3, 4] })).toThrow(
      new InvalidValueError("Expected at least 5 channels (4 box values + classes) in the channels-first position for decodeYolo output.dims but received [3,4]"),
    );
    expect(() => decodeYolo({ data: new Float32Array(12), dims: [12] })).toThrow(InvalidValueError);
    expect(() => decodeYolo(new Float32Array(12), { numClasses: 5 })).toThrow(
      new InvalidValueError("Expected a multiple of batchSize × (4 + numClasses) = 9 values for decodeYolo output but received 12 values"),
    );
    expect(() => decodeYolo(new Float32Array(12), {} as { numClasses: number })).toThrow(
      new InvalidTypeError("Expected the number of classes (required for a plain Float32Array) for decodeYolo options.numClasses but received nothing"),
    );
    expect(() => decodeYolo(output, { confidenceThreshold: 1.5 })).toThrow(
      new InvalidValueError("Expected a number from 0 to 1 for decodeYolo options.confidenceThreshold but received 1.5"),
    );
    expect(() => decodeYolo(output, { classes: [0, 2] })).toThrow(
      new InvalidValueError("Expected a class id from 0 to 1 for decodeYolo options.classes[1] but received 2"),
    );
    expect(() => decodeYolo(output, { layout: "nchw" as "channels-first" })).toThrow(
      new InvalidValueError('Expected "channels-first" or "channels-last" for decodeYolo options.layout but received "nchw"'),
    );
    expect(() => decodeYolo(output, { maxCandidates: -1 })).toThrow(InvalidValueError);
    expect(() => decodeYolo(output, { scratch: {} as PostprocessScratch })).toThrow(InvalidTypeError);
  });
});

describe("decodeYolo types", () => {
  it("takes an nvinfer tensor layer as it is, and its first result needs no check", () => {
    const layer: TensorLayer = { name: "output0", dataType: "float32", dims: [6, 3], numElements: 18, data: yoloOutput([THREE]).data, devicePointer: 0n };
    const perImage = decodeYolo(layer);
    expectTypeOf(perImage).toEqualTypeOf<BatchDetections>();
    const [candidates] = perImage;
    expectTypeOf(candidates).toEqualTypeOf<Detections>();
    expect(candidates.count).toBe(2);
  });

  it("feeds frame.addObjects: a result, with labels spread in, is an ObjectColumns", () => {
    const kept = nms(decodeYolo(yoloOutput([THREE]))[0]);
    const columns: ObjectColumns = { ...kept, labels: ["person", "bicycle"] };
    expectTypeOf(kept).toExtend<ObjectColumns>();
    expect(columns.left).toBe(kept.left);
  });
});
