/**
 * The element manifest (`element.json`, version 1) that `ds-element build` writes and the
 * host plugin reads at `plugin_init` to register a GType without starting Node.
 * The format is documented in docs/internals/host-protocol.md; keep both in step.
 */

/** The manifest format version this SDK writes. */
export const MANIFEST_VERSION = 1;

/**
 * The largest `element.json` read, in bytes (4 MiB; what `ds-element build` writes is a few KB):
 * the host plugin refuses a larger one unread (native-host/src/gst/manifest.h, kMaxManifestBytes).
 *
 * @example
 * ```ts
 * if (statSync(file).size > MAX_MANIFEST_BYTES) throw new Error(`${file} is too large to be a manifest`);
 * ```
 */
export const MAX_MANIFEST_BYTES = 4 << 20;

/**
 * GObject property types a manifest can declare.
 *
 * @example
 * ```ts
 * const type: ManifestPropertyType = "double-array"; // z.array(z.number())
 * ```
 */
// generated: property types (scripts/generate-shared-names.mjs: do not edit)
export type ManifestPropertyType =
  | "boolean" // z.boolean()
  | "int" // z.number().int() within 32 bits
  | "int64" // z.number().int() beyond 32 bits
  | "double" // z.number()
  | "string" // z.string()
  | "enum" // z.enum([...])
  | "double-array" // z.array(z.number())
  | "int-array" // z.array(z.number().int())
  | "string-array"; // z.array(z.string())
// end generated: property types

/**
 * One value of an `enum` property. `value` is the GEnum integer, `nick` the command-line name.
 *
 * @example
 * ```ts
 * const fast: ManifestEnumValue = { value: 0, nick: "fast", name: "fast" };
 * ```
 */
export interface ManifestEnumValue {
  /** The GEnum integer value (the index in the `z.enum([...])`). */
  value: number;
  /** The name used on the command line and in gst-inspect (`fast`). */
  nick: string;
  /** The GEnumValue name (same as the nick). */
  name: string;
}

/**
 * One GObject property, derived from one entry of the element's zod schema.
 *
 * @example
 * ```ts
 * // everyN: z.number().int().min(1).default(1).describe("Log every N frames")
 * const property: ManifestProperty = {
 *   name: "every-n", jsName: "everyN", type: "int", nick: "Every N", blurb: "Log every N frames",
 *   minimum: 1, maximum: 2147483647, default: 1,
 * };
 * ```
 */
export interface ManifestProperty {
  /** kebab-case GStreamer name (`confidence-threshold`). */
  name: string;
  /** camelCase name of the schema key (`confidenceThreshold`). */
  jsName: string;
  /** The GObject property type (GParamSpec) the host registers. */
  type: ManifestPropertyType;
  /** Short human name, derived from `jsName` (`"Confidence threshold"`). */
  nick: string;
  /** The schema's `.describe()` text, else the nick. */
  blurb: string;
  /** Lower bound (numbers; items of numeric arrays when the schema narrows them). */
  minimum?: number;
  /** Upper bound (numbers; items of numeric arrays when the schema narrows them). */
  maximum?: number;
  /** The schema's `.default()` (an enum's as its nick); absent when it has none. */
  default?: boolean | number | string | readonly (number | string)[];
  /** The values of an `enum` property, in declaration order. */
  values?: ManifestEnumValue[];
  /** Present (true) when the schema is `.optional()` and has no default. */
  optional?: true;
}

/**
 * The whole `element.json` (docs/internals/host-protocol.md).
 *
 * @example
 * ```ts
 * const manifest = JSON.parse(readFileSync("dist/ds-elements/framecounter/element.json", "utf8")) as ManifestV1;
 * console.log(manifest.properties.map((property) => property.name));
 * ```
 */
export interface ManifestV1 {
  /** Format version (1). */
  manifestVersion: 1;
  /** Element factory name. */
  name: string;
  /** `GST_ELEMENT_METADATA_LONGNAME`. */
  longName: string;
  /** `GST_ELEMENT_METADATA_KLASS`. */
  klass: string;
  /** `GST_ELEMENT_METADATA_DESCRIPTION`. */
  description: string;
  /** `GST_ELEMENT_METADATA_AUTHOR`. */
  author: string;
  /** Caps of the sink pad template. */
  sinkCaps: string;
  /** Caps of the src pad template. */
  srcCaps: string;
  /** The bundle, relative to the manifest's folder (`index.js`). */
  entry: string;
  /** Version of the SDK that wrote the manifest. */
  sdkVersion: string;
  /**
   * The deadline of each call into the element's JavaScript, in seconds (0: none); absent
   * when the element declares none (the runtime's default, 10 s, applies).
   */
  callTimeoutSeconds?: number;
  /** The GObject properties, in schema order. */
  properties: ManifestProperty[];
}
