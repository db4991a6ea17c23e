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
import { HandleCore } from "./handle-checks.js";
import type { ObjectCore } from "./object-core.js";
import type { TransformScope } from "./transform-scope.js";
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

/**
 * The core of a handle whose members are held in a plain object (LabelInfo, ClassifierMeta):
 * its call, state and check (HandleCore) and the members, zero until written.
 */
export class ValueCore extends HandleCore {
  readonly values: Record<string, unknown>;

  constructor(scope: TransformScope, type: string, fields: readonly ValueField[]) {
    super(scope, type);
    this.values = zeroValues(fields);
  }
}

/** What the accessors need of such a handle class (its internals give it). */
export interface ValueAccess<T> {
  coreOf(self: T): ValueCore;
}

/** Defines a getter and a checked setter per scalar field (not `list` ones) on `target.prototype`. */
export function defineValueFields<T extends object>(target: { prototype: T }, fields: readonly ValueField[], access: ValueAccess<T>): void {
  for (const field of fields) {
    if (field.list || !scalar(field)) continue;
    const check = CHECKS[field.kind];
    const { name } = field;
    Object.defineProperty(target.prototype, name, {
      configurable: true,
      enumerable: false,
      get(this: T) {
        const core = access.coreOf(this);
        core.check(name, "reading");
        return core.values[name];
      },
      set(this: T, value: unknown) {
        const core = access.coreOf(this);
        core.check(name, "writing");
        core.values[name] = check(value, `${core.type}.${name}`);
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

// ---------------------------------------------------------------- live views over an object's members

/**
 * Where a live view's members are held: doubles of the object's row (`obj.rectParams`, the
 * boxes) or a plain object (the object's text params, sent as a whole when changed).
 */
export interface ViewStore {
  /** A scalar member's value (a flag as a boolean). */
  read(field: ValueField): unknown;
  /** Stores an already checked scalar value. */
  write(field: ValueField, value: unknown): void;
  /** The store of a colour or nested struct member. */
  nested(field: ValueField): ViewStore;
  /** Records a write: the object is sent at commit. */
  changed(): void;
}

/** Members held in consecutive doubles of the object's row, from `offset` on. */
export class RowStore implements ViewStore {
  readonly #core: ObjectCore;
  readonly #offset: number;

  constructor(core: ObjectCore, offset: number) {
    this.#core = core;
    this.#offset = offset;
  }

  read(field: ValueField): unknown {
    const value = this.#core.scope.table[this.#core.base + this.#offset + (field.offset as number)];
    return field.kind === "flag" ? value !== 0 : value;
  }

  write(field: ValueField, value: unknown): void {
    const core = this.#core;
    // A flag reads as a boolean and is stored as 0 or 1.
    core.scope.table[core.base + this.#offset + (field.offset as number)] = typeof value === "boolean" ? (value ? 1 : 0) : (value as number);
  }

  nested(field: ValueField): ViewStore {
    return new RowStore(this.#core, this.#offset + (field.offset as number));
  }

  changed(): void {
    this.#core.touch();
  }
}

/** Members held in a plain object of the object's JS side (`pick` finds it when used: the text is loaded lazily). */
export class ObjectStore implements ViewStore {
  readonly #core: ObjectCore;
  readonly #pick: (core: ObjectCore) => Record<string, unknown>;

  constructor(core: ObjectCore, pick: (core: ObjectCore) => Record<string, unknown>) {
    this.#core = core;
    this.#pick = pick;
  }

  read(field: ValueField): unknown {
    return this.#pick(this.#core)[field.name];
  }

  write(field: ValueField, value: unknown): void {
    this.#pick(this.#core)[field.name] = value;
  }

  nested(field: ValueField): ViewStore {
    const pick = this.#pick;
    return new ObjectStore(this.#core, (core) => pick(core)[field.name] as Record<string, unknown>);
  }

  changed(): void {
    this.#core.textChanged = true;
    this.#core.touch();
  }
}

/** The members of a colour or nested struct member. */
const nestedFields = (field: ValueField): readonly ValueField[] => (field.kind === COLOR ? COLOR_PARAMS_FIELDS : NESTED[field.kind as keyof typeof NESTED]);

/**
 * A live view over one struct of an object (`obj.rectParams`, its `borderColor`,
 * `obj.detectorBboxInfo`, `obj.textParams`, its `font`): one accessor per member, defined on
 * each subclass's prototype by {@link defineViewFields}; a colour or nested struct member is a
 * nested view. Every read and write is checked as the object's own accessors are, naming the
 * member's path (`textParams.font.size`).
 */
export class StructView {
  readonly #core: ObjectCore;
  readonly #store: ViewStore;
  readonly #path: string;
  readonly #fields: readonly ValueField[];
  /** The views of colour and nested struct members, made on first use. */
  readonly #views = new Map<string, StructView>();

  constructor(core: ObjectCore, store: ViewStore, path: string, fields: readonly ValueField[]) {
    this.#core = core;
    this.#store = store;
    this.#path = path;
    this.#fields = fields;
  }

  /** The view of a colour or nested struct member. */
  nested(field: ValueField): StructView {
    let view = this.#views.get(field.name);
    if (view === undefined) {
      const View = viewClass(nestedFields(field));
      view = new View(this.#core, this.#store.nested(field), `${this.#path}.${field.name}`, nestedFields(field));
      this.#views.set(field.name, view);
    }
    return view;
  }

  /** The value of a scalar member, after the checks. */
  read(field: ValueField): unknown {
    this.#core.check(`${this.#path}.${field.name}`);
    return this.#store.read(field);
  }

  /** Checks `value` for a scalar member and writes it. */
  write(field: ValueField, value: unknown): void {
    this.#core.check(`${this.#path}.${field.name}`, "writing");
    this.#store.write(field, CHECKS[field.kind as ValueKind](value, `ObjectMeta.${this.#path}.${field.name}`));
    this.#store.changed();
  }

  /**
   * Checks the given members of `init` and queues their writes in `writes`, as (store, field,
   * checked value) triples: an assignment checks all of them before it writes any (assign).
   * Flat, so a checked member costs no closure nor object of its own.
   */
  collect(init: unknown, writes: unknown[]): void {
    const value = checkObject(init, `ObjectMeta.${this.#path}`);
    for (const field of this.#fields) {
      const given = value[field.name];
      if (given === undefined) continue;
      if (scalar(field)) writes.push(this.#store, field, CHECKS[field.kind](given, `ObjectMeta.${this.#path}.${field.name}`));
      else this.nested(field).collect(given, writes);
    }
  }

  /** `obj.rectParams = {...}`: the given members, all checked before any is written. */
  assign(init: unknown): void {
    this.#core.check(this.#path, "writing");
    const writes: unknown[] = [];
    this.collect(init, writes);
    for (let at = 0; at < writes.length; at += 3) (writes[at] as ViewStore).write(writes[at + 1] as ValueField, writes[at + 2]);
    this.#store.changed();
  }

  /** Throws if the object may not be read, naming a member. */
  check(member: string): void {
    this.#core.check(`${this.#path}.${member}`);
  }

  /** A plain copy. */
  toJSON(): Record<string, unknown> {
    this.#core.check(this.#path);
    const json: Record<string, unknown> = {};
    for (const field of this.#fields) json[field.name] = scalar(field) ? this.read(field) : this.nested(field).toJSON();
    return json;
  }
}

/** Defines, on a StructView subclass, one accessor per field (colours and nested structs as nested live views). */
export function defineViewFields(target: { prototype: StructView }, fields: readonly ValueField[]): void {
  for (const field of fields) {
    const descriptor: PropertyDescriptor = scalar(field)
      ? {
          get(this: StructView) {
            return this.read(field);
          },
          set(this: StructView, value: unknown) {
            this.write(field, value);
          },
        }
      : {
          get(this: StructView) {
            this.check(field.name);
            return this.nested(field);
          },
          set(this: StructView, value: unknown) {
            this.nested(field).assign(value);
          },
        };
    Object.defineProperty(target.prototype, field.name, { configurable: true, ...descriptor });
  }
}

type ViewClass = new (core: ObjectCore, store: ViewStore, path: string, fields: readonly ValueField[]) => StructView;
/** The view class of each nested struct's members (a colour, a font), made on first use. */
const viewClasses = new Map<readonly ValueField[], ViewClass>();

/** A StructView subclass with the accessors of `fields`. */
export function viewClass(fields: readonly ValueField[]): ViewClass {
  let View = viewClasses.get(fields);
  if (View === undefined) {
    View = class extends StructView {};
    defineViewFields(View, fields);
    viewClasses.set(fields, View);
  }
  return View;
}
