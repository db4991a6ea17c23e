/**
 * FrameMeta's and ObjectMeta's numeric fields, made from their descriptors
 * (protocol/transform-state.ts, generated from the table protocol/meta-fields.mjs): one
 * getter and one setter per field on the class's prototype, reading and writing the slots of
 * the handle's record (a frame's in the call's state array, an object's row in its object
 * table). What a kind of field is (its TypeScript value, its check, its JSON form) is said once
 * here, in CODECS; the typed declarations of the accessors are generated into the classes'
 * files (`export interface FrameMeta { ... }`).
 *
 * @internal
 */
import type { FieldKind, RecordField } from "../../protocol/transform-state.js";
import {
  checkBoolean,
  checkClockTime,
  checkConfidence,
  checkFloat,
  checkFloatSize,
  checkInt32,
  checkInteger,
  checkMiscInfo,
  checkObjectId,
  checkUint32,
  checkUint64,
  checkUnit,
} from "./validation.js";

const INT32_MAX = 2147483647;

/** How one kind of field reads from, and encodes into, the doubles of a record. */
interface Codec {
  /** The value from `array[at...]`. */
  read(array: Float64Array, at: number): unknown;
  /** The doubles for a value, after checking it (`name` qualified: "FrameMeta.padIndex"). */
  encode(value: unknown, name: string): readonly number[];
  /** The value as toJSON gives it (default: itself). */
  json?(value: unknown): unknown;
}

const number = (check: (value: unknown, name: string) => number): Codec => ({
  read: (array, at) => array[at] as number,
  encode: (value, name) => [check(value, name)],
});

const CODECS: Record<FieldKind, Codec> = {
  int32: number(checkInt32),
  uint32: number(checkUint32),
  count: number((value, name) => checkInteger(value, 0, INT32_MAX, name)),
  objectId: number(checkObjectId),
  confidence: number(checkConfidence),
  float: number(checkFloat),
  floatSize: number(checkFloatSize),
  unit: number(checkUnit),
  flag: {
    read: (array, at) => array[at] !== 0,
    encode: (value, name) => [checkBoolean(value, name) ? 1 : 0],
  },
  // GstClockTime: -1 (GST_CLOCK_TIME_NONE) reads as undefined.
  clockTime: {
    read: (array, at) => {
      const value = array[at] as number;
      return value < 0 ? undefined : value;
    },
    encode: (value, name) => [checkClockTime(value, name)],
  },
  // A uint64 in two exact 32-bit halves (a double holds 53 bits); JSON has no 64-bit integers.
  uint64: {
    read: (array, at) => (BigInt(array[at] as number) << 32n) | BigInt(array[at + 1] as number),
    encode: (value, name) => {
      const checked = checkUint64(value, name);
      return [Number(checked >> 32n), Number(checked & 0xffffffffn)];
    },
    json: (value) => (value as bigint).toString(),
  },
  misc: {
    read: (array, at) =>
      Object.freeze([array[at] as number, array[at + 1] as number, array[at + 2] as number, array[at + 3] as number] as const),
    encode: (value, name) => checkMiscInfo(value, name),
    json: (value) => [...(value as readonly number[])],
  },
};

/** The JSON form of a field's value: a bigint as a decimal string, a read-only tuple as an array. */
export type FieldJSON<T> = T extends bigint ? string : T extends readonly [infer A, infer B, infer C, infer D] ? [A, B, C, D] : T;

/** The record fields `Names` of a handle as its toJSON gives them (FrameMetaJSON's, ObjectMetaJSON's). */
export type RecordFieldsJSON<Handle, Names extends keyof Handle> = { -readonly [K in Names]: FieldJSON<Handle[K]> };

/** What the accessors need of a handle class: its checks and where its record lives. */
export interface RecordAccess<T> {
  /** The name in messages ("FrameMeta"). */
  readonly owner: string;
  /** Throws unless the handle may be read (`"reading"`) or written (`"writing"`), naming `member`. */
  check(self: T, member: string, action: "reading" | "writing"): void;
  /** The array holding the record. */
  array(self: T): Float64Array;
  /** Index of the record's first slot in that array. */
  base(self: T): number;
  /** Stores checked `values` from `slot` on and has them sent (as the class sends its writes). */
  write(self: T, slot: number, values: readonly number[]): void;
}

/** Defines a getter (and, for writable fields, a setter) per field on `target.prototype`. */
export function defineRecordFields<T extends object>(target: { prototype: T }, fields: readonly RecordField[], access: RecordAccess<T>): void {
  for (const field of fields) {
    const codec = CODECS[field.kind];
    const { name, slot } = field;
    const qualified = `${access.owner}.${name}`;
    const descriptor: PropertyDescriptor = {
      configurable: true,
      enumerable: false,
      get(this: T) {
        access.check(this, name, "reading");
        return codec.read(access.array(this), access.base(this) + slot);
      },
    };
    if (field.writable) {
      descriptor.set = function (this: T, value: unknown) {
        access.check(this, name, "writing");
        access.write(this, slot, codec.encode(value, qualified));
      };
    }
    Object.defineProperty(target.prototype, name, descriptor);
  }
}

/** The record fields of `self` as toJSON gives them, in the descriptors' order. */
export function recordFieldsJSON(self: object, fields: readonly RecordField[]): Record<string, unknown> {
  const json: Record<string, unknown> = {};
  for (const field of fields) json[field.name] = fieldJSON(field, (self as Record<string, unknown>)[field.name]);
  return json;
}

/** The JSON form of one field's value. */
export function fieldJSON(field: RecordField, value: unknown): unknown {
  const codec = CODECS[field.kind];
  return codec.json === undefined ? value : codec.json(value);
}
