// decodeYolo and nms against a deliberately naive reference on seeded random inputs. The
// reference reads the tensor through an index function, keeps plain objects, sorts with a
// comparator and checks each candidate against the boxes kept so far: a different formulation
// of the same rules, so an optimisation that changes a result shows up here. Values sit on a
// coarse grid (integer boxes, scores in eighths) so that ties and IoUs exactly at the
// threshold happen often. A failing case prints its seed in the test name.
import { describe, expect, it } from "vitest";
import { seededRandom, type Candidate, yoloOutput } from "../test-support/yolo-output.js";
import { decodeYolo, type YoloLayout } from "./decode-yolo.js";
import { detectionItems, detectionsFrom, type Detection, type Detections } from "./detections.js";
import { nms } from "./nms.js";
import { PostprocessScratch } from "./scratch.js";

type Row = Omit<Detection, "index">;

interface DecodeCase {
  images: Candidate[][];
  classCount: number;
  layout: YoloLayout;
  threshold: number;
  classes: number[] | undefined;
  maxCandidates: number | undefined;
}

function referenceDecode({ images, classCount, layout, threshold, classes, maxCandidates }: DecodeCase): Row[][] {
  return images.map((image) => {
    const { data, dims } = yoloOutput([image], layout, false, classCount);
    const channels = layout === "channels-first" ? (dims[0] as number) : (dims[1] as number);
    const count = image.length;
    const value = (candidate: number, channel: number): number =>
      data[layout === "channels-first" ? channel * count + candidate : candidate * channels + channel] as number;
    const found: { row: Row; index: number }[] = [];
    for (let i = 0; i < count; i++) {
      let classId = -1;
      for (let c = 0; c < channels - 4; c++) {
        const score = value(i, 4 + c);
        if (Number.isNaN(score)) continue;
        if (classId === -1 || score > value(i, 4 + classId)) classId = c;
      }
      if (classId === -1) continue;
      const confidence = value(i, 4 + classId);
      if (confidence < threshold) continue;
      if (classes !== undefined && !classes.includes(classId)) continue;
      const [cx, cy, w, h] = [value(i, 0), value(i, 1), value(i, 2), value(i, 3)];
      if (!(w >= 0 && h >= 0) || ![cx, cy, w, h].every(Number.isFinite)) continue;
      found.push({ row: { left: Math.fround(cx - w / 2), top: Math.fround(cy - h / 2), width: w, height: h, confidence, classId }, index: i });
    }
    if (maxCandidates === undefined || found.length <= maxCandidates) return found.map(({ row }) => row);
    const best = [...found].sort((a, b) => b.row.confidence - a.row.confidence || a.index - b.index).slice(0, maxCandidates);
    return best.sort((a, b) => a.index - b.index).map(({ row }) => row);
  });
}

function referenceIou(a: Row, b: Row): number {
  const overlapWidth = Math.max(0, Math.min(a.left + a.width, b.left + b.width) - Math.max(a.left, b.left));
  const overlapHeight = Math.max(0, Math.min(a.top + a.height, b.top + b.height) - Math.max(a.top, b.top));
  const intersection = overlapWidth * overlapHeight;
  if (intersection === 0) return 0;
  return intersection / (a.width * a.height + b.width * b.height - intersection);
}

function referenceNms(rows: Row[], iouThreshold: number, classAware: boolean, maxDetections: number): Row[] {
  const ranked = rows
    .map((row, index) => ({ row, index }))
    .filter(({ row }) => !Number.isNaN(row.confidence))
    .sort((a, b) => b.row.confidence - a.row.confidence || a.index - b.index);
  const kept: Row[] = [];
  for (const { row } of ranked) {
    if (kept.length === maxDetections) break;
    const overlapped = kept.some((other) => (!classAware || other.classId === row.classId) && referenceIou(other, row) > iouThreshold);
    if (!overlapped) kept.push(row);
  }
  return kept;
}

function rowsOf(detections: Detections): Row[] {
  return [...detectionItems(detections)].map(({ index: _index, ...row }) => row);
}

/** Float32 storage as the columns keep it, for comparing reference rows. */
function stored(rows: Row[]): Row[] {
  return rowsOf(detectionsFrom(rows));
}

function pick<T>(random: () => number, values: readonly T[]): T {
  return values[Math.floor(random() * values.length)] as T;
}

function randomCase(seed: number): DecodeCase {
  const random = seededRandom(seed);
  const classCount = 1 + Math.floor(random() * 6);
  const candidateCount = Math.floor(random() * 200);
  const imageCount = 1 + Math.floor(random() * 3);
  // Share of scores drawn from the whole range; the rest are 0 or 1/8. Few high scores keep
  // the channels-first decode on its gated loop, many switch it to the plain one mid-tensor.
  const highShare = pick(random, [0.03, 0.3, 1]);
  const images = Array.from({ length: imageCount }, () =>
    Array.from({ length: candidateCount }, (): Candidate => {
      const special = random();
      return {
        cx: Math.floor(random() * 40),
        cy: Math.floor(random() * 40),
        w: special < 0.02 ? -1 : Math.floor(random() * 16),
        h: special > 0.98 ? Number.NaN : Math.floor(random() * 16),
        scores: Array.from({ length: classCount }, () => {
          if (random() < 0.01) return Number.NaN;
          return random() < highShare ? Math.floor(random() * 9) / 8 : Math.floor(random() * 2) / 8;
        }),
      };
    }),
  );
  const classes = random() < 0.3 ? Array.from({ length: classCount }, (_, c) => c).filter(() => random() < 0.5) : undefined;
  return {
    images,
    classCount,
    layout: random() < 0.5 ? "channels-first" : "channels-last",
    threshold: pick(random, [0, 0.25, 0.5, 0.75, 1, random()]),
    classes,
    maxCandidates: random() < 0.3 ? Math.floor(random() * 50) : undefined,
  };
}

const SEEDS = Array.from({ length: 300 }, (_, i) => i + 1);

describe("decodeYolo and nms against the naive reference", () => {
  const scratch = new PostprocessScratch();

  it.each(SEEDS)("decode agrees (seed %i)", (seed) => {
    const testCase = randomCase(seed);
    const { images, classCount, layout, threshold, classes, maxCandidates } = testCase;
    const output = yoloOutput(images, layout, true, classCount);
    const options = { layout, confidenceThreshold: threshold, classes, maxCandidates, scratch: seed % 2 ? scratch : undefined };
    const expected = referenceDecode(testCase).map(stored);
    expect(decodeYolo(output, options).map(rowsOf)).toEqual(expected);
  });

  it.each(SEEDS)("decode + nms agree (seed %i)", (seed) => {
    const testCase = randomCase(seed);
    const random = seededRandom(seed * 7919);
    const iouThreshold = pick(random, [0, 1 / 3, 0.45, 0.5, 1, random()]);
    const classAware = random() < 0.5;
    const maxDetections = random() < 0.3 ? Math.floor(random() * 20) : 300;
    const output = yoloOutput(testCase.images, testCase.layout, true, testCase.classCount);
    const perImage = decodeYolo(output, { layout: testCase.layout, confidenceThreshold: testCase.threshold, scratch });
    const referenceImages = referenceDecode({ ...testCase, classes: undefined, maxCandidates: undefined }).map(stored);
    perImage.forEach((candidates, image) => {
      const expected = referenceNms(referenceImages[image] as Row[], iouThreshold, classAware, maxDetections);
      expect(rowsOf(nms(candidates, { iouThreshold, classAware, maxDetections, scratch }))).toEqual(expected);
    });
  });

  it.each(SEEDS.slice(0, 100))("nms agrees on arbitrary rows: negative, zero-size, NaN and tied (seed %i)", (seed) => {
    const random = seededRandom(seed * 104729);
    // Some seeds use class ids that are not 0..C-1 (negative, large): the Map path.
    const classIds = seed % 4 === 0 ? [-3, 7, 70000] : [0, 1, 2];
    const rows = Array.from({ length: Math.floor(random() * 120) }, (): Row => ({
      left: Math.floor(random() * 30) - 5,
      top: Math.floor(random() * 30) - 5,
      width: Math.floor(random() * 14) - 2,
      height: Math.floor(random() * 14) - 2,
      confidence: random() < 0.03 ? Number.NaN : (Math.floor(random() * 9) - 1) / 8,
      classId: pick(random, classIds),
    }));
    const iouThreshold = pick(random, [0, 0.25, 1 / 3, 0.5, 1, random()]);
    const classAware = random() < 0.5;
    const boxes = detectionsFrom(rows);
    expect(rowsOf(nms(boxes, { iouThreshold, classAware }))).toEqual(referenceNms(stored(rows), iouThreshold, classAware, 300));
  });
});
