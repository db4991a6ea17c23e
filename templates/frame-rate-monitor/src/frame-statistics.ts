/**
 * Frame rate and PTS gaps of one stream, in plain TypeScript: no GStreamer and no ds-element
 * here, so the arithmetic is unit-tested on its own (frame-statistics.test.ts).
 * Times are GStreamer's: nanoseconds.
 */

const NS_PER_SECOND = 1e9;
const NS_PER_MILLISECOND = 1e6;

/** How {@link FrameStatistics.record} judges a frame (from the element's properties). */
export interface StatisticsSettings {
  /** Stream time the frame rate is measured over, in ns. */
  rateWindowNs: number;
  /** A frame is a gap when it comes more than this many average intervals after the previous one. */
  gapFactor: number;
}

/** What one frame told {@link FrameStatistics.record}. */
export interface FrameObservation {
  /** ns since the previous frame's PTS; undefined for the first frame, a frame without PTS, or a PTS that went back. */
  intervalNs: number | undefined;
  /** The average interval between frames before this one, in ns; undefined until two frames had a PTS. */
  averageIntervalNs: number | undefined;
  /** True when the frame came more than `gapFactor` average intervals after the previous one: frames were dropped or late upstream. */
  gap: boolean;
}

/** A stream's statistics so far, as plain values. */
export interface StatisticsSummary {
  /** Frames recorded, with or without PTS. */
  frames: number;
  /** Frames per second over the rate window that ends at the latest frame; 0 until two frames had a PTS. */
  fps: number;
  /** Frames that were gaps (see {@link FrameObservation.gap}). */
  gaps: number;
}

/**
 * Statistics of one stream (one DeepStream source), fed one frame at a time.
 *
 * @example
 * ```ts
 * const statistics = new FrameStatistics();
 * const settings = { rateWindowNs: 1e9, gapFactor: 2 };
 * for (const pts of [0, 40e6, 80e6, 200e6]) statistics.record(pts, settings);
 * statistics.summary(); // { frames: 4, fps: 15, gaps: 1 }
 * ```
 */
export class FrameStatistics {
  #frames = 0;
  #gaps = 0;
  /** PTS of the frames inside the rate window, oldest first. */
  #window: number[] = [];
  #previousPts: number | undefined;
  /** Sum and count of the intervals that were not gaps: the baseline the next frame is judged against. */
  #intervalSum = 0;
  #intervalCount = 0;

  /** Frames recorded so far. */
  get frames(): number {
    return this.#frames;
  }

  /** Records one frame, `ptsNs` undefined when it has no PTS, and says whether it was a gap. */
  record(ptsNs: number | undefined, settings: StatisticsSettings): FrameObservation {
    this.#frames++;
    const averageIntervalNs = this.#intervalCount > 0 ? this.#intervalSum / this.#intervalCount : undefined;
    if (ptsNs === undefined) return { intervalNs: undefined, averageIntervalNs, gap: false };

    const previousPts = this.#previousPts;
    this.#previousPts = ptsNs;
    if (previousPts === undefined || ptsNs <= previousPts) {
      // The first frame, or the stream went back (a new segment): the rate restarts from here,
      // the average interval (the stream's cadence) is kept.
      this.#window = [ptsNs];
      return { intervalNs: undefined, averageIntervalNs, gap: false };
    }

    const intervalNs = ptsNs - previousPts;
    const gap = averageIntervalNs !== undefined && intervalNs > settings.gapFactor * averageIntervalNs;
    if (gap) {
      this.#gaps++;
    } else {
      // Gaps stay out of the baseline, or a few of them would hide the next ones.
      this.#intervalSum += intervalNs;
      this.#intervalCount++;
    }
    this.#window.push(ptsNs);
    while (ptsNs - this.#window[0]! > settings.rateWindowNs) this.#window.shift();
    return { intervalNs, averageIntervalNs, gap };
  }

  /** The statistics so far. */
  summary(): StatisticsSummary {
    const oldest = this.#window[0];
    const newest = this.#window[this.#window.length - 1];
    const spanNs = oldest !== undefined && newest !== undefined ? newest - oldest : 0;
    const fps = spanNs > 0 ? ((this.#window.length - 1) * NS_PER_SECOND) / spanNs : 0;
    return { frames: this.#frames, fps, gaps: this.#gaps };
  }
}

function milliseconds(ns: number | undefined): string {
  return ns === undefined ? "?" : `${(ns / NS_PER_MILLISECOND).toFixed(1)} ms`;
}

/**
 * The INFO line the element logs every N frames and at end of stream.
 *
 * @example
 * ```ts
 * formatSummary(0, { frames: 30, fps: 30, gaps: 1 }); // "source 0: 30 frames, 30.0 fps, 1 gap"
 * ```
 */
export function formatSummary(sourceId: number, summary: StatisticsSummary): string {
  const gaps = `${summary.gaps} ${summary.gaps === 1 ? "gap" : "gaps"}`;
  return `source ${sourceId}: ${summary.frames} frames, ${summary.fps.toFixed(1)} fps, ${gaps}`;
}

/**
 * The WARNING line the element logs for a gap.
 *
 * @example
 * ```ts
 * formatGap(0, 12, { intervalNs: 100e6, averageIntervalNs: 33.3e6, gap: true });
 * // "source 0: frame 12 came 100.0 ms after the previous one (average 33.3 ms)"
 * ```
 */
export function formatGap(sourceId: number, frameNum: number, observation: FrameObservation): string {
  return (
    `source ${sourceId}: frame ${frameNum} came ${milliseconds(observation.intervalNs)} after the previous one ` +
    `(average ${milliseconds(observation.averageIntervalNs)})`
  );
}
