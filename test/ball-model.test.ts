// The test detector that scripts/make-ball-model.mjs writes, checked on CPU with ONNX
// Runtime against real `videotestsrc pattern=ball` frames: letterboxed the way a YOLOv8
// pipeline does, decoded with a confidence threshold and NMS, mapped back to the frame and
// compared with the ball's box found from the pixels alone.
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { InferenceSession, Tensor } from "onnxruntime-node";
import { beforeAll, describe, expect, it } from "vitest";
import { ballBoxFromPixels, intersectionOverUnion, renderFrames, type RgbFrame } from "./helpers/ball-frames";
import { repoRoot, scratchDir } from "./helpers/gst";
import { decodeYolov8, letterboxInto, unletterbox, type Detection, type Letterbox } from "./helpers/yolo";

const SIZE = 640;
const FRAMES = 30;
/** Every 10th source frame: 30 frames cover 300, the ball's path through every corner. */
const EVERY = 10;
const script = join(repoRoot, "scripts", "make-ball-model.mjs");

function makeModel(dir: string, name: string, args: string[] = []): string {
  const out = join(dir, `${name}.onnx`);
  execFileSync(process.execPath, [script, "--out", out, ...args], { stdio: "pipe" });
  return out;
}

function sha256(file: string): string {
  return createHash("sha256").update(readFileSync(file)).digest("hex");
}

/** Letterboxes one frame, runs the model and decodes image 0 of its output. */
async function detect(session: InferenceSession, frame: RgbFrame, padValue: number): Promise<{ detections: Detection[]; letterbox: Letterbox }> {
  const input = new Float32Array(3 * SIZE * SIZE);
  const letterbox = letterboxInto(frame, SIZE, padValue, input);
  const { output0 } = await session.run({ images: new Tensor("float32", input, [1, 3, SIZE, SIZE]) });
  return { detections: decodeYolov8(output0!.data as Float32Array, output0!.dims), letterbox };
}

describe("ball model (scripts/make-ball-model.mjs)", () => {
  let dir: string;
  let ballAsClass0: InferenceSession;
  let ballAsClass1: InferenceSession;

  beforeAll(async () => {
    dir = scratchDir("ball-model");
    ballAsClass0 = await InferenceSession.create(makeModel(dir, "ball-class-0"));
    ballAsClass1 = await InferenceSession.create(makeModel(dir, "ball-class-1", ["--ball-class", "1"]));
  });

  it("writes the same bytes for the same arguments, and other bytes for other arguments", () => {
    const first = sha256(makeModel(dir, "again-1"));
    expect(sha256(makeModel(dir, "again-2"))).toBe(first);
    expect(sha256(join(dir, "ball-class-0.onnx"))).toBe(first);
    expect(sha256(join(dir, "ball-class-1.onnx"))).not.toBe(first);
  });

  it("has YOLOv8's input and output and writes its labels beside it", () => {
    expect(ballAsClass0.inputNames).toEqual(["images"]);
    expect(ballAsClass0.outputNames).toEqual(["output0"]);
    expect(ballAsClass0.inputMetadata[0]).toMatchObject({ isTensor: true, type: "float32", shape: [1, 3, SIZE, SIZE] });
    expect(ballAsClass0.outputMetadata[0]).toMatchObject({ isTensor: true, type: "float32", shape: [1, 6, 3] });
    expect(JSON.parse(readFileSync(join(dir, "ball-class-0.json"), "utf8")).labels).toEqual(["ball", "not-ball"]);
    expect(JSON.parse(readFileSync(join(dir, "ball-class-1.json"), "utf8")).labels).toEqual(["not-ball", "ball"]);
  });

  describe.each([
    { width: 320, height: 240, padValue: 0 },
    { width: 320, height: 240, padValue: 114 },
    { width: 1280, height: 720, padValue: 0 },
    { width: 1280, height: 720, padValue: 114 },
  ])("on $width x $height frames letterboxed on $padValue", ({ width, height, padValue }) => {
    let frames: RgbFrame[];

    beforeAll(() => {
      frames = renderFrames(dir, { width, height, frames: FRAMES, every: EVERY });
    });

    it("finds exactly one ball per frame, with IoU >= 0.7 against the ball's pixels", async ({ annotate }) => {
      expect(frames).toHaveLength(FRAMES);
      const ious: number[] = [];
      for (const [index, frame] of frames.entries()) {
        const truth = ballBoxFromPixels(frame);
        expect(truth, `frame ${index}: no ball in the pixels`).toBeDefined();
        const { detections, letterbox } = await detect(ballAsClass0, frame, padValue);
        expect(detections.map(({ classId }) => classId), `frame ${index}`).toEqual([0]);
        const iou = intersectionOverUnion(unletterbox(detections[0]!.box, letterbox), truth!);
        expect(iou, `frame ${index}: IoU with the ball's pixels`).toBeGreaterThanOrEqual(0.7);
        ious.push(iou);
      }
      await annotate(`IoU min ${Math.min(...ious).toFixed(3)}, mean ${(ious.reduce((a, b) => a + b) / ious.length).toFixed(3)}`);
    });

    it("reports the ball as the class given by --ball-class", async () => {
      for (const frame of frames.slice(0, 5)) {
        const { detections } = await detect(ballAsClass1, frame, padValue);
        expect(detections.map(({ classId }) => classId)).toEqual([1]);
      }
    });
  });

  it("needs the confidence threshold and NMS: a low decoy and a duplicate ride along", async () => {
    const [frame] = renderFrames(dir, { width: 320, height: 240, frames: 1 });
    const input = new Float32Array(3 * SIZE * SIZE);
    letterboxInto(frame!, SIZE, 114, input);
    const { output0 } = await ballAsClass0.run({ images: new Tensor("float32", input, [1, 3, SIZE, SIZE]) });
    const everything = decodeYolov8(output0!.data as Float32Array, output0!.dims, 0, { confidenceThreshold: 0, nmsThreshold: 1 });
    expect(everything.map(({ candidate, classId }) => ({ candidate, classId }))).toEqual([
      { candidate: 1, classId: 0 },
      { candidate: 0, classId: 0 },
      { candidate: 2, classId: 1 },
    ]);
    expect(everything.map(({ confidence }) => confidence)).toEqual([expect.closeTo(1, 3), expect.closeTo(0.5, 3), expect.closeTo(0.1, 6)]);
    // Without NMS the duplicate (the ball's box grown by 10%, IoU 0.83) survives the threshold.
    expect(decodeYolov8(output0!.data as Float32Array, output0!.dims, 0, { nmsThreshold: 1 })).toHaveLength(2);
  });

  it("finds nothing in a frame without a ball", async () => {
    const [frame] = renderFrames(dir, { width: 320, height: 240, frames: 1, pattern: "black" });
    for (const padValue of [0, 114]) {
      const { detections } = await detect(ballAsClass0, frame!, padValue);
      expect(detections).toEqual([]);
    }
  });

  it("keeps the images of a batch apart (--batch dynamic)", async () => {
    const batched = await InferenceSession.create(makeModel(dir, "dynamic-batch", ["--batch", "dynamic"]));
    const frames = renderFrames(dir, { width: 320, height: 240, frames: 2, every: 50 });
    const input = new Float32Array(2 * 3 * SIZE * SIZE);
    frames.forEach((frame, image) => letterboxInto(frame, SIZE, 114, input, image * 3 * SIZE * SIZE));
    const { output0 } = await batched.run({ images: new Tensor("float32", input, [2, 3, SIZE, SIZE]) });
    expect(output0!.dims).toEqual([2, 6, 3]);
    for (const [image, frame] of frames.entries()) {
      const { detections } = await detect(ballAsClass0, frame, 114);
      // Equal up to float32 rounding: the reductions may sum in another order for a batch.
      const roundedBoxes = (found: Detection[]) =>
        found.map(({ classId, box }) => ({ classId, box: Object.values(box).map((side) => Math.round(side * 100) / 100) }));
      expect(roundedBoxes(decodeYolov8(output0!.data as Float32Array, output0!.dims, image))).toEqual(roundedBoxes(detections));
    }
  });

  it("rejects a ball class outside the classes, with the usual message and exit status 2", () => {
    const run = spawnSync(process.execPath, [script, "--out", join(dir, "bad.onnx"), "--classes", "2", "--ball-class", "2"], { encoding: "utf8" });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('Expected an integer from 0 to 1 for --ball-class but received "2"');
  });
});
