/**
 * Buffer.extract's work: the frame view of one batch slot, one handle per (call, batchId) so
 * that extracting twice gives the same handle.
 */
import { describeValue, expectedMessage } from "../errors/describe-value.js";
import { InvalidTypeError, InvalidValueError, StaleHandleError } from "../errors/errors.js";
import { tensorBinding } from "../native/installed-bindings.js";
import { FRAME_INFO_LENGTH, frameInfoFrom } from "../native/tensor-binding.js";
import { frameTensorFromNative, type CallLife, type TensorHandle } from "./tensor-handle.js";

/** @internal What a call gives frame access: its life and the id native code knows it by. */
export interface FrameCall extends CallLife {
  readonly callId: number;
}

const extracted = new WeakMap<FrameCall, Map<number, TensorHandle>>();
// extractInto's numbers, read back at once (the JS thread runs one extract at a time).
const frameInfo = new Float64Array(FRAME_INFO_LENGTH);

/** @internal */
export function extractFrame(call: FrameCall, batchId: unknown): TensorHandle {
  if (!call.alive) throw new StaleHandleError("GstBuffer", "extract()", "calling");
  if (typeof batchId !== "number") {
    throw new InvalidTypeError(expectedMessage("a whole number ≥ 0", "batchId of Buffer.extract()", describeValue(batchId)));
  }
  if (!Number.isInteger(batchId) || batchId < 0 || batchId > 0xffffffff) {
    throw new InvalidValueError(expectedMessage("a whole number ≥ 0", "batchId of Buffer.extract()", describeValue(batchId)));
  }
  let frames = extracted.get(call);
  const known = frames?.get(batchId);
  if (known !== undefined) return known;
  const buffer = tensorBinding("Buffer.extract()").extractInto(call.callId, batchId, frameInfo);
  const frame = frameTensorFromNative(frameInfoFrom(frameInfo, buffer), call, call.callId, batchId);
  if (frames === undefined) extracted.set(call, (frames = new Map()));
  frames.set(batchId, frame);
  return frame;
}
