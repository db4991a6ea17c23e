/**
 * Argument checks for the post-processing helpers, with the project's one message shape
 * (`Expected <what> for <name> but received <value>`). They run once per call, never per box.
 *
 * @internal
 */
import { describeValue, expectedMessage } from "../errors/describe-value.js";
import { InvalidTypeError, InvalidValueError } from "../errors/errors.js";

/** Throws InvalidTypeError when the type is wrong, InvalidValueError when only the value is. */
export function invalid(what: string, name: string, value: unknown, wrongType: boolean): never {
  const message = expectedMessage(what, name, describeValue(value));
  throw wrongType ? new InvalidTypeError(message) : new InvalidValueError(message);
}

/** Throws an InvalidValueError whose `received` part is already worded ("6 values"). */
export function invalidReceived(what: string, name: string, received: string): never {
  throw new InvalidValueError(expectedMessage(what, name, received));
}

/** An options bag: undefined (all defaults) or a plain object. */
export function checkOptions<T extends object>(value: T | undefined, name: string): Partial<T> {
  if (value === undefined) return {};
  if (typeof value === "object" && value !== null && !Array.isArray(value)) return value;
  return invalid("an options object", name, value, true);
}

/** A number from 0 to 1 (thresholds), or the default when undefined. */
export function checkUnitOr(value: unknown, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (typeof value === "number" && value >= 0 && value <= 1) return value;
  return invalid("a number from 0 to 1", name, value, typeof value !== "number");
}

/** An integer in [minimum, maximum], or the default when undefined. */
export function checkIntegerOr(value: unknown, fallback: number, minimum: number, maximum: number, name: string): number {
  if (value === undefined) return fallback;
  if (typeof value === "number" && Number.isInteger(value) && value >= minimum && value <= maximum) return value;
  return invalid(`an integer from ${minimum} to ${maximum}`, name, value, typeof value !== "number");
}

/** A boolean, or the default when undefined. */
export function checkBooleanOr(value: unknown, fallback: boolean, name: string): boolean {
  if (value === undefined) return fallback;
  if (typeof value === "boolean") return value;
  return invalid("a boolean", name, value, true);
}

/** A finite number (offsets). */
export function checkFinite(value: unknown, name: string): number {
  if (typeof value === "number" && Number.isFinite(value)) return value;
  return invalid("a finite number", name, value, typeof value !== "number");
}

/** A finite number > 0 (scales). */
export function checkPositive(value: unknown, name: string): number {
  if (typeof value === "number" && value > 0 && value !== Infinity) return value;
  return invalid("a finite number > 0", name, value, typeof value !== "number");
}

/** A finite number >= 0 (frame sizes), or undefined. */
export function checkSizeOrUndefined(value: unknown, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value === "number" && value >= 0 && value !== Infinity) return value;
  return invalid("a finite number >= 0", name, value, typeof value !== "number");
}

/** Throws an InvalidTypeError whose `received` part is already worded ("a Uint16Array"). */
export function wrongType(what: string, name: string, received: string): never {
  throw new InvalidTypeError(expectedMessage(what, name, received));
}

/** Names a value's type for a message without printing its contents (typed arrays can be huge). */
export function describeKind(value: unknown): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  if (ArrayBuffer.isView(value)) return `a ${value.constructor.name} of ${(value as { length?: number }).length ?? value.byteLength} values`;
  if (Array.isArray(value)) return `an array of ${value.length} values`;
  if (typeof value === "object") return "an object";
  return describeValue(value);
}
