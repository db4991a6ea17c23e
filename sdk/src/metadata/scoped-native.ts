import { StaleHandleError } from "../errors/errors.js";
import type { TransformScope } from "./call/transform-scope.js";

/**
 * What the read-only views over a native value of one transform() call hold (SegmentationMeta,
 * TensorOutputMeta): `read(member)` gives the value while the call runs and throws
 * {@link StaleHandleError} naming `<type>.<member>` after it.
 *
 * @internal
 */
export function scopedNative<N>(scope: TransformScope, native: N, type: string): (member: string) => N {
  return (member) => {
    if (!scope.alive) throw new StaleHandleError(type, member);
    return native;
  };
}
