// The ball detector example (an InferenceElement on the ONNX test model)
// runs in a real pipeline; the ball is located independently from the pixels of the same
// frames, and every frame's detection must overlap it with IoU >= 0.7.
import { cpSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ballBoxFromPixels, intersectionOverUnion, renderFrames, type Box, type RgbFrame } from "./helpers/ball-frames";
import { launch, repoRoot, scratchDir, type GstRun } from "./helpers/gst";
import { ballDetectorDist, builtinDist } from "./helpers/projects";

const model = join(repoRoot, "examples", "ball-detector", "model", "ball.onnx");

interface DumpedObject {
  classId: number;
  label: string;
  confidence: number;
  uniqueComponentId: number;
  rectParams: { left: number; top: number; width: number; height: number };
}
interface DumpedLine {
  frameItems: { frameNum: number; bufPts: number; objectItems: DumpedObject[] }[];
}

function dumped(file: string): DumpedLine[] {
  return readFileSync(file, "utf8").trim().split("\n").map((line) => JSON.parse(line) as DumpedLine);
}

function boxOf(object: DumpedObject): Box {
  const { left, top, width, height } = object.rectParams;
  return { left, top, right: left + width, bottom: top + height };
}

describe.each([
  { width: 320, height: 240, format: "RGB", frames: 300 },
  { width: 1280, height: 720, format: "BGRx", frames: 60 },
])("ball detector, $frames frames of $width x $height $format", ({ width, height, format, frames }) => {
  let dir: string;
  let run: GstRun;
  let lines: DumpedLine[];
  let pixels: RgbFrame[];

  beforeAll(() => {
    dir = scratchDir("ball-detector");
    const dump = join(dir, "dump.jsonl");
    run = launch(
      `videotestsrc pattern=ball num-buffers=${frames} ! video/x-raw,format=${format},width=${width},height=${height},framerate=30/1 ! ` +
        `balldetector model=${model} unique-component-id=7 ! dsmetadump location=${dump} ! fakesink`,
      { dists: [ballDetectorDist, builtinDist], timeoutMs: 170_000 },
    );
    lines = run.code === 0 ? dumped(dump) : [];
    // The same frames again, as RGB, for the pixels' own answer.
    pixels = renderFrames(dir, { width, height, frames });
  });

  it("runs to the end", () => {
    expect(run.signal, run.output).toBeNull();
    expect(run.code, run.output).toBe(0);
    expect(lines).toHaveLength(frames);
  });

  it("finds the ball on every frame: one object, IoU >= 0.7 with the ball's box from the pixels", () => {
    const ious: number[] = [];
    for (const [n, line] of lines.entries()) {
      const frame = line.frameItems[0]!;
      expect(frame.frameNum).toBe(n);
      const truth = ballBoxFromPixels(pixels[n]!);
      expect(truth, `frame ${n} has a ball`).toBeDefined();
      expect(frame.objectItems, `frame ${n}`).toHaveLength(1);
      const [object] = frame.objectItems;
      expect(object).toMatchObject({ classId: 0, label: "ball", uniqueComponentId: 7 });
      expect(object!.confidence).toBeGreaterThan(0.9);
      const iou = intersectionOverUnion(boxOf(object!), truth!);
      expect(iou, `frame ${n}: detected ${JSON.stringify(object!.rectParams)}, pixels ${JSON.stringify(truth)}`).toBeGreaterThanOrEqual(0.7);
      ious.push(iou);
    }
    expect(ious).toHaveLength(frames);
  });
});

describe("ball detector, its dist/ copied away from the repository", () => {
  it("runs from the copy alone: onnxruntime-node and what it requires travel in dist/", () => {
    // Outside the checkout, no node_modules/ above the copy can stand in for a missing package.
    const copy = join(mkdtempSync(join(tmpdir(), "ds-element-dist-copy-")), "dist");
    cpSync(ballDetectorDist, copy, { recursive: true });
    const dump = join(scratchDir("ball-detector-copy"), "dump.jsonl");
    const run = launch(
      `videotestsrc pattern=ball num-buffers=10 ! video/x-raw,format=RGB,width=320,height=240 ! ` +
        `balldetector model=${model} ! dsmetadump location=${dump} ! fakesink`,
      { dists: [copy, builtinDist], timeoutMs: 120_000 },
    );
    expect(run.code, run.output).toBe(0);
    const lines = dumped(dump);
    expect(lines).toHaveLength(10);
    expect(lines.every((line) => line.frameItems[0]!.objectItems.some((object) => object.label === "ball"))).toBe(true);
  });
});
