/**
 * Calls over a harness buffer, run the way the host adapter runs transform(): open the native
 * call (which fills the state array), hand out handles, commit the writes, end the scope (every
 * handle goes stale), close the native call (un-added metas go back to the pool).
 *
 * @internal
 */
import { BatchMeta } from "../metadata/batch-meta.js";
import { TransformScope } from "../metadata/call/transform-scope.js";
import type { StandaloneBinding } from "../native/loader.js";
import { stateLength } from "../protocol/transform-state.js";

/** One open call over a buffer, as the host adapter would make it. */
export interface OpenCall {
  readonly callId: number;
  readonly scope: TransformScope;
  readonly batch: BatchMeta;
  /** Commits (if the scope is still alive), ends the scope, closes the native call. */
  close(): void;
}

/** Opens a native call on `buffer` (a batch of `numFrames`): the call id and its state array. */
export function openNativeCall(addon: StandaloneBinding, buffer: object, numFrames: number): { callId: number; state: Float64Array } {
  const state = new Float64Array(stateLength(numFrames));
  const callId = addon.harness.openCall(buffer, state);
  return { callId, state };
}

/** Opens a call with its handles. */
export function openCall(addon: StandaloneBinding, buffer: object, numFrames: number): OpenCall {
  const { callId, state } = openNativeCall(addon, buffer, numFrames);
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
export function inCall<T>(addon: StandaloneBinding, buffer: object, numFrames: number, body: (batch: BatchMeta, call: OpenCall) => T): T {
  const call = openCall(addon, buffer, numFrames);
  try {
    return body(call.batch, call);
  } finally {
    call.close();
  }
}
