import { describe, expect, it } from "vitest";
import { z } from "zod";
import { PropertyValidationError } from "../errors/errors.js";
import { validateProperties, validatePropertyChange } from "./validate-properties.js";

const schema = z.object({
  location: z.string().describe("Where"),
  everyN: z.number().int().min(1).default(1),
  scale: z.number().gt(0).max(10).default(1),
  mode: z.enum(["fast", "accurate"]).default("fast"),
  word: z.string().regex(/^[a-z]+$/).default("abc"),
  thresholds: z.array(z.number().int()).default([]),
  verbose: z.boolean().default(false),
  note: z.string().min(2).optional(),
  even: z
    .number()
    .refine((n) => n % 2 === 0, "must be even")
    .default(0),
});

function messageOf(values: Record<string, unknown>): string {
  try {
    validateProperties(schema, values);
  } catch (error) {
    expect(error).toBeInstanceOf(PropertyValidationError);
    return (error as Error).message;
  }
  throw new Error("expected validation to fail");
}

describe("validateProperties", () => {
  it("applies defaults and treats null as not given", () => {
    const props = validateProperties(schema, { location: "/tmp/x", everyN: null, note: null });
    expect(props).toEqual({
      location: "/tmp/x",
      everyN: 1,
      scale: 1,
      mode: "fast",
      word: "abc",
      thresholds: [],
      verbose: false,
      even: 0,
    });
    expect(Object.isFrozen(props)).toBe(true);
  });

  it.each<[string, Record<string, unknown>, string]>([
    ["a minimum", { everyN: 0 }, "Expected a number ≥ 1 for every-n but received 0"],
    ["an exclusive minimum", { scale: 0 }, "Expected a number > 0 for scale but received 0"],
    ["a maximum", { scale: 11 }, "Expected a number ≤ 10 for scale but received 11"],
    ["an integer", { everyN: 1.5 }, "Expected an integer for every-n but received 1.5"],
    ["a type", { verbose: "yes" }, 'Expected a boolean (true or false) for verbose but received "yes"'],
    ["an enum", { mode: "slow" }, 'Expected one of "fast", "accurate" for mode but received "slow"'],
    ["a regex", { word: "ABC" }, 'Expected a string matching /^[a-z]+$/ for word but received "ABC"'],
    ["an array item", { thresholds: [1, 2.5] }, "Expected an integer for thresholds[1] but received 2.5"],
    ["a string length", { note: "x" }, 'Expected a string of at least 2 characters for note but received "x"'],
    ["a refinement", { even: 3 }, 'Expected a value that passes "must be even" for even but received 3'],
  ])("names the property, the rule and the value: %s", (_rule, values, message) => {
    expect(messageOf({ location: "/tmp/x", ...values })).toBe(message);
  });

  it("says when a required property is missing", () => {
    expect(messageOf({})).toBe("Expected a string for location but received nothing (the property is required)");
    expect(messageOf({ location: null })).toBe("Expected a string for location but received nothing (the property is required)");
  });

  it("reports every problem at once", () => {
    expect(messageOf({ everyN: 0, mode: "x" })).toBe(
      'Expected a string for location but received nothing (the property is required); Expected a number ≥ 1 for every-n but received 0; Expected one of "fast", "accurate" for mode but received "x"',
    );
  });
});

describe("validatePropertyChange", () => {
  const current = validateProperties(schema, { location: "/tmp/x" });

  it("returns new props with the one value changed", () => {
    const next = validatePropertyChange(schema, current, "everyN", 5);
    expect(next.everyN).toBe(5);
    expect(next.location).toBe("/tmp/x");
    expect(current.everyN).toBe(1);
  });

  it("rejects an invalid value with the same message shape", () => {
    expect(() => validatePropertyChange(schema, current, "everyN", 0)).toThrow(
      new PropertyValidationError("Expected a number ≥ 1 for every-n but received 0"),
    );
  });

  it("rejects an unknown property", () => {
    expect(() => validatePropertyChange(schema, current, "nope", 1)).toThrow(
      "Expected a property of this element for nope but received an unknown name",
    );
  });
});
