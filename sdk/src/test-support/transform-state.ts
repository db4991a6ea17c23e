/** Builds a binding-style transformState array for tests (layout: protocol/transform-state.ts). */
import {
  FRAME_BATCH_ID,
  FRAME_BUF_DTS,
  FRAME_BUF_DURATION,
  FRAME_BUF_PTS,
  FRAME_NUM,
  FRAME_PAD_INDEX,
  FRAME_PIPELINE_HEIGHT,
  FRAME_PIPELINE_WIDTH,
  FRAME_SOURCE_FRAME_HEIGHT,
  FRAME_SOURCE_FRAME_WIDTH,
  FRAME_NUM_SURFACES_PER_FRAME,
  FRAME_SOURCE_ID,
  STATE_DTS,
  STATE_DURATION,
  STATE_FRAME_STRIDE,
  STATE_FRAMES_BASE,
  STATE_CALL_ID,
  STATE_MAX_FRAMES,
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
  /** Both the source and the pipeline size unless those are given. */
  width?: number;
  height?: number;
  sourceFrameWidth?: number;
  sourceFrameHeight?: number;
  pipelineWidth?: number;
  pipelineHeight?: number;
}

export interface TestBuffer {
  pts?: number;
  dts?: number;
  duration?: number;
  size?: number;
  maxFramesInBatch?: number;
  callId?: number;
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
  state[STATE_MAX_FRAMES] = buffer.maxFramesInBatch ?? frames.length;
  state[STATE_CALL_ID] = buffer.callId ?? 1;
  frames.forEach((frame, index) => {
    const base = STATE_FRAMES_BASE + index * STATE_FRAME_STRIDE;
    state.fill(0, base, base + STATE_FRAME_STRIDE);
    state[base + FRAME_NUM] = frame.frameNum ?? index;
    state[base + FRAME_BUF_PTS] = frame.bufPts ?? -1;
    state[base + FRAME_BUF_DTS] = -1;
    state[base + FRAME_BUF_DURATION] = -1;
    state[base + FRAME_SOURCE_ID] = frame.sourceId ?? 0;
    state[base + FRAME_PAD_INDEX] = frame.padIndex ?? 0;
    state[base + FRAME_BATCH_ID] = frame.batchId ?? index;
    state[base + FRAME_SOURCE_FRAME_WIDTH] = frame.sourceFrameWidth ?? frame.width ?? 0;
    state[base + FRAME_SOURCE_FRAME_HEIGHT] = frame.sourceFrameHeight ?? frame.height ?? 0;
    state[base + FRAME_PIPELINE_WIDTH] = frame.pipelineWidth ?? frame.width ?? 0;
    state[base + FRAME_PIPELINE_HEIGHT] = frame.pipelineHeight ?? frame.height ?? 0;
    state[base + FRAME_NUM_SURFACES_PER_FRAME] = 1;
  });
}
