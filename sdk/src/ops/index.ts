/**
 * Native pre-processing ops (CPU and CUDA implementations, same results), as the `ops`
 * namespace of `ds-element`.
 *
 * @example
 * ```ts
 * import { ops } from "ds-element";
 * const { tensor, transforms } = ops.preprocess(buffer.extract(0), { width: 640, height: 640 });
 * ```
 * @packageDocumentation
 */
export { preprocess, type PreprocessOptions, type PreprocessResult } from "./preprocess.js";
export { FrameTransform } from "./frame-transform.js";
