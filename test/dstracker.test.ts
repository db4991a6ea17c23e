// dstracker (sdk/builtin/src/dstracker.ts), the built-in IOU tracker, on synthetic batches through
// the testing harness: the metadata it reads and writes is the real one of this build's backend
// (portable, or NvDsBatchMeta under `npm run test:deepstream`). What it must write is what
// nvtracker writes (docs/metadata.md, "What nvtracker writes"); its rules are those of NVIDIA's
// IOU tracker configuration (config_tracker_IOU.yml), whose defaults are its own.
import { createHarness, type ObjectInit } from "ds-element/testing";
import { describe, expect, it } from "vitest";
import DsTracker from "../sdk/builtin/src/dstracker";

/** The style nvtracker gives every tracked object's text (nvtracker_proc.cpp 1869-1878): "Serif" 10 white on black. */
const NVTRACKER_TEXT_STYLE = { font: { name: "Serif", size: 10, color: { red: 1, green: 1, blue: 1, alpha: 1 } }, setBgColor: true, bgColor: { red: 0, green: 0, blue: 0, alpha: 1 } };

const WIDTH = 320;
const HEIGHT = 240;

type Harness = Awaited<ReturnType<typeof createHarness<typeof DsTracker>>>;
type Out = Awaited<ReturnType<Harness["push"]>>;
type Props = Parameters<typeof createHarness<typeof DsTracker>>[1] extends { props?: infer P } | undefined ? P : never;

/** A detection as a detector writes it: untracked, its label as its text. */
const detection = (x: number, y: number, classId = 0, size = 40, extra: ObjectInit = {}): ObjectInit => ({
  classId,
  objectId: -1,
  confidence: 0.9,
  label: classId === 0 ? "car" : "person",
  rectParams: { left: x, top: y, width: size, height: size },
  textParams: { displayText: classId === 0 ? "car" : "person" },
  ...extra,
});

async function tracker(props: Props = {}): Promise<Harness> {
  return createHarness(DsTracker, { props });
}

/** Pushes one frame per entry (source 0) and returns each frame's objects. */
async function run(harness: Harness, frames: ObjectInit[][], sourceId = 0) {
  const out: Out["frameItems"][number]["objectItems"][] = [];
  for (const objects of frames) out.push((await harness.push({ frames: [{ sourceId, width: WIDTH, height: HEIGHT, objects }] })).frameItems[0]!.objectItems);
  return out;
}

const ids = (objects: { objectId: number }[]) => objects.map((object) => object.objectId);

describe("dstracker: association", () => {
  it("keeps one id per object moving frame to frame (boxes overlapping the last frame's)", async () => {
    const harness = await tracker({ probationAge: 0 });
    const frames = await run(harness, [0, 1, 2, 3, 4, 5].map((n) => [detection(10 + 15 * n, 20), detection(10 + 15 * n, 120)]));
    expect(frames.map(ids)).toEqual(Array(6).fill([0, 1]));
    await harness.stop();
  });

  it("does not swap two objects moving side by side, whatever order the detector lists them in", async () => {
    const harness = await tracker({ probationAge: 0 });
    const frames = await run(harness, [
      [detection(10, 20), detection(60, 20)],
      [detection(70, 20), detection(20, 20)],
      [detection(30, 20), detection(80, 20)],
    ]);
    expect(frames.map((objects) => objects.map((object) => [object.rectParams.left, object.objectId]))).toEqual([
      [[10, 0], [60, 1]],
      [[70, 1], [20, 0]],
      [[30, 0], [80, 1]],
    ]);
    await harness.stop();
  });

  it("associates per class: an object of another class on the same box is another target (check-class-match)", async () => {
    const harness = await tracker({ probationAge: 0 });
    const frames = await run(harness, [[detection(50, 50, 0)], [detection(52, 50, 1)], [detection(54, 50, 0)]]);
    expect(frames.map(ids)).toEqual([[0], [1], [0]]);
    const anyClass = await tracker({ probationAge: 0, checkClassMatch: false });
    expect((await run(anyClass, [[detection(50, 50, 0)], [detection(52, 50, 1)]])).map(ids)).toEqual([[0], [0]]);
    await harness.stop();
    await anyClass.stop();
  });

  it("takes a box that overlaps no target as a new object, and a duplicate of a target as nothing (min-iou-diff4-new-target)", async () => {
    const harness = await tracker({ probationAge: 0 });
    const [first, second] = await run(harness, [[detection(10, 10)], [detection(12, 10), detection(14, 12), detection(200, 100)]]);
    expect(ids(first!)).toEqual([0]);
    // The second box overlaps target 0 with IoU > 0.5: removed, as nvtracker removes untracked objects.
    expect(second!.map((object) => [object.rectParams.left, object.objectId])).toEqual([
      [12, 0],
      [200, 1],
    ]);
    await harness.stop();
  });

  it("takes pairs greedily, highest IoU first (NVIDIA's GREEDY matcher), not the assignment of highest total IoU", async () => {
    // Targets 0 at x 0 and 1 at x 30; then a box at x 10 (IoU 0.6 with target 0, 1/3 with target 1)
    // and one at x -20 (1/3 with target 0 only). Greedy: target 0 takes x 10, the other box is
    // new and target 1 goes into shadow; a Hungarian assignment would pair 0 with x -20, 1 with x 10.
    const harness = await tracker({ probationAge: 0, minIouDiff4NewTarget: 1 });
    const frames = await run(harness, [
      [detection(0, 20), detection(30, 20)],
      [detection(10, 20), detection(-20, 20)],
    ]);
    expect(frames.map(ids)).toEqual([
      [0, 1],
      [0, 2],
    ]);
    await harness.stop();
  });

  it("starts no target past max-targets-per-stream (shadow-tracked ones count): those objects are removed", async () => {
    const harness = await tracker({ probationAge: 0, maxTargetsPerStream: 2 });
    const frames = await run(harness, [[detection(0, 0), detection(100, 0), detection(200, 0)], [detection(200, 100)]]);
    expect(frames.map((objects) => objects.map((object) => [object.rectParams.left, object.objectId]))).toEqual([
      [
        [0, 0],
        [100, 1],
      ],
      [],
    ]);
    await harness.stop();
  });

  it("associates only pairs with IoU of at least min-matching-score4-iou", async () => {
    // 40 px boxes 30 px apart: IoU 10/70.
    const loose = await tracker({ probationAge: 0 });
    expect((await run(loose, [[detection(10, 10)], [detection(40, 10)]])).map(ids)).toEqual([[0], [0]]);
    const strict = await tracker({ probationAge: 0, minMatchingScore4Iou: 0.2 });
    expect((await run(strict, [[detection(10, 10)], [detection(40, 10)]])).map(ids)).toEqual([[0], [1]]);
    await loose.stop();
    await strict.stop();
  });
});

describe("dstracker: probation, shadow tracking, termination", () => {
  it("reports a new object once its age exceeds probation-age (4 by default); until then it is removed", async () => {
    const harness = await tracker();
    const frames = await run(harness, [0, 1, 2, 3, 4, 5].map((n) => [detection(10 + 5 * n, 20)]));
    expect(frames.map(ids)).toEqual([[], [], [], [], [0], [0]]);
    await harness.stop();
  });

  it("drops an object on probation at its first miss (early-termination-age 1): it comes back under a new id", async () => {
    const harness = await tracker({ probationAge: 2 });
    const frames = await run(harness, [[detection(10, 20)], [detection(12, 20)], [], [detection(14, 20)], [detection(16, 20)], [detection(18, 20)]]);
    expect(frames.map(ids)).toEqual([[], [], [], [], [], [1]]);
    await harness.stop();
  });

  it("keeps a missed object in shadow for max-shadow-tracking-age frames, unreported, and gives it its id back", async () => {
    const harness = await tracker({ probationAge: 0, maxShadowTrackingAge: 3 });
    const frames = await run(harness, [
      [detection(100, 100)],
      [detection(102, 100)],
      [detection(200, 20, 1)],
      [],
      [],
      // Missed 3 frames: still a target, found again where it was last.
      [detection(104, 100)],
    ]);
    expect(frames.map(ids)).toEqual([[0], [0], [1], [], [], [0]]);
    await harness.stop();
  });

  it("ends a target missed for more than max-shadow-tracking-age frames: the object comes back under a new id", async () => {
    const harness = await tracker({ probationAge: 0, maxShadowTrackingAge: 2 });
    const frames = await run(harness, [[detection(100, 100)], [], [], [], [detection(100, 100)]]);
    expect(frames.map(ids)).toEqual([[0], [], [], [], [1]]);
    await harness.stop();
  });

  it("forgets every target after a flush (a seek); ids go on counting", async () => {
    const harness = await tracker({ probationAge: 0 });
    await run(harness, [[detection(100, 100)]]);
    await harness.pushEvent("flush-stop");
    expect((await run(harness, [[detection(100, 100)]])).map(ids)).toEqual([[1]]);
    await harness.stop();
  });
});

describe("dstracker: sources", () => {
  it("tracks each source apart, with ids unique across sources", async () => {
    const harness = await tracker({ probationAge: 0 });
    const seen: [number, number][] = [];
    for (let n = 0; n < 4; n++) {
      // The same boxes on both sources: each source has its own targets.
      const out = await harness.push({
        frames: [0, 1].map((sourceId) => ({ sourceId, width: WIDTH, height: HEIGHT, objects: [detection(10 + 5 * n, 20), detection(200 - 5 * n, 120)] })),
      });
      for (const frame of out.frameItems) for (const object of frame.objectItems) seen.push([frame.sourceId, object.objectId]);
    }
    const idsOf = (sourceId: number) => new Set(seen.filter(([source]) => source === sourceId).map(([, id]) => id));
    expect([...idsOf(0)]).toEqual([0, 1]);
    expect([...idsOf(1)]).toEqual([2, 3]);
    await harness.stop();
  });
});

describe("dstracker: what it writes (as nvtracker)", () => {
  it("writes object_id, tracker_confidence (the association's IoU), tracker_bbox_info, and the label text \"<label> <id>\"", async () => {
    const harness = await tracker({ probationAge: 0 });
    const [first, second] = await run(harness, [[detection(100, 100)], [detection(110, 100)]]);
    expect(first![0]).toMatchObject({ objectId: 0, trackerConfidence: 1, classId: 0, label: "car", confidence: expect.closeTo(0.9, 5) });
    const [car] = second!;
    // Moved 10 px of 40: IoU 30 x 40 / (2 x 1600 - 1200) = 0.6.
    expect(car!.trackerConfidence).toBeCloseTo(0.6, 5);
    expect(car!.trackerBboxInfo).toEqual({ left: 110, top: 100, width: 40, height: 40 });
    expect(car!.rectParams).toMatchObject({ left: 110, top: 100, width: 40, height: 40 });
    expect(car!.textParams).toEqual({ displayText: "car 0", xOffset: 110, yOffset: 80, ...NVTRACKER_TEXT_STYLE });
    await harness.stop();
  });

  it("clips rect_params to the frame and keeps the unclipped box in tracker_bbox_info; the text at least at 0", async () => {
    const harness = await tracker({ probationAge: 0 });
    const [[object]] = (await run(harness, [[detection(300, -10)]])) as [[Out["frameItems"][number]["objectItems"][number]]];
    expect(object.trackerBboxInfo).toEqual({ left: 300, top: -10, width: 40, height: 40 });
    expect(object.rectParams).toMatchObject({ left: 300, top: 0, width: 20, height: 30 });
    expect([object.textParams.xOffset, object.textParams.yOffset]).toEqual([300, 0]);
    await harness.stop();
  });

  it("places the text at the box's corner 20 px up, in whole pixels (nvtracker's conversion to unsigned truncates)", async () => {
    const harness = await tracker({ probationAge: 0 });
    const [[object]] = (await run(harness, [[detection(99.75, 120.5)]])) as [[Out["frameItems"][number]["objectItems"][number]]];
    expect([object.textParams.xOffset, object.textParams.yOffset]).toEqual([99, 100]);
    expect(object.rectParams).toMatchObject({ left: 99.75, top: 120.5 });
    await harness.stop();
  });

  it("display-tracking-id=false leaves the text as the detector wrote it", async () => {
    const harness = await tracker({ probationAge: 0, displayTrackingId: false });
    const [[object]] = (await run(harness, [[detection(100, 100)]])) as [[Out["frameItems"][number]["objectItems"][number]]];
    expect(object.objectId).toBe(0);
    expect(object.textParams.displayText).toBe("car");
    await harness.stop();
  });

  it("removes objects below min-detector-confidence, as nvtracker removes what it does not track", async () => {
    const harness = await tracker({ probationAge: 0, minDetectorConfidence: 0.5 });
    const [objects] = await run(harness, [[detection(10, 10, 0, 40, { confidence: 0.3 }), detection(100, 10)]]);
    expect(objects!.map((object) => [object.rectParams.left, object.objectId])).toEqual([[100, 0]]);
    await harness.stop();
  });

  it("with operate-on-class-ids, tracks those classes alone and leaves every other object, untracked, in place", async () => {
    const harness = await tracker({ operateOnClassIds: [1] });
    const [objects] = await run(harness, [[detection(10, 10, 0), detection(100, 10, 1)]]);
    // Class 1 is on probation (untracked) but stays: nvtracker removes untracked objects only without operate-on-class-ids.
    expect(objects!.map((object) => [object.classId, object.objectId, object.textParams.displayText])).toEqual([
      [0, -1, "car"],
      [1, -1, "person"],
    ]);
    await harness.stop();
  });
});
