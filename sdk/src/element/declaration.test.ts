import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ElementDefinitionError } from "../errors/errors.js";
import { SDK_VERSION } from "../version.js";
import { defineElement, manifestOf, type ElementDeclaration } from "./declaration.js";

const valid: ElementDeclaration = {
  name: "framecounter",
  longName: "Frame counter",
  klass: "Filter/Analyzer/Video",
  description: "Counts frames",
  author: "Jane Doe <jane@example.com>",
  caps: "video/x-raw, format={ RGB, RGBA }",
};

function errorOf(declaration: unknown): string {
  try {
    defineElement(declaration as ElementDeclaration);
  } catch (error) {
    expect(error).toBeInstanceOf(ElementDefinitionError);
    return (error as Error).message;
  }
  throw new Error("expected the declaration to be rejected");
}

describe("defineElement", () => {
  it("writes manifest v1 from a declaration", () => {
    const definition = defineElement({
      ...valid,
      properties: z.object({ everyN: z.number().int().min(1).default(1).describe("Log every N frames") }),
    });
    expect(manifestOf(definition)).toEqual({
      manifestVersion: 1,
      name: "framecounter",
      longName: "Frame counter",
      klass: "Filter/Analyzer/Video",
      description: "Counts frames",
      author: "Jane Doe <jane@example.com>",
      sinkCaps: "video/x-raw, format={ RGB, RGBA }",
      srcCaps: "video/x-raw, format={ RGB, RGBA }",
      entry: "index.js",
      sdkVersion: SDK_VERSION,
      properties: [
        {
          name: "every-n",
          jsName: "everyN",
          type: "int",
          nick: "Every N",
          blurb: "Log every N frames",
          minimum: 1,
          maximum: 2147483647,
          default: 1,
        },
      ],
    });
  });

  it("writes callTimeoutSeconds only when the declaration has one", () => {
    expect(manifestOf(defineElement({ ...valid, callTimeoutSeconds: 2.5 })).callTimeoutSeconds).toBe(2.5);
    expect(manifestOf(defineElement({ ...valid, callTimeoutSeconds: 0 })).callTimeoutSeconds).toBe(0);
    expect("callTimeoutSeconds" in manifestOf(defineElement(valid))).toBe(false);
  });

  it("takes per-pad caps and no properties", () => {
    const definition = defineElement({ ...valid, caps: { sink: "video/x-raw", src: "video/x-raw(memory:NVMM)" } });
    expect(manifestOf(definition)).toMatchObject({ sinkCaps: "video/x-raw", srcCaps: "video/x-raw(memory:NVMM)", properties: [] });
  });

  it.each<[string, Record<string, unknown>, string]>([
    ["a bad name", { name: "FrameCounter" }, 'Expected a name matching /^[a-z][a-z0-9-]*$/ for name in Element.define() but received "FrameCounter"'],
    ["a name with a dot", { name: "frame.counter" }, 'Expected a name matching /^[a-z][a-z0-9-]*$/ for name in Element.define() but received "frame.counter"'],
    ["a missing name", { name: undefined }, "Expected a non-empty string for name in Element.define() but received nothing"],
    ["an empty longName", { longName: " " }, 'Expected a non-empty string for longName in Element.define() but received " "'],
    ["a missing klass", { klass: undefined }, "Expected a non-empty string for klass in Element.define() but received nothing"],
    ["empty caps", { caps: "" }, 'Expected non-empty caps (e.g. "video/x-raw, format={ RGB, RGBA }") for caps in Element.define() but received ""'],
    [
      "empty src caps",
      { caps: { sink: "video/x-raw", src: "" } },
      'Expected non-empty caps (e.g. "video/x-raw, format={ RGB, RGBA }") for caps.src in Element.define() but received ""',
    ],
    ["extra caps keys", { caps: { sink: "a", src: "b", other: "c" } }, 'Expected only "sink" and "src" for caps in Element.define() but received {"sink":"a","src":"b","other":"c"}'],
    [
      "a typo",
      { descripton: "x" },
      'Expected one of name, longName, klass, description, author, caps, properties, callTimeoutSeconds for a key in Element.define() but received "descripton"',
    ],
    ["a negative callTimeoutSeconds", { callTimeoutSeconds: -1 }, "Expected a number of seconds from 0 (no deadline) to 86400 for callTimeoutSeconds in Element.define() but received -1"],
    ["a callTimeoutSeconds as text", { callTimeoutSeconds: "5" }, 'Expected a number of seconds from 0 (no deadline) to 86400 for callTimeoutSeconds in Element.define() but received "5"'],
    ["a non-object schema", { properties: z.string() }, "Expected a z.object({...}) schema for properties in Element.define() but received z.string()"],
  ])("rejects %s", (_case, change, message) => {
    expect(errorOf({ ...valid, ...change })).toBe(message);
  });

  it("rejects an unsupported property schema naming the property", () => {
    expect(errorOf({ ...valid, properties: z.object({ when: z.date() }) })).toBe(
      "Expected z.string(), z.number(), z.boolean(), z.enum([...]) or z.array() of numbers or strings for property when but received z.date(); use z.string() (an ISO 8601 date) instead",
    );
  });
});
