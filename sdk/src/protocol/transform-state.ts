/**
 * Layout of the binding's `transformState` Float64Array, which native code fills right before
 * each `transform` call (docs/internals/host-protocol.md). Reading plain doubles from one
 * shared array is what keeps the per-buffer hand-off free of allocation on the native side.
 */

/** Index of the buffer PTS (ns, -1 when none). */
export const STATE_PTS = 0;
/** Index of the buffer DTS (ns, -1 when none). */
export const STATE_DTS = 1;
/** Index of the buffer duration (ns, -1 when none). */
export const STATE_DURATION = 2;
/** Index of the buffer size in bytes. */
export const STATE_SIZE = 3;
/** Index of the number of frames in the batch. */
export const STATE_NUM_FRAMES = 4;
/** Index of the first frame's record. */
export const STATE_FRAMES_BASE = 8;
/** Doubles per frame record. */
export const STATE_FRAME_STRIDE = 10;

/** Offsets inside one frame record. */
export const FRAME_NUM = 0;
export const FRAME_BUF_PTS = 1;
export const FRAME_BUF_DTS = 2;
export const FRAME_BUF_DURATION = 3;
export const FRAME_SOURCE_ID = 4;
export const FRAME_PAD_INDEX = 5;
export const FRAME_BATCH_ID = 6;
export const FRAME_WIDTH = 7;
export const FRAME_HEIGHT = 8;

/** How many doubles a batch of `numFrames` frames occupies. */
export function stateLength(numFrames: number): number {
  return STATE_FRAMES_BASE + numFrames * STATE_FRAME_STRIDE;
}
