/**
 * State kept per source (camera) of a batch, made on the source's first frame. A small
 * interface so that the place the states live can change (e.g. to a helper that also drops a
 * source's state when nvstreammux removes or resets it) without touching the tracker.
 */

/**
 * One state per source id.
 *
 * @example
 * ```ts
 * const counts = new SourceStates(() => ({ frames: 0 }));
 * counts.of(frame.sourceId).frames++;
 * ```
 */
export interface PerSource<T> {
  /** The source's state, made on first use. */
  of(sourceId: number): T;
  /** Forgets one source's state (its next frame starts afresh). */
  drop(sourceId: number): void;
  /** Forgets every source's state. */
  clear(): void;
}

/** {@link PerSource} over a Map. */
export class SourceStates<T> implements PerSource<T> {
  readonly #states = new Map<number, T>();

  constructor(private readonly create: (sourceId: number) => T) {}

  of(sourceId: number): T {
    let state = this.#states.get(sourceId);
    if (state === undefined) {
      state = this.create(sourceId);
      this.#states.set(sourceId, state);
    }
    return state;
  }

  drop(sourceId: number): void {
    this.#states.delete(sourceId);
  }

  clear(): void {
    this.#states.clear();
  }
}
