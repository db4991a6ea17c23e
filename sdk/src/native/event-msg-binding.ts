/**
 * The event message as the binding's `addEventMsg` / `readEventMsg` pass it
 * (native-host/src/binding/event_msg_binding.cpp): DeepStream's `NvDsEventMsgMeta` member
 * names (nvdsmeta_schema.h), numbers as DeepStream holds them, empty strings for NULL.
 * `metadata/event-msg-meta.ts` maps it to and from the public `EventMsgMeta` with its list of
 * the members (the extension objects' members are listed there only).
 *
 * @internal
 */

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
  /** `NvDsVehicleObject` (type, make, model, color, region, license), or null. */
  vehicle: Record<string, string> | null;
  /** `NvDsPersonObject` (gender, hair, cap, apparel: strings; age), or null. */
  person: Record<string, string | number> | null;
  /** `NvDsFaceObject` (gender, hair, cap, glasses, facialhair, name, eyecolor: strings; age), or null. */
  face: Record<string, string | number> | null;
}
