import { StaleHandleError } from "../errors/errors.js";
import { STATE_NUM_FRAMES, stateLength } from "../protocol/transform-state.js";

/**
 * The life of one transform() call, shared by every handle that call hands out. Ending the
 * scope invalidates all of them with one write, which is what makes StaleHandleError free on
 * the hot path.
 *
 * @internal
 */
export class TransformScope {
  alive = true;

  constructor(public state: Float64Array) {}

  /**
   * Copies this call's numbers out of the shared state array. Needed once transform() returns
   * a pending Promise: while it waits, the JS thread serves other elements, and native code
   * rewrites the shared array for each of them.
   */
  detach(): void {
    const length = stateLength(this.state[STATE_NUM_FRAMES] ?? 0);
    this.state = this.state.slice(0, length);
  }

  end(): void {
    this.alive = false;
  }
}

/** Reads one double of a live scope, or throws StaleHandleError naming the handle and member. */
export function readState(scope: TransformScope, index: number, handle: string, member: string): number {
  if (!scope.alive) throw new StaleHandleError(handle, member);
  return scope.state[index] as number;
}

/** GstClockTime → number of ns, or undefined for GST_CLOCK_TIME_NONE (sent as -1). */
export function readClockTime(scope: TransformScope, index: number, handle: string, member: string): number | undefined {
  const value = readState(scope, index, handle, member);
  return value < 0 ? undefined : value;
}
