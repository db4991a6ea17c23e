// Detector, tracker, line counter and overlay from templates and built-ins, with no tracker of
// the user's: videotestsrc's ball at 1280 x 720 through the ball detector example, dstracker
// (sdk/builtin/src/dstracker.ts), the analytics template's element (templates/analytics, built as
// it is) and dsosd, 300 frames. The ball's crossings of a vertical line are worked out from its
// known motion (the formula of test/helpers/ball-frames.ts, checked here against the pixels of
// sampled frames), not from anything the pipeline computed; the counts it wrote must be exactly
// those, on the frames they happen, under one tracking id. Runs on this build's backend
// (portable, or NvDsBatchMeta under `npm run test:deepstream`).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ballBoxFromPixels, renderFrames } from "./helpers/ball-frames";
import { launch, repoRoot, scratchDir, type GstRun } from "./helpers/gst";
import { ballDetectorDist, buildProject, builtinDist } from "./helpers/projects";

const WIDTH = 1280;
const HEIGHT = 720;
const FRAMES = 300;
/** The counting line, x = LINE_X from top to bottom: crossing it left to right is "forward". */
const LINE_X = 766;
/** dstracker's default probation-age: the ball is reported from its 5th frame on. */
const PROBATION_AGE = 4;
const model = join(repoRoot, "examples", "ball-detector", "model", "ball.onnx");

/** The ball's centre on frame t (videotestsrc, GStreamer ≥ 1.22: test/helpers/ball-frames.ts). */
const ballX = (t: number) => 20 + (0.5 + 0.5 * Math.sin((2 * Math.PI * t) / 200)) * (WIDTH - 40);
const ballY = (t: number) => 20 + (0.5 + 0.5 * Math.sin((2 * Math.SQRT2 * Math.PI * t) / 200)) * (HEIGHT - 40);

/** Frames on which the ball's centre has crossed the line since the frame before, and which way. */
function expectedCrossings(fromFrame: number): { frame: number; crossed: "forward" | "backward" }[] {
  const crossings: { frame: number; crossed: "forward" | "backward" }[] = [];
  for (let t = fromFrame + 1; t < FRAMES; t++) {
    const [before, after] = [ballX(t - 1) - LINE_X, ballX(t) - LINE_X];
    if (before < 0 && after >= 0) crossings.push({ frame: t, crossed: "forward" });
    if (before > 0 && after <= 0) crossings.push({ frame: t, crossed: "backward" });
  }
  return crossings;
}

interface DumpedObject {
  objectId: number;
  label: string;
  trackerConfidence: number;
  rectParams: { left: number; top: number; width: number; height: number };
  textParams: { displayText: string };
  userMetaItems: { metaType: string; json?: { crossed?: string; inRoi: boolean } }[];
}
interface DumpedFrame {
  frameNum: number;
  objectItems: DumpedObject[];
  userMetaItems: { metaType: string; json?: { lineCrossings: { forward: number; backward: number } } }[];
}

describe("videotestsrc pattern=ball ! balldetector ! dstracker ! analytics template ! dsosd, 300 frames at 1280x720", () => {
  let run: GstRun;
  let frames: DumpedFrame[];

  beforeAll(() => {
    const dir = scratchDir("ball-tracking");
    const analyticsDist = join(dir, "analytics");
    buildProject(join(repoRoot, "templates", "analytics"), analyticsDist);
    const dump = join(dir, "dump.jsonl");
    run = launch(
      `videotestsrc pattern=ball num-buffers=${FRAMES} ! video/x-raw,format=RGB,width=${WIDTH},height=${HEIGHT},framerate=30/1 ! ` +
        `balldetector model=${model} ! dstracker ! template-element-name line="<${LINE_X},0,${LINE_X},${HEIGHT}>" anchor=center ! ` +
        `dsosd ! dsmetadump location=${dump} ! fakesink`,
      { dists: [ballDetectorDist, builtinDist, analyticsDist], timeoutMs: 170_000, env: { GST_DEBUG: "dstracker:4" } },
    );
    frames = run.code === 0 ? readFileSync(dump, "utf8").trim().split("\n").map((line) => (JSON.parse(line) as { frameItems: DumpedFrame[] }).frameItems[0]!) : [];
  });

  it("the ball moves as the formula says (sampled frames' pixels), never within 9 px of the line", () => {
    const sampled = renderFrames(scratchDir("ball-tracking-pixels"), { width: WIDTH, height: HEIGHT, frames: 10, every: 30 });
    for (const [index, frame] of sampled.entries()) {
      const box = ballBoxFromPixels(frame)!;
      const t = index * 30;
      expect(Math.abs((box.left + box.right) / 2 - ballX(t)), `frame ${t} x`).toBeLessThan(1.5);
      expect(Math.abs((box.top + box.bottom) / 2 - ballY(t)), `frame ${t} y`).toBeLessThan(1.5);
    }
    for (let t = 0; t < FRAMES; t++) expect(Math.abs(ballX(t) - LINE_X), `frame ${t}`).toBeGreaterThan(9);
  });

  it("runs to the end", () => {
    expect(run.signal, run.output).toBeNull();
    expect(run.code, run.output).toBe(0);
    expect(frames.map((frame) => frame.frameNum)).toEqual([...Array(FRAMES).keys()]);
  });

  it("the ball keeps one tracking id from the end of its probation to the last frame, labelled \"<label> <id>\"", () => {
    const objects = frames.map((frame) => frame.objectItems);
    // On probation the ball is untracked, and removed as nvtracker removes untracked objects.
    expect(objects.slice(0, PROBATION_AGE)).toEqual(Array(PROBATION_AGE).fill([]));
    for (const [n, items] of objects.entries()) {
      if (n < PROBATION_AGE) continue;
      expect(items, `frame ${n}`).toHaveLength(1);
      expect(items[0]!.objectId, `frame ${n}`).toBe(0);
      expect(items[0]!.textParams.displayText, `frame ${n}`).toMatch(/^ball \d\.\d\d 0$/);
      expect(items[0]!.trackerConfidence, `frame ${n}`).toBeGreaterThan(0);
    }
  });

  it("counts the ball's crossings of the line exactly, each on the frame it happens", () => {
    const expected = expectedCrossings(PROBATION_AGE);
    expect(expected.map((crossing) => crossing.crossed)).toEqual(["forward", "backward", "forward", "backward"]);
    const seen = frames.flatMap((frame) =>
      frame.objectItems.flatMap((object) =>
        object.userMetaItems.filter((user) => user.metaType === "DSELEMENT.ANALYTICS.OBJECT" && user.json?.crossed !== undefined).map((user) => ({ frame: frame.frameNum, crossed: user.json!.crossed })),
      ),
    );
    expect(seen).toEqual(expected);
    const counts = frames.map((frame) => frame.userMetaItems.find((user) => user.metaType === "DSELEMENT.ANALYTICS.FRAME")!.json!.lineCrossings);
    for (const [n, count] of counts.entries()) {
      const so = (way: string) => expected.filter((crossing) => crossing.frame <= n && crossing.crossed === way).length;
      expect(count, `frame ${n}`).toEqual({ forward: so("forward"), backward: so("backward") });
    }
    expect(counts.at(-1)).toEqual({ forward: 2, backward: 2 });
  });

  it("dstracker says what it tracked", () => {
    expect(run.output).toContain(`tracked ${FRAMES - PROBATION_AGE} object(s) under 1 id(s)`);
  });
});
