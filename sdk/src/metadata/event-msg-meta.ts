import type { NativeEventMsg } from "../native/event-msg-binding.js";
import { checkCString, checkFinite, checkFloat, checkFloatSize, checkInt32, checkObject, checkObjectId, checkUint32, invalid, invalidReceived } from "./call/validation.js";

/**
 * An event's type (`NvDsEventType`, nvdsmeta_schema.h): `"entry"` `NVDS_EVENT_ENTRY`, `"exit"`,
 * `"moving"`, `"stopped"`, `"empty"`, `"parked"`, `"reset"`, `"custom"` `NVDS_EVENT_CUSTOM`.
 * nvmsgconv writes it as the message's `event.type`. A value another component wrote outside
 * these reads as `"custom"`.
 *
 * @example
 * ```ts
 * const type: EventType = crossed ? "entry" : "moving";
 * ```
 */
export type EventType = "entry" | "exit" | "moving" | "stopped" | "empty" | "parked" | "reset" | "custom";

/**
 * The type of the object an event is about (`NvDsObjectType`): `"vehicle"`
 * `NVDS_OBJECT_TYPE_VEHICLE`, `"person"`, `"face"`, `"bag"`, `"bicycle"`, `"roadsign"`,
 * `"vehicle-ext"`, `"person-ext"`, `"face-ext"`, `"3d"`, `"dummy"`, `"product"`,
 * `"product-ext"`, `"custom"`, `"unknown"` `NVDS_OBJECT_TYPE_UNKNOWN`. It decides which
 * extension object nvmsgconv reads (`vehicle`, `person`, `face`). A value another component
 * wrote outside these reads as `"unknown"`.
 *
 * @example
 * ```ts
 * const objType: EventObjectType = obj.classId === 0 ? "vehicle" : "person";
 * ```
 */
export type EventObjectType =
  | "vehicle"
  | "person"
  | "face"
  | "bag"
  | "bicycle"
  | "roadsign"
  | "vehicle-ext"
  | "person-ext"
  | "face-ext"
  | "3d"
  | "dummy"
  | "product"
  | "product-ext"
  | "custom"
  | "unknown";

/** `NvDsEventType` values by name. */
const EVENT_TYPES: Readonly<Record<EventType, number>> = { entry: 0, exit: 1, moving: 2, stopped: 3, empty: 4, parked: 5, reset: 6, custom: 0x101 };
/** `NvDsObjectType` values by name. */
const OBJECT_TYPES: Readonly<Record<EventObjectType, number>> = {
  vehicle: 0,
  person: 1,
  face: 2,
  bag: 3,
  bicycle: 4,
  roadsign: 5,
  "vehicle-ext": 6,
  "person-ext": 7,
  "face-ext": 8,
  "3d": 9,
  dummy: 10,
  product: 11,
  "product-ext": 12,
  custom: 0x101,
  unknown: 0x102,
};

/**
 * The vehicle an event is about (`NvDsVehicleObject`, the `extMsg` of a `"vehicle"` event);
 * nvmsgconv writes it as `object.vehicle` (`region` as `licenseState`).
 *
 * @example
 * ```ts
 * const vehicle: VehicleObject = { type: "sedan", make: "Bugatti", model: "M", color: "blue", region: "CA", license: "XX1234" };
 * ```
 */
export interface VehicleObject {
  /** `type`: sedan, truck, ... */
  type: string;
  /** `make`. */
  make: string;
  /** `model`. */
  model: string;
  /** `color`. */
  color: string;
  /** `region`: where the licence plate is from. */
  region: string;
  /** `license`: the plate. */
  license: string;
}

/**
 * The person an event is about (`NvDsPersonObject`, the `extMsg` of a `"person"` event);
 * nvmsgconv writes it as `object.person`.
 *
 * @example
 * ```ts
 * const person: PersonObject = { age: 45, gender: "male", hair: "black", cap: "none", apparel: "formal" };
 * ```
 */
export interface PersonObject {
  /** `gender`. */
  gender: string;
  /** `hair`: colour. */
  hair: string;
  /** `cap`: the cap worn, if any. */
  cap: string;
  /** `apparel`. */
  apparel: string;
  /** `age`, years (an integer from 0 to 4294967295). */
  age: number;
}

/**
 * The face an event is about (`NvDsFaceObject`, the `extMsg` of a `"face"` event); nvmsgconv
 * writes it as `object.face`.
 *
 * @example
 * ```ts
 * const face: FaceObject = { age: 30, gender: "female", hair: "brown", cap: "", glasses: "none", facialhair: "", name: "", eyecolor: "green" };
 * ```
 */
export interface FaceObject {
  /** `gender`. */
  gender: string;
  /** `hair`: colour. */
  hair: string;
  /** `cap`: the cap worn, if any. */
  cap: string;
  /** `glasses`: the glasses worn, if any. */
  glasses: string;
  /** `facialhair`: colour. */
  facialhair: string;
  /** `name`. */
  name: string;
  /** `eyecolor`. */
  eyecolor: string;
  /** `age`, years. */
  age: number;
}

/**
 * An event message as DeepStream's `NvDsEventMsgMeta` holds it (nvdsmeta_schema.h), under its
 * member names: what `user.asEventMsg()` returns (frozen, safe to keep) and, every member but
 * `type` and `objType` optional, what `user.setEventMsg()` takes ({@link EventMsgInit}).
 * nvmsgconv turns it into a DeepStream-schema message (payload-type 0) or a line of the minimal
 * one (payload-type 1); docs/metadata.md shows which member lands where.
 *
 * @example
 * ```ts
 * const msg = user.asEventMsg();
 * if (msg?.type === "entry" && msg.person) this.log.info(`person of ${msg.person.age} entered`);
 * ```
 */
export interface EventMsgMeta {
  /** `type`: the event. */
  type: EventType;
  /** `objType`: the object's type; decides which of `vehicle`, `person`, `face` nvmsgconv reads. */
  objType: EventObjectType;
  /** `bbox` (`NvDsRect`): the object's box, pixels (floats); nvmsgconv writes it as integers. */
  bbox: {
    /** `left`, px. */
    left: number;
    /** `top`, px. */
    top: number;
    /** `width`, px (>= 0). */
    width: number;
    /** `height`, px (>= 0). */
    height: number;
  };
  /** `location` (`NvDsGeoLocation`): the object's latitude, longitude, altitude. */
  location: {
    /** `lat`: latitude. */
    lat: number;
    /** `lon`: longitude. */
    lon: number;
    /** `alt`: altitude. */
    alt: number;
  };
  /** `coordinate` (`NvDsCoordinate`): the object's x, y, z. */
  coordinate: {
    /** `x`. */
    x: number;
    /** `y`. */
    y: number;
    /** `z`. */
    z: number;
  };
  /** `objSignature`: the object's signature values (finite numbers); empty for none. */
  objSignature: readonly number[];
  /** `objClassId`: the object's class id (an int32). */
  objClassId: number;
  /** `sensorId`: the sensor, as nvmsgconv's configuration numbers it (`[sensorN]`; an int32). */
  sensorId: number;
  /** `moduleId`: the analytics module (`[analyticsN]` of nvmsgconv's configuration; an int32). */
  moduleId: number;
  /** `placeId`: the place (`[placeN]` of nvmsgconv's configuration; an int32). */
  placeId: number;
  /** `componentId`: the component that made the event; nvmsgconv's `comp-id` keeps only its own (an int32). */
  componentId: number;
  /** `frameId`: the frame's number (deepstream-test4 gives it `frame_num`; an int32). */
  frameId: number;
  /** `confidence` (a finite number, double precision). */
  confidence: number;
  /** `trackingId`: the object's tracking id; -1 for `UNTRACKED_OBJECT_ID`, as `ObjectMeta.objectId`. */
  trackingId: number;
  /**
   * `ts`: the event's time, the message's `@timestamp`, as deepstream-test4 writes it (RFC 3339
   * in UTC with milliseconds, `2026-04-11T04:59:59.828Z`: `Date.prototype.toISOString()`). Default:
   * the time `setEventMsg` was called.
   */
  ts: string;
  /** `objectId`: the object's id string (deepstream-test4 gives it the object's label). */
  objectId: string;
  /** `sensorStr`: the sensor's id string; the minimal schema's `sensorId` when set. */
  sensorStr: string;
  /** `otherAttrs`: other attributes of the object, free text. */
  otherAttrs: string;
  /** `videoPath`: the video file's name; the message's `videoPath`. */
  videoPath: string;
  /** `extMsg` of a `"vehicle"` event (`NvDsVehicleObject`); undefined when none. */
  vehicle?: VehicleObject | undefined;
  /** `extMsg` of a `"person"` event (`NvDsPersonObject`); undefined when none. */
  person?: PersonObject | undefined;
  /** `extMsg` of a `"face"` event (`NvDsFaceObject`); undefined when none. */
  face?: FaceObject | undefined;
}

/**
 * What `user.setEventMsg()` takes: an {@link EventMsgMeta} of which only `type` and `objType`
 * are required. Every other member defaults as DeepStream's zeroed allocation leaves it (0,
 * empty strings, no extension object), except `ts`: the current time. An extension object's
 * missing strings are empty and its missing age is 0; it must be the one of `objType`.
 *
 * @example
 * ```ts
 * const init: EventMsgInit = { type: "moving", objType: "vehicle", vehicle: { make: "Bugatti", color: "blue" } };
 * ```
 */
export type EventMsgInit = Pick<EventMsgMeta, "type" | "objType"> &
  Partial<Omit<EventMsgMeta, "type" | "objType" | "vehicle" | "person" | "face">> & {
    /** See {@link EventMsgMeta.vehicle}. */
    vehicle?: Partial<VehicleObject> | undefined;
    /** See {@link EventMsgMeta.person}. */
    person?: Partial<PersonObject> | undefined;
    /** See {@link EventMsgMeta.face}. */
    face?: Partial<FaceObject> | undefined;
  };

// ---------------------------------------------------------------- the fields, once

/**
 * How a member is checked and carried: `int32`, `double` (finite), `float` / `floatSize` (a
 * 32-bit float, >= 0 for sizes), `objectId` (-1 or 0..2^53-1), `uint32`, `string` (no NUL),
 * `doubles` (finite numbers), `enum` (a name of `values`), `struct` (its `members`).
 */
type Kind = "int32" | "double" | "float" | "floatSize" | "objectId" | "uint32" | "string" | "doubles" | "enum" | "struct";

/** One member: its name (DeepStream's, in TS and natively alike), kind and, for enums and structs, what it holds. */
interface Field {
  readonly name: string;
  readonly kind: Kind;
  readonly values?: Readonly<Record<string, number>>;
  readonly members?: readonly Field[];
  /** The name a foreign value outside `values` reads as. */
  readonly fallback?: string;
  /** The default when the member is left out (else the kind's zero). */
  readonly initial?: () => unknown;
}

const member = (name: string, kind: Kind): Field => ({ name, kind });

/** NvDsEventMsgMeta's members, in DeepStream's order. */
const FIELDS: readonly Field[] = [
  { name: "type", kind: "enum", values: EVENT_TYPES, fallback: "custom" },
  { name: "objType", kind: "enum", values: OBJECT_TYPES, fallback: "unknown" },
  { name: "bbox", kind: "struct", members: [member("top", "float"), member("left", "float"), member("width", "floatSize"), member("height", "floatSize")] },
  { name: "location", kind: "struct", members: [member("lat", "double"), member("lon", "double"), member("alt", "double")] },
  { name: "coordinate", kind: "struct", members: [member("x", "double"), member("y", "double"), member("z", "double")] },
  member("objSignature", "doubles"),
  member("objClassId", "int32"),
  member("sensorId", "int32"),
  member("moduleId", "int32"),
  member("placeId", "int32"),
  member("componentId", "int32"),
  member("frameId", "int32"),
  member("confidence", "double"),
  member("trackingId", "objectId"),
  { name: "ts", kind: "string", initial: () => new Date().toISOString() },
  member("objectId", "string"),
  member("sensorStr", "string"),
  member("otherAttrs", "string"),
  member("videoPath", "string"),
];

/** The extension objects (`extMsg`): the member, the `objType` it belongs to, its members. */
const EXTENSIONS: readonly { readonly name: "vehicle" | "person" | "face"; readonly objType: EventObjectType; readonly members: readonly Field[] }[] = [
  { name: "vehicle", objType: "vehicle", members: ["type", "make", "model", "color", "region", "license"].map((name) => member(name, "string")) },
  { name: "person", objType: "person", members: [...["gender", "hair", "cap", "apparel"].map((name) => member(name, "string")), member("age", "uint32")] },
  {
    name: "face",
    objType: "face",
    members: [...["gender", "hair", "cap", "glasses", "facialhair", "name", "eyecolor"].map((name) => member(name, "string")), member("age", "uint32")],
  },
];

const ZERO: Readonly<Record<Kind, () => unknown>> = {
  int32: () => 0,
  double: () => 0,
  float: () => 0,
  floatSize: () => 0,
  objectId: () => 0,
  uint32: () => 0,
  string: () => "",
  doubles: () => [],
  enum: () => undefined,
  struct: () => ({}),
};

/** Checks one member's value (`undefined`: its default) and returns it as the binding takes it. */
function toNative(field: Field, given: unknown, path: string): unknown {
  const value = given === undefined ? (field.initial ?? ZERO[field.kind])() : given;
  const name = `${path}.${field.name}`;
  switch (field.kind) {
    case "int32":
      return checkInt32(value, name);
    case "uint32":
      return checkUint32(value, name);
    case "double":
      return checkFinite(value, name);
    case "float":
      return checkFloat(value, name);
    case "floatSize":
      return checkFloatSize(value, name);
    case "objectId":
      return checkObjectId(value, name);
    case "string":
      return checkCString(value, name);
    case "doubles": {
      if (!Array.isArray(value) && !(value instanceof Float64Array)) return invalid("an array of finite numbers", name, value, true);
      return Float64Array.from(value as ArrayLike<unknown>, (item, i) => checkFinite(item, `${name}[${i}]`));
    }
    case "enum": {
      const number = typeof value === "string" && Object.hasOwn(field.values!, value) ? field.values![value] : undefined;
      return number ?? invalid(`one of ${Object.keys(field.values!).map((key) => `"${key}"`).join(", ")}`, name, value, typeof value !== "string");
    }
    case "struct":
      return structToNative(field.members!, checkObject(value, name), name);
  }
}

function structToNative(members: readonly Field[], value: Record<string, unknown>, path: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of members) out[field.name] = toNative(field, value[field.name], path);
  return out;
}

/** The value of a native member as {@link EventMsgMeta} has it. */
function fromNative(field: Field, value: unknown): unknown {
  switch (field.kind) {
    case "enum":
      return Object.keys(field.values!).find((key) => field.values![key] === value) ?? field.fallback;
    case "doubles":
      return Object.freeze(Array.from(value as Float64Array));
    case "struct":
      return Object.freeze(structFromNative(field.members!, value as Record<string, unknown>));
    default:
      return value;
  }
}

function structFromNative(members: readonly Field[], value: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of members) out[field.name] = fromNative(field, value[field.name]);
  return out;
}

/** @internal Checks `init` (messages name `EventMsgMeta.<member>`) and gives what the binding's addEventMsg takes. */
export function eventMsgToNative(init: EventMsgInit): NativeEventMsg {
  const path = "EventMsgMeta";
  const value = checkObject(init, "setEventMsg msg");
  const native = structToNative(FIELDS, value, path);
  let extensions = 0;
  for (const extension of EXTENSIONS) {
    const given = value[extension.name];
    native[extension.name] = null;
    if (given === undefined || given === null) continue;
    if (value.objType !== extension.objType) {
      invalid(`objType "${extension.objType}" (the type of a ${extension.name} object)`, `${path}.objType`, value.objType, false);
    }
    native[extension.name] = structToNative(extension.members, checkObject(given, `${path}.${extension.name}`), `${path}.${extension.name}`);
    extensions += 1;
  }
  if (extensions > 1) invalidReceived("at most one of vehicle, person and face", path, `${extensions} of them`);
  return native as unknown as NativeEventMsg;
}

/** @internal What `asEventMsg()` returns for a native event message (frozen). */
export function eventMsgFromNative(native: NativeEventMsg): EventMsgMeta {
  const source = native as unknown as Record<string, unknown>;
  const out = structFromNative(FIELDS, source);
  for (const extension of EXTENSIONS) {
    const value = source[extension.name];
    if (value !== null && value !== undefined) out[extension.name] = Object.freeze(structFromNative(extension.members, value as Record<string, unknown>));
  }
  return Object.freeze(out) as unknown as EventMsgMeta;
}
