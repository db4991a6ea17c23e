/**
 * The element manifest (`element.json`, version 1) that `ds-element build` writes and the
 * host plugin reads at `plugin_init` to register a GType without starting Node.
 * The format is documented in docs/internals/host-protocol.md; keep both in step.
 */

/** The manifest format version this SDK writes. */
export const MANIFEST_VERSION = 1;

/**
 * GObject property types a manifest can declare.
 *
 * @example
 * ```ts
 * const type: ManifestPropertyType = "double-array"; // z.array(z.number())
 * ```
 */
export type ManifestPropertyType =
  | "boolean"
  | "int"
  | "int64"
  | "double"
  | "string"
  | "enum"
  | "double-array"
  | "int-array"
  | "string-array";

/**
 * One value of an `enum` property. `value` is the GEnum integer, `nick` the command-line name.
 *
 * @example
 * ```ts
 * const fast: ManifestEnumValue = { value: 0, nick: "fast", name: "fast" };
 * ```
 */
export interface ManifestEnumValue {
  value: number;
  nick: string;
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
  type: ManifestPropertyType;
  nick: string;
  blurb: string;
  minimum?: number;
  maximum?: number;
  default?: boolean | number | string | readonly (number | string)[];
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
  manifestVersion: 1;
  name: string;
  longName: string;
  klass: string;
  description: string;
  author: string;
  sinkCaps: string;
  srcCaps: string;
  entry: string;
  sdkVersion: string;
  properties: ManifestProperty[];
}
