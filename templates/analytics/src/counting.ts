/**
 * Line crossing and ROI occupancy of one source (one camera), fed one frame at a time: plain
 * TypeScript, tested on its own (counting.test.ts). A crossing needs the object's previous
 * position, so only tracked objects (an object id from nvtracker) can cross; every object counts
 * for the ROI.
 */
import { crossing, inside, type Line, type Point } from "./geometry.js";

/** What counting follows (from the element's properties). */
export interface CountingSettings {
  /** The counting line; undefined: none. */
  line: Line | undefined;
  /** The region of interest, a polygon; empty: none. */
  roi: readonly Point[];
  /** An object unseen for more frames than this is forgotten: when it comes back, it starts afresh. */
  forgetAfterFrames: number;
}

/** An object of a frame, as counting sees it. */
export interface CountedObject {
  /** The tracker's id; undefined for an untracked object. */
  objectId: number | undefined;
  anchor: Point;
}

/** What one frame told, per object (in the order given) and in total. */
export interface FrameCounts {
  /** Per object: its crossing on this frame, if any. */
  crossed: ("forward" | "backward" | undefined)[];
  /** Per object: whether it is in the ROI. */
  inRoi: boolean[];
  /** Objects in the ROI on this frame. */
  occupancy: number;
  /** Crossings of the line so far, per direction. */
  forward: number;
  backward: number;
}

/**
 * One source's counts, kept between frames.
 *
 * @example
 * ```ts
 * const counter = new SourceCounter();
 * const settings = { line: { from: { x: 160, y: 0 }, to: { x: 160, y: 240 } }, roi: [], forgetAfterFrames: 30 };
 * counter.update([{ objectId: 1, anchor: { x: 150, y: 100 } }], settings);
 * counter.update([{ objectId: 1, anchor: { x: 170, y: 100 } }], settings).forward; // 1
 * ```
 */
export class SourceCounter {
  #frame = 0;
  #forward = 0;
  #backward = 0;
  /** Tracked objects: where each was last, and on which frame. */
  readonly #last = new Map<number, { anchor: Point; frame: number }>();

  /** Counts one frame's objects. */
  update(objects: readonly CountedObject[], settings: CountingSettings): FrameCounts {
    const frame = ++this.#frame;
    const crossed: FrameCounts["crossed"] = [];
    const inRoi: boolean[] = [];
    for (const { objectId, anchor } of objects) {
      let direction: "forward" | "backward" | undefined;
      if (objectId !== undefined) {
        const last = this.#last.get(objectId);
        if (settings.line !== undefined && last !== undefined && frame - last.frame <= settings.forgetAfterFrames) {
          direction = crossing(settings.line, last.anchor, anchor);
        }
        this.#last.set(objectId, { anchor, frame });
      }
      if (direction === "forward") this.#forward++;
      if (direction === "backward") this.#backward++;
      crossed.push(direction);
      inRoi.push(settings.roi.length >= 3 && inside(anchor, settings.roi));
    }
    // Objects gone for good: their memory is released.
    for (const [objectId, last] of this.#last) if (frame - last.frame > settings.forgetAfterFrames) this.#last.delete(objectId);
    return { crossed, inRoi, occupancy: inRoi.filter(Boolean).length, forward: this.#forward, backward: this.#backward };
  }
}
