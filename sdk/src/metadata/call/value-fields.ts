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
import type { ValueField, ValueKind } from "../../protocol/value-fields.js";
import type { ObjectCore } from "./object-core.js";
import {
  checkBoolean,
  checkBoundedString,
  checkFloat,
  checkFloatSize,
  checkFloatUnit,
  checkInt32,
  checkObject,
  checkUint32,
  checkUnit,
} from "./validation.js";
import { makeColor, mergeColor, type Color } from "../values.js";

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
};

/** A member's value before anything is written (what a pool's meta holds). */
const ZERO: Record<ValueKind, unknown> = { int32: 0, uint32: 0, flag: false, float: 0, floatSize: 0, unit: 0, probability: 0, label: "" };

const COLOR = "ColorParams";

/** The initial values of a value record: 0, "" or false each. */
export function zeroValues(fields: readonly ValueField[]): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const field of fields) values[field.name] = field.kind === COLOR ? { red: 0, green: 0, blue: 0, alpha: 0 } : ZERO[field.kind];
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
    if (field.list || field.kind === COLOR) continue;
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
    copy[field.name] = field.kind === COLOR ? { ...(value as Color) } : value;
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
    else made[field.name] = given === undefined ? ZERO[field.kind] : CHECKS[field.kind](given, path);
  }
  return Object.freeze(made);
}

/** A native value as a frozen copy (colours frozen too). */
export function valueFromNative(fields: readonly ValueField[], native: Readonly<Record<string, unknown>>): Readonly<Record<string, unknown>> {
  const copy = valueCopy(fields, native);
  for (const field of fields) if (field.kind === COLOR) Object.freeze(copy[field.name]);
  return Object.freeze(copy);
}

// ---------------------------------------------------------------- live views over an object's row

/** A colour in four consecutive doubles of the row. */
export class TableColor implements Color {
  readonly #core: ObjectCore;
  readonly #offset: number;
  readonly #path: string;

  constructor(core: ObjectCore, offset: number, path: string) {
    this.#core = core;
    this.#offset = offset;
    this.#path = path;
  }

  get red(): number {
    return this.#core.read(this.#offset, `${this.#path}.red`);
  }
  set red(value: number) {
    this.#set(0, value, "red");
  }
  get green(): number {
    return this.#core.read(this.#offset + 1, `${this.#path}.green`);
  }
  set green(value: number) {
    this.#set(1, value, "green");
  }
  get blue(): number {
    return this.#core.read(this.#offset + 2, `${this.#path}.blue`);
  }
  set blue(value: number) {
    this.#set(2, value, "blue");
  }
  get alpha(): number {
    return this.#core.read(this.#offset + 3, `${this.#path}.alpha`);
  }
  set alpha(value: number) {
    this.#set(3, value, "alpha");
  }

  #set(component: number, value: number, member: string): void {
    const core = this.#core;
    const path = `${this.#path}.${member}`;
    core.check(path, "writing");
    core.scope.table[core.base + this.#offset + component] = checkUnit(value, `ObjectMeta.${path}`);
    core.touch();
  }

  /** The colour `init` makes of this one (all checked first). */
  resolve(init: unknown): Color {
    return mergeColor(this.toJSON(), init, `ObjectMeta.${this.#path}`);
  }

  /** Writes a resolved colour. */
  write(color: Color): void {
    const table = this.#core.scope.table;
    const at = this.#core.base + this.#offset;
    table[at] = color.red;
    table[at + 1] = color.green;
    table[at + 2] = color.blue;
    table[at + 3] = color.alpha;
    this.#core.touch();
  }

  /** Assigns the given components (all checked first). */
  assign(init: unknown): void {
    this.#core.check(this.#path, "writing");
    this.write(this.resolve(init));
  }

  toJSON(): Color {
    const table = this.#core.scope.table;
    const at = this.#core.base + this.#offset;
    this.#core.check(this.#path);
    return { red: table[at] as number, green: table[at + 1] as number, blue: table[at + 2] as number, alpha: table[at + 3] as number };
  }
}

/** What a row view is: the object it writes, where its struct starts in the row, its path in messages. */
export interface RowView {
  readonly core: ObjectCore;
  readonly offset: number;
  readonly path: string;
  /** Colour views, made on first use. */
  readonly colors: Map<string, TableColor>;
}

function colorView(view: RowView, field: ValueField): TableColor {
  let color = view.colors.get(field.name);
  if (color === undefined) {
    color = new TableColor(view.core, view.offset + (field.offset as number), `${view.path}.${field.name}`);
    view.colors.set(field.name, color);
  }
  return color;
}

/** A flag reads as a boolean and is stored as 0 or 1. */
const toSlot = (value: unknown): number => (typeof value === "boolean" ? (value ? 1 : 0) : (value as number));

/**
 * Defines, on `target.prototype`, one accessor per field over the struct's slots in the row
 * (`obj.rectParams.borderWidth = 3` checks, then writes the row), colours as live views.
 */
export function defineRowFields<T extends object>(target: { prototype: T }, fields: readonly ValueField[], viewOf: (self: T) => RowView): void {
  for (const field of fields) {
    const { name } = field;
    if (field.kind === COLOR) {
      Object.defineProperty(target.prototype, name, {
        configurable: true,
        get(this: T) {
          const view = viewOf(this);
          view.core.check(`${view.path}.${name}`);
          return colorView(view, field);
        },
        set(this: T, value: unknown) {
          colorView(viewOf(this), field).assign(value);
        },
      });
      continue;
    }
    const check = CHECKS[field.kind];
    const offset = field.offset as number;
    const flag = field.kind === "flag";
    Object.defineProperty(target.prototype, name, {
      configurable: true,
      get(this: T) {
        const view = viewOf(this);
        const value = view.core.read(view.offset + offset, `${view.path}.${name}`);
        return flag ? value !== 0 : value;
      },
      set(this: T, value: unknown) {
        const view = viewOf(this);
        const core = view.core;
        core.check(`${view.path}.${name}`, "writing");
        core.scope.table[core.base + view.offset + offset] = toSlot(check(value, `ObjectMeta.${view.path}.${name}`));
        core.touch();
      },
    });
  }
}

/** `obj.rectParams = {...}`: the given members, all checked before any is written. */
export function assignRowFields(view: RowView, fields: readonly ValueField[], init: unknown): void {
  const core = view.core;
  core.check(view.path, "writing");
  const value = checkObject(init, `ObjectMeta.${view.path}`);
  const writes: (() => void)[] = [];
  for (const field of fields) {
    const given = value[field.name];
    if (given === undefined) continue;
    if (field.kind === COLOR) {
      const color = colorView(view, field);
      const resolved = color.resolve(given);
      writes.push(() => color.write(resolved));
    } else {
      const slot = core.base + view.offset + (field.offset as number);
      const checked = toSlot(CHECKS[field.kind](given, `ObjectMeta.${view.path}.${field.name}`));
      writes.push(() => {
        core.scope.table[slot] = checked;
      });
    }
  }
  for (const write of writes) write();
  core.touch();
}

/** A plain copy of a row view's members. */
export function rowFieldsJSON(view: RowView, fields: readonly ValueField[]): Record<string, unknown> {
  view.core.check(view.path);
  const json: Record<string, unknown> = {};
  const table = view.core.scope.table;
  for (const field of fields) {
    if (field.kind === COLOR) {
      json[field.name] = colorView(view, field).toJSON();
    } else {
      const value = table[view.core.base + view.offset + (field.offset as number)] as number;
      json[field.name] = field.kind === "flag" ? value !== 0 : value;
    }
  }
  return json;
}
