// nms against hand-computed overlaps. IoU = intersection / (areaA + areaB - intersection);
// the boxes are chosen so that it is exact in floating point where a test sits on a threshold.
import { describe, expect, it } from "vitest";
import { InvalidTypeError, InvalidValueError } from "../errors/errors.js";
import { decodeYolo } from "./decode-yolo.js";
import { detectionItems, detectionsFrom, type Detection, type Detections } from "./detections.js";
import { nms } from "./nms.js";
import { PostprocessScratch } from "./scratch.js";
import { yoloOutput } from "../test-support/yolo-output.js";

type Row = Omit<Detection, "index">;

function box(left: number, top: number, width: number, height: number, confidence: number, classId = 0): Row {
  return { left, top, width, height, confidence, classId };
}

/** Each kept box as [left, top, width, height, confidence, classId]. */
function rows(detections: Detections): number[][] {
  return [...detectionItems(detections)].map((kept) => [kept.left, kept.top, kept.width, kept.height, kept.confidence, kept.classId]);
}

/** The lefts of the kept boxes: the tests give each box a distinct left to name it. */
function lefts(detections: Detections): number[] {
  return Array.from(detections.left);
}

describe("nms threshold", () => {
  // A = [0,0 2×2] (area 4), B = [0,0 2×1] (area 2) inside it: IoU = 2 / (4 + 2 - 2) = 0.5.
  const pair = detectionsFrom([box(0, 0, 2, 2, 0.5), box(0, 0, 2, 1, 0.25)]);

  it("suppresses only when the IoU is strictly greater than the threshold", () => {
    expect(nms(pair, { iouThreshold: 0.5 }).count).toBe(2);
    expect(rows(nms(pair, { iouThreshold: 0.49 }))).toEqual([[0, 0, 2, 2, 0.5, 0]]);
  });

  it("keeps an IoU of exactly the default 0.45", () => {
    // A = [0,0 4×5] (area 20), B = [0,0 3×3] (area 9) inside it: IoU = 9 / 20 = 0.45.
    const boxes = detectionsFrom([box(0, 0, 4, 5, 0.5), box(0, 0, 3, 3, 0.25)]);
    expect(nms(boxes).count).toBe(2);
    expect(nms(boxes, { iouThreshold: 0.44 }).count).toBe(1);
  });

  it("suppresses nothing at 1, even identical boxes; any overlap at 0, but not touching edges", () => {
    const boxes = detectionsFrom([box(0, 0, 4, 4, 0.5), box(0, 0, 4, 4, 0.25), box(4, 0, 4, 4, 0.125), box(3.5, 3.5, 4, 4, 0.0625)]);
    expect(nms(boxes, { iouThreshold: 1 }).count).toBe(4);
    // B overlaps A fully, C only touches A (IoU 0), D overlaps A and C a little.
    expect(lefts(nms(boxes, { iouThreshold: 0 }))).toEqual([0, 4]);
  });

  it("is greedy: a suppressed box suppresses nothing", () => {
    // A [0..10], B [5..15], C [10..20], all 10 high: IoU(A,B) = IoU(B,C) = 50/150 = 1/3, IoU(A,C) = 0.
    const chain = detectionsFrom([box(0, 0, 10, 10, 0.9), box(5, 0, 10, 10, 0.8), box(10, 0, 10, 10, 0.7)]);
    expect(lefts(nms(chain, { iouThreshold: 0.3 }))).toEqual([0, 10]);
    expect(lefts(nms(chain, { iouThreshold: 1 / 3 }))).toEqual([0, 5, 10]);
  });
});

describe("nms classes", () => {
  const boxes = detectionsFrom([box(0, 0, 10, 10, 0.9, 0), box(1, 0, 10, 10, 0.8, 1), box(2, 0, 10, 10, 0.7, 0)]);

  it("class-aware by default: boxes of different classes never suppress each other", () => {
    expect(rows(nms(boxes))).toEqual([
      [0, 0, 10, 10, Math.fround(0.9), 0],
      [1, 0, 10, 10, Math.fround(0.8), 1],
    ]);
  });

  it("class-agnostic: the best box suppresses overlapping boxes of any class", () => {
    expect(lefts(nms(boxes, { classAware: false }))).toEqual([0]);
  });
});

describe("nms ordering and limits", () => {
  it("returns the kept boxes by confidence, highest first", () => {
    const boxes = detectionsFrom([box(0, 0, 1, 1, 0.25), box(10, 0, 1, 1, 0.75), box(20, 0, 1, 1, 0.5)]);
    expect(rows(nms(boxes)).map((row) => row[4])).toEqual([0.75, 0.5, 0.25]);
    expect(lefts(nms(boxes))).toEqual([10, 20, 0]);
  });

  it("breaks confidence ties by row, lowest first, for ordering and for who suppresses whom", () => {
    const disjoint = detectionsFrom([box(0, 0, 1, 1, 0.5), box(10, 0, 1, 1, 0.5), box(20, 0, 1, 1, 0.75), box(30, 0, 1, 1, 0.5)]);
    expect(lefts(nms(disjoint))).toEqual([20, 0, 10, 30]);
    // Identical boxes and scores: row 0 wins (class-agnostic, so that the classes can tell them apart).
    const tagged = detectionsFrom([box(0, 0, 4, 4, 0.5, 7), box(0, 0, 4, 4, 0.5, 8)]);
    expect(Array.from(nms(tagged, { classAware: false }).classId)).toEqual([7]);
  });

  it("orders -0 with 0 and negative confidences last, and drops NaN confidences", () => {
    const boxes = detectionsFrom([box(0, 0, 1, 1, 0), box(10, 0, 1, 1, -0.5), box(20, 0, 1, 1, Number.NaN), box(30, 0, 1, 1, -0), box(40, 0, 1, 1, 0.1)]);
    expect(lefts(nms(boxes))).toEqual([40, 0, 30, 10]);
  });

  it("keeps at most maxDetections, the best ranked", () => {
    const boxes = detectionsFrom([0.1, 0.9, 0.3, 0.7, 0.5].map((confidence, i) => box(i * 10, 0, 1, 1, confidence)));
    expect(lefts(nms(boxes, { maxDetections: 3 }))).toEqual([10, 30, 40]);
    expect(nms(boxes, { maxDetections: 0 }).count).toBe(0);
    expect(nms(boxes).count).toBe(5);
  });

  it("counts maxDetections over kept boxes, not over candidates looked at", () => {
    // The second box is suppressed by the first: the two kept are the first and the third.
    const boxes = detectionsFrom([box(0, 0, 10, 10, 0.9), box(0, 0, 10, 10, 0.8), box(50, 0, 10, 10, 0.7), box(90, 0, 10, 10, 0.6)]);
    expect(lefts(nms(boxes, { maxDetections: 2 }))).toEqual([0, 50]);
  });

  it("returns empty columns for no boxes", () => {
    const none = nms(detectionsFrom([]));
    expect(none.count).toBe(0);
    expect([none.left, none.top, none.width, none.height, none.confidence, none.classId].map((column) => column.length)).toEqual([0, 0, 0, 0, 0, 0]);
  });

  it("treats boxes of negative size as overlapping nothing", () => {
    const boxes = detectionsFrom([box(0, 0, 10, 10, 0.9), box(10, 0, -10, 10, 0.8)]);
    expect(nms(boxes, { iouThreshold: 0 }).count).toBe(2);
  });
});

describe("nms scratch", () => {
  const output = yoloOutput([
    [
      { cx: 5, cy: 5, w: 10, h: 10, scores: [0.9, 0] },
      { cx: 6, cy: 5, w: 10, h: 10, scores: [0.8, 0] },
      { cx: 50, cy: 50, w: 10, h: 10, scores: [0, 0.7] },
    ],
  ]);

  it("takes decode's result with the same scratch, and gives what it gives without one", () => {
    const scratch = new PostprocessScratch();
    const [candidates] = decodeYolo(output, { scratch });
    const kept = nms(candidates, { scratch });
    expect(rows(kept)).toEqual(rows(nms(decodeYolo(output)[0])));
    expect(rows(kept)).toEqual([
      [0, 0, 10, 10, Math.fround(0.9), 0],
      [45, 45, 10, 10, Math.fround(0.7), 1],
    ]);
    const again = nms(decodeYolo(output, { scratch })[0], { scratch });
    expect(again.left.buffer).toBe(kept.left.buffer);
  });

  it("takes its own result back with the same scratch (the result is not overwritten while read)", () => {
    const scratch = new PostprocessScratch();
    const once = nms(decodeYolo(output)[0], { scratch, classAware: false, iouThreshold: 1 });
    const expected = rows(nms(once, { classAware: false }));
    expect(rows(nms(once, { scratch, classAware: false }))).toEqual(expected);
  });
});

describe("nms without a scratch", () => {
  // Such calls share working arrays; their results must still be the caller's alone.
  it("gives results that later calls, with or without a scratch, leave as they are", () => {
    const first = nms(detectionsFrom([box(0, 0, 2, 2, 0.9), box(0, 0, 2, 2, 0.8), box(10, 0, 2, 2, 0.7)]));
    const firstRows = rows(first);
    expect(firstRows).toEqual([
      [0, 0, 2, 2, Math.fround(0.9), 0],
      [10, 0, 2, 2, Math.fround(0.7), 0],
    ]);
    const second = nms(detectionsFrom([box(5, 5, 3, 3, 0.6), box(20, 20, 1, 1, 0.5), box(30, 30, 1, 1, 0.4)]));
    nms(second, { scratch: new PostprocessScratch() });
    nms(first);
    expect(rows(first)).toEqual(firstRows);
    expect(second.count).toBe(3);
    expect(second.left.buffer).not.toBe(first.left.buffer);
  });
});

describe("nms arguments", () => {
  it("rejects malformed detections and options, naming them", () => {
    const good = detectionsFrom([box(0, 0, 1, 1, 0.5)]);
    expect(() => nms({ ...good, top: new Float32Array(2) })).toThrow(
      new InvalidValueError("Expected a Float32Array of 1 values (count) for nms detections.top but received 2 values"),
    );
    expect(() => nms({ ...good, classId: new Float32Array(1) as unknown as Int32Array })).toThrow(InvalidTypeError);
    expect(() => nms(good, { iouThreshold: -0.1 })).toThrow(new InvalidValueError("Expected a number from 0 to 1 for nms options.iouThreshold but received -0.1"));
    expect(() => nms(good, { maxDetections: 1.5 })).toThrow(InvalidValueError);
    expect(() => nms(good, { classAware: 1 as unknown as boolean })).toThrow(new InvalidTypeError("Expected a boolean for nms options.classAware but received 1"));
  });
});
