import type { NativeEventMsg } from "../native/event-msg-binding.js";
import { EVENT_MSG_EXTENSIONS, EVENT_MSG_MEMBERS, type EventMember, type EventMemberKind } from "../protocol/kind-fields.js";
import { checkCString, checkFinite, checkFloat, checkFloatSize, checkInt32, checkObject, checkObjectId, checkUint32, invalid, invalidReceived } from "./call/validation.js";

// generated: event-type (npm run generate)
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
// end generated: event-type

// generated: event-object-type (npm run generate)
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
// end generated: event-object-type

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
  // generated: vehicle-object (npm run generate)
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
  // end generated: vehicle-object
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
  // generated: person-object (npm run generate)
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
  // end generated: person-object
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
  // generated: face-object (npm run generate)
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
  // end generated: face-object
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
  // generated: event-msg-members (npm run generate)
  /** `type`: the event. */
  type: EventType;
  /** `objType`: the object's type; decides which of `vehicle`, `person`, `face` nvmsgconv reads. */
  objType: EventObjectType;
  /** `bbox` (`NvDsRect`): the object's box, pixels (floats); nvmsgconv writes it as integers. */
  bbox: {
    /** `top`, px. */
    top: number;
    /** `left`, px. */
    left: number;
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
  // end generated: event-msg-members
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

// ---------------------------------------------------------------- the members, from the table

/** The check of each scalar kind: it throws for a bad value and gives the value the binding takes. */
const SCALAR_CHECKS: Readonly<Record<Exclude<EventMemberKind, "enum" | "struct" | "doubles">, (value: unknown, name: string) => unknown>> = {
  int32: checkInt32,
  uint32: checkUint32,
  double: checkFinite,
  float: checkFloat,
  floatSize: checkFloatSize,
  objectId: checkObjectId,
  string: checkCString,
};

/** A member's value when a writer leaves it out: the time for `ts`, else DeepStream's zeroed allocation. */
function initialValue(field: EventMember): unknown {
  if (field.initial === "now") return new Date().toISOString();
  if (field.kind === "string") return "";
  if (field.kind === "doubles") return [];
  if (field.kind === "struct") return {};
  return field.kind === "enum" ? undefined : 0;
}

/** Checks one member's value (`undefined`: its default) and returns it as the binding takes it. */
function toNative(field: EventMember, given: unknown, path: string): unknown {
  const value = given === undefined ? initialValue(field) : given;
  const name = `${path}.${field.name}`;
  switch (field.kind) {
    case "doubles": {
      if (!Array.isArray(value) && !(value instanceof Float64Array)) return invalid("an array of finite numbers", name, value, true);
      return Float64Array.from(value as ArrayLike<unknown>, (item, i) => checkFinite(item, `${name}[${i}]`));
    }
    case "enum": {
      const values = field.enum!.values;
      const number = typeof value === "string" && Object.hasOwn(values, value) ? values[value] : undefined;
      return number ?? invalid(`one of ${Object.keys(values).map((key) => `"${key}"`).join(", ")}`, name, value, typeof value !== "string");
    }
    case "struct":
      return structToNative(field.members!, checkObject(value, name), name);
    default:
      return SCALAR_CHECKS[field.kind](value, name);
  }
}

function structToNative(members: readonly EventMember[], value: Record<string, unknown>, path: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of members) out[field.name] = toNative(field, value[field.name], path);
  return out;
}

/** The value of a native member as {@link EventMsgMeta} has it. */
function fromNative(field: EventMember, value: unknown): unknown {
  switch (field.kind) {
    case "enum": {
      const { values, fallback } = field.enum!;
      return Object.keys(values).find((key) => values[key] === value) ?? fallback;
    }
    case "doubles":
      return Object.freeze(Array.from(value as Float64Array));
    case "struct":
      return Object.freeze(structFromNative(field.members!, value as Record<string, unknown>));
    default:
      return value;
  }
}

function structFromNative(members: readonly EventMember[], value: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of members) out[field.name] = fromNative(field, value[field.name]);
  return out;
}

/** @internal Checks `init` (messages name `EventMsgMeta.<member>`) and gives what the binding's addEventMsg takes. */
export function eventMsgToNative(init: EventMsgInit): NativeEventMsg {
  const path = "EventMsgMeta";
  const value = checkObject(init, "setEventMsg msg");
  const native = structToNative(EVENT_MSG_MEMBERS, value, path);
  let extensions = 0;
  for (const extension of EVENT_MSG_EXTENSIONS) {
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
  const out = structFromNative(EVENT_MSG_MEMBERS, source);
  for (const extension of EVENT_MSG_EXTENSIONS) {
    const value = source[extension.name];
    if (value !== null && value !== undefined) out[extension.name] = Object.freeze(structFromNative(extension.members, value as Record<string, unknown>));
  }
  return Object.freeze(out) as unknown as EventMsgMeta;
}
