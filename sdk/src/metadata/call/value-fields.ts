/**
 * The members of metadata values that travel as JS objects (LabelInfo, ClassifierMeta, a
 * display meta's rectangles) and of the structs of an object's row (`obj.rectParams`), made
 * from their descriptors (protocol/value-fields.ts, generated from the table
 * protocol/meta-fields.mjs): accessors, checked plain values, copies of native values and live
 * views over a row. What each kind's check is, is said once here, in CHECKS; the typed
 * declarations are generated into the files of the types (`export interface LabelInfo { ... }`).
 *
 * @internal
 */
import { COLOR_PARAMS_FIELDS, FONT_PARAMS_FIELDS, type ValueField, type ValueKind } from "../../protocol/value-fields.js";
import type { ObjectCore } from "./object-core.js";
import {
  ARROW_HEADS,
  checkArrowHead,
  checkBoolean,
  checkBoundedString,
  checkCString,
  checkFloat,
  checkFloatSize,
  checkFloatUnit,
  checkInt32,
  checkObject,
  checkUint32,
  checkUnit,
} from "./validation.js";
import { makeColor, type Color } from "../values.js";

type Check = (value: unknown, name: string) => unknown;

/** Each kind's check (returns the value stored: a float rounded, as native code holds it). */
const CHECKS: Record<ValueKind, Check> = {
  int32: checkInt32,
  uint32: checkUint32,
  flag: checkBoolean,
  float: checkFloat,
  floatSize: checkFloatSize,
  unit: checkUnit,
  probability: checkFloatUnit,
  label: (value, name) => checkBoundedString(value, name),
  text: checkCString,
  arrowHead: checkArrowHead,
};

/** A member's value before anything is written (what a pool's meta holds). */
const ZERO: Record<ValueKind, unknown> = { int32: 0, uint32: 0, flag: false, float: 0, floatSize: 0, unit: 0, probability: 0, label: "", text: "", arrowHead: "end" };

const COLOR = "ColorParams";
/** The members of a struct a value holds (a text's font), by the struct's name. */
const NESTED: Readonly<Record<"FontParams", readonly ValueField[]>> = { FontParams: FONT_PARAMS_FIELDS };
/** A member that is a scalar (not a colour nor a nested struct). */
const scalar = (field: ValueField): field is ValueField & { kind: ValueKind } => field.kind !== COLOR && !(field.kind in NESTED);

/** The initial values of a value record: 0, "" or false each. */
export function zeroValues(fields: readonly ValueField[]): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const field of fields) {
    if (field.kind === COLOR) values[field.name] = { red: 0, green: 0, blue: 0, alpha: 0 };
    else if (scalar(field)) values[field.name] = ZERO[field.kind];
    else values[field.name] = zeroValues(NESTED[field.kind as keyof typeof NESTED]);
  }
  return values;
}

/** What the accessors need of a class whose members are held in a plain object. */
export interface ValueAccess<T> {
  /** The name in messages ("LabelInfo"). */
  readonly owner: string;
  /** Throws unless the handle may be read or written, naming `member`. */
  check(self: T, member: string, action: "reading" | "writing"): void;
  /** The object holding the members. */
  values(self: T): Record<string, unknown>;
}

/** Defines a getter and a checked setter per scalar field (not `list` ones) on `target.prototype`. */
export function defineValueFields<T extends object>(target: { prototype: T }, fields: readonly ValueField[], access: ValueAccess<T>): void {
  for (const field of fields) {
    if (field.list || !scalar(field)) continue;
    const check = CHECKS[field.kind];
    const { name } = field;
    const qualified = `${access.owner}.${name}`;
    Object.defineProperty(target.prototype, name, {
      configurable: true,
      enumerable: false,
      get(this: T) {
        access.check(this, name, "reading");
        return access.values(this)[name];
      },
      set(this: T, value: unknown) {
        access.check(this, name, "writing");
        access.values(this)[name] = check(value, qualified);
      },
    });
  }
}

/** The given members of a value (a copy: colours too), in the descriptors' order. */
export function valueCopy(fields: readonly ValueField[], values: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const field of fields) {
    const value = values[field.name];
    if (field.kind === COLOR) copy[field.name] = { ...(value as Color) };
    else if (scalar(field)) copy[field.name] = value;
    else copy[field.name] = valueCopy(NESTED[field.kind as keyof typeof NESTED], value as Record<string, unknown>);
  }
  return copy;
}

/**
 * A new checked, frozen value from an init (`display.addRect({...})`): a missing member is 0,
 * false or "", a missing colour its descriptor's fallback. `name` prefixes messages.
 */
export function makeValue(fields: readonly ValueField[], init: unknown, name: string): Readonly<Record<string, unknown>> {
  const value = checkObject(init ?? {}, name);
  const made: Record<string, unknown> = {};
  for (const field of fields) {
    const given = value[field.name];
    const path = `${name}.${field.name}`;
    if (field.kind === COLOR) made[field.name] = makeColor(given, path, field.fallback ?? { red: 0, green: 0, blue: 0, alpha: 1 });
    else if (scalar(field)) made[field.name] = given === undefined ? ZERO[field.kind] : CHECKS[field.kind](given, path);
    else made[field.name] = makeValue(NESTED[field.kind as keyof typeof NESTED], given, path);
  }
  return Object.freeze(made);
}

/** What a scalar kind is natively when it differs from TypeScript (an arrow head is 0, 1 or 2). */
const FROM_NATIVE: Partial<Record<ValueKind, (value: unknown) => unknown>> = {
  arrowHead: (value) => ARROW_HEADS[value as number] ?? "end",
};

/** A native value as a frozen copy (colours and nested structs frozen too). */
export function valueFromNative(fields: readonly ValueField[], native: Readonly<Record<string, unknown>>): Readonly<Record<string, unknown>> {
  const copy: Record<string, unknown> = {};
  for (const field of fields) {
    const value = native[field.name];
    if (field.kind === COLOR) copy[field.name] = valueFromNative(COLOR_PARAMS_FIELDS, value as Record<string, unknown>);
    else if (scalar(field)) copy[field.name] = FROM_NATIVE[field.kind]?.(value) ?? value;
    else copy[field.name] = valueFromNative(NESTED[field.kind as keyof typeof NESTED], value as Record<string, unknown>);
  }
  return Object.freeze(copy);
}

// ---------------------------------------------------------------- live views over an object's row

/**
 * A live view over one struct in an object's row (`obj.rectParams`, its `borderColor`,
 * `obj.detectorBboxInfo`): one accessor per member, defined on each subclass's prototype by
 * {@link defineRowFields}; a colour member is a nested view.
 */
export class RowStruct {
  readonly #core: ObjectCore;
  readonly #offset: number;
  readonly #path: string;
  readonly #fields: readonly ValueField[];
  /** The views of colour members, made on first use. */
  readonly #colors = new Map<string, RowStruct>();

  constructor(core: ObjectCore, offset: number, path: string, fields: readonly ValueField[]) {
    this.#core = core;
    this.#offset = offset;
    this.#path = path;
    this.#fields = fields;
  }

  /** The view of a colour member. */
  color(field: ValueField): RowStruct {
    let color = this.#colors.get(field.name);
    if (color === undefined) {
      color = new RowColor(this.#core, this.#offset + (field.offset as number), `${this.#path}.${field.name}`);
      this.#colors.set(field.name, color);
    }
    return color;
  }

  /** The value of a scalar member (`member`: its name in stale messages). */
  read(field: ValueField): unknown {
    const value = this.#core.read(this.#offset + (field.offset as number), `${this.#path}.${field.name}`);
    return field.kind === "flag" ? value !== 0 : value;
  }

  /** Checks `value` for a scalar member and writes it. */
  write(field: ValueField, value: unknown): void {
    const core = this.#core;
    core.check(`${this.#path}.${field.name}`, "writing");
    this.resolveMember(field, value)();
    core.touch();
  }

  /** Checks a value for one member; returns what writes it. */
  resolveMember(field: ValueField, value: unknown): () => void {
    if (field.kind === COLOR) return this.color(field).resolve(value);
    const core = this.#core;
    const checked = toSlot(CHECKS[field.kind as ValueKind](value, `ObjectMeta.${this.#path}.${field.name}`));
    const slot = this.#offset + (field.offset as number);
    return () => {
      core.scope.table[core.base + slot] = checked;
    };
  }

  /** Checks the given members of `init` (all before any is written); returns what writes them. */
  resolve(init: unknown): () => void {
    const value = checkObject(init, `ObjectMeta.${this.#path}`);
    const writes: (() => void)[] = [];
    for (const field of this.#fields) if (value[field.name] !== undefined) writes.push(this.resolveMember(field, value[field.name]));
    return () => {
      for (const write of writes) write();
    };
  }

  /** `obj.rectParams = {...}`: the given members, all checked before any is written. */
  assign(init: unknown): void {
    this.#core.check(this.#path, "writing");
    this.resolve(init)();
    this.#core.touch();
  }

  /** Throws if the object may not be read, naming a member. */
  check(member: string): void {
    this.#core.check(`${this.#path}.${member}`);
  }

  /** A plain copy. */
  toJSON(): Record<string, unknown> {
    this.#core.check(this.#path);
    const json: Record<string, unknown> = {};
    for (const field of this.#fields) json[field.name] = field.kind === COLOR ? this.color(field).toJSON() : this.read(field);
    return json;
  }
}

/** A flag reads as a boolean and is stored as 0 or 1. */
const toSlot = (value: unknown): number => (typeof value === "boolean" ? (value ? 1 : 0) : (value as number));

/** Defines, on a RowStruct subclass, one accessor per field (colours as nested live views). */
export function defineRowFields(target: { prototype: RowStruct }, fields: readonly ValueField[]): void {
  for (const field of fields) {
    const descriptor: PropertyDescriptor =
      field.kind === COLOR
        ? {
            get(this: RowStruct) {
              this.check(field.name);
              return this.color(field);
            },
            set(this: RowStruct, value: unknown) {
              this.color(field).assign(value);
            },
          }
        : {
            get(this: RowStruct) {
              return this.read(field);
            },
            set(this: RowStruct, value: unknown) {
              this.write(field, value);
            },
          };
    Object.defineProperty(target.prototype, field.name, { configurable: true, ...descriptor });
  }
}

/** A colour in four consecutive doubles of the row. */
class RowColor extends RowStruct {
  constructor(core: ObjectCore, offset: number, path: string) {
    super(core, offset, path, COLOR_PARAMS_FIELDS);
  }

  static {
    defineRowFields(RowColor, COLOR_PARAMS_FIELDS);
  }
}
