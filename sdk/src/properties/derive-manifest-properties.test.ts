import { describe, expect, it } from "vitest";
import { z } from "zod";
import { deriveManifestProperties } from "./derive-manifest-properties.js";

const derive = (shape: z.ZodRawShape) => deriveManifestProperties(z.object(shape));
const only = (schema: z.ZodType) => derive({ value: schema })[0];
const errorOf = (shape: z.ZodRawShape): string => {
  try {
    derive(shape);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error("expected the schema to be rejected");
};

const INT32_MAX = 2147483647;
const INT32_MIN = -2147483648;

describe("deriveManifestProperties: supported types", () => {
  it("maps the brief's frame counter schema", () => {
    const properties = derive({
      location: z.string().describe("Where to write the count"),
      everyN: z.number().int().min(1).default(1).describe("Log every N frames"),
      scale: z.number().min(0).max(10).default(1).describe("Scale"),
      mode: z.enum(["fast", "accurate"]).default("fast").describe("Mode"),
      thresholds: z.array(z.number()).default([]).describe("Thresholds"),
      verbose: z.boolean().default(false).describe("Verbose"),
    });
    expect(properties).toEqual([
      { name: "location", jsName: "location", type: "string", nick: "Location", blurb: "Where to write the count" },
      { name: "every-n", jsName: "everyN", type: "int", nick: "Every N", blurb: "Log every N frames", minimum: 1, maximum: INT32_MAX, default: 1 },
      { name: "scale", jsName: "scale", type: "double", nick: "Scale", blurb: "Scale", minimum: 0, maximum: 10, default: 1 },
      {
        name: "mode",
        jsName: "mode",
        type: "enum",
        nick: "Mode",
        blurb: "Mode",
        default: "fast",
        values: [
          { value: 0, nick: "fast", name: "fast" },
          { value: 1, nick: "accurate", name: "accurate" },
        ],
      },
      { name: "thresholds", jsName: "thresholds", type: "double-array", nick: "Thresholds", blurb: "Thresholds", default: [] },
      { name: "verbose", jsName: "verbose", type: "boolean", nick: "Verbose", blurb: "Verbose", default: false },
    ]);
  });

  it("maps z.number() to an unbounded double", () => {
    expect(only(z.number())).toMatchObject({ type: "double", minimum: -Number.MAX_VALUE, maximum: Number.MAX_VALUE });
    expect(only(z.number())).not.toHaveProperty("default");
  });

  it("keeps a double's exclusive bounds as the range ends", () => {
    expect(only(z.number().gt(0).lt(1))).toMatchObject({ type: "double", minimum: 0, maximum: 1 });
  });

  it("maps .int() to int, clamped to int32 where the schema states no bound", () => {
    expect(only(z.number().int())).toMatchObject({ type: "int", minimum: INT32_MIN, maximum: INT32_MAX });
    expect(only(z.int32())).toMatchObject({ type: "int", minimum: INT32_MIN, maximum: INT32_MAX });
    expect(only(z.number().int().gt(0).lt(10))).toMatchObject({ type: "int", minimum: 1, maximum: 9 });
    expect(only(z.number().int().min(0.5).max(9.5))).toMatchObject({ type: "int", minimum: 1, maximum: 9 });
  });

  it("maps .int() to int64 when a stated bound exceeds int32", () => {
    expect(only(z.number().int().min(0).max(2 ** 40))).toMatchObject({ type: "int64", minimum: 0, maximum: 2 ** 40 });
    expect(only(z.number().int().min(-(2 ** 33)))).toMatchObject({
      type: "int64",
      minimum: -(2 ** 33),
      maximum: Number.MAX_SAFE_INTEGER,
    });
    expect(only(z.uint32())).toMatchObject({ type: "int64", minimum: 0, maximum: 4294967295 });
  });

  it("maps strings, with and without default", () => {
    expect(only(z.string())).toEqual({ name: "value", jsName: "value", type: "string", nick: "Value", blurb: "Value" });
    expect(only(z.string().default("x"))).toMatchObject({ type: "string", default: "x" });
  });

  it("marks .optional() without default as optional", () => {
    expect(only(z.string().optional())).toMatchObject({ type: "string", optional: true });
    expect(only(z.string().optional().default("a"))).not.toHaveProperty("optional");
  });

  it("maps arrays by item type, with stated item bounds", () => {
    expect(only(z.array(z.number()))).toEqual({ name: "value", jsName: "value", type: "double-array", nick: "Value", blurb: "Value" });
    expect(only(z.array(z.number().min(0).max(1)))).toMatchObject({ type: "double-array", minimum: 0, maximum: 1 });
    expect(only(z.array(z.number().int()).default([1, 2]))).toMatchObject({ type: "int-array", default: [1, 2] });
    expect(only(z.array(z.number().int().min(0)))).toMatchObject({ type: "int-array", minimum: 0 });
    expect(only(z.array(z.string()).default(["a"]))).toMatchObject({ type: "string-array", default: ["a"] });
    expect(only(z.array(z.enum(["a", "b"])))).toMatchObject({ type: "string-array" });
  });

  it("takes the blurb from .describe() wherever it sits, and the nick from the name", () => {
    const [property] = derive({ confidenceThreshold: z.number().describe("inner").default(0.5) });
    expect(property).toMatchObject({ nick: "Confidence threshold", blurb: "inner" });
    expect(derive({ a: z.number().default(1).describe("outer") })[0]?.blurb).toBe("outer");
  });

  it("accepts .readonly() and refinements", () => {
    expect(only(z.number().refine((n) => n !== 3).readonly())).toMatchObject({ type: "double" });
  });
});

describe("deriveManifestProperties: unsupported schemas", () => {
  const SUPPORTED = "z.string(), z.number(), z.boolean(), z.enum([...]) or z.array() of numbers or strings";
  it.each<[string, z.ZodType, string]>([
    ["nullable", z.string().nullable(), "z.string().nullable(); use .optional() instead: a GStreamer property cannot hold null"],
    ["catch", z.number().catch(1), "z.number().catch(...); use .default() instead: an invalid value must be reported, not replaced"],
    [
      "transform",
      z.string().transform((s) => s.length),
      "z.string().transform(...); derive the value in your element (e.g. in start()) instead: the GStreamer type comes from the schema's input",
    ],
    [
      "pipe",
      z.string().pipe(z.string()),
      "z.string().pipe(z.string()); derive the value in your element (e.g. in start()) instead: the GStreamer type comes from the schema's input",
    ],
    ["literal", z.literal("a"), 'z.literal("a"); use z.enum([...]) instead'],
    ["union", z.union([z.string(), z.number()]), "z.union([z.string(), z.number()]); use z.enum([...]) for a choice of strings, or one property per alternative instead"],
    ["bigint", z.bigint(), "z.bigint(); use z.number().int() instead (int64 properties hold integers up to ±2^53)"],
    ["date", z.date(), "z.date(); use z.string() (an ISO 8601 date) instead"],
    ["object", z.object({ a: z.string() }), "z.object({...}); use one property per field instead"],
    ["record", z.record(z.string(), z.string()), "z.record(); use z.array(z.string()) of key=value entries or one property per key instead"],
    ["map", z.map(z.string(), z.string()), "z.map(); use z.array(z.string()) of key=value entries or one property per key instead"],
    ["tuple", z.tuple([z.number(), z.number()]), "z.tuple(); use z.array(z.number()) instead"],
    ["set", z.set(z.string()), "z.set(); use z.array(...) instead"],
    ["any", z.any(), "z.any(); use a concrete type instead"],
    ["unknown", z.unknown(), "z.unknown(); use a concrete type instead"],
    ["a wrapped unsupported type", z.date().optional(), "z.date().optional(); use z.string() (an ISO 8601 date) instead"],
  ])("%s", (_kind, schema, received) => {
    expect(errorOf({ when: schema })).toBe(`Expected ${SUPPORTED} for property when but received ${received}`);
  });

  it("rejects arrays of anything but numbers and strings", () => {
    expect(errorOf({ flags: z.array(z.boolean()) })).toBe(
      "Expected z.array(z.number()), z.array(z.number().int()) or z.array(z.string()) for property flags but received " +
        "z.array(z.boolean()); use z.array(z.number().int()) of 0/1 or one z.boolean() property per flag instead",
    );
    expect(errorOf({ pairs: z.array(z.array(z.number())) })).toBe(
      "Expected z.array(z.number()), z.array(z.number().int()) or z.array(z.string()) for property pairs but received " +
        "z.array(z.array(z.number())); use an array of numbers or strings instead",
    );
  });

  it("rejects enums of non-strings", () => {
    enum Level {
      Low = 1,
      High = 2,
    }
    expect(errorOf({ level: z.enum(Level) })).toBe(
      'Expected z.enum() of strings for property level but received z.enum([1, 2]); use string values (z.enum(["fast", "accurate"])) instead',
    );
  });

  it("rejects a default the schema itself rejects", () => {
    expect(errorOf({ everyN: z.number().int().min(1).default(0) })).toBe(
      "Expected a number ≥ 1 for the default of property everyN but received 0",
    );
    expect(errorOf({ ids: z.array(z.number().int()).default([1, 1.5]) })).toBe(
      "Expected an integer for the default of property ids[1] but received 1.5",
    );
  });

  it("rejects an empty range", () => {
    expect(errorOf({ size: z.number().min(5).max(3) })).toBe("Expected a range whose minimum ≤ maximum for property size but received 5 > 3");
  });

  it("rejects names that do not map to GStreamer names", () => {
    expect(errorOf({ Bad: z.string() })).toBe('Expected a camelCase name matching /^[a-z][a-zA-Z0-9]*$/ for a property but received "Bad"');
    expect(errorOf({ snake_case: z.string() })).toBe(
      'Expected a camelCase name matching /^[a-z][a-zA-Z0-9]*$/ for a property but received "snake_case"',
    );
    expect(errorOf({ qos: z.boolean() })).toBe(
      'Expected a name GStreamer does not already use (name, parent, qos) for property qos but received "qos"; rename it',
    );
    expect(errorOf({ gstAnalyticsMeta: z.boolean() })).toBe(
      "Expected a name the ds-element host does not already give every element (gst-analytics-meta, isolate) for property " +
        'gstAnalyticsMeta but received "gstAnalyticsMeta"; rename it',
    );
    expect(errorOf({ isolate: z.enum(["a", "b"]) })).toBe(
      "Expected a name the ds-element host does not already give every element (gst-analytics-meta, isolate) for property " +
        'isolate but received "isolate"; rename it',
    );
    expect(errorOf({ maxFps: z.number(), maxFPS: z.number() })).toBe(
      'Expected a GStreamer name different from maxFps\'s for property maxFPS but received "max-fps"; rename one of them',
    );
  });
});
