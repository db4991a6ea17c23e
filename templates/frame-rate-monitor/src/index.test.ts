import { PropertyValidationError } from "ds-element";
import { createHarness, type BatchInit, type ElementHarness } from "ds-element/testing";
import { describe, expect, it } from "vitest";
import FrameRateMonitor from "./index.js";

// The element runs as in a pipeline (properties checked, start(), transform() for each buffer,
// events, stop()) on synthetic buffers: one frame of source 0 each, unless a test says otherwise.

const MS = 1e6;

/** Pushes one buffer per PTS (in ms), each one frame, as videotestsrc would. */
async function pushFrames(harness: ElementHarness, ptsMs: number[]): Promise<void> {
  for (const pts of ptsMs) await harness.push({ pts: Math.round(pts * MS) });
}

/** PTS of `count` frames at `fps`, in ms. */
function cadence(count: number, fps: number, startMs = 0): number[] {
  return Array.from({ length: count }, (_, index) => startMs + (index * 1000) / fps);
}

/** What the element logged, as "<level> <message>". */
function lines(harness: ElementHarness): string[] {
  return harness.logs.map(({ level, message }) => `${level} ${message}`);
}

describe("template-element-name", () => {
  it("logs a summary every 30 frames by default, and one at end of stream", async () => {
    const harness = await createHarness(FrameRateMonitor);
    await pushFrames(harness, cadence(60, 30));
    await harness.pushEvent("eos");
    await harness.stop();
    expect(lines(harness)).toEqual([
      "info source 0: 30 frames, 30.0 fps, 0 gaps",
      "info source 0: 60 frames, 30.0 fps, 0 gaps",
      "info source 0: 60 frames, 30.0 fps, 0 gaps (end of stream)",
    ]);
  });

  it("takes property values as gst-launch-1.0 would set them", async () => {
    const harness = await createHarness(FrameRateMonitor, { props: { everyN: 10 } });
    await pushFrames(harness, cadence(20, 25));
    expect(lines(harness)).toEqual(["info source 0: 10 frames, 25.0 fps, 0 gaps", "info source 0: 20 frames, 25.0 fps, 0 gaps"]);
  });

  it("rejects an invalid value with the message GStreamer shows", async () => {
    await expect(createHarness(FrameRateMonitor, { props: { everyN: 0 } })).rejects.toThrow(PropertyValidationError);
    await expect(createHarness(FrameRateMonitor, { props: { everyN: 0 } })).rejects.toThrow("Expected a number ≥ 1 for every-n but received 0");
    await expect(createHarness(FrameRateMonitor, { props: { rateWindow: 120 } })).rejects.toThrow(
      "Expected a number ≤ 60 for rate-window but received 120",
    );
  });

  it("warns when a frame comes more than gap-factor average intervals after the previous one", async () => {
    const harness = await createHarness(FrameRateMonitor);
    await pushFrames(harness, [0, 40, 80, 120, 400, 440]);
    expect(lines(harness)).toEqual(["warn source 0: frame 4 came 280.0 ms after the previous one (average 40.0 ms)"]);
  });

  it("keeps its figures per source in batches of several streams (after nvstreammux)", async () => {
    const harness = await createHarness(FrameRateMonitor, { props: { everyN: 2 } });
    for (const pts of cadence(2, 10)) {
      // Source 0 at 10 fps; source 1's camera dropped the frame between these two.
      const batch: BatchInit = { frames: [{ sourceId: 0, bufPts: pts * MS }, { sourceId: 1, bufPts: 2 * pts * MS }] };
      await harness.push(batch);
    }
    await harness.pushEvent("eos");
    expect(lines(harness)).toEqual([
      "info source 0: 2 frames, 10.0 fps, 0 gaps",
      "info source 1: 2 frames, 5.0 fps, 0 gaps",
      "info source 0: 2 frames, 10.0 fps, 0 gaps (end of stream)",
      "info source 1: 2 frames, 5.0 fps, 0 gaps (end of stream)",
    ]);
  });

  it("measures afresh after a flush (a seek)", async () => {
    const harness = await createHarness(FrameRateMonitor);
    await pushFrames(harness, cadence(5, 30));
    await harness.pushEvent("flush-stop");
    await harness.pushEvent("eos");
    expect(lines(harness)).toEqual(["info end of stream before any frame"]);
  });

  it("passes the buffer's metadata through unchanged", async () => {
    const harness = await createHarness(FrameRateMonitor);
    const out = await harness.push({ pts: 0, frames: [{ objects: [{ classId: 2, label: "car", rectParams: { left: 4, top: 8, width: 16, height: 8 } }] }] });
    expect(out.frameItems[0]?.objectItems).toMatchObject([{ classId: 2, label: "car", rectParams: { left: 4, top: 8, width: 16, height: 8 } }]);
  });

  it("says so at end of stream when no frame came", async () => {
    const harness = await createHarness(FrameRateMonitor);
    await harness.pushEvent("eos");
    await harness.stop();
    expect(lines(harness)).toEqual(["info end of stream before any frame"]);
  });
});
