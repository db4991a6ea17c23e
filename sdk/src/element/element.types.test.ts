import { describe, expect, expectTypeOf, it } from "vitest";
import { z } from "zod";
import type { BatchMeta } from "../metadata/batch-meta.js";
import type { GstBuffer } from "../stream/gst-buffer.js";
import { Element } from "./element.js";

class FrameCounter extends Element.define({
  name: "framecounter",
  longName: "Frame counter",
  klass: "Filter/Analyzer/Video",
  description: "Counts frames",
  author: "Jane Doe <jane@example.com>",
  caps: "video/x-raw, format={ RGB, RGBA }",
  properties: z.object({
    location: z.string().describe("Where to write the count"),
    everyN: z.number().int().min(1).default(1).describe("Log every N frames"),
    scale: z.number().min(0).max(10).default(1),
    mode: z.enum(["fast", "accurate"]).default("fast"),
    thresholds: z.array(z.number()).default([]),
    labels: z.array(z.string()).default([]),
    verbose: z.boolean().default(false),
    note: z.string().optional(),
  }),
}) {
  transform(batch: BatchMeta, buffer: GstBuffer) {
    expectTypeOf(this.props.everyN).toEqualTypeOf<number>();
    expectTypeOf(batch.numFrames).toEqualTypeOf<number>();
    expectTypeOf(buffer.pts).toEqualTypeOf<number | undefined>();
  }
}

class NoProperties extends Element.define({
  name: "noprops",
  longName: "No properties",
  klass: "Filter",
  description: "Has none",
  author: "Jane Doe <jane@example.com>",
  caps: "ANY",
}) {
  async start() {}
}

describe("element types", () => {
  it("types this.props from the zod schema", () => {
    const counter = FrameCounter.create({ location: "/tmp/x" });
    expectTypeOf(counter).toEqualTypeOf<FrameCounter>();
    expectTypeOf(counter.props.location).toEqualTypeOf<string>();
    expectTypeOf(counter.props.everyN).toEqualTypeOf<number>();
    expectTypeOf(counter.props.scale).toEqualTypeOf<number>();
    expectTypeOf(counter.props.mode).toEqualTypeOf<"fast" | "accurate">();
    expectTypeOf(counter.props.thresholds).toEqualTypeOf<number[]>();
    expectTypeOf(counter.props.labels).toEqualTypeOf<string[]>();
    expectTypeOf(counter.props.verbose).toEqualTypeOf<boolean>();
    expectTypeOf(counter.props.note).toEqualTypeOf<string | undefined>();
    // @ts-expect-error props are read-only
    expect(() => (counter.props.everyN = 2)).toThrow(TypeError);
  });

  it("types create()'s input from the schema's input side", () => {
    expectTypeOf(FrameCounter.create).parameter(0).toEqualTypeOf<
      | {
          location: string;
          everyN?: number | undefined;
          scale?: number | undefined;
          mode?: "fast" | "accurate" | undefined;
          thresholds?: number[] | undefined;
          labels?: string[] | undefined;
          verbose?: boolean | undefined;
          note?: string | undefined;
        }
      | undefined
    >();
    // @ts-expect-error mode must be one of the enum values
    expect(() => FrameCounter.create({ location: "/tmp/x", mode: "slow" })).toThrow('for mode but received "slow"');
  });

  it("gives an element without properties empty props", () => {
    expectTypeOf(NoProperties.create().props).toEqualTypeOf<Readonly<Record<string, never>>>();
    expect(NoProperties.create().props).toEqual({});
  });

  it("lets hooks be sync or async", () => {
    expectTypeOf<FrameCounter["start"]>().returns.toEqualTypeOf<void | Promise<void>>();
    expectTypeOf<NoProperties["start"]>().returns.toEqualTypeOf<Promise<void>>();
  });
});
