// The shape of the table in meta-fields.mjs (its columns are described there), for the
// TypeScript that reads it: tests and the generator's users.

/** What a field's value is (KINDS in meta-fields.mjs). */
export type KindName =
  | "int32"
  | "uint32"
  | "count"
  | "flag"
  | "objectId"
  | "clockTime"
  | "uint64"
  | "misc"
  | "confidence"
  | "float"
  | "floatSize"
  | "unit"
  | "bufferTime"
  | "reserved"
  | "probability"
  | "label"
  | "owned";

export interface Kind {
  /** Doubles in a record. */
  readonly slots: number;
  /** The TypeScript type; null for kinds TypeScript never sees. */
  readonly ts: string | null;
  /** What a value must be, in words. */
  readonly check: string;
}

export interface Field {
  readonly name: string;
  readonly ds?: string;
  readonly model?: string;
  readonly c?: string;
  readonly kind?: KindName;
  readonly struct?: string;
  readonly default?: string;
  readonly readOnly?: boolean;
  readonly deepstream?: { readonly since: string; readonly missing: string };
  readonly doc?: string;
  readonly example?: string;
  readonly init?: string;
  readonly buffer?: string;
  readonly extra?: string;
  readonly view?: string;
  /** The colour a new display element gets when none is given ([red, green, blue, alpha]). */
  readonly fallback?: readonly [number, number, number, number];
  /** The TypeScript accessor is hand-written: the value follows a list. */
  readonly list?: boolean;
  /** The C++ function that reads the member from the model (an upstream long form wins). */
  readonly read?: string;
}

/** A model member with no TypeScript side (ownership kept by native code: `owned`). */
export interface ModelOnlyField {
  readonly model: string;
  readonly ds: string;
  readonly c: string;
  readonly kind: "owned";
}

/** A struct whose members DeepStream declares in the struct that holds it (`inline`). */
export interface InlineMembers {
  readonly inline: string;
}

export interface Struct {
  readonly ds: string;
  readonly ts: string;
  readonly members: readonly (Field | InlineMembers)[];
}

export interface RecordTable {
  readonly owner: string;
  readonly ds: string;
  readonly model: string;
  readonly prefix: string;
  readonly stride: number;
  readonly fields: readonly Field[];
  readonly links?: readonly { readonly name: string; readonly doc: string }[];
}

export const KINDS: Readonly<Record<KindName, Kind>>;
export const STRUCTS: Readonly<Record<string, Struct>>;
export const STATE_HEADER: readonly { readonly name: string; readonly doc: string }[];
export const FRAME: RecordTable;
export const OBJECT: RecordTable;

/** One of nvinfer's object defaults (`NVINFER_OBJECT`). */
export interface NvinferDefault {
  readonly name: string;
  readonly c: "uint32_t" | "int32_t" | "float" | "string" | "color";
  readonly value: number | string | readonly [number, number, number, number];
  readonly ds: string;
  readonly line: number;
}
export const NVINFER_OBJECT: readonly NvinferDefault[];

/** A value that travels as a JS object (LABEL_INFO, CLASSIFIER). */
export interface ValueTable {
  readonly owner: string;
  readonly ds: string;
  readonly model: string;
  readonly fields: readonly (Field | ModelOnlyField)[];
}
export const LABEL_INFO: ValueTable;
export const CLASSIFIER: ValueTable;
