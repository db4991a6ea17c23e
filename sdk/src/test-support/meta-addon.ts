/**
 * Loads the testing addon (native-host's dsnode_meta.node: the real metadata binding over the
 * portable backend, plus a harness that makes buffers) for the SDK's own tests, and runs
 * transform-like calls over it the way the host adapter does: open, transform, commit, end,
 * close.
 */
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { HarnessBinding, MetaBinding } from "../native/meta-binding.js";
import { BatchMeta } from "../metadata/batch-meta.js";
import { TransformScope } from "../metadata/transform-scope.js";
import {
  FRAME_BATCH_ID,
  FRAME_BUF_PTS,
  FRAME_NUM,
  FRAME_NUM_SURFACES,
  FRAME_PAD_INDEX,
  FRAME_PIPELINE_HEIGHT,
  FRAME_PIPELINE_WIDTH,
  FRAME_SOURCE_HEIGHT,
  FRAME_SOURCE_ID,
  FRAME_SOURCE_WIDTH,
  STATE_FRAME_STRIDE,
  stateLength,
} from "../protocol/transform-state.js";

export interface MetaAddon {
  meta: MetaBinding;
  harness: HarnessBinding;
}

/** The addon, or undefined (with the reason) when it is not built. */
export function loadMetaAddon(): { addon: MetaAddon | undefined; reason: string } {
  const path = addonPath();
  if (path instanceof Error) return { addon: undefined, reason: path.message };
  if (!existsSync(path)) return { addon: undefined, reason: `${path} not built (npm run build -w ds-element-native)` };
  const module = { exports: {} as MetaAddon };
  process.dlopen(module, path);
  return { addon: module.exports, reason: "" };
}

/** DSNODE_META_ADDON (another build, or a bundled test driver that cannot resolve packages from its folder), else ds-element-native's. */
export function addonPath(): string | Error {
  const override = process.env.DSNODE_META_ADDON;
  if (override) return override;
  const require = createRequire(__filename);
  try {
    const native = require("ds-element-native") as { metaAddonPath?: string; buildDir?: string };
    return native.metaAddonPath ?? join(native.buildDir ?? dirname(require.resolve("ds-element-native")), "dsnode_meta.node");
  } catch (error) {
    return new Error(`ds-element-native not found: ${(error as Error).message}`);
  }
}

/** The addon; throws (naming how to build it) when it is not built: tests must not skip quietly. */
export function requireMetaAddon(): MetaAddon {
  const { addon, reason } = loadMetaAddon();
  if (addon === undefined) throw new Error(`the testing addon is needed here: ${reason}`);
  return addon;
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
export function makeBuffer(harness: HarnessBinding, frames: HarnessFrame[], maxFramesInBatch = Math.max(frames.length, 1)): object {
  const buffer = harness.createBuffer(maxFramesInBatch, 64);
  frames.forEach((frame, index) => {
    const record = new Float64Array(STATE_FRAME_STRIDE);
    record[FRAME_NUM] = frame.frameNum ?? index;
    record[FRAME_BUF_PTS] = frame.bufPts ?? -1;
    record[FRAME_SOURCE_ID] = frame.sourceId ?? 0;
    record[FRAME_PAD_INDEX] = frame.padIndex ?? 0;
    record[FRAME_BATCH_ID] = index;
    record[FRAME_SOURCE_WIDTH] = record[FRAME_PIPELINE_WIDTH] = frame.width ?? 640;
    record[FRAME_SOURCE_HEIGHT] = record[FRAME_PIPELINE_HEIGHT] = frame.height ?? 480;
    record[FRAME_NUM_SURFACES] = 1;
    harness.addFrame(buffer, record);
  });
  return buffer;
}

/** One open call over a buffer, as the host adapter would make it. */
export interface OpenCall {
  callId: number;
  scope: TransformScope;
  batch: BatchMeta;
  /** commit, end the scope, close the native call. */
  close(): void;
}

export function openCall(addon: MetaAddon, buffer: object, numFrames: number): OpenCall {
  const state = new Float64Array(stateLength(numFrames));
  const callId = addon.harness.openCall(buffer, state);
  const scope = new TransformScope(state, addon.meta);
  const batch = new BatchMeta(scope);
  return {
    callId,
    scope,
    batch,
    close() {
      try {
        if (scope.alive) scope.commit();
      } finally {
        scope.end();
        addon.harness.closeCall(callId);
      }
    },
  };
}

/** Runs `body` in a call over `buffer` (committing and closing after), returning its result. */
export function inCall<T>(addon: MetaAddon, buffer: object, numFrames: number, body: (batch: BatchMeta, call: OpenCall) => T): T {
  const call = openCall(addon, buffer, numFrames);
  try {
    return body(call.batch, call);
  } finally {
    call.close();
  }
}
