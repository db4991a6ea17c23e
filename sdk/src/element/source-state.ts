/**
 * Per-source state that follows nvstreammux's sources as they come and go: made on a source's
 * first frame, dropped when the source is removed or reset, so a source added again starts fresh.
 */
import { describeValue, expectedMessage } from "../errors/describe-value.js";

/** The states of each element instance, for the host adapter to drop (element → its states). */
const statesOfElement = new WeakMap<object, Set<SourceState<unknown>>>();

/** A frame, or anything else that names its source by nvstreammux's pad number. */
export interface SourceKey {
  /** nvstreammux's sink pad number of the source (the frame's `padIndex`). */
  readonly padIndex: number;
}

function sourceIdOf(source: number | SourceKey): number {
  const id = typeof source === "number" ? source : source?.padIndex;
  if (!Number.isInteger(id) || (id as number) < 0) {
    throw new TypeError(expectedMessage("a source id (an integer >= 0) or a frame", "source", describeValue(source)));
  }
  return id as number;
}

/**
 * One value per source (camera) of a batched pipeline, made by `create` on the source's first
 * use (usually its first frame) and dropped by the element's host when nvstreammux removes the
 * source (`GST_NVEVENT_PAD_DELETED`), resets it (`GST_NVEVENT_STREAM_RESET`) or adds it again,
 * and when the element starts again: a camera that comes back never inherits the old camera's tracks
 * or counts. The drop happens after the element's own hook (`onSourceRemoved()`,
 * `onSourceReset()`) returned, so that hook still reads the source's last state. A source's end
 * of stream (`onSourceEos()`) keeps its state: the source is still linked.
 *
 * Keyed by the frame's `padIndex`, the number the source events carry (see {@link Source}).
 * Declare it as a field of the element, passing the element: the host finds it there.
 *
 * @example
 * ```ts
 * import { Element, SourceState, z, type BatchMeta, type Source } from "ds-element";
 *
 * export default class PeopleCounter extends Element.define({
 *   name: "peoplecounter", longName: "People counter", klass: "Filter/Analyzer/Video",
 *   description: "Counts objects per camera", author: "Jane Doe <jane@example.com>",
 *   caps: "video/x-raw(memory:NVMM); video/x-raw", properties: z.object({}),
 * }) {
 *   private counts = new SourceState(this, () => ({ frames: 0, objects: 0 }));
 *
 *   transform(batch: BatchMeta) {
 *     for (const frame of batch.frameItems) {
 *       const count = this.counts.of(frame); // made on the camera's first frame
 *       count.frames++;
 *       count.objects += frame.objectItems.length;
 *     }
 *   }
 *
 *   onSourceRemoved(source: Source) {
 *     // Still there: dropped right after this hook.
 *     this.log.info(`camera ${source.sourceId}: ${this.counts.get(source.sourceId)?.objects ?? 0} objects`);
 *   }
 * }
 * ```
 */
export class SourceState<T> {
  readonly #create: (sourceId: number) => T;
  readonly #states = new Map<number, T>();

  /**
   * @param element - the element the state belongs to (`this` in a field initialiser): its host
   *   drops a source's state when the source goes.
   * @param create - makes the state of a source on its first use; gets the source id.
   *
   * @example
   * ```ts
   * private tracks = new SourceState(this, (sourceId) => new Tracker(sourceId));
   * ```
   */
  constructor(element: object, create: (sourceId: number) => T) {
    if (typeof element !== "object" || element === null) {
      throw new TypeError(expectedMessage("the element (this)", "element", describeValue(element)));
    }
    if (typeof create !== "function") throw new TypeError(expectedMessage("a function", "create", describeValue(create)));
    this.#create = create;
    let states = statesOfElement.get(element);
    if (states === undefined) statesOfElement.set(element, (states = new Set()));
    states.add(this as SourceState<unknown>);
  }

  /**
   * The state of a source (a frame, or a source id), made now if the source has none.
   *
   * @example
   * ```ts
   * for (const frame of batch.frameItems) this.counts.of(frame).frames++;
   * ```
   */
  of(source: number | SourceKey): T {
    const sourceId = sourceIdOf(source);
    if (this.#states.has(sourceId)) return this.#states.get(sourceId) as T;
    const state = this.#create(sourceId);
    this.#states.set(sourceId, state);
    return state;
  }

  /**
   * The state of a source if it has one; never makes one.
   *
   * @example
   * ```ts
   * onSourceEos(source: Source) { this.report(this.counts.get(source.sourceId)); }
   * ```
   */
  get(sourceId: number): T | undefined {
    return this.#states.get(sourceId);
  }

  /**
   * Whether a source has state.
   *
   * @example
   * ```ts
   * if (!this.counts.has(frame.padIndex)) this.log.info(`first frame of camera ${frame.padIndex}`);
   * ```
   */
  has(sourceId: number): boolean {
    return this.#states.has(sourceId);
  }

  /**
   * Drops a source's state (the host does it when the source is removed or reset); returns whether it had one.
   *
   * @example
   * ```ts
   * this.counts.delete(3);
   * ```
   */
  delete(sourceId: number): boolean {
    return this.#states.delete(sourceId);
  }

  /**
   * Drops every source's state (the host does it when the element starts again).
   *
   * @example
   * ```ts
   * onEvent(event: StreamEvent) { if (event.type === "flush-stop") this.counts.clear(); }
   * ```
   */
  clear(): void {
    this.#states.clear();
  }

  /**
   * The number of sources with state.
   *
   * @example
   * ```ts
   * this.log.debug(`${this.counts.size} cameras`);
   * ```
   */
  get size(): number {
    return this.#states.size;
  }

  /**
   * Source ids and their states, in the order the sources were first seen.
   *
   * @example
   * ```ts
   * for (const [sourceId, count] of this.counts) this.log.info(`${sourceId}: ${count.objects}`);
   * ```
   */
  [Symbol.iterator](): IterableIterator<[number, T]> {
    return this.#states.entries();
  }
}

/** @internal Drops `sourceId`'s state in every SourceState of `element` (the host adapter, when a source goes). */
export function dropSourceStates(element: object, sourceId: number): void {
  for (const states of statesOfElement.get(element) ?? []) states.delete(sourceId);
}

/** @internal Drops every source's state of `element` (the host adapter, when the element starts). */
export function clearSourceStates(element: object): void {
  for (const states of statesOfElement.get(element) ?? []) states.clear();
}
