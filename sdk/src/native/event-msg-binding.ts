/**
 * The event message as the binding's `addEventMsg` / `readEventMsg` pass it
 * (native-host/src/binding/event_msg_binding.cpp): DeepStream's `NvDsEventMsgMeta` member
 * names (nvdsmeta_schema.h), numbers as DeepStream holds them, empty strings for NULL.
 * `metadata/event-msg-meta.ts` maps it to and from the public {@link EventMsgMeta}.
 *
 * @internal
 */

/** `NvDsVehicleObject`. */
export interface NativeVehicleObject {
  type: string;
  make: string;
  model: string;
  color: string;
  region: string;
  license: string;
}

/** `NvDsPersonObject`. */
export interface NativePersonObject {
  gender: string;
  hair: string;
  cap: string;
  apparel: string;
  age: number;
}

/** `NvDsFaceObject`. */
export interface NativeFaceObject {
  gender: string;
  hair: string;
  cap: string;
  glasses: string;
  facialhair: string;
  name: string;
  eyecolor: string;
  age: number;
}

/** `NvDsEventMsgMeta`; at most one of vehicle, person and face (its `extMsg`), the one of `objType`. */
export interface NativeEventMsg {
  type: number;
  objType: number;
  bbox: { top: number; left: number; width: number; height: number };
  location: { lat: number; lon: number; alt: number };
  coordinate: { x: number; y: number; z: number };
  objSignature: Float64Array;
  objClassId: number;
  sensorId: number;
  moduleId: number;
  placeId: number;
  componentId: number;
  frameId: number;
  confidence: number;
  /** -1 for UNTRACKED_OBJECT_ID. */
  trackingId: number;
  ts: string;
  objectId: string;
  sensorStr: string;
  otherAttrs: string;
  videoPath: string;
  vehicle: NativeVehicleObject | null;
  person: NativePersonObject | null;
  face: NativeFaceObject | null;
}
