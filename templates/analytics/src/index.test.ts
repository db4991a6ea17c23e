import { createHarness, type ObjectInit } from "ds-element/testing";
import { describe, expect, it } from "vitest";
import Analytics, { FRAME_ANALYTICS, OBJECT_ANALYTICS, type FrameAnalytics, type ObjectAnalytics } from "./index.js";

// The element runs as in a pipeline (properties checked, start(), transform() for each buffer,
// events, stop()) on synthetic batches whose objects a detector and a tracker would have written.

const LINE = [160, 0, 160, 240];
const ROI = [0, 0, 100, 0, 100, 100, 0, 100];

/** A tracked object whose feet (the middle of the box's bottom edge) are at (x, y). */
const person = (objectId: number, x: number, y = 60, classId = 0): ObjectInit => ({
  objectId,
  classId,
  rectParams: { left: x - 10, top: y - 40, width: 20, height: 40 },
});

type Out = Awaited<ReturnType<Awaited<ReturnType<typeof createHarness>>["push"]>>;

// The typed user metas read the harness's output as they read live metadata: validated, typed.
function frameAnalytics(out: Out, frame = 0): FrameAnalytics {
  return FRAME_ANALYTICS.get(out.frameItems[frame]!)!;
}

function objectAnalytics(out: Out, frame = 0): (ObjectAnalytics | undefined)[] {
  return out.frameItems[frame]!.objectItems.map((object) => OBJECT_ANALYTICS.get(object));
}

describe("template-element-name", () => {
  it("counts a tracked object crossing the line, on the frame it crosses, in user metadata", async () => {
    const harness = await createHarness(Analytics, { props: { line: LINE } });
    const counts: FrameAnalytics[] = [];
    for (const x of [130, 150, 170, 190]) counts.push(frameAnalytics(await harness.push({ frames: [{ objects: [person(7, x)] }] })));
    expect(counts.map((c) => c.lineCrossings)).toEqual([
      { forward: 0, backward: 0 },
      { forward: 0, backward: 0 },
      { forward: 1, backward: 0 },
      { forward: 1, backward: 0 },
    ]);
    const back = await harness.push({ frames: [{ objects: [person(7, 150)] }] });
    expect(frameAnalytics(back).lineCrossings).toEqual({ forward: 1, backward: 1 });
    expect(objectAnalytics(back)).toEqual([{ crossed: "backward", inRoi: false }]);
    await harness.stop();
  });

  it("keeps counts per source (each camera of a batch after nvstreammux)", async () => {
    const harness = await createHarness(Analytics, { props: { line: LINE } });
    // The same tracker id on two cameras is two objects.
    await harness.push({ frames: [{ sourceId: 0, objects: [person(1, 150)] }, { sourceId: 1, objects: [person(1, 170)] }] });
    const out = await harness.push({ frames: [{ sourceId: 0, objects: [person(1, 170)] }, { sourceId: 1, objects: [person(1, 175)] }] });
    expect([frameAnalytics(out, 0), frameAnalytics(out, 1)]).toMatchObject([
      { sourceId: 0, lineCrossings: { forward: 1, backward: 0 } },
      { sourceId: 1, lineCrossings: { forward: 0, backward: 0 } },
    ]);
    await harness.stop();
  });

  it("counts the objects in the ROI, tracked or not, and only the class ids asked for", async () => {
    const harness = await createHarness(Analytics, { props: { roi: ROI, classIds: [0] } });
    const out = await harness.push({ frames: [{ objects: [person(1, 50), { ...person(2, 60), objectId: -1 }, person(3, 150), person(4, 50, 60, 2)] }] });
    expect(frameAnalytics(out).roiOccupancy).toBe(2);
    expect(objectAnalytics(out)).toEqual([{ inRoi: true }, { inRoi: true }, undefined, undefined]);
    await harness.stop();
  });

  it("draws the line, the ROI and the counts as display metadata", async () => {
    const harness = await createHarness(Analytics, { props: { line: LINE, roi: ROI } });
    const out = await harness.push({ frames: [{ objects: [person(1, 50)] }] });
    const [display] = out.frameItems[0]!.displayMetaItems;
    expect(display!.lines.map(({ x1, y1, x2, y2 }) => [x1, y1, x2, y2])).toEqual([
      [160, 0, 160, 240],
      [0, 0, 100, 0],
      [100, 0, 100, 100],
      [100, 100, 0, 100],
      [0, 100, 0, 0],
    ]);
    expect(display!.texts.map((text) => text.displayText)).toEqual(["forward 0  backward 0  in ROI 1"]);
    const quiet = await createHarness(Analytics, { props: { line: LINE, draw: false } });
    expect((await quiet.push({ frames: [{ objects: [] }] })).frameItems[0]!.displayMetaItems).toEqual([]);
    await quiet.stop();
    await harness.stop();
  });

  it("starts counting afresh after a flush (a seek)", async () => {
    const harness = await createHarness(Analytics, { props: { line: LINE } });
    await harness.push({ frames: [{ objects: [person(1, 150)] }] });
    await harness.push({ frames: [{ objects: [person(1, 170)] }] });
    await harness.pushEvent("flush-stop");
    expect(frameAnalytics(await harness.push({ frames: [{ objects: [person(1, 180)] }] })).lineCrossings).toEqual({ forward: 0, backward: 0 });
    await harness.stop();
  });

  it("writes the counts as regular JSON user metas of its types, which untyped readers read as before", async () => {
    const harness = await createHarness(Analytics, { props: { roi: ROI } });
    const out = await harness.push({ frames: [{ frameNum: 41, sourceId: 3, objects: [person(1, 50)] }] });
    const frame = out.frameItems[0]!;
    expect(frame.userMetaItems).toMatchObject([
      { metaType: "DSELEMENT.ANALYTICS.FRAME", kind: "json", json: { sourceId: 3, frameNum: 41, lineCrossings: { forward: 0, backward: 0 }, roiOccupancy: 1 } },
    ]);
    expect(frame.objectItems[0]!.userMetaItems).toMatchObject([{ metaType: "DSELEMENT.ANALYTICS.OBJECT", kind: "json", json: { inRoi: true } }]);
    // A meta of that type with other content (another element, an older version) is an error naming what is wrong.
    const other = { userMetaItems: [{ metaType: "DSELEMENT.ANALYTICS.FRAME", metaTypeId: 0, kind: "json" as const, json: { sourceId: 3 } }] };
    expect(() => FRAME_ANALYTICS.get(other)).toThrow("Expected a number for frameNum of user meta DSELEMENT.ANALYTICS.FRAME read from the buffer but received nothing");
    await harness.stop();
  });

  it("starts a camera's counts afresh when nvstreammux removes it and adds it again", async () => {
    const harness = await createHarness(Analytics, { props: { line: LINE } });
    await harness.push({ frames: [{ sourceId: 2, objects: [person(1, 150)] }] });
    expect(frameAnalytics(await harness.push({ frames: [{ sourceId: 2, objects: [person(1, 170)] }] })).lineCrossings.forward).toBe(1);
    await harness.pushEvent({ type: "source-removed", structure: null, source: { sourceId: 2 } });
    await harness.pushEvent({ type: "source-added", structure: null, source: { sourceId: 2 } });
    // A new camera on the same pad: its object 1 is not the old camera's, and nothing was counted yet.
    await harness.push({ frames: [{ sourceId: 2, objects: [person(1, 180)] }] });
    expect(frameAnalytics(await harness.push({ frames: [{ sourceId: 2, objects: [person(1, 190)] }] })).lineCrossings).toEqual({ forward: 0, backward: 0 });
    await harness.stop();
  });

  it("warns once, at the first frame, when no object is tracked (no tracker upstream), and never when some are", async () => {
    const untracked = await createHarness(Analytics, { props: { line: LINE } });
    for (const x of [150, 170, 190]) await untracked.push({ frames: [{ objects: [{ ...person(1, x), objectId: -1 }] }] });
    expect(untracked.logs.filter((record) => record.level === "warn").map((record) => record.message)).toEqual([
      "1 object(s) and none tracked (object_id untracked): line crossings need a tracker upstream (nvtracker, or dstracker without DeepStream); until one gives ids, no crossing is counted",
    ]);
    await untracked.stop();
    const tracked = await createHarness(Analytics, { props: { line: LINE } });
    await tracked.push({ frames: [{ objects: [person(1, 150)] }] });
    await tracked.push({ frames: [{ objects: [{ ...person(2, 150), objectId: -1 }] }] });
    expect(tracked.logs.filter((record) => record.level === "warn")).toEqual([]);
    await tracked.stop();
  });

  it("refuses a line or ROI that is not one, naming the property", async () => {
    await expect(createHarness(Analytics, { props: { line: [1, 2, 3] } })).rejects.toThrow(
      "Expected 4 numbers (x1, y1, x2, y2) or none for line but received 3 number(s): 1, 2, 3",
    );
    await expect(createHarness(Analytics, { props: { roi: [0, 0, 10, 10] } })).rejects.toThrow(
      "Expected x, y of 3 or more corners or none for roi but received 4 number(s): 0, 0, 10, 10",
    );
  });
});
