/**
 * Turns zod issues into this project's message shape,
 * `Expected <rule> for <property> but received <value>`, naming the GStreamer (kebab-case)
 * property so a gst-launch user can find it on their command line.
 */
import type { z } from "zod";
import { describeValue, expectedMessage } from "../errors/describe-value.js";
import { toKebabCase } from "./naming.js";

type Issue = z.core.$ZodIssue;

const TYPE_NAMES: Record<string, string> = {
  int: "an integer",
  number: "a number",
  string: "a string",
  boolean: "a boolean (true or false)",
  array: "an array",
  object: "an object",
};

function plural(count: number | bigint, word: string): string {
  return `${count} ${word}${Number(count) === 1 ? "" : "s"}`;
}

/** What the rule behind an issue expects, as a noun phrase ("a number ≥ 1"). */
export function describeRule(issue: Issue): string {
  switch (issue.code) {
    case "invalid_type":
      return TYPE_NAMES[issue.expected] ?? `a value of type ${issue.expected}`;
    case "too_small": {
      const op = issue.inclusive === false ? ">" : "≥";
      const bound = String(issue.minimum);
      if (issue.origin === "string") return `a string of at least ${plural(issue.minimum, "character")}`;
      if (issue.origin === "array" || issue.origin === "set") return `at least ${plural(issue.minimum, "item")}`;
      return `a number ${op} ${bound}`;
    }
    case "too_big": {
      const op = issue.inclusive === false ? "<" : "≤";
      const bound = String(issue.maximum);
      if (issue.origin === "string") return `a string of at most ${plural(issue.maximum, "character")}`;
      if (issue.origin === "array" || issue.origin === "set") return `at most ${plural(issue.maximum, "item")}`;
      return `a number ${op} ${bound}`;
    }
    case "invalid_value":
      return issue.values.length === 1
        ? `exactly ${describeValue(issue.values[0])}`
        : `one of ${issue.values.map((v) => describeValue(v)).join(", ")}`;
    case "invalid_format":
      return issue.format === "regex" && "pattern" in issue
        ? `a string matching ${String(issue.pattern)}`
        : `a string in ${issue.format} format`;
    case "not_multiple_of":
      return `a multiple of ${String(issue.divisor)}`;
    case "custom":
      return issue.message && issue.message !== "Invalid input"
        ? `a value that passes "${issue.message}"`
        : "a value its refinement accepts";
    default:
      return issue.message;
  }
}

/** `["thresholds", 1]` → `thresholds[1]`, using the kebab-case name for the property. */
export function propertyPathName(path: readonly PropertyKey[]): string {
  if (path.length === 0) return "the element's properties";
  const [head, ...rest] = path;
  return toKebabCase(String(head)) + subPath(rest);
}

/** The part of `input` at `path` (undefined where the path leads nowhere). */
export function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (value === null || typeof value !== "object") return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

/** `[1, "a"]` → `[1].a`: the part of a path below the property. */
export function subPath(path: readonly PropertyKey[]): string {
  return path.map((key) => (typeof key === "number" ? `[${key}]` : `.${String(key)}`)).join("");
}

/**
 * One message per issue, joined with "; ". `nameOf` names the value an issue is about
 * (default: the kebab-case property plus any index below it).
 */
export function formatIssues(
  issues: readonly Issue[],
  input: unknown,
  nameOf: (path: readonly PropertyKey[]) => string = propertyPathName,
): string {
  return issues
    .map((issue) => {
      const received = valueAt(input, issue.path);
      const suffix = received === undefined && issue.path.length === 1 ? " (the property is required)" : "";
      return expectedMessage(describeRule(issue), nameOf(issue.path), describeValue(received)) + suffix;
    })
    .join("; ");
}
