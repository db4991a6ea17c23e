/**
 * The standalone binding (native-host's dsnode_standalone.node: the real metadata binding over the
 * portable backend, plus a harness that makes buffers) for the SDK's own low-level tests:
 * bare buffers, and transform-like calls over them run the way the host adapter does (open,
 * transform, commit, end, close). Element-level tests use `ds-element/testing` instead.
 */
import { loadStandaloneBinding, type StandaloneBinding } from "../native/loader.js";
import type { StandaloneHarness } from "../native/meta-binding.js";
import {
  FRAME_BATCH_ID,
  FRAME_BUF_PTS,
  FRAME_NUM,
  FRAME_NUM_SURFACES_PER_FRAME,
  FRAME_PAD_INDEX,
  FRAME_PIPELINE_HEIGHT,
  FRAME_PIPELINE_WIDTH,
  FRAME_SOURCE_FRAME_HEIGHT,
  FRAME_SOURCE_ID,
  FRAME_SOURCE_FRAME_WIDTH,
  STATE_FRAME_STRIDE,
} from "../protocol/transform-state.js";

export type { StandaloneBinding } from "../native/loader.js";
export { standaloneBindingPath as addonPath, standaloneBindings } from "../native/loader.js";
export { openCall, inCall, type OpenCall } from "../testing/native-call.js";

/** The addon; throws (naming how to build it) when it is not built: tests must not skip quietly. */
export function requireStandaloneBinding(): StandaloneBinding {
  return loadStandaloneBinding();
}

export interface HarnessFrame {
  frameNum?: number;
  bufPts?: number;
  sourceId?: number;
  padIndex?: number;
  width?: number;
  height?: number;
}

/** A buffer with a portable batch of `frames`. */
export function makeBuffer(harness: StandaloneHarness, frames: HarnessFrame[], maxFramesInBatch = Math.max(frames.length, 1)): object {
  const buffer = harness.createBuffer(maxFramesInBatch, 64);
  frames.forEach((frame, index) => {
    const record = new Float64Array(STATE_FRAME_STRIDE);
    record[FRAME_NUM] = frame.frameNum ?? index;
    record[FRAME_BUF_PTS] = frame.bufPts ?? -1;
    record[FRAME_SOURCE_ID] = frame.sourceId ?? 0;
    record[FRAME_PAD_INDEX] = frame.padIndex ?? 0;
    record[FRAME_BATCH_ID] = index;
    record[FRAME_SOURCE_FRAME_WIDTH] = record[FRAME_PIPELINE_WIDTH] = frame.width ?? 640;
    record[FRAME_SOURCE_FRAME_HEIGHT] = record[FRAME_PIPELINE_HEIGHT] = frame.height ?? 480;
    record[FRAME_NUM_SURFACES_PER_FRAME] = 1;
    harness.addFrame(buffer, record);
  });
  return buffer;
}

