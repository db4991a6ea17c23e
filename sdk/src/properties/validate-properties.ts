/**
 * Runtime validation of property values with the element's schema, producing this project's
 * message shape. Values come from GObject properties: a property never set arrives as null
 * (or not at all), which counts as "not given" so defaults and `.optional()` apply.
 */
import type { z } from "zod";
import { PropertyValidationError } from "../errors/errors.js";
import { formatIssues } from "./issue-message.js";

function withoutNulls(values: Record<string, unknown>): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(values)) if (value !== null && value !== undefined) input[key] = value;
  return input;
}

/** Validates every property; returns the parsed (defaults applied), frozen props. */
export function validateProperties<S extends z.ZodObject>(schema: S, values: Record<string, unknown>): Readonly<z.output<S>> {
  const input = withoutNulls(values);
  const result = schema.safeParse(input);
  if (!result.success) throw new PropertyValidationError(formatIssues(result.error.issues, input));
  return Object.freeze(result.data);
}

/**
 * Validates a change of one property against the whole schema (so object-level refinements
 * still hold) and returns the new frozen props.
 */
export function validatePropertyChange<S extends z.ZodObject>(
  schema: S,
  current: Readonly<z.output<S>>,
  jsName: string,
  value: unknown,
): Readonly<z.output<S>> {
  if (!Object.hasOwn(schema.shape, jsName)) {
    throw new PropertyValidationError(`Expected a property of this element for ${jsName} but received an unknown name`);
  }
  return validateProperties(schema, { ...(current as Record<string, unknown>), [jsName]: value });
}
