import { Element, z, type BatchMeta } from "ds-element";

export default class Counter extends Element.define({
  name: "counter",
  longName: "Counter",
  klass: "Filter/Analyzer/Video",
  description: "Counts frames",
  author: "Jane Doe <jane@example.com>",
  caps: "video/x-raw, format={ RGB, RGBA }",
  properties: z.object({
    location: z.string().describe("Where to write the count"),
    everyN: z.number().int().min(1).default(1).describe("Log every N frames"),
    scale: z.number().min(0).max(10).default(1).describe("Scale"),
    mode: z.enum(["fast", "accurate"]).default("fast").describe("Mode"),
    thresholds: z.array(z.number()).default([]).describe("Thresholds"),
    verbose: z.boolean().default(false).describe("Verbose"),
  }),
}) {
  count = 0;
  transform(batch: BatchMeta) {
    this.count += batch.numFrames;
  }
}
