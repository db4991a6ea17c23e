import { invalid } from "./checks.js";
import { ColumnStore } from "./detections.js";

/**
 * The arrays behind one scratch. Each call kind has its own result store, so that
 * `nms(decodeYolo(…, { scratch })[0], { scratch })` reads one while writing the other.
 *
 * @internal
 */
export class ScratchAreas {
  /**
   * @param keepsResults Whether results are views of this scratch's stores (a user's
   *   PostprocessScratch) or go to fresh columns the caller keeps (the working arrays of calls
   *   made without one).
   */
  constructor(readonly keepsResults: boolean) {}

  readonly decoded = new ColumnStore(0);
  readonly kept = new ColumnStore(0);
  /** decodeYolo (channels first): each candidate's best score so far and its class. */
  bestScore = new Float32Array(0);
  bestClass = new Int32Array(0);
  /** nms and top-K: rows by confidence, sort keys, suppression flags, rows kept. */
  order = new Int32Array(0);
  keys = new Float64Array(0);
  suppressed = new Uint8Array(0);
  keep = new Int32Array(0);
  /** nms: the next rank of the same class (-1: none), and the last rank seen of each class while linking. */
  nextSameClass = new Int32Array(0);
  lastOfClass = new Int32Array(0);
  /** nms: the boxes in rank order, as edges and areas. */
  x1 = new Float64Array(0);
  y1 = new Float64Array(0);
  x2 = new Float64Array(0);
  y2 = new Float64Array(0);
  area = new Float64Array(0);

  /** Makes sure the per-row working arrays hold `count` rows (contents not kept). */
  reserveRows(count: number): void {
    if (this.order.length >= count) return;
    const capacity = Math.max(count, this.order.length * 2, 64);
    this.order = new Int32Array(capacity);
    this.keys = new Float64Array(capacity);
    this.suppressed = new Uint8Array(capacity);
    this.keep = new Int32Array(capacity);
    this.nextSameClass = new Int32Array(capacity);
    this.x1 = new Float64Array(capacity);
    this.y1 = new Float64Array(capacity);
    this.x2 = new Float64Array(capacity);
    this.y2 = new Float64Array(capacity);
    this.area = new Float64Array(capacity);
  }

  /** Makes sure `bestScore` and `bestClass` hold `count` candidates (contents not kept). */
  reserveCandidates(count: number): void {
    if (this.bestScore.length >= count) return;
    this.bestScore = new Float32Array(count);
    this.bestClass = new Int32Array(count);
  }

  /** Makes sure `lastOfClass` holds class ids 0..`count` - 1 (contents not kept). */
  reserveClasses(count: number): void {
    if (this.lastOfClass.length < count) this.lastOfClass = new Int32Array(Math.max(count, 128));
  }
}

let areasOf: (scratch: PostprocessScratch) => ScratchAreas;

/**
 * Working memory for {@link decodeYolo} and {@link nms}, kept between calls so that a steady
 * stream of frames allocates nothing but the small result views. Pass the same scratch to
 * every call of one element (each call kind uses its own part of it, so decode's result may
 * go straight into nms).
 *
 * The price: a result computed with a scratch is a view of its arrays, valid until the next
 * call of the same kind with the same scratch. Hand it to `frame.addObjects()` (which copies)
 * or `.slice()` the columns you keep. A scratch is not shared between elements or threads.
 *
 * @example
 * ```ts
 * class YoloParse extends Element.define({ ... }) {
 *   scratch = new PostprocessScratch();
 *   transform(batch: BatchMeta) {
 *     for (const frame of batch.frameItems) {
 *       const layer = frame.tensorItems[0]?.layers[0];
 *       if (layer === undefined) continue;
 *       const [candidates] = decodeYolo(layer, { scratch: this.scratch });
 *       frame.addObjects(nms(candidates, { scratch: this.scratch }));
 *     }
 *   }
 * }
 * ```
 */
export class PostprocessScratch {
  readonly #areas = new ScratchAreas(true);

  static {
    areasOf = (scratch) => scratch.#areas;
  }
}

/**
 * The working arrays of calls made without a scratch. JavaScript runs one such call at a time
 * in a module instance (every isolate and worker loads its own) and none calls another, so one
 * set serves them all; their results go to fresh columns. Fresh working arrays for every call
 * were most of its cost: nms of 18 candidates took 19-23 µs, allocating some thirty typed arrays.
 */
const unscratched = new ScratchAreas(false);

/**
 * The areas of a scratch, or the shared working arrays (whose results are fresh) when there is
 * none.
 *
 * @internal
 */
export function scratchAreas(scratch: PostprocessScratch | undefined, name: string): ScratchAreas {
  if (scratch === undefined) return unscratched;
  if (!(scratch instanceof PostprocessScratch)) return invalid("a PostprocessScratch", name, scratch, true);
  return areasOf(scratch);
}
