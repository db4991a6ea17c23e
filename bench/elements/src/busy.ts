import { Element, z } from "ds-element";

/**
 * Bench section 9 (JavaScript on every core): an in-place transform that keeps the JS thread
 * busy for `busy-us` microseconds per buffer, synchronously, as a CPU-heavy post-processing
 * step would. N of them in N streams show how the elements' JavaScript shares the cores.
 */
export default class BusyTs extends Element.define({
  name: "busyts",
  longName: "Busy (TypeScript)",
  klass: "Filter",
  description: "Spends busy-us microseconds of synchronous JavaScript per buffer",
  author: "ds-element authors <ds-element@example.com>",
  caps: "ANY",
  properties: z.object({
    busyUs: z.number().int().min(0).max(1_000_000).default(1000).describe("Microseconds of synchronous JavaScript per buffer"),
  }),
}) {
  spins = 0;

  transform() {
    const until = performance.now() + this.props.busyUs / 1000;
    while (performance.now() < until) this.spins++;
  }
}
