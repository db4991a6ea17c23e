/**
 * The static declaration of an element (what `Element.define()` takes), its validation, and
 * the manifest derived from it.
 */
import { z } from "zod";
import { describeValue, expectedMessage } from "../errors/describe-value.js";
import { ElementDefinitionError } from "../errors/errors.js";
import { deriveManifestProperties } from "../properties/derive-manifest-properties.js";
import { describeSchema } from "../properties/describe-schema.js";
import type { AnySchema } from "../properties/zod-internals.js";
import { MANIFEST_VERSION, type ManifestProperty, type ManifestV1 } from "../protocol/manifest.js";
import { SDK_VERSION } from "../version.js";

/**
 * What an element declares about itself, once, as data: GStreamer element metadata, pad caps
 * and the property schema. `ds-element build` turns it into the `element.json` the host plugin
 * registers from, so gst-inspect shows it all without starting Node.
 *
 * @example
 * ```ts
 * const declaration: ElementDeclaration<z.ZodObject<{ everyN: z.ZodDefault<z.ZodNumber> }>> = {
 *   name: "framecounter",
 *   longName: "Frame counter",
 *   klass: "Filter/Analyzer/Video",
 *   description: "Counts frames",
 *   author: "Jane Doe <jane@example.com>",
 *   caps: "video/x-raw, format={ RGB, RGBA }",
 *   properties: z.object({ everyN: z.number().int().min(1).default(1).describe("Log every N frames") }),
 * };
 * ```
 */
export interface ElementDeclaration<S extends z.ZodObject = z.ZodObject<{}>> {
  /** Element factory name used in pipelines: lowercase letters, digits and `-`, starting with a letter. */
  name: string;
  /** Human name (`GST_ELEMENT_METADATA_LONGNAME`). */
  longName: string;
  /** Classification, e.g. `"Filter/Analyzer/Video"`. */
  klass: string;
  /** One-sentence description. */
  description: string;
  /** `"Name <email>"`. */
  author: string;
  /** Caps of both pads, or of each pad. The element transforms in place, so usually one string. */
  caps:
    | string
    | {
        /** Caps of the sink (input) pad. */
        sink: string;
        /** Caps of the src (output) pad. */
        src: string;
      };
  /**
   * The properties, as one zod object. camelCase keys become kebab-case GStreamer properties;
   * `.describe()` is the blurb; `.default()` the default; no default means required unless
   * `.optional()`.
   */
  properties?: S;
  /**
   * The deadline, in seconds, of each call into this element: `transform()` (its Promise
   * included), `start()`, `stop()`, `onCaps()`, `onEvent()`, `onPropertyChange()`. Past it the
   * call fails with an element error saying where the JavaScript was, synchronous code still
   * running is interrupted, a pending Promise is abandoned, and the streaming thread goes on.
   * `0` means no deadline. Default 10; the environment variable `DS_ELEMENT_CALL_TIMEOUT_S`,
   * when set, overrides it for every element of the process (docs/errors.md).
   *
   * @example
   * ```ts
   * // start() loads a large TensorRT engine: give every call a minute.
   * Element.define({ ...declaration, callTimeoutSeconds: 60 });
   * ```
   */
  callTimeoutSeconds?: number;
}

/** A validated declaration, with pad caps split and properties mapped. @internal */
export interface ElementDefinition<S extends z.ZodObject = z.ZodObject> {
  readonly name: string;
  readonly longName: string;
  readonly klass: string;
  readonly description: string;
  readonly author: string;
  readonly sinkCaps: string;
  readonly srcCaps: string;
  readonly properties: S;
  readonly manifestProperties: readonly ManifestProperty[];
  /** Absent when the declaration has none (the runtime's default applies). */
  readonly callTimeoutSeconds?: number;
}

const ELEMENT_NAME = /^[a-z][a-z0-9-]*$/;
const KEYS = new Set(["name", "longName", "klass", "description", "author", "caps", "properties", "callTimeoutSeconds"]);
/** What element.json (and the plugin) accept for callTimeoutSeconds: up to a day. */
const MAX_CALL_TIMEOUT_S = 86_400;
const WHERE = "in Element.define()";

function fail(what: string, field: string, value: unknown): never {
  throw new ElementDefinitionError(expectedMessage(what, `${field} ${WHERE}`, describeValue(value)));
}

function text(declaration: Record<string, unknown>, field: string): string {
  const value = declaration[field];
  if (typeof value !== "string" || value.trim() === "") fail("a non-empty string", field, value);
  return value.trim();
}

function caps(value: unknown): { sinkCaps: string; srcCaps: string } {
  const capsText = (candidate: unknown, field: string): string => {
    if (typeof candidate !== "string" || candidate.trim() === "") {
      fail('non-empty caps (e.g. "video/x-raw, format={ RGB, RGBA }")', field, candidate);
    }
    return candidate.trim();
  };
  if (typeof value === "object" && value !== null && !Array.isArray(value)) {
    const pads = value as Record<string, unknown>;
    const extra = Object.keys(pads).find((key) => key !== "sink" && key !== "src");
    if (extra !== undefined) fail('only "sink" and "src"', "caps", value);
    return { sinkCaps: capsText(pads.sink, "caps.sink"), srcCaps: capsText(pads.src, "caps.src") };
  }
  const both = capsText(value, "caps");
  return { sinkCaps: both, srcCaps: both };
}

function isZodObject(value: unknown): value is z.ZodObject {
  const def = (value as { _zod?: { def?: { type?: unknown } } } | null)?._zod?.def;
  return def?.type === "object" && typeof (value as { safeParse?: unknown }).safeParse === "function";
}

/** Validates a declaration; every problem is an ElementDefinitionError naming the field. */
export function defineElement<S extends z.ZodObject>(declaration: ElementDeclaration<S>): ElementDefinition<S> {
  if (typeof declaration !== "object" || declaration === null) fail("a declaration object", "the argument", declaration);
  const record = declaration as unknown as Record<string, unknown>;
  const unknownKey = Object.keys(record).find((key) => !KEYS.has(key));
  if (unknownKey !== undefined) {
    fail(`one of ${[...KEYS].join(", ")}`, "a key", unknownKey);
  }
  const name = text(record, "name");
  if (!ELEMENT_NAME.test(name)) fail("a name matching /^[a-z][a-z0-9-]*$/", "name", declaration.name);
  const properties = record.properties ?? z.object({});
  if (!isZodObject(properties)) {
    const received = (properties as { _zod?: unknown } | null)?._zod ? describeSchema(properties as AnySchema) : describeValue(properties);
    throw new ElementDefinitionError(expectedMessage("a z.object({...}) schema", `properties ${WHERE}`, received));
  }
  const timeout = record.callTimeoutSeconds;
  if (timeout !== undefined && (typeof timeout !== "number" || !(timeout >= 0 && timeout <= MAX_CALL_TIMEOUT_S))) {
    fail(`a number of seconds from 0 (no deadline) to ${MAX_CALL_TIMEOUT_S}`, "callTimeoutSeconds", timeout);
  }
  return Object.freeze({
    name,
    ...(timeout === undefined ? {} : { callTimeoutSeconds: timeout as number }),
    longName: text(record, "longName"),
    klass: text(record, "klass"),
    description: text(record, "description"),
    author: text(record, "author"),
    ...caps(record.caps),
    properties: properties as S,
    manifestProperties: Object.freeze(deriveManifestProperties(properties)),
  });
}

/** The element.json content of a definition. */
export function manifestOf(definition: ElementDefinition): ManifestV1 {
  return {
    manifestVersion: MANIFEST_VERSION,
    name: definition.name,
    longName: definition.longName,
    klass: definition.klass,
    description: definition.description,
    author: definition.author,
    sinkCaps: definition.sinkCaps,
    srcCaps: definition.srcCaps,
    entry: "index.js",
    sdkVersion: SDK_VERSION,
    ...(definition.callTimeoutSeconds === undefined ? {} : { callTimeoutSeconds: definition.callTimeoutSeconds }),
    properties: definition.manifestProperties.map((property) => ({ ...property })),
  };
}
