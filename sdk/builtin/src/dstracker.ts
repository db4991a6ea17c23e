import { Element, SourceState, z, type BatchMeta, type FrameMeta, type ObjectMeta, type StreamEvent } from "ds-element";
import { IouTracker, NVIDIA_IOU_DEFAULTS, type Association, type IouTrackerSettings, type TrackBox } from "./tracking/iou-tracker.js";

const defaults = NVIDIA_IOU_DEFAULTS;

// Named as nvtracker's properties (display-tracking-id, operate-on-class-ids) and as the keys of
// NVIDIA's IOU tracker configuration (config_tracker_IOU.yml) where they mean the same; the
// defaults are that configuration's.
const properties = z.object({
  displayTrackingId: z.boolean().default(true).describe("Append the tracking id to each tracked object's text, as nvtracker does: \"<label> <id>\""),
  operateOnClassIds: z
    .array(z.number().int().min(0))
    .default([])
    .describe("Class ids of the objects to track; empty: all. As with nvtracker, untracked objects are removed only when this is empty"),
  minDetectorConfidence: z.number().min(0).max(1).default(0).describe("Objects of lower confidence are not tracked (BaseConfig.minDetectorConfidence)"),
  minIouDiff4NewTarget: z
    .number()
    .min(0)
    .max(1)
    .default(defaults.minIouDiff4NewTarget)
    .describe("A detection whose IoU with a target is above this starts no new target (TargetManagement.minIouDiff4NewTarget)"),
  minMatchingScore4Iou: z
    .number()
    .min(0)
    .max(1)
    .default(defaults.minMatchingScore4Iou)
    .describe("Least IoU of a target and a detection to associate them (boxes that do not overlap never are) (DataAssociator.minMatchingScore4Iou)"),
  checkClassMatch: z.boolean().default(defaults.checkClassMatch).describe("Associate only objects of the same class (DataAssociator.checkClassMatch)"),
  probationAge: z
    .number()
    .int()
    .min(0)
    .default(defaults.probationAge)
    .describe("A new target is reported once its age in frames exceeds this; until then its object is untracked (TargetManagement.probationAge)"),
  maxShadowTrackingAge: z
    .number()
    .int()
    .min(0)
    .default(defaults.maxShadowTrackingAge)
    .describe("Frames a target the detector misses is kept, unreported, before it ends (TargetManagement.maxShadowTrackingAge)"),
  earlyTerminationAge: z
    .number()
    .int()
    .min(1)
    .default(defaults.earlyTerminationAge)
    .describe("Misses after which a target still on probation ends (TargetManagement.earlyTerminationAge)"),
  maxTargetsPerStream: z
    .number()
    .int()
    .min(1)
    .default(defaults.maxTargetsPerStream)
    .describe("Targets kept per source, shadow-tracked ones included; further detections start none (TargetManagement.maxTargetsPerStream)"),
});

/**
 * A multi-object tracker on the CPU, like nvtracker running NVIDIA's IOU tracker: for pipelines
 * without DeepStream, between a detector and what needs tracking ids (line crossing, counting).
 * Per source and class, it associates each frame's objects with the targets of the frame before
 * by the overlap of their boxes (IoU; pairs taken greedily, highest first: the matcher NVIDIA's
 * IOU configuration selects, `associationMatcherType: 0`; docs/metadata.md says why not an
 * optimal, Hungarian, assignment).
 *
 * It writes what nvtracker writes (docs/metadata.md, "What nvtracker writes"): `objectId`
 * (unique across sources), `trackerConfidence` (the IoU of the association; 1 on a target's
 * first frame), `trackerBboxInfo` (the box before clipping), `rectParams` clipped to the frame,
 * and the text: `"<label> <id>"` in "Serif" 10 white on black above the box. Objects it does not
 * track (on probation, below `min-detector-confidence`, too close to a target) are removed, as
 * nvtracker removes them, unless `operate-on-class-ids` is set. Targets the detector misses are
 * kept for `max-shadow-tracking-age` frames without being reported (shadow tracking) and keep
 * their id when found again. Ids count from 0 over the whole run; each source's targets are
 * its own and are forgotten after a flush (a seek) and at stop.
 *
 * ```sh
 * gst-launch-1.0 videotestsrc pattern=ball ! video/x-raw,format=RGB,width=1280,height=720 ! \
 *   balldetector model=ball.onnx ! dstracker ! dsosd ! videoconvert ! autovideosink
 * ```
 */
export default class DsTracker extends Element.define({
  name: "dstracker",
  longName: "ds-element IOU tracker",
  klass: "Filter/Analyzer/Video",
  description: "Tracks objects by the overlap of their boxes, per source and class, and writes tracking ids as nvtracker does",
  author: "ds-element authors <ds-element@example.com>",
  caps: "video/x-raw; video/x-raw(memory:NVMM)",
  properties,
}) {
  /** The next target's id, shared by every source so that ids are unique across them. */
  nextId = 0;
  /**
   * One tracker per source (nvstreammux pad), shared ids: the SDK's helper drops a source's
   * targets when nvstreammux removes or resets the source (as nvtracker's removeSource does),
   * and a re-added source starts with none.
   */
  sources = new SourceState(this, () => new IouTracker(() => this.nextId++));
  settings: IouTrackerSettings = { ...defaults };
  tracked = 0;

  start() {
    this.nextId = 0;
    this.tracked = 0;
    this.sources.clear();
    this.settings = this.trackerSettings();
  }

  onPropertyChange() {
    this.settings = this.trackerSettings();
  }

  transform(batch: BatchMeta) {
    for (const frame of batch.frameItems) this.trackFrame(frame);
  }

  onEvent(event: StreamEvent) {
    // After a flush (a seek) the frames jump: every source's targets start over.
    if (event.type === "flush-stop") this.sources.clear();
  }

  stop() {
    this.sources.clear();
    this.log.info(`tracked ${this.tracked} object(s) under ${this.nextId} id(s)`);
  }

  private trackerSettings(): IouTrackerSettings {
    const { minIouDiff4NewTarget, minMatchingScore4Iou, checkClassMatch, probationAge, maxShadowTrackingAge, earlyTerminationAge, maxTargetsPerStream } = this.props;
    return { minIouDiff4NewTarget, minMatchingScore4Iou, checkClassMatch, probationAge, maxShadowTrackingAge, earlyTerminationAge, maxTargetsPerStream };
  }

  private trackFrame(frame: FrameMeta): void {
    const { operateOnClassIds, minDetectorConfidence } = this.props;
    const objects = frame.objectItems;
    const candidates = objects.filter(
      (object) => (operateOnClassIds.length === 0 || operateOnClassIds.includes(object.classId)) && object.confidence >= minDetectorConfidence,
    );
    const detections = candidates.map((object) => ({ classId: object.classId, box: boxOf(object) }));
    const associations = this.sources.of(frame).update(detections, this.settings);
    const removed = new Set<ObjectMeta>();
    candidates.forEach((object, index) => {
      const association = associations[index];
      if (association !== undefined && !this.writeTracked(frame, object, association)) removed.add(object);
    });
    // nvtracker leaves untracked objects in place only when it tracks some classes alone.
    if (operateOnClassIds.length === 0) for (const object of objects) if (object.objectId === -1) removed.add(object);
    for (const object of removed) frame.removeObjectMeta(object);
  }

  /** Writes a tracked object as nvtracker does; false when its box lies outside the frame (nvtracker removes it). */
  private writeTracked(frame: FrameMeta, object: ObjectMeta, { objectId, confidence }: Association): boolean {
    const box = boxOf(object);
    const clipped = clipToFrame(box, frame.pipelineWidth, frame.pipelineHeight);
    if (clipped === undefined) return false;
    object.objectId = objectId;
    object.trackerConfidence = confidence;
    object.trackerBboxInfo = box;
    object.rectParams = clipped;
    const label = object.textParams.displayText || object.label;
    object.textParams = {
      ...(this.props.displayTrackingId ? { displayText: label === "" ? `${objectId}` : `${label} ${objectId}` } : {}),
      // Unsigned integers in NvOSD_TextParams: nvtracker's float conversion truncates (and is undefined below 0).
      xOffset: Math.trunc(clipped.left),
      yOffset: Math.trunc(Math.max(0, clipped.top - 20)),
      font: { name: "Serif", size: 10, color: { red: 1, green: 1, blue: 1, alpha: 1 } },
      setBgColor: true,
      bgColor: { red: 0, green: 0, blue: 0, alpha: 1 },
    };
    this.tracked++;
    return true;
  }
}

function boxOf(object: ObjectMeta): TrackBox {
  const { left, top, width, height } = object.rectParams;
  return { left, top, width, height };
}

/** The part of `box` inside a frame of the given size, as nvtracker clips (clipBBox); undefined when none is. A size of 0 (unknown) does not clip. */
function clipToFrame(box: TrackBox, frameWidth: number, frameHeight: number): TrackBox | undefined {
  let { left, top, width, height } = box;
  if (left < 0) [width, left] = [width + left, 0];
  if (top < 0) [height, top] = [height + top, 0];
  const right = frameWidth > 0 ? frameWidth : Infinity;
  const bottom = frameHeight > 0 ? frameHeight : Infinity;
  if (left >= right || top >= bottom || width <= 0 || height <= 0) return undefined;
  return { left, top, width: Math.min(width, right - left), height: Math.min(height, bottom - top) };
}
