import { appendFileSync, writeFileSync } from "node:fs";
import { Element, z, type BatchMeta, type GstBuffer, type Caps, type StreamEvent } from "ds-element";

const properties = z.object({
  location: z.string().min(1).describe("File the JSON lines are written to (truncated at start)"),
  everyN: z.number().int().min(1).default(1).describe("Log a progress line every N frames"),
  rateWindow: z.number().min(0.1).max(60).default(1).describe("Seconds of stream time the frame rate is measured over"),
  mode: z.enum(["fast", "accurate"]).default("fast").describe("fast: write lines in batches; accurate: write each line at once"),
  label: z.string().default("frames").describe("Label written into every line"),
  tags: z.array(z.string()).default([]).describe("Tags written into every line"),
  markFrames: z.array(z.number().int().min(0)).default([]).describe("Frame numbers to log at INFO level"),
  verbose: z.boolean().default(false).describe("Log every frame at DEBUG level"),
});

/** Lines kept in memory before a write in "fast" mode. */
const BATCH_LINES = 64;

/**
 * Counts frames and writes one JSON line per frame (frame number, PTS, size, running count,
 * frame rate and the current properties) plus "caps", "property" and "eos" lines.
 *
 * gst-launch-1.0 videotestsrc num-buffers=100 ! video/x-raw,format=RGB ! \
 *   framecounter location=/tmp/fc.jsonl every-n=25 ! fakesink
 */
export default class FrameCounter extends Element.define({
  name: "framecounter",
  longName: "Frame counter",
  klass: "Filter/Analyzer/Video",
  description: "Counts frames and writes one JSON line per frame",
  author: "ds-element authors <ds-element@example.com>",
  caps: "video/x-raw, format={ RGB, RGBA }",
  properties,
}) {
  // Per-run state: set in start(), released in stop().
  count = 0;
  pending: string[] = [];
  recentPts: number[] = [];

  start() {
    writeFileSync(this.props.location, "");
    this.count = 0;
    this.recentPts = [];
    this.log.info(`counting frames into ${this.props.location} (${this.props.mode} mode)`);
  }

  transform(batch: BatchMeta, buffer: GstBuffer) {
    for (const frame of batch.frameItems) {
      this.count++;
      const rate = this.frameRate(frame.bufPts);
      this.write({
        type: "frame",
        label: this.props.label,
        frameNum: frame.frameNum,
        bufPts: frame.bufPts ?? null,
        width: frame.sourceFrameWidth,
        height: frame.sourceFrameHeight,
        bufferSize: buffer.size,
        count: this.count,
        rate,
        tags: this.props.tags,
        props: this.props,
      });
      if (this.props.verbose) this.log.debug(`frame ${frame.frameNum} at ${frame.bufPts ?? "no"} ns`);
      if (this.props.markFrames.includes(frame.frameNum)) this.log.info(`marked frame ${frame.frameNum}`);
      if (this.count % this.props.everyN === 0) this.log.info(`${this.count} frames, ${rate.toFixed(1)} fps`);
    }
  }

  stop() {
    this.flush();
    this.log.info(`stopped after ${this.count} frames`);
  }

  onCaps(caps: Caps) {
    this.write({ type: "caps", caps: caps.string });
  }

  onEvent(event: StreamEvent) {
    if (event.type === "eos") {
      this.write({ type: "eos", count: this.count });
      this.flush();
    } else if (event.type !== "segment" && event.type !== "stream-start") {
      this.write({ type: "event", event: event.type, structure: event.structure });
    }
  }

  onPropertyChange(name: string, value: unknown, previous: unknown) {
    this.log.info(`${name} changed from ${JSON.stringify(previous)} to ${JSON.stringify(value)}`);
    this.write({ type: "property", name, value, previous });
  }

  /** Frames per second over the last `rateWindow` seconds of stream time. */
  private frameRate(pts: number | undefined): number {
    if (pts === undefined) return 0;
    const windowNs = this.props.rateWindow * 1e9;
    this.recentPts.push(pts);
    while (this.recentPts.length > 0 && pts - this.recentPts[0]! >= windowNs) this.recentPts.shift();
    return this.recentPts.length / this.props.rateWindow;
  }

  private write(line: Record<string, unknown>): void {
    this.pending.push(JSON.stringify(line));
    if (this.props.mode === "accurate" || this.pending.length >= BATCH_LINES) this.flush();
  }

  private flush(): void {
    if (this.pending.length === 0) return;
    appendFileSync(this.props.location, `${this.pending.join("\n")}\n`);
    this.pending = [];
  }
}
