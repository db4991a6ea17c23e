import { describe, expect, it } from "vitest";
import { FrameStatistics, formatGap, formatSummary, type StatisticsSettings } from "./frame-statistics.js";

const settings: StatisticsSettings = { rateWindowNs: 1e9, gapFactor: 2 };
const MS = 1e6;

/** Records `ptsMs` (milliseconds, undefined = no PTS) and returns the statistics and what each frame told. */
function feed(ptsMs: (number | undefined)[], overrides: Partial<StatisticsSettings> = {}) {
  const statistics = new FrameStatistics();
  const observations = ptsMs.map((pts) => statistics.record(pts === undefined ? undefined : pts * MS, { ...settings, ...overrides }));
  return { statistics, observations };
}

/** PTS of `count` frames at `fps`, in ms. */
function cadence(count: number, fps: number, startMs = 0): number[] {
  return Array.from({ length: count }, (_, index) => startMs + (index * 1000) / fps);
}

describe("FrameStatistics", () => {
  it("measures the frame rate of a steady stream", () => {
    const { statistics, observations } = feed(cadence(60, 30));
    expect(statistics.summary()).toEqual({ frames: 60, fps: expect.closeTo(30, 6), gaps: 0 });
    expect(observations.some((observation) => observation.gap)).toBe(false);
  });

  it("measures the rate over the window only", () => {
    // One second at 10 fps, then two at 30 fps: a one-second window sees only the 30 fps part.
    const slowThenFast = [...cadence(10, 10), ...cadence(61, 30, 1000)];
    expect(feed(slowThenFast).statistics.summary().fps).toBeCloseTo(30, 6);
    expect(feed(slowThenFast, { rateWindowNs: 10e9, gapFactor: 100 }).statistics.summary().fps).toBeCloseTo(70 / 3, 6);
  });

  it("reports 0 fps until two frames had a PTS", () => {
    expect(new FrameStatistics().summary()).toEqual({ frames: 0, fps: 0, gaps: 0 });
    expect(feed([0]).statistics.summary()).toEqual({ frames: 1, fps: 0, gaps: 0 });
    expect(feed([undefined, undefined]).statistics.summary()).toEqual({ frames: 2, fps: 0, gaps: 0 });
  });

  it("flags a frame that comes more than gap-factor average intervals after the previous one", () => {
    const { statistics, observations } = feed([0, 40, 80, 120, 400, 440]);
    expect(observations.map((observation) => observation.gap)).toEqual([false, false, false, false, true, false]);
    expect(observations[4]).toEqual({ intervalNs: 280 * MS, averageIntervalNs: 40 * MS, gap: true });
    expect(statistics.summary().gaps).toBe(1);
  });

  it("keeps gaps out of the average, so the next gap is still seen", () => {
    const { observations } = feed([0, 40, 80, 400, 440, 760]);
    expect(observations.map((observation) => observation.gap)).toEqual([false, false, false, true, false, true]);
    expect(observations[5]!.averageIntervalNs).toBe(40 * MS);
  });

  it("does not flag an interval up to gap-factor times the average", () => {
    expect(feed([0, 40, 80, 160], { gapFactor: 2 }).observations[3]!.gap).toBe(false);
    expect(feed([0, 40, 80, 160], { gapFactor: 1.5 }).observations[3]!.gap).toBe(true);
  });

  it("restarts the rate, without a gap, when the PTS goes back", () => {
    const { statistics, observations } = feed([1000, 1040, 1080, 0, 40]);
    expect(observations[3]).toEqual({ intervalNs: undefined, averageIntervalNs: 40 * MS, gap: false });
    expect(statistics.summary()).toEqual({ frames: 5, fps: 25, gaps: 0 });
  });
});

describe("log lines", () => {
  it("formats a summary", () => {
    expect(formatSummary(0, { frames: 30, fps: 29.97, gaps: 0 })).toBe("source 0: 30 frames, 30.0 fps, 0 gaps");
    expect(formatSummary(3, { frames: 7, fps: 0, gaps: 1 })).toBe("source 3: 7 frames, 0.0 fps, 1 gap");
  });

  it("formats a gap", () => {
    expect(formatGap(0, 12, { intervalNs: 100 * MS, averageIntervalNs: 33.3 * MS, gap: true })).toBe(
      "source 0: frame 12 came 100.0 ms after the previous one (average 33.3 ms)",
    );
  });
});
