import { Element, SourceState, z, type BatchMeta, type FrameMeta, type StreamEvent } from "ds-element";
import { FRAME_ANALYTICS, OBJECT_ANALYTICS } from "./analytics-meta.js";
import { SourceCounter, type CountingSettings, type FrameCounts } from "./counting.js";
import { anchorOf, type Point } from "./geometry.js";

// The typed user metas, for elements downstream and tests.
export { FRAME_ANALYTICS, OBJECT_ANALYTICS, type FrameAnalytics, type ObjectAnalytics } from "./analytics-meta.js";

/**
 * The element's properties, declared once: gst-inspect-1.0's text, the validation of values
 * set from gst-launch-1.0 or application code, and the type of `this.props` all come from this
 * schema. Names are camelCase here and kebab-case in GStreamer (`classIds` is `class-ids`).
 */
const properties = z.object({
  line: z
    .array(z.number())
    .default([])
    .describe("The counting line: x1, y1, x2, y2 in frame pixels; empty: none. Crossing to the right of its direction is forward"),
  roi: z.array(z.number()).default([]).describe("The region of interest: x, y of each of its 3 or more corners, in frame pixels; empty: none"),
  classIds: z.array(z.number().int().min(0)).default([]).describe("Class ids of the objects to count; empty: all"),
  anchor: z
    .enum(["bottom-center", "center"])
    .default("bottom-center")
    .describe("The point of an object's box that counts: the middle of its bottom edge (its feet) or its centre"),
  forgetAfter: z.number().int().min(1).default(30).describe("Frames after which an object the tracker no longer reports is forgotten"),
  draw: z.boolean().default(true).describe("Add display metadata for nvdsosd: the line, the ROI and the counts"),
});

/** `[x1, y1, x2, y2, ...]` as points, or an Error naming the property. */
function points(values: readonly number[], property: string, what: string, valid: (count: number) => boolean): Point[] {
  if (!valid(values.length)) throw new Error(`Expected ${what} for ${property} but received ${values.length} number(s): ${values.join(", ")}`);
  const result: Point[] = [];
  for (let index = 0; index + 1 < values.length; index += 2) result.push({ x: values[index]!, y: values[index + 1]! });
  return result;
}

/**
 * Line crossing and ROI occupancy on the objects of a detector and a tracker upstream, like
 * nvdsanalytics: per source, it counts the tracked objects that cross the line (each way) and
 * the objects inside the region of interest, and writes the counts as typed user metadata
 * (JSON checked by the schemas of `src/analytics-meta.ts`) on each frame and on each object
 * concerned, and as display metadata (the line, the ROI, the counts) for nvdsosd. A camera's
 * counts start on its first frame and go when nvstreammux removes or resets it (`SourceState`),
 * so a camera added again on the same pad starts from zero.
 *
 * gst-launch-1.0 ... ! nvinfer ... ! nvtracker ... ! template-element-name line="<640,0,640,720>" roi="<0,400,600,400,600,720,0,720>" ! nvdsosd ! ...
 */
export default class Analytics extends Element.define({
  name: "template-element-name",
  longName: "Line crossing and ROI occupancy",
  klass: "Filter/Analyzer/Video",
  description: "Counts tracked objects crossing a line and objects in a region, per source, as user and display metadata",
  author: "Your Name <you@example.com>",
  caps: "video/x-raw; video/x-raw(memory:NVMM)",
  properties,
}) {
  /** One counter per source (camera), made on its first frame, dropped when the source is removed or reset. */
  private sources = new SourceState(this, () => new SourceCounter());
  private settings: CountingSettings = { line: undefined, roi: [], forgetAfterFrames: 30 };
  /** Whether any object this run had a tracking id; until one has, untracked objects are worth one warning. */
  private seenTracked = false;
  private warnedUntracked = false;

  start() {
    this.settings = this.countingSettings();
    this.seenTracked = false;
    this.warnedUntracked = false;
  }

  onPropertyChange(name: string) {
    // The line, the ROI and forget-after can change while PLAYING; the counts go on.
    if (name === "line" || name === "roi" || name === "forgetAfter") this.settings = this.countingSettings();
  }

  transform(batch: BatchMeta) {
    for (const frame of batch.frameItems) {
      const objects = frame.objectItems.filter((object) => this.props.classIds.length === 0 || this.props.classIds.includes(object.classId));
      this.checkTracked(objects);
      const counts = this.sources.of(frame).update(
        objects.map((object) => ({ objectId: object.objectId >= 0 ? object.objectId : undefined, anchor: anchorOf(object.rectParams, this.props.anchor) })),
        this.settings,
      );
      for (const [index, object] of objects.entries()) {
        const crossed = counts.crossed[index];
        const inRoi = counts.inRoi[index]!;
        if (crossed === undefined && !inRoi) continue;
        OBJECT_ANALYTICS.add(object, { crossed, inRoi });
      }
      FRAME_ANALYTICS.add(frame, {
        sourceId: frame.sourceId,
        frameNum: frame.frameNum,
        lineCrossings: { forward: counts.forward, backward: counts.backward },
        roiOccupancy: counts.occupancy,
      });
      if (this.props.draw) this.draw(batch, frame, counts);
    }
  }

  onEvent(event: StreamEvent) {
    // After a flush (a seek) the tracker starts over: so do the counts.
    if (event.type === "flush-stop") this.sources.clear();
  }

  stop() {
    this.sources.clear();
  }

  /** The properties as counting takes them, or an Error naming the one that is wrong. */
  private countingSettings(): CountingSettings {
    const line = points(this.props.line, "line", "4 numbers (x1, y1, x2, y2) or none", (count) => count === 0 || count === 4);
    return {
      line: line.length === 2 ? { from: line[0]!, to: line[1]! } : undefined,
      roi: points(this.props.roi, "roi", "x, y of 3 or more corners or none", (count) => count === 0 || (count >= 6 && count % 2 === 0)),
      forgetAfterFrames: this.props.forgetAfter,
    };
  }

  /** The line, the ROI's edges and the counts, for nvdsosd. */
  private draw(batch: BatchMeta, frame: FrameMeta, counts: FrameCounts): void {
    const display = batch.acquireDisplayMeta();
    const { line, roi } = this.settings;
    if (line !== undefined) {
      display.addLine({ x1: line.from.x, y1: line.from.y, x2: line.to.x, y2: line.to.y, lineWidth: 3, lineColor: { green: 1 } });
    }
    roi.forEach((corner, index) => {
      const next = roi[(index + 1) % roi.length]!;
      display.addLine({ x1: corner.x, y1: corner.y, x2: next.x, y2: next.y, lineWidth: 2, lineColor: { red: 1, green: 1 } });
    });
    display.addText({
      displayText: `forward ${counts.forward}  backward ${counts.backward}  in ROI ${counts.occupancy}`,
      xOffset: 10,
      yOffset: 10,
      font: { size: 14 },
      setBgColor: true,
      bgColor: { alpha: 0.6 },
    });
    frame.addDisplayMeta(display);
  }

  /**
   * Only tracked objects can cross the line: objects that all come untracked (object_id -1, no
   * tracker upstream) would count nothing, silently. Warned once per run, in GST_DEBUG.
   */
  private checkTracked(objects: readonly { readonly objectId: number }[]): void {
    if (this.seenTracked || this.warnedUntracked || objects.length === 0 || this.settings.line === undefined) return;
    if (objects.some((object) => object.objectId >= 0)) {
      this.seenTracked = true;
      return;
    }
    this.warnedUntracked = true;
    this.log.warn(
      `${objects.length} object(s) and none tracked (object_id untracked): line crossings need a tracker upstream ` +
        "(nvtracker, or dstracker without DeepStream); until one gives ids, no crossing is counted",
    );
  }
}
