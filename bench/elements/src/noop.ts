import { Element, z, type BatchMeta } from "ds-element";

/**
 * The benchmark's TypeScript element: an in-place transform that reads the batch's frame count
 * and returns, so a pipeline's time over `identity` is the per-buffer hand-off to Node.
 * Its gst-python peer is bench/peers/gst-python-plugins/python/noopy.py.
 */
export default class NoopTs extends Element.define({
  name: "noopts",
  longName: "No-op (TypeScript)",
  klass: "Filter",
  description: "Does nothing per buffer, in TypeScript",
  author: "ds-element authors <ds-element@example.com>",
  caps: "ANY",
  properties: z.object({}),
}) {
  frames = 0;

  transform(batch: BatchMeta) {
    this.frames += batch.frameItems.length;
  }
}
