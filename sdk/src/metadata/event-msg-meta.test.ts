// DeepStream's event message (NvDsEventMsgMeta) written and read through the real native binding
// (the standalone binding: the portable backend under `npm test`, NVIDIA's NvDsBatchMeta under
// `npm run test:deepstream`): every member round-trips, a buffer copy (a tee branch's) carries a
// copy of it, and bad values are refused with the project's message shape.
import { describe, expect, it } from "vitest";
import { InvalidTypeError, InvalidValueError } from "../errors/errors.js";
import { inCall, makeBuffer, requireStandaloneBinding } from "../test-support/standalone-binding.js";
import type { BatchMeta } from "./batch-meta.js";
import type { EventMsgInit, EventMsgMeta } from "./event-msg-meta.js";

const addon = requireStandaloneBinding();

/** Every member away from its default, as deepstream-test4 fills a vehicle's. */
const VEHICLE: EventMsgInit = {
  type: "moving",
  objType: "vehicle",
  bbox: { left: 10.5, top: 20.25, width: 30, height: 40 },
  location: { lat: 45.29, lon: -75.83, alt: 48.15 },
  coordinate: { x: 5.2, y: 10.1, z: 11.2 },
  objSignature: [0.25, -1, 3.5],
  objClassId: 2,
  sensorId: 1,
  moduleId: 3,
  placeId: 4,
  componentId: 5,
  frameId: 77,
  confidence: 0.875,
  trackingId: 2 ** 40,
  ts: "2026-04-11T04:59:59.828Z",
  objectId: "car",
  sensorStr: "sensor-0",
  otherAttrs: "doors=4",
  videoPath: "/videos/entrance.mp4",
  vehicle: { type: "sedan", make: "Bugatti", model: "M", color: "blue", region: "CA", license: "XX1234" },
};

const PERSON: EventMsgInit = {
  type: "entry",
  objType: "person",
  trackingId: -1,
  person: { age: 45, gender: "male", hair: "black", cap: "none", apparel: "formal" },
};

const FACE: EventMsgInit = {
  type: "exit",
  objType: "face",
  face: { age: 30, gender: "female", hair: "brown", cap: "", glasses: "none", facialhair: "", name: "Ada", eyecolor: "green" },
};

/** What a message reads back as: every member, defaults filled in. */
function expected(init: EventMsgInit): EventMsgMeta {
  return {
    bbox: { left: 0, top: 0, width: 0, height: 0 },
    location: { lat: 0, lon: 0, alt: 0 },
    coordinate: { x: 0, y: 0, z: 0 },
    objSignature: [],
    objClassId: 0,
    sensorId: 0,
    moduleId: 0,
    placeId: 0,
    componentId: 0,
    frameId: 0,
    confidence: 0,
    trackingId: 0,
    ts: expect.any(String) as unknown as string,
    objectId: "",
    sensorStr: "",
    otherAttrs: "",
    videoPath: "",
    ...init,
  } as EventMsgMeta;
}

function write(buffer: object, messages: EventMsgInit[]): void {
  inCall(addon, buffer, 1, (batch) => {
    for (const msg of messages) {
      const user = batch.acquireUserMeta();
      user.setEventMsg(msg);
      batch.frameItems[0]!.addUserMeta(user);
    }
  });
}

const readEvents = (buffer: object) =>
  inCall(addon, buffer, 1, (batch: BatchMeta) => batch.frameItems[0]!.userMetaItems.map((user) => ({ kind: user.kind, id: user.metaTypeId, msg: user.asEventMsg() })));

describe("event messages (NvDsEventMsgMeta) over the native binding", () => {
  it("round-trip every member, with the vehicle, person and face extension objects", () => {
    const buffer = makeBuffer(addon.harness, [{ frameNum: 77 }]);
    write(buffer, [VEHICLE, PERSON, FACE]);
    const read = readEvents(buffer);
    // NVDS_EVENT_MSG_META is 9 on both backends; nvmsgconv finds the metas by it.
    expect(read.map(({ kind, id }) => [kind, id])).toEqual([["event-msg", 9], ["event-msg", 9], ["event-msg", 9]]);
    expect(read.map(({ msg }) => msg)).toEqual([expected(VEHICLE), expected(PERSON), expected(FACE)]);
    expect(Object.isFrozen(read[0]!.msg)).toBe(true);
    expect(Object.isFrozen(read[0]!.msg!.vehicle)).toBe(true);
    addon.harness.releaseBuffer(buffer);
  });

  it("defaults: DeepStream's zeroed allocation, ts the time of setEventMsg as deepstream-test4 formats it", () => {
    const buffer = makeBuffer(addon.harness, [{}]);
    const before = Date.now();
    write(buffer, [{ type: "parked", objType: "bicycle" }]);
    const [read] = readEvents(buffer);
    expect(read!.msg).toEqual(expected({ type: "parked", objType: "bicycle" }));
    expect(read!.msg!.ts).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(Date.parse(read!.msg!.ts)).toBeGreaterThanOrEqual(before - 1);
    expect(read!.msg!.vehicle).toBeUndefined();
    addon.harness.releaseBuffer(buffer);
  });

  it("a buffer copy (a tee branch's) carries its own copy; the original stays as written", () => {
    const buffer = makeBuffer(addon.harness, [{}]);
    write(buffer, [VEHICLE, PERSON]);
    const copy = addon.harness.copyBuffer(buffer);
    addon.harness.releaseBuffer(buffer); // the copy must not share what the original frees
    const read = readEvents(copy);
    // Frame user metas come out of a copy in reverse (DeepStream prepends; docs/metadata.md).
    expect(read.map(({ msg }) => msg)).toEqual([expected(PERSON), expected(VEHICLE)]);
    expect(read.map(({ kind }) => kind)).toEqual(["event-msg", "event-msg"]);
    addon.harness.releaseBuffer(copy);
  });

  it("toJSON carries the message; batch, frame and object levels all hold one", () => {
    const buffer = makeBuffer(addon.harness, [{}]);
    inCall(addon, buffer, 1, (batch) => {
      const frame = batch.frameItems[0]!;
      const obj = batch.acquireObjectMeta();
      frame.addObjectMeta(obj);
      for (const owner of [batch, frame, obj]) {
        const user = batch.acquireUserMeta();
        user.setEventMsg(PERSON);
        owner.addUserMeta(user);
        // Readable at once, before the call ends.
        expect(user.asEventMsg()).toEqual(expected(PERSON));
      }
    });
    const json = inCall(addon, buffer, 1, (batch: BatchMeta) => batch.toJSON());
    for (const items of [json.userMetaItems, json.frameItems[0]!.userMetaItems, json.frameItems[0]!.objectItems[0]!.userMetaItems]) {
      expect(items).toEqual([{ metaType: "", metaTypeId: 9, kind: "event-msg", eventMsg: expected(PERSON) }]);
    }
    addon.harness.releaseBuffer(buffer);
  });

  it("other kinds read no event message; an event message has no bytes", () => {
    const buffer = makeBuffer(addon.harness, [{}]);
    inCall(addon, buffer, 1, (batch) => {
      const user = batch.acquireUserMeta();
      user.setJson("ACME.TEST.JSON", { a: 1 });
      expect(user.asEventMsg()).toBeUndefined();
      user.setEventMsg(PERSON);
      expect(user.kind).toBe("event-msg");
      expect(user.bytes).toBeUndefined();
      expect(user.json).toBeUndefined();
    });
    addon.harness.releaseBuffer(buffer);
  });

  it("refuses bad values with the message shape, naming the member", () => {
    const buffer = makeBuffer(addon.harness, [{}]);
    inCall(addon, buffer, 1, (batch) => {
      const user = batch.acquireUserMeta();
      const cases: [unknown, typeof InvalidValueError | typeof InvalidTypeError, string][] = [
        [{ type: "arrived", objType: "vehicle" }, InvalidValueError, 'Expected one of "entry", "exit", "moving", "stopped", "empty", "parked", "reset", "custom" for EventMsgMeta.type but received "arrived"'],
        [{ type: "entry", objType: 1 }, InvalidTypeError, "for EventMsgMeta.objType but received 1"],
        [{ ...PERSON, bbox: { left: 0, top: 0, width: -1, height: 0 } }, InvalidValueError, "Expected a finite number >= 0 for EventMsgMeta.bbox.width but received -1"],
        [{ ...PERSON, sensorId: 2 ** 31 }, InvalidValueError, "Expected an integer from -2147483648 to 2147483647 for EventMsgMeta.sensorId but received 2147483648"],
        [{ ...PERSON, trackingId: -2 }, InvalidValueError, "for EventMsgMeta.trackingId but received -2"],
        [{ ...PERSON, objectId: "a\0b" }, InvalidValueError, "Expected a string without NUL characters for EventMsgMeta.objectId but received a NUL at byte 1"],
        [{ ...PERSON, objSignature: [1, Number.NaN] }, InvalidValueError, "Expected a finite number for EventMsgMeta.objSignature[1] but received NaN"],
        [{ ...PERSON, person: { age: -1 } }, InvalidValueError, "for EventMsgMeta.person.age but received -1"],
        [{ ...PERSON, objType: "vehicle" }, InvalidValueError, 'Expected objType "person" (the type of a person object) for EventMsgMeta.objType but received "vehicle"'],
      ];
      for (const [msg, type, message] of cases) {
        const set = () => user.setEventMsg(msg as EventMsgInit);
        expect(set).toThrow(type);
        expect(set).toThrow(message);
      }
      // A refused message leaves the meta as it was.
      expect(user.kind).toBe("bytes");
    });
    addon.harness.releaseBuffer(buffer);
  });
});
