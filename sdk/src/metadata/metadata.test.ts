import { describe, expect, it } from "vitest";
import { StaleHandleError } from "../errors/errors.js";
import { makeTransformState, writeTransformState } from "../test-support/transform-state.js";
import { BatchMeta } from "./batch-meta.js";
import { GstBuffer } from "../stream/gst-buffer.js";
import { TransformScope } from "./call/transform-scope.js";

const twoFrames = {
  pts: 40_000_000,
  dts: 39_000_000,
  duration: 33_333_333,
  size: 230_400,
  frames: [
    { frameNum: 7, bufPts: 40_000_000, sourceId: 2, padIndex: 1, batchId: 0, width: 320, height: 240 },
    { frameNum: 9, sourceId: 3, padIndex: 2, batchId: 1, width: 640, height: 480 },
  ],
};

describe("BatchMeta, FrameMeta and GstBuffer", () => {
  it("read the values native code wrote", () => {
    const scope = new TransformScope(makeTransformState(twoFrames));
    const batch = new BatchMeta(scope);
    const buffer = new GstBuffer(scope);
    expect(buffer.toJSON()).toEqual({ pts: 40_000_000, dts: 39_000_000, duration: 33_333_333, size: 230_400 });
    expect(batch.numFrames).toBe(2);
    expect(batch.frameItems.map((frame) => frame.toJSON())).toMatchObject([
      {
        batchId: 0,
        padIndex: 1,
        sourceId: 2,
        frameNum: 7,
        bufPts: 40_000_000,
        sourceFrameWidth: 320,
        sourceFrameHeight: 240,
        pipelineWidth: 320,
        pipelineHeight: 240,
      },
      {
        batchId: 1,
        padIndex: 2,
        sourceId: 3,
        frameNum: 9,
        bufPts: undefined,
        sourceFrameWidth: 640,
        sourceFrameHeight: 480,
        pipelineWidth: 640,
        pipelineHeight: 480,
      },
    ]);
  });

  it("report missing times as undefined", () => {
    const buffer = new GstBuffer(new TransformScope(makeTransformState({})));
    expect([buffer.pts, buffer.dts, buffer.duration]).toEqual([undefined, undefined, undefined]);
  });

  it("give a re-iterable, cached frameItems array", () => {
    const batch = new BatchMeta(new TransformScope(makeTransformState(twoFrames)));
    const items = batch.frameItems;
    expect([...items].length).toBe(2);
    expect([...items].length).toBe(2);
    expect(batch.frameItems).toBe(items);
  });

  it("throw StaleHandleError once the call ended", () => {
    const scope = new TransformScope(makeTransformState(twoFrames));
    const batch = new BatchMeta(scope);
    const buffer = new GstBuffer(scope);
    const frame = batch.frameItems[0]!;
    scope.end();
    expect(() => batch.numFrames).toThrow(StaleHandleError);
    expect(() => batch.numFrames).toThrow(
      "BatchMeta used after its transform() call returned (reading numFrames); a handle is valid only during the call that received it: " +
        "copy the values you need (e.g. `const { frameNum } = frame`) before transform() returns",
    );
    expect(() => batch.frameItems).toThrow("BatchMeta used after its transform() call returned (reading frameItems)");
    expect(() => frame.frameNum).toThrow("FrameMeta used after its transform() call returned (reading frameNum)");
    expect(() => buffer.pts).toThrow("GstBuffer used after its transform() call returned (reading pts)");
    try {
      void buffer.size;
    } catch (error) {
      expect(error).toMatchObject({ name: "StaleHandleError", code: "ERR_DS_ELEMENT_STALE_HANDLE" });
    }
  });

  it("keep their own values after detach(), while native code rewrites the shared array", () => {
    const state = makeTransformState(twoFrames);
    const scope = new TransformScope(state);
    const batch = new BatchMeta(scope);
    scope.detach();
    writeTransformState(state, { pts: 1, frames: [{ frameNum: 100 }] });
    expect(batch.numFrames).toBe(2);
    expect(batch.frameItems[1]?.frameNum).toBe(9);
    expect(new GstBuffer(scope).pts).toBe(40_000_000);
  });
});
