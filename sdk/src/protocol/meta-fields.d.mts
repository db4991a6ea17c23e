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

// ---------------------------------------------------------------- the components' user metas

/** A member kind of the event message, analytics and segmentation metas (MEMBER_KINDS). */
export type MemberKindName = keyof typeof MEMBER_KINDS;

export const MEMBER_KINDS: {
  readonly [kind in
    | "int32"
    | "uint32"
    | "double"
    | "float"
    | "floatSize"
    | "objectId"
    | "enum"
    | "string"
    | "doubles"
    | "struct"
    | "flagMap"
    | "countMap"
    | "totalMap"
    | "classCountMap"
    | "labels"]: { readonly ts: string; readonly cKind?: string; readonly c?: string; readonly value?: string };
};

/** An NvDs enum of the event message (EVENT_ENUMS). */
export interface EventEnumRows {
  readonly ds: string;
  readonly fallback: string;
  readonly doc: string;
  readonly example: string;
  readonly values: Readonly<Record<string, number>>;
}
export const EVENT_ENUMS: Readonly<Record<"EventType" | "EventObjectType", EventEnumRows>>;

/** A member of the event message, of one of its structs or extension objects, of an analytics or segmentation meta. */
export interface MemberRow {
  readonly name: string;
  readonly ds?: string;
  readonly c?: string;
  readonly kind: MemberKindName;
  readonly enum?: string;
  readonly struct?: string;
  readonly initial?: "now";
  readonly min?: number;
  readonly init?: string;
  readonly doc: string;
  readonly example?: string;
}

export const EVENT_MSG_STRUCTS: Readonly<Record<string, { readonly ds: string; readonly macro: string; readonly members: readonly MemberRow[] }>>;

/** A component meta of rows (EVENT_MSG, ANALYTICS_FRAME, ANALYTICS_OBJECT, SEGMENTATION). */
export interface MemberTable {
  readonly owner: string;
  readonly ds: string;
  readonly model: string;
  readonly macro?: string;
  readonly fields: readonly MemberRow[];
}
export const EVENT_MSG: MemberTable;
export const ANALYTICS_FRAME: MemberTable;
export const ANALYTICS_OBJECT: MemberTable;
export const SEGMENTATION: MemberTable;

/** An extension object of the event message (EVENT_MSG_EXTENSIONS). */
export interface EventMsgExtensionRows {
  readonly name: "vehicle" | "person" | "face";
  readonly objType: string;
  readonly ds: string;
  readonly model: string;
  readonly macro: string;
  readonly owner: string;
  readonly members: readonly MemberRow[];
}
export const EVENT_MSG_EXTENSIONS: readonly EventMsgExtensionRows[];

/** How the binding hands a component struct's member to TypeScript (see meta-fields.mjs). */
export type ComponentJsName = "box" | "xy" | "objectId" | "optional" | "optionalObjectId" | "enum" | "numbers" | "list" | "optionalStruct" | "hostFloats";

/** A member of nvtracker's, nvdspreprocess's or the sensor information's structs (TRACKER_STRUCTS, PREPROCESS_STRUCTS, SENSOR_INFO). */
export interface ComponentRow {
  /** The TypeScript member; none for a model-only member. */
  readonly name?: string;
  readonly model: string;
  readonly ds?: string;
  readonly c: string;
  readonly array?: number;
  readonly default?: string;
  /** A C++ expression over `from`. */
  readonly read?: string;
  readonly list?: string;
  readonly each?: string;
  readonly pointer?: string;
  readonly count?: string | readonly string[];
  readonly ts?: string;
  readonly js?: ComponentJsName;
  readonly values?: readonly string[];
  readonly note?: string;
  readonly doc?: string;
}

/** A struct of component rows. */
export interface ComponentStruct {
  readonly ds: string;
  readonly owner: string;
  readonly native: string;
  readonly dsNames?: "camel";
  readonly reads?: readonly string[];
  readonly writes?: boolean;
  readonly note?: string;
  readonly members: readonly ComponentRow[];
}
export const TRACKER_STRUCTS: Readonly<Record<string, ComponentStruct>>;
export const PREPROCESS_STRUCTS: Readonly<Record<string, ComponentStruct>>;
export const SENSOR_INFO: ComponentStruct;
