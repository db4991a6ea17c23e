/**
 * The IOU tracker of one source (one camera), fed one frame's detections at a time: plain
 * TypeScript, no metadata. Its rules follow NVIDIA's NvMultiObjectTracker configured as its IOU
 * tracker (config_tracker_IOU.yml), by the names of that configuration:
 *
 * - association: same class only (`checkClassMatch`), a pair counts when its IoU is above 0 and
 *   at least `minMatchingScore4Iou`; pairs are taken greedily, highest IoU first
 *   (`associationMatcherType: 0`, GREEDY, what NVIDIA's IOU configuration uses);
 * - creation: a detection left over starts a new target unless its IoU with a target (of its
 *   class, with `checkClassMatch`) exceeds `minIouDiff4NewTarget`, or the source already has
 *   `maxTargetsPerStream` targets;
 * - late activation: a target is tentative (not reported) until its age exceeds
 *   `probationAge`; a tentative target missed `earlyTerminationAge` times is dropped;
 * - shadow tracking: an active target the detector misses is kept, unreported, at its last box,
 *   for up to `maxShadowTrackingAge` frames; matched again, it is reported again under its id.
 */

/** A box in frame pixels. */
export interface TrackBox {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** A detection of the frame, as the tracker sees it. */
export interface Detection {
  classId: number;
  box: TrackBox;
}

/** The tracker's settings, named as NVIDIA's IOU tracker configuration names them. */
export interface IouTrackerSettings {
  minIouDiff4NewTarget: number;
  minMatchingScore4Iou: number;
  checkClassMatch: boolean;
  probationAge: number;
  maxShadowTrackingAge: number;
  earlyTerminationAge: number;
  maxTargetsPerStream: number;
}

/**
 * The values of NVIDIA's sample IOU tracker configuration (config_tracker_IOU.yml): dstracker's
 * property defaults.
 */
export const NVIDIA_IOU_DEFAULTS: Readonly<IouTrackerSettings> = {
  minIouDiff4NewTarget: 0.5,
  minMatchingScore4Iou: 0,
  checkClassMatch: true,
  probationAge: 4,
  maxShadowTrackingAge: 38,
  earlyTerminationAge: 1,
  maxTargetsPerStream: 150,
};

/** What the tracker says of one detection of the frame. */
export interface Association {
  /** The target's id. */
  objectId: number;
  /** The IoU of the detection with the target's box on its previous frame; 1 on the target's first frame. */
  confidence: number;
}

type TargetState = "tentative" | "active" | "shadow";

interface Target {
  id: number;
  classId: number;
  box: TrackBox;
  state: TargetState;
  /** Frames since the target was created, the creation frame being 1. */
  age: number;
  /** Consecutive frames the detector missed it. */
  shadowTrackingAge: number;
}

/**
 * Intersection over union of two boxes (0 when either is empty).
 *
 * @example
 * ```ts
 * intersectionOverUnion({ left: 0, top: 0, width: 10, height: 10 }, { left: 5, top: 0, width: 10, height: 10 }); // 1/3
 * ```
 */
export function intersectionOverUnion(a: TrackBox, b: TrackBox): number {
  const width = Math.min(a.left + a.width, b.left + b.width) - Math.max(a.left, b.left);
  const height = Math.min(a.top + a.height, b.top + b.height) - Math.max(a.top, b.top);
  if (width <= 0 || height <= 0) return 0;
  const intersection = width * height;
  return intersection / (a.width * a.height + b.width * b.height - intersection);
}

/**
 * One source's targets, kept between frames. Ids come from `nextId`, which the caller shares
 * between sources so that an id is unique across them.
 *
 * @example
 * ```ts
 * let id = 0;
 * const tracker = new IouTracker(() => id++);
 * const settings = { ...NVIDIA_IOU_DEFAULTS, probationAge: 0 };
 * tracker.update([{ classId: 0, box: { left: 0, top: 0, width: 40, height: 40 } }], settings); // [{ objectId: 0, confidence: 1 }]
 * ```
 */
export class IouTracker {
  readonly #targets: Target[] = [];

  constructor(private readonly nextId: () => number) {}

  /**
   * Takes one frame's detections; returns, per detection (in the order given), its target when
   * that target is reported on this frame, or undefined (tentative, discarded, or no room).
   */
  update(detections: readonly Detection[], settings: IouTrackerSettings): (Association | undefined)[] {
    const targets = this.#targets;
    const result: (Association | undefined)[] = detections.map(() => undefined);
    const matched = new Set<Target>();
    const used = new Set<number>();
    for (const { target, detection, iou } of candidatePairs(targets, detections, settings)) {
      if (matched.has(target) || used.has(detection)) continue;
      matched.add(target);
      used.add(detection);
      target.box = detections[detection]!.box;
      target.shadowTrackingAge = 0;
      target.age++;
      if (target.state === "shadow" || (target.state === "tentative" && target.age > settings.probationAge)) target.state = "active";
      if (target.state === "active") result[detection] = { objectId: target.id, confidence: iou };
    }
    // Targets the detector missed: shadow tracking, or termination.
    for (let index = targets.length - 1; index >= 0; index--) {
      const target = targets[index]!;
      if (matched.has(target)) continue;
      target.age++;
      target.shadowTrackingAge++;
      const terminated =
        target.state === "tentative" ? target.shadowTrackingAge >= settings.earlyTerminationAge : target.shadowTrackingAge > settings.maxShadowTrackingAge;
      if (terminated) targets.splice(index, 1);
      else if (target.state === "active") target.state = "shadow";
    }
    // Detections left over: new targets, unless one already covers them.
    for (const [index, detection] of detections.entries()) {
      if (used.has(index) || targets.length >= settings.maxTargetsPerStream) continue;
      const covered = (target: Target) => sameClass(target, detection, settings) && intersectionOverUnion(target.box, detection.box) > settings.minIouDiff4NewTarget;
      if (targets.some(covered)) continue;
      const state: TargetState = settings.probationAge < 1 ? "active" : "tentative";
      const target: Target = { id: this.nextId(), classId: detection.classId, box: detection.box, state, age: 1, shadowTrackingAge: 0 };
      targets.push(target);
      if (state === "active") result[index] = { objectId: target.id, confidence: 1 };
    }
    return result;
  }
}

/** Whether a target and a detection may be one object: of one class, unless classes are not checked. */
function sameClass(target: Target, detection: Detection, settings: IouTrackerSettings): boolean {
  return !settings.checkClassMatch || target.classId === detection.classId;
}

/** Every target–detection pair that may be associated, highest IoU first (ties: older target, earlier detection). */
function candidatePairs(targets: readonly Target[], detections: readonly Detection[], settings: IouTrackerSettings) {
  const pairs: { target: Target; detection: number; iou: number; order: number }[] = [];
  targets.forEach((target, targetIndex) => {
    detections.forEach((detection, index) => {
      if (!sameClass(target, detection, settings)) return;
      const iou = intersectionOverUnion(target.box, detection.box);
      if (iou > 0 && iou >= settings.minMatchingScore4Iou) pairs.push({ target, detection: index, iou, order: targetIndex * detections.length + index });
    });
  });
  return pairs.sort((a, b) => b.iou - a.iou || a.order - b.order);
}
