import { Element, z, type BatchMeta, type StreamEvent } from "ds-element";
import { FrameStatistics, formatGap, formatSummary, type StatisticsSettings } from "./frame-statistics.js";

/**
 * The element's properties, declared once: gst-inspect-1.0's text, the validation of values
 * set from gst-launch-1.0 or application code, and the type of `this.props` all come from this
 * schema. Names are camelCase here and kebab-case in GStreamer (`everyN` is `every-n`).
 */
const properties = z.object({
  everyN: z.number().int().min(1).default(30).describe("Log a statistics line (INFO) every N frames of a source"),
  rateWindow: z.number().min(0.1).max(60).default(1).describe("Seconds of stream time the frame rate is measured over"),
  gapFactor: z
    .number()
    .min(1)
    .max(1000)
    .default(2)
    .describe("Warn when a frame comes more than this many average frame intervals after the previous one"),
});

/**
 * Passes video through untouched and monitors it per source: the frame rate over a window of
 * stream time, and gaps in the PTS (frames dropped or late upstream). Lines go to GST_DEBUG:
 * INFO every N frames and at end of stream, WARNING for each gap. Figures are kept per source
 * id: one source in a plain GStreamer pipeline, one per camera after nvstreammux (DeepStream's
 * batch metadata gives each frame of a batch its source id).
 *
 * GST_DEBUG=template-element-name:4 gst-launch-1.0 videotestsrc num-buffers=90 ! template-element-name every-n=30 ! fakesink
 */
export default class FrameRateMonitor extends Element.define({
  name: "template-element-name",
  longName: "Frame rate monitor",
  klass: "Filter/Analyzer/Video",
  description: "Passes video through and logs its frame rate and PTS gaps per source",
  author: "Your Name <you@example.com>",
  caps: "video/x-raw; video/x-raw(memory:NVMM)",
  properties,
}) {
  /** Per-run state, one entry per source id: reset in start(), dropped in stop(). */
  private sources = new Map<number, FrameStatistics>();

  start() {
    this.sources = new Map();
  }

  transform(batch: BatchMeta) {
    const settings: StatisticsSettings = { rateWindowNs: this.props.rateWindow * 1e9, gapFactor: this.props.gapFactor };
    for (const frame of batch.frameItems) {
      const statistics = this.statisticsOf(frame.sourceId);
      const observation = statistics.record(frame.bufPts, settings);
      if (observation.gap) this.log.warn(formatGap(frame.sourceId, frame.frameNum, observation));
      if (statistics.frames % this.props.everyN === 0) this.log.info(formatSummary(frame.sourceId, statistics.summary()));
    }
  }

  onEvent(event: StreamEvent) {
    // After a flush (a seek) timestamps start over: measure afresh.
    if (event.type === "flush-stop") this.sources.clear();
    if (event.type === "eos") this.logSummaries();
  }

  stop() {
    this.sources.clear();
  }

  /** One INFO line per source, or one saying nothing came. */
  private logSummaries(): void {
    if (this.sources.size === 0) this.log.info("end of stream before any frame");
    for (const [sourceId, statistics] of this.sources) {
      this.log.info(`${formatSummary(sourceId, statistics.summary())} (end of stream)`);
    }
  }

  private statisticsOf(sourceId: number): FrameStatistics {
    let statistics = this.sources.get(sourceId);
    if (statistics === undefined) {
      statistics = new FrameStatistics();
      this.sources.set(sourceId, statistics);
    }
    return statistics;
  }
}
