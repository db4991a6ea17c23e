import { describe, expect, it } from "vitest";
import { SourceCounter, type CountingSettings } from "./counting.js";

const settings: CountingSettings = {
  line: { from: { x: 160, y: 0 }, to: { x: 160, y: 240 } },
  roi: [{ x: 0, y: 0 }, { x: 100, y: 0 }, { x: 100, y: 100 }, { x: 0, y: 100 }],
  forgetAfterFrames: 2,
};
const at = (objectId: number | undefined, x: number, y = 50) => ({ objectId, anchor: { x, y } });

describe("SourceCounter", () => {
  it("counts a tracked object crossing the line once, in its direction", () => {
    const counter = new SourceCounter();
    expect(counter.update([at(1, 140)], settings).crossed).toEqual([undefined]);
    expect(counter.update([at(1, 155)], settings).crossed).toEqual([undefined]);
    expect(counter.update([at(1, 165)], settings)).toMatchObject({ crossed: ["forward"], forward: 1, backward: 0 });
    expect(counter.update([at(1, 175)], settings)).toMatchObject({ crossed: [undefined], forward: 1 });
    expect(counter.update([at(1, 150)], settings)).toMatchObject({ crossed: ["backward"], forward: 1, backward: 1 });
  });

  it("keeps each object's own track, and never counts an untracked one", () => {
    const counter = new SourceCounter();
    counter.update([at(1, 150), at(2, 170), at(undefined, 150)], settings);
    expect(counter.update([at(1, 170), at(2, 150), at(undefined, 170)], settings)).toMatchObject({
      crossed: ["forward", "backward", undefined],
      forward: 1,
      backward: 1,
    });
  });

  it("forgets an object unseen for longer than forget-after frames", () => {
    const counter = new SourceCounter();
    counter.update([at(1, 150)], settings);
    counter.update([], settings);
    counter.update([], settings);
    counter.update([], settings);
    expect(counter.update([at(1, 170)], settings).crossed).toEqual([undefined]);
  });

  it("counts the objects in the ROI, tracked or not", () => {
    const counter = new SourceCounter();
    expect(counter.update([at(1, 50), at(undefined, 60), at(3, 150)], settings)).toMatchObject({ inRoi: [true, true, false], occupancy: 2 });
    expect(counter.update([at(1, 50)], { ...settings, roi: [] })).toMatchObject({ inRoi: [false], occupancy: 0 });
  });
});
