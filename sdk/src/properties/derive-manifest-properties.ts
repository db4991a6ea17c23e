/**
 * Derives GObject property specs (manifest entries) from an element's zod schema: the single
 * source of truth for the TypeScript type, runtime validation and what gst-inspect shows.
 * Anything without a faithful GObject equivalent is an ElementDefinitionError naming the
 * property and what to write instead.
 */
import type { z } from "zod";
import { ElementDefinitionError } from "../errors/errors.js";
import { describeValue, expectedMessage } from "../errors/describe-value.js";
import type { ManifestEnumValue, ManifestProperty, ManifestPropertyType } from "../protocol/manifest.js";
import { describeSchema } from "./describe-schema.js";
import { formatIssues, subPath } from "./issue-message.js";
import { JS_PROPERTY_NAME, toKebabCase, toNick } from "./naming.js";
import { type AnySchema, checksOf, defOf, descriptionOf, enumValuesOf } from "./zod-internals.js";

const SUPPORTED = "z.string(), z.number(), z.boolean(), z.enum([...]) or z.array() of numbers or strings";
const SUPPORTED_ITEMS = "z.array(z.number()), z.array(z.number().int()) or z.array(z.string())";

/** Properties every GstBaseTransform already has. */
const RESERVED = new Set(["name", "parent", "qos"]);
/** Properties the ds-element host gives every element (docs/gst-analytics.md). */
const HOST_RESERVED = new Set(["gst-analytics-meta", "isolate"]);

const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;
const FORMAT_RANGES: Record<string, readonly [number, number]> = {
  safeint: [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
  int32: [INT32_MIN, INT32_MAX],
  uint32: [0, 4294967295],
  float32: [-3.4028234663852886e38, 3.4028234663852886e38],
  float64: [-Number.MAX_VALUE, Number.MAX_VALUE],
};

/** What each unsupported zod type should become. */
const INSTEAD: Record<string, string> = {
  nullable: "use .optional() instead: a GStreamer property cannot hold null",
  catch: "use .default() instead: an invalid value must be reported, not replaced",
  pipe: "derive the value in your element (e.g. in start()) instead: the GStreamer type comes from the schema's input",
  transform: "derive the value in your element (e.g. in start()) instead: the GStreamer type comes from the schema's input",
  literal: "use z.enum([...]) instead",
  union: "use z.enum([...]) for a choice of strings, or one property per alternative instead",
  bigint: "use z.number().int() instead (int64 properties hold integers up to ±2^53)",
  date: "use z.string() (an ISO 8601 date) instead",
  object: "use one property per field instead",
  record: "use z.array(z.string()) of key=value entries or one property per key instead",
  map: "use z.array(z.string()) of key=value entries or one property per key instead",
  tuple: "use z.array(z.number()) instead",
  set: "use z.array(...) instead",
  lazy: "use a non-recursive schema instead",
};
const INSTEAD_DEFAULT = "use a concrete type instead";

interface Unwrapped {
  base: AnySchema;
  hasDefault: boolean;
  defaultValue: unknown;
  optional: boolean;
  description: string | undefined;
}

/** `schema` is what the user wrote (shown in full); `culprit` the part without a mapping. */
function unsupported(jsName: string, schema: AnySchema, culprit: AnySchema = schema): ElementDefinitionError {
  const def = defOf(culprit);
  const isTransform = def.type === "pipe" && def.out !== undefined && defOf(def.out).type === "transform";
  const hint = INSTEAD[isTransform ? "transform" : def.type] ?? INSTEAD_DEFAULT;
  return new ElementDefinitionError(
    `${expectedMessage(SUPPORTED, `property ${jsName}`, describeSchema(schema))}; ${hint}`,
  );
}

/** Peels `.default()`, `.optional()`, `.readonly()`, collecting what they say. */
function unwrap(jsName: string, schema: AnySchema): Unwrapped {
  const result: Unwrapped = { base: schema, hasDefault: false, defaultValue: undefined, optional: false, description: undefined };
  let current = schema;
  for (;;) {
    result.description ??= descriptionOf(current);
    const def = defOf(current);
    if (!def.innerType) break;
    if (def.type === "default" || def.type === "prefault") {
      if (!result.hasDefault) {
        result.hasDefault = true;
        result.defaultValue = def.defaultValue;
      }
    } else if (def.type === "optional") {
      result.optional = true;
    } else if (def.type === "nonoptional") {
      result.optional = false;
    } else if (def.type !== "readonly") {
      throw unsupported(jsName, schema, current);
    }
    current = def.innerType;
  }
  result.base = current;
  return result;
}

interface NumberRange {
  integer: boolean;
  /** Bounds the schema states (min/max/gt/lt, int32/uint32/float32 formats); `.int()` alone states none. */
  minimum: number | undefined;
  maximum: number | undefined;
}

/** Folds a number schema's checks (min/max/gt/lt/int formats) into one range. */
function numberRange(schema: AnySchema): NumberRange {
  let integer = false;
  let minimum: number | undefined;
  let maximum: number | undefined;
  let exclusiveMinimum = false;
  let exclusiveMaximum = false;
  for (const check of checksOf(schema)) {
    if (check.check === "number_format" && check.format) {
      if (check.format !== "float32" && check.format !== "float64") integer = true;
      const range = FORMAT_RANGES[check.format];
      // safeint (what .int() adds) and float64 say nothing beyond "a JS number".
      if (range && check.format !== "safeint" && check.format !== "float64") {
        if (minimum === undefined || range[0] > minimum) [minimum, exclusiveMinimum] = [range[0], false];
        if (maximum === undefined || range[1] < maximum) [maximum, exclusiveMaximum] = [range[1], false];
      }
    } else if (check.check === "greater_than" && typeof check.value === "number") {
      if (minimum === undefined || check.value > minimum || (check.value === minimum && check.inclusive === false)) {
        [minimum, exclusiveMinimum] = [check.value, check.inclusive === false];
      }
    } else if (check.check === "less_than" && typeof check.value === "number") {
      if (maximum === undefined || check.value < maximum || (check.value === maximum && check.inclusive === false)) {
        [maximum, exclusiveMaximum] = [check.value, check.inclusive === false];
      }
    }
  }
  if (integer) {
    // An exclusive integer bound is the next integer; a fractional bound rounds inwards.
    if (minimum !== undefined) minimum = Math.max(exclusiveMinimum ? Math.floor(minimum) + 1 : Math.ceil(minimum), Number.MIN_SAFE_INTEGER);
    if (maximum !== undefined) maximum = Math.min(exclusiveMaximum ? Math.ceil(maximum) - 1 : Math.floor(maximum), Number.MAX_SAFE_INTEGER);
  }
  // A double's exclusive bound stays as is: GParamSpecDouble has no open ranges, and zod
  // still rejects the bound itself when the value is set.
  return { integer, minimum, maximum };
}

interface TypeSpec {
  type: ManifestPropertyType;
  minimum?: number;
  maximum?: number;
  values?: ManifestEnumValue[];
}

function enumValues(jsName: string, schema: AnySchema): ManifestEnumValue[] {
  const values = enumValuesOf(schema);
  if (values.some((value) => typeof value !== "string")) {
    throw new ElementDefinitionError(
      `${expectedMessage("z.enum() of strings", `property ${jsName}`, describeSchema(schema))}; use string values (z.enum(["fast", "accurate"])) instead`,
    );
  }
  return values.map((value, index) => ({ value: index, nick: String(value), name: String(value) }));
}

function arrayType(jsName: string, schema: AnySchema): TypeSpec {
  const element = defOf(schema).element;
  const elementDef = element ? defOf(element) : undefined;
  if (element && elementDef?.type === "number") {
    // Item bounds are emitted only when the schema narrows them: the host bounds items of an
    // int-array to int32 and of a double-array to ±G_MAXDOUBLE by itself.
    const range = numberRange(element);
    const [lowest, highest] = range.integer ? [INT32_MIN, INT32_MAX] : [-Number.MAX_VALUE, Number.MAX_VALUE];
    const spec: TypeSpec = { type: range.integer ? "int-array" : "double-array" };
    if (range.minimum !== undefined && range.minimum > lowest && range.minimum <= highest) spec.minimum = range.minimum;
    if (range.maximum !== undefined && range.maximum < highest && range.maximum >= lowest) spec.maximum = range.maximum;
    return spec;
  }
  if (elementDef?.type === "string" || elementDef?.type === "enum") {
    if (elementDef.type === "enum") enumValues(jsName, element!);
    return { type: "string-array" };
  }
  const hint =
    elementDef?.type === "boolean"
      ? "use z.array(z.number().int()) of 0/1 or one z.boolean() property per flag instead"
      : "use an array of numbers or strings instead";
  throw new ElementDefinitionError(
    `${expectedMessage(SUPPORTED_ITEMS, `property ${jsName}`, describeSchema(schema))}; ${hint}`,
  );
}

function baseType(jsName: string, schema: AnySchema, declared: AnySchema): TypeSpec {
  switch (defOf(schema).type) {
    case "boolean":
      return { type: "boolean" };
    case "string":
      return { type: "string" };
    case "number": {
      const range = numberRange(schema);
      if (!range.integer) {
        return { type: "double", minimum: range.minimum ?? -Number.MAX_VALUE, maximum: range.maximum ?? Number.MAX_VALUE };
      }
      // int unless a stated bound needs more: GStreamer is the only way values arrive, so an
      // unstated bound may as well be int32's. int64 holds integers up to ±(2^53 - 1) here.
      const fitsInt32 = (range.minimum ?? 0) >= INT32_MIN && (range.maximum ?? 0) <= INT32_MAX;
      const [lowest, highest] = fitsInt32 ? [INT32_MIN, INT32_MAX] : [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER];
      return { type: fitsInt32 ? "int" : "int64", minimum: range.minimum ?? lowest, maximum: range.maximum ?? highest };
    }
    case "enum":
      return { type: "enum", values: enumValues(jsName, schema) };
    case "array":
      return arrayType(jsName, schema);
    default:
      throw unsupported(jsName, declared, schema);
  }
}

/** Checks the default against the schema itself, so gst-inspect never shows a value the element rejects. */
function checkDefault(jsName: string, base: AnySchema, value: unknown): void {
  const result = (base as z.ZodType).safeParse(value);
  if (!result.success) {
    throw new ElementDefinitionError(
      formatIssues(result.error.issues, value, (path) => `the default of property ${jsName}${subPath(path)}`),
    );
  }
}

function checkName(jsName: string, seen: Map<string, string>): string {
  if (!JS_PROPERTY_NAME.test(jsName)) {
    throw new ElementDefinitionError(
      expectedMessage("a camelCase name matching /^[a-z][a-zA-Z0-9]*$/", "a property", describeValue(jsName)),
    );
  }
  const name = toKebabCase(jsName);
  if (RESERVED.has(name)) {
    throw new ElementDefinitionError(
      `${expectedMessage("a name GStreamer does not already use (name, parent, qos)", `property ${jsName}`, describeValue(jsName))}; rename it`,
    );
  }
  if (HOST_RESERVED.has(name)) {
    throw new ElementDefinitionError(
      `${expectedMessage("a name the ds-element host does not already give every element (gst-analytics-meta, isolate)", `property ${jsName}`, describeValue(jsName))}; rename it`,
    );
  }
  const clash = seen.get(name);
  if (clash !== undefined) {
    throw new ElementDefinitionError(
      `${expectedMessage(`a GStreamer name different from ${clash}'s`, `property ${jsName}`, describeValue(name))}; rename one of them`,
    );
  }
  seen.set(name, jsName);
  return name;
}

/** One manifest entry per schema key, in declaration order. */
export function deriveManifestProperties(schema: z.ZodObject): ManifestProperty[] {
  const seen = new Map<string, string>();
  return Object.entries(schema.shape as Record<string, AnySchema>).map(([jsName, propertySchema]) => {
    const name = checkName(jsName, seen);
    const unwrapped = unwrap(jsName, propertySchema);
    const spec = baseType(jsName, unwrapped.base, propertySchema);
    if (spec.minimum !== undefined && spec.maximum !== undefined && spec.minimum > spec.maximum) {
      throw new ElementDefinitionError(
        expectedMessage("a range whose minimum ≤ maximum", `property ${jsName}`, `${spec.minimum} > ${spec.maximum}`),
      );
    }
    const nick = toNick(jsName);
    const property: ManifestProperty = {
      name,
      jsName,
      type: spec.type,
      nick,
      blurb: unwrapped.description ?? nick,
    };
    if (spec.minimum !== undefined) property.minimum = spec.minimum;
    if (spec.maximum !== undefined) property.maximum = spec.maximum;
    if (unwrapped.hasDefault) {
      checkDefault(jsName, unwrapped.base, unwrapped.defaultValue);
      property.default = unwrapped.defaultValue as ManifestProperty["default"];
    }
    if (spec.values) property.values = spec.values;
    if (!unwrapped.hasDefault && unwrapped.optional) property.optional = true;
    return property;
  });
}
