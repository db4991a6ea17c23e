import { afterEach, describe, expect, it } from "vitest";
import { StaleHandleError } from "../errors/errors.js";
import { STATE_NUM_FRAMES, STATE_PTS, stateLength } from "../protocol/transform-state.js";
import { makeBuffer, requireStandaloneBinding, type HarnessFrame } from "../test-support/standalone-binding.js";
import { BatchMeta } from "./batch-meta.js";
import { GstBuffer } from "../stream/gst-buffer.js";
import { TransformScope } from "./call/transform-scope.js";

const addon = requireStandaloneBinding();
const twoFrames: HarnessFrame[] = [
  { frameNum: 7, bufPts: 40_000_000, sourceId: 2, padIndex: 1, width: 320, height: 240 },
  { frameNum: 9, sourceId: 3, padIndex: 2, width: 640, height: 480 },
];

/** Native calls opened by a test, closed after it. */
const open: { scope: TransformScope; callId: number }[] = [];
afterEach(() => {
  for (const { scope, callId } of open.splice(0)) {
    scope.end();
    addon.harness.closeCall(callId);
  }
});

/** Opens a native call over a buffer of `frames` with these times (-1: none), as the host would, into `state`. */
function openScope(frames: HarnessFrame[], times: [number, number, number] = [-1, -1, -1], state: Float64Array = new Float64Array(stateLength(frames.length))): TransformScope {
  const buffer = makeBuffer(addon.harness, frames);
  addon.harness.setTimes(buffer, ...times);
  const callId = addon.harness.openCall(buffer, state);
  const scope = new TransformScope(state, addon.meta);
  open.push({ scope, callId });
  return scope;
}

describe("BatchMeta, FrameMeta and GstBuffer", () => {
  it("read the values native code wrote", () => {
    const scope = openScope(twoFrames, [40_000_000, 39_000_000, 33_333_333]);
    const batch = new BatchMeta(scope);
    const buffer = new GstBuffer(scope);
    expect(buffer.toJSON()).toEqual({ pts: 40_000_000, dts: 39_000_000, duration: 33_333_333, size: 64 });
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
    const buffer = new GstBuffer(openScope([{}]));
    expect([buffer.pts, buffer.dts, buffer.duration]).toEqual([undefined, undefined, undefined]);
  });

  it("give a re-iterable, cached frameItems array", () => {
    const batch = new BatchMeta(openScope(twoFrames));
    const items = batch.frameItems;
    expect([...items].length).toBe(2);
    expect([...items].length).toBe(2);
    expect(batch.frameItems).toBe(items);
  });

  it("throw StaleHandleError once the call ended", () => {
    const scope = openScope(twoFrames, [40_000_000, -1, -1]);
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
    const scope = openScope(twoFrames, [40_000_000, -1, -1]);
    const batch = new BatchMeta(scope);
    const shared = scope.state;
    scope.detach();
    // Another element's call fills the array the first one was given.
    openScope([{ frameNum: 100 }], [1, -1, -1], shared);
    expect([shared[STATE_NUM_FRAMES], shared[STATE_PTS]]).toEqual([1, 1]);
    expect(batch.numFrames).toBe(2);
    expect(batch.frameItems[1]?.frameNum).toBe(9);
    expect(new GstBuffer(scope).pts).toBe(40_000_000);
  });
});
