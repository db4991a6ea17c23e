/** Builds a binding-style transformState array for tests (layout: protocol/transform-state.ts). */
import {
  FRAME_BATCH_ID,
  FRAME_BUF_DTS,
  FRAME_BUF_DURATION,
  FRAME_BUF_PTS,
  FRAME_HEIGHT,
  FRAME_NUM,
  FRAME_PAD_INDEX,
  FRAME_SOURCE_ID,
  FRAME_WIDTH,
  STATE_DTS,
  STATE_DURATION,
  STATE_FRAME_STRIDE,
  STATE_FRAMES_BASE,
  STATE_NUM_FRAMES,
  STATE_PTS,
  STATE_SIZE,
} from "../protocol/transform-state.js";

export interface TestFrame {
  frameNum?: number;
  bufPts?: number;
  sourceId?: number;
  padIndex?: number;
  batchId?: number;
  width?: number;
  height?: number;
}

export interface TestBuffer {
  pts?: number;
  dts?: number;
  duration?: number;
  size?: number;
  frames?: TestFrame[];
}

/** A state array with room for `capacity` frames (like the binding's, larger than needed). */
export function makeTransformState(buffer: TestBuffer = {}, capacity = 16): Float64Array {
  const state = new Float64Array(STATE_FRAMES_BASE + capacity * STATE_FRAME_STRIDE).fill(-7);
  writeTransformState(state, buffer);
  return state;
}

/** Overwrites `state` in place, as native code does before each call. */
export function writeTransformState(state: Float64Array, buffer: TestBuffer): void {
  const frames = buffer.frames ?? [{}];
  state[STATE_PTS] = buffer.pts ?? -1;
  state[STATE_DTS] = buffer.dts ?? -1;
  state[STATE_DURATION] = buffer.duration ?? -1;
  state[STATE_SIZE] = buffer.size ?? 0;
  state[STATE_NUM_FRAMES] = frames.length;
  frames.forEach((frame, index) => {
    const base = STATE_FRAMES_BASE + index * STATE_FRAME_STRIDE;
    state[base + FRAME_NUM] = frame.frameNum ?? index;
    state[base + FRAME_BUF_PTS] = frame.bufPts ?? -1;
    state[base + FRAME_BUF_DTS] = -1;
    state[base + FRAME_BUF_DURATION] = -1;
    state[base + FRAME_SOURCE_ID] = frame.sourceId ?? 0;
    state[base + FRAME_PAD_INDEX] = frame.padIndex ?? 0;
    state[base + FRAME_BATCH_ID] = frame.batchId ?? index;
    state[base + FRAME_WIDTH] = frame.width ?? 0;
    state[base + FRAME_HEIGHT] = frame.height ?? 0;
  });
}
