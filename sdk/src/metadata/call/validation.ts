/**
 * The checks behind every metadata setter (docs/internals/metadata-design.md §4), run in JS
 * first so the error carries the user's stack and names the TypeScript member. Native code
 * checks the same rules again and names the DeepStream field.
 *
 * Each check returns the value it accepted (narrowed), builds no string unless it fails, and
 * throws InvalidTypeError for a value of the wrong type, InvalidValueError for one out of range,
 * both with the one message shape `Expected <what> for <name> but received <value>`.
 *
 * @internal
 */
import { Buffer as NodeBuffer } from "node:buffer";
import { describeValue, expectedMessage } from "../../errors/describe-value.js";
import { InvalidTypeError, InvalidValueError } from "../../errors/errors.js";
import type { ArrowHead } from "../values.js";

/** DeepStream's MAX_LABEL_SIZE minus the NUL: the longest obj_label / result_label in bytes. */
export const MAX_LABEL_BYTES = 127;
/** DeepStream's "no confidence" marker. */
export const NO_CONFIDENCE = -0.1;
/** The same marker as native code stores it (a float): reading back -0.1 gives this. */
const NO_CONFIDENCE_FLOAT = Math.fround(NO_CONFIDENCE);

const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;
const UINT32_MAX = 4294967295;
const UINT64_MAX = 18446744073709551615n;

/** Throws the invalid-value error for `value`: a TypeError when `typeof` is wrong, else a RangeError. */
export function invalid(what: string, name: string, value: unknown, wrongType: boolean): never {
  const message = expectedMessage(what, name, describeValue(value));
  throw wrongType ? new InvalidTypeError(message) : new InvalidValueError(message);
}

/** Throws an InvalidValueError whose `received` part is already worded ("6 values"). */
export function invalidReceived(what: string, name: string, received: string): never {
  throw new InvalidValueError(expectedMessage(what, name, received));
}

/** A finite number (positions, rotation, thresholds). */
export function checkFinite(value: unknown, name: string): number {
  if (typeof value === "number" && Number.isFinite(value)) return value;
  return invalid("a finite number", name, value, typeof value !== "number");
}

/** A finite number >= 0 (box sizes). */
export function checkSize(value: unknown, name: string): number {
  if (typeof value === "number" && value >= 0 && value !== Infinity) return value;
  return invalid("a finite number >= 0", name, value, typeof value !== "number");
}

/** A number from 0 to 1 (colour components, probabilities). */
export function checkUnit(value: unknown, name: string): number {
  if (typeof value === "number" && value >= 0 && value <= 1) return value;
  return invalid("a number from 0 to 1", name, value, typeof value !== "number");
}

/**
 * The float (`gfloat`) versions: DeepStream stores these fields as 32-bit floats, so the value
 * is rounded to the nearest float here, and reads give back exactly what the native side
 * holds (0.9 reads as 0.8999999761581421, as it would from pyds or C).
 */
export function checkFloat(value: unknown, name: string): number {
  const rounded = Math.fround(checkFinite(value, name));
  return Number.isFinite(rounded) ? rounded : invalid("a finite number", name, value, false);
}

/** A float >= 0 (box sizes); see {@link checkFloat}. */
export function checkFloatSize(value: unknown, name: string): number {
  const rounded = Math.fround(checkSize(value, name));
  return Number.isFinite(rounded) ? rounded : invalid("a finite number >= 0", name, value, false);
}

/** A float from 0 to 1 (probabilities); see {@link checkFloat}. */
export function checkFloatUnit(value: unknown, name: string): number {
  return Math.fround(checkUnit(value, name));
}

/** A confidence: 0..1 or DeepStream's -0.1 for none, rounded to a float (see {@link checkFloat}). */
export function checkConfidence(value: unknown, name: string): number {
  if (typeof value === "number" && ((value >= 0 && value <= 1) || value === NO_CONFIDENCE || value === NO_CONFIDENCE_FLOAT)) {
    return Math.fround(value);
  }
  return invalid("a number from 0 to 1 (or -0.1 for none)", name, value, typeof value !== "number");
}

/** An integer in [minimum, maximum] (both safe integers). */
export function checkInteger(value: unknown, minimum: number, maximum: number, name: string): number {
  if (typeof value === "number" && Number.isInteger(value) && value >= minimum && value <= maximum) return value;
  return invalid(`an integer from ${minimum} to ${maximum}`, name, value, typeof value !== "number");
}

/** An int32 (class_id, unique_component_id, color_id). */
export function checkInt32(value: unknown, name: string): number {
  return checkInteger(value, INT32_MIN, INT32_MAX, name);
}

/** A uint32 (ids, sizes, offsets, line coordinates). */
export function checkUint32(value: unknown, name: string): number {
  return checkInteger(value, 0, UINT32_MAX, name);
}

/** An int64 field as a JS number: exact only up to 2^53, so safe integers only. */
export function checkSafeInteger(value: unknown, name: string): number {
  return checkInteger(value, Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER, name);
}

/** A boolean (DeepStream's gboolean / int flags). */
export function checkBoolean(value: unknown, name: string): boolean {
  if (typeof value === "boolean") return value;
  return invalid("a boolean", name, value, true);
}

/** A uint64 as a bigint (ntp_timestamp). */
export function checkUint64(value: unknown, name: string): bigint {
  if (typeof value === "bigint" && value >= 0n && value <= UINT64_MAX) return value;
  return invalid(`a bigint from 0n to ${UINT64_MAX}n`, name, value, typeof value !== "bigint");
}

/** A GstClockTime in ns (buf_pts): an integer >= 0, or undefined for none; returns -1 for none. */
export function checkClockTime(value: unknown, name: string): number {
  if (value === undefined) return -1;
  if (typeof value === "number" && Number.isSafeInteger(value) && value >= 0) return value;
  return invalid(`an integer from 0 to ${Number.MAX_SAFE_INTEGER} (or undefined for none)`, name, value, typeof value !== "number");
}

/** An object id: -1 (untracked) or an integer in [0, 2^53 - 1]. */
export function checkObjectId(value: unknown, name: string): number {
  if (typeof value === "number" && Number.isSafeInteger(value) && value >= -1) return value;
  return invalid(`an integer from 0 to ${Number.MAX_SAFE_INTEGER} (or -1 for untracked)`, name, value, typeof value !== "number");
}

/** NvOSD_Arrow_Head_Direction's names, by their native value (0, 1, 2). */
export const ARROW_HEADS: readonly ArrowHead[] = ["start", "end", "both"];

/** Which ends of an arrow get a head. */
export function checkArrowHead(value: unknown, name: string): ArrowHead {
  if (ARROW_HEADS.includes(value as ArrowHead)) return value as ArrowHead;
  return invalid('"start", "end" or "both"', name, value, typeof value !== "string");
}

/** A string native code stores as a C string: no NUL inside. */
export function checkCString(value: unknown, name: string): string {
  if (typeof value !== "string") return invalid("a string", name, value, true);
  const nul = value.indexOf("\0");
  if (nul >= 0) {
    const byte = NodeBuffer.byteLength(value.slice(0, nul), "utf8");
    throw new InvalidValueError(expectedMessage("a string without NUL characters", name, `a NUL at byte ${byte}`));
  }
  return value;
}

/** A string of at most `maxBytes` UTF-8 bytes without NUL (obj_label, result_label, classifier_type). */
export function checkBoundedString(value: unknown, name: string, maxBytes = MAX_LABEL_BYTES): string {
  if (typeof value !== "string") return invalid(`at most ${maxBytes} bytes (UTF-8)`, name, value, true);
  // A UTF-16 unit is at most 3 UTF-8 bytes: short strings need no counting.
  if (value.length * 3 > maxBytes) {
    const bytes = NodeBuffer.byteLength(value, "utf8");
    if (bytes > maxBytes) {
      throw new InvalidValueError(expectedMessage(`at most ${maxBytes} bytes (UTF-8)`, name, `${bytes} bytes`));
    }
  }
  return checkCString(value, name);
}

/** A plain object (partial values being assigned). */
export function checkObject(value: unknown, name: string): Record<string, unknown> {
  if (typeof value === "object" && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
  return invalid("an object", name, value, true);
}

/** A tuple of four safe integers (misc_*_info). */
export function checkMiscInfo(value: unknown, name: string): [number, number, number, number] {
  if (!Array.isArray(value) || value.length !== 4) return invalid("an array of 4 integers", name, value, !Array.isArray(value));
  return [
    checkSafeInteger(value[0], `${name}[0]`),
    checkSafeInteger(value[1], `${name}[1]`),
    checkSafeInteger(value[2], `${name}[2]`),
    checkSafeInteger(value[3], `${name}[3]`),
  ];
}

/** The user meta type form "ORG.COMPONENT.DESCRIPTION": three or more parts of [A-Za-z0-9_-], at most 127 bytes. */
const USER_META_TYPE = /^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+){2,}$/;

export function checkUserMetaType(value: unknown, name: string): string {
  const what = "a type of the form ORG.COMPONENT.DESCRIPTION (letters, digits, _ and -)";
  if (typeof value !== "string") return invalid(what, name, value, true);
  if (value.length > MAX_LABEL_BYTES / 3) {
    const bytes = NodeBuffer.byteLength(value, "utf8");
    if (bytes > MAX_LABEL_BYTES) {
      throw new InvalidValueError(expectedMessage(`at most ${MAX_LABEL_BYTES} bytes`, name, `${bytes} bytes`));
    }
  }
  if (!USER_META_TYPE.test(value)) return invalid(what, name, value, false);
  return value;
}
