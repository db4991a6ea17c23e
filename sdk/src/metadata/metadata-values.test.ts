// The JS side of the metadata API: validation messages, staging of classifiers, display and
// user metas, value defaults and conversions, the no-native-call hot path. Calls run over the
// real standalone binding, through a proxy that records which native functions were called
// (round trips through native metadata are in metadata-native.test.ts).
import { afterEach, describe, expect, expectTypeOf, it } from "vitest";
import { InvalidTypeError, InvalidValueError, MetaStateError } from "../errors/errors.js";
import type { MetaBinding } from "../native/meta-binding.js";
import { makeBuffer, requireStandaloneBinding } from "../test-support/standalone-binding.js";
import { openNativeCall } from "../testing/native-call.js";
import { makeTransformState } from "../test-support/transform-state.js";
import { BatchMeta } from "./batch-meta.js";
import { GstBuffer } from "../stream/gst-buffer.js";
import type { ObjectMeta } from "./object-meta.js";
import type { ObjectOptions } from "./frame-meta.js";
import { TransformScope } from "./call/transform-scope.js";
import type { Color, RectParams, TextParams } from "./values.js";

const addon = requireStandaloneBinding();
/** Native calls left open by a test, closed after it (un-added metas go back to the pool). */
const open: { scope: TransformScope; callId: number }[] = [];
afterEach(() => {
  for (const { scope, callId } of open.splice(0)) {
    scope.end();
    addon.harness.closeCall(callId);
  }
});

/** The real binding, recording the name of every function called through it. */
function recordingBinding(): { meta: MetaBinding; calls: string[] } {
  const calls: string[] = [];
  const real = addon.meta;
  const meta = new Proxy(real, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        calls.push(String(key));
        return Reflect.apply(value, target, args);
      };
    },
  });
  return { meta, calls };
}

/** A native call over a real buffer of `frames` 640×480 frames, its handles going through a recording binding. */
function call(frames = 2): { batch: BatchMeta; scope: TransformScope; calls: string[] } {
  const { meta, calls } = recordingBinding();
  const { callId, state } = openNativeCall(addon, makeBuffer(addon.harness, Array.from({ length: frames }, () => ({}))), frames);
  const scope = new TransformScope(state, meta);
  open.push({ scope, callId });
  return { batch: new BatchMeta(scope), scope, calls };
}

const TRANSPARENT = { red: 0, green: 0, blue: 0, alpha: 0 };

const RED = { red: 1, green: 0, blue: 0, alpha: 1 };
const WHITE = { red: 1, green: 1, blue: 1, alpha: 1 };
const BLACK = { red: 0, green: 0, blue: 0, alpha: 1 };

/** A rectangle as toJSON gives it: DeepStream's zeroed NvOSD_RectParams with `changes`. */
function rectJSON(changes: Partial<RectParams> = {}): RectParams {
  const zero = { left: 0, top: 0, width: 0, height: 0, borderWidth: 0, borderColor: TRANSPARENT, hasBgColor: false, bgColor: TRANSPARENT };
  return { ...zero, colorId: 0, hasColorInfo: false, rotationAngle: 0, ...changes };
}

/** A text as toJSON gives it: DeepStream's zeroed NvOSD_TextParams with `changes`. */
function textJSON(changes: Partial<TextParams> = {}): TextParams {
  const font = { name: "", size: 0, color: TRANSPARENT };
  return { displayText: "", xOffset: 0, yOffset: 0, font, setBgColor: false, bgColor: TRANSPARENT, ...changes };
}

function object(): ObjectMeta {
  return call().batch.acquireObjectMeta();
}

describe("the hot path", () => {
  it("reads frame and buffer fields without any native call", () => {
    const { batch, scope, calls } = call(2);
    const buffer = new GstBuffer(scope);
    for (const frame of batch.frameItems) {
      void [frame.batchId, frame.frameNum, frame.bufPts, frame.sourceId, frame.padIndex, frame.ntpTimestamp, frame.inferDone];
      void [frame.sourceFrameWidth, frame.pipelineHeight, frame.surfaceIndex, frame.miscFrameInfo];
    }
    void [batch.numFrames, batch.maxFramesInBatch, buffer.pts, buffer.size];
    scope.commit();
    scope.end();
    expect(calls).toEqual([]);
  });

  it("sends nothing at commit for an object never added", () => {
    const { batch, scope, calls } = call();
    batch.acquireObjectMeta().classId = 3;
    scope.commit();
    expect(calls).toEqual(["bindObjectTable", "acquireObject"]);
  });
});

describe("validation messages (TypeScript names, one shape)", () => {
  const cases: [string, (obj: ObjectMeta) => void, string, typeof InvalidValueError | typeof InvalidTypeError][] = [
    ["rect width NaN", (o) => (o.rectParams.width = NaN), "Expected a finite number >= 0 for ObjectMeta.rectParams.width but received NaN", InvalidValueError],
    ["rect height", (o) => (o.rectParams.height = -2.5), "Expected a finite number >= 0 for ObjectMeta.rectParams.height but received -2.5", InvalidValueError],
    ["rect left", (o) => (o.rectParams.left = Infinity), "Expected a finite number for ObjectMeta.rectParams.left but received Infinity", InvalidValueError],
    ["rect assign", (o) => (o.rectParams = { top: NaN }), "Expected a finite number for ObjectMeta.rectParams.top but received NaN", InvalidValueError],
    ["rotation", (o) => (o.rectParams.rotationAngle = NaN), "Expected a finite number for ObjectMeta.rectParams.rotationAngle but received NaN", InvalidValueError],
    ["border width", (o) => (o.rectParams.borderWidth = -1), "Expected an integer from 0 to 4294967295 for ObjectMeta.rectParams.borderWidth but received -1", InvalidValueError],
    ["colour", (o) => (o.rectParams.borderColor.red = 1.25), "Expected a number from 0 to 1 for ObjectMeta.rectParams.borderColor.red but received 1.25", InvalidValueError],
    ["colour assign", (o) => (o.rectParams.bgColor = { alpha: -1 }), "Expected a number from 0 to 1 for ObjectMeta.rectParams.bgColor.alpha but received -1", InvalidValueError],
    ["colour id", (o) => (o.rectParams.colorId = 0.5), "Expected an integer from -2147483648 to 2147483647 for ObjectMeta.rectParams.colorId but received 0.5", InvalidValueError],
    ["has bg colour", (o) => (o.rectParams.hasBgColor = 1 as unknown as boolean), "Expected a boolean for ObjectMeta.rectParams.hasBgColor but received 1", InvalidTypeError],
    ["confidence", (o) => (o.confidence = 1.5), "Expected a number from 0 to 1 (or -0.1 for none) for ObjectMeta.confidence but received 1.5", InvalidValueError],
    ["tracker confidence", (o) => (o.trackerConfidence = -0.2), "Expected a number from 0 to 1 (or -0.1 for none) for ObjectMeta.trackerConfidence but received -0.2", InvalidValueError],
    ["class id", (o) => (o.classId = 1.5), "Expected an integer from -2147483648 to 2147483647 for ObjectMeta.classId but received 1.5", InvalidValueError],
    ["class id type", (o) => (o.classId = "3" as unknown as number), 'Expected an integer from -2147483648 to 2147483647 for ObjectMeta.classId but received "3"', InvalidTypeError],
    ["component id", (o) => (o.uniqueComponentId = 2 ** 31), "Expected an integer from -2147483648 to 2147483647 for ObjectMeta.uniqueComponentId but received 2147483648", InvalidValueError],
    ["object id", (o) => (o.objectId = -2), "Expected an integer from 0 to 9007199254740991 (or -1 for untracked) for ObjectMeta.objectId but received -2", InvalidValueError],
    ["label bytes", (o) => (o.label = "x".repeat(128)), "Expected at most 127 bytes (UTF-8) for ObjectMeta.label but received 128 bytes", InvalidValueError],
    ["label UTF-8", (o) => (o.label = "é".repeat(64)), "Expected at most 127 bytes (UTF-8) for ObjectMeta.label but received 128 bytes", InvalidValueError],
    ["label NUL", (o) => (o.label = "é\0"), "Expected a string without NUL characters for ObjectMeta.label but received a NUL at byte 2", InvalidValueError],
    ["label type", (o) => (o.label = 7 as unknown as string), "Expected at most 127 bytes (UTF-8) for ObjectMeta.label but received 7", InvalidTypeError],
    ["display text NUL", (o) => (o.textParams.displayText = "a\0b"), "Expected a string without NUL characters for ObjectMeta.textParams.displayText but received a NUL at byte 1", InvalidValueError],
    ["text offset", (o) => (o.textParams.xOffset = -1), "Expected an integer from 0 to 4294967295 for ObjectMeta.textParams.xOffset but received -1", InvalidValueError],
    ["font name", (o) => (o.textParams.font.name = "\0"), "Expected a string without NUL characters for ObjectMeta.textParams.font.name but received a NUL at byte 0", InvalidValueError],
    ["font colour", (o) => (o.textParams.font.color.alpha = 2), "Expected a number from 0 to 1 for ObjectMeta.textParams.font.color.alpha but received 2", InvalidValueError],
    ["text assign", (o) => (o.textParams = { font: { size: 1.5 } }), "Expected an integer from 0 to 4294967295 for ObjectMeta.textParams.font.size but received 1.5", InvalidValueError],
    ["text bg colour", (o) => (o.textParams.bgColor = { red: 3 }), "Expected a number from 0 to 1 for ObjectMeta.textParams.bgColor.red but received 3", InvalidValueError],
    [
      "mask size",
      (o) => (o.maskParams = { data: new Float32Array(6), threshold: 0.5, width: 4, height: 2 }),
      "Expected 8 values (width 4 x height 2) for ObjectMeta.maskParams.data but received 6 values",
      InvalidValueError,
    ],
    [
      "mask data type",
      (o) => (o.maskParams = { data: [0] as unknown as Float32Array, threshold: 0.5, width: 1, height: 1 }),
      "Expected a Float32Array for ObjectMeta.maskParams.data but received [0]",
      InvalidTypeError,
    ],
    [
      "mask threshold",
      (o) => (o.maskParams = { data: new Float32Array(1), threshold: NaN, width: 1, height: 1 }),
      "Expected a finite number for ObjectMeta.maskParams.threshold but received NaN",
      InvalidValueError,
    ],
    ["detector bbox", (o) => (o.detectorBboxInfo.width = -1), "Expected a finite number >= 0 for ObjectMeta.detectorBboxInfo.width but received -1", InvalidValueError],
    ["tracker bbox", (o) => (o.trackerBboxInfo = { left: NaN }), "Expected a finite number for ObjectMeta.trackerBboxInfo.left but received NaN", InvalidValueError],
    ["misc length", (o) => (o.miscObjInfo = [1, 2] as unknown as [number, number, number, number]), "Expected an array of 4 integers for ObjectMeta.miscObjInfo but received [1,2]", InvalidValueError],
    ["misc value", (o) => (o.miscObjInfo = [0, 0, 1.5, 0]), "Expected an integer from -9007199254740991 to 9007199254740991 for ObjectMeta.miscObjInfo[2] but received 1.5", InvalidValueError],
  ];

  it.each(cases)("ObjectMeta: %s", (_name, write, message, type) => {
    const obj = object();
    expect(() => write(obj)).toThrow(message);
    try {
      write(obj);
    } catch (error) {
      expect(error).toBeInstanceOf(type);
      expect(error).toBeInstanceOf(InvalidValueError); // matches TypeErrors of the same code too
      expect(error).toMatchObject({ code: "ERR_DS_ELEMENT_INVALID_VALUE" });
    }
  });

  it("accept the values at the edges of each range", () => {
    const obj = object();
    obj.confidence = -0.1;
    obj.confidence = 1;
    obj.trackerConfidence = Math.fround(-0.1);
    obj.objectId = -1;
    obj.objectId = Number.MAX_SAFE_INTEGER;
    obj.label = "x".repeat(127);
    obj.label = "é".repeat(63);
    obj.rectParams.left = -1e6;
    obj.rectParams.width = 0;
    obj.classId = -(2 ** 31);
    obj.maskParams = { data: new Float32Array(0), threshold: 0, width: 0, height: 5 };
    expect(obj.objectId).toBe(Number.MAX_SAFE_INTEGER);
  });

  it("change nothing when one member of an assigned object is invalid", () => {
    const obj = object();
    obj.rectParams = { left: 1, top: 2, width: 3, height: 4, borderColor: { red: 0.5, alpha: 1 } };
    expect(() => (obj.rectParams = { left: 9, width: 9, borderColor: { green: 2 } })).toThrow(InvalidValueError);
    expect(obj.rectParams.left).toBe(1);
    expect(obj.rectParams.width).toBe(3);
    expect(() => (obj.textParams = { displayText: "kept?", xOffset: -1 })).toThrow(InvalidValueError);
    expect(obj.textParams.displayText).toBe("");
  });

  it("assigning a colour or box changes only the given members", () => {
    const obj = object();
    obj.rectParams.borderColor = { red: 1, green: 1, blue: 1, alpha: 1 };
    obj.rectParams.borderColor = { green: 0 };
    expect((obj.rectParams as RectParams & { toJSON(): unknown }).toJSON()).toMatchObject({ borderColor: { red: 1, green: 0, blue: 1, alpha: 1 } });
    obj.detectorBboxInfo = { left: 1, top: 2, width: 3, height: 4 };
    obj.detectorBboxInfo = { height: 10 };
    expect(JSON.parse(JSON.stringify(obj.detectorBboxInfo))).toEqual({ left: 1, top: 2, width: 3, height: 10 });
  });

  it("FrameMeta", () => {
    const frame = call().batch.frameItems[0]!;
    expect(() => (frame.ntpTimestamp = 5 as unknown as bigint)).toThrow(
      new InvalidTypeError("Expected a bigint from 0n to 18446744073709551615n for FrameMeta.ntpTimestamp but received 5"),
    );
    expect(() => (frame.ntpTimestamp = -1n)).toThrow("Expected a bigint from 0n to 18446744073709551615n for FrameMeta.ntpTimestamp but received -1n");
    expect(() => (frame.bufPts = -5)).toThrow("Expected an integer from 0 to 9007199254740991 (or undefined for none) for FrameMeta.bufPts but received -5");
    expect(() => (frame.inferDone = 1 as unknown as boolean)).toThrow("Expected a boolean for FrameMeta.inferDone but received 1");
    expect(() => (frame.numSurfacesPerFrame = -1)).toThrow("Expected an integer from 0 to 2147483647 for FrameMeta.numSurfacesPerFrame but received -1");
    expect(() => (frame.sourceId = 2 ** 32)).toThrow("Expected an integer from 0 to 4294967295 for FrameMeta.sourceId but received 4294967296");
    expect(() => (frame.miscFrameInfo = [0, 0, 0, 2 ** 53])).toThrow(
      "Expected an integer from -9007199254740991 to 9007199254740991 for FrameMeta.miscFrameInfo[3] but received 9007199254740992",
    );
  });

  it("FrameMeta.addObjects", () => {
    const frame = call().batch.frameItems[0]!;
    const four = () => new Float32Array(4);
    const base = { left: four(), top: four(), width: four(), height: four() };
    expect(() => frame.addObjects({ ...base, top: new Float32Array(3) })).toThrow(
      "Expected a Float32Array of 4 values (as many as left) for FrameMeta.addObjects.top but received 3 values",
    );
    expect(() => frame.addObjects({ ...base, left: [1, 2] as unknown as Float32Array })).toThrow(
      new InvalidTypeError("Expected a Float32Array for FrameMeta.addObjects.left but received [1,2]"),
    );
    expect(() => frame.addObjects({ ...base, classId: four() as unknown as Int32Array })).toThrow(
      "Expected a Int32Array for FrameMeta.addObjects.classId but received",
    );
    expect(() => frame.addObjects({ ...base, confidence: new Float32Array([0, 1, 2, 0]) })).toThrow(
      "Expected a number from 0 to 1 (or -0.1 for none) for FrameMeta.addObjects.confidence[2] but received 2",
    );
    const left = four();
    left[3] = -Infinity;
    expect(() => frame.addObjects({ ...base, left })).toThrow("Expected a finite number for FrameMeta.addObjects.left[3] but received -Infinity");
    expect(() => frame.addObjects({ ...base, labels: ["ok", "x".repeat(200)] })).toThrow(
      "Expected at most 127 bytes (UTF-8) for FrameMeta.addObjects.labels[1] but received 200 bytes",
    );
    expect(() => frame.addObjects({ ...base, borderColor: { blue: 7 } })).toThrow(
      "Expected a number from 0 to 1 for FrameMeta.addObjects.borderColor.blue but received 7",
    );
    // The shared values apart (ObjectOptions): named as such.
    expect(() => frame.addObjects(base, null as unknown as ObjectOptions)).toThrow(
      new InvalidTypeError("Expected an object of options for FrameMeta.addObjects options but received null"),
    );
    expect(() => frame.addObjects(base, { labels: ["ok", "x".repeat(200)] })).toThrow(
      "Expected at most 127 bytes (UTF-8) for FrameMeta.addObjects options.labels[1] but received 200 bytes",
    );
    expect(() => frame.addObjects(base, { uniqueComponentId: 0.5 })).toThrow("for FrameMeta.addObjects options.uniqueComponentId but received 0.5");
    expect(frame.objectItems).toHaveLength(0);
  });

  it("LabelInfo and ClassifierMeta", () => {
    const { batch } = call();
    const label = batch.acquireLabelInfo();
    expect(() => (label.resultProb = 1.01)).toThrow(new InvalidValueError("Expected a number from 0 to 1 for LabelInfo.resultProb but received 1.01"));
    expect(() => (label.resultClassId = -1)).toThrow("Expected an integer from 0 to 4294967295 for LabelInfo.resultClassId but received -1");
    expect(() => (label.labelId = 0.5)).toThrow("Expected an integer from 0 to 4294967295 for LabelInfo.labelId but received 0.5");
    expect(() => (label.numClasses = NaN)).toThrow("Expected an integer from 0 to 4294967295 for LabelInfo.numClasses but received NaN");
    label.resultLabel = `${"é".repeat(63)}a`; // 127 bytes: the whole of DeepStream's result_label
    // Longer is refused, never cut: nvinfer writes no pResult_label and deepstream-app copies it into 128 bytes.
    expect(() => (label.resultLabel = "é".repeat(64))).toThrow("Expected at most 127 bytes (UTF-8) for LabelInfo.resultLabel but received 128 bytes");
    expect(() => (label.resultLabel = "a\0b")).toThrow(InvalidValueError);
    const classifier = batch.acquireClassifierMeta();
    expect(() => (classifier.classifierType = "t".repeat(128))).toThrow(
      "Expected at most 127 bytes (UTF-8) for ClassifierMeta.classifierType but received 128 bytes",
    );
    expect(() => (classifier.uniqueComponentId = 2 ** 31)).toThrow(
      "Expected an integer from -2147483648 to 2147483647 for ClassifierMeta.uniqueComponentId but received 2147483648",
    );
    expect(() => (classifier.numLabels = -1)).toThrow("Expected an integer from 0 to 4294967295 for ClassifierMeta.numLabels but received -1");
    expect(() => classifier.addLabelInfo({} as never)).toThrow(
      new InvalidTypeError("Expected a LabelInfo for ClassifierMeta.addLabelInfo label but received an instance of Object"),
    );
  });

  it("UserMeta", () => {
    const { batch, calls } = call();
    const user = batch.acquireUserMeta();
    expect(() => user.setJson("ACME.ONLYTWO", 1)).toThrow(
      new InvalidValueError(
        'Expected a type of the form ORG.COMPONENT.DESCRIPTION (letters, digits, _ and -) for UserMeta.metaType but received "ACME.ONLYTWO"',
      ),
    );
    expect(() => user.setJson("ACME.A B.C", 1)).toThrow("for UserMeta.metaType but received \"ACME.A B.C\"");
    expect(() => user.setJson("ACME..C", 1)).toThrow("for UserMeta.metaType");
    expect(() => user.setBytes(`A.B.${"c".repeat(130)}`, new Uint8Array())).toThrow("Expected at most 127 bytes for UserMeta.metaType but received 134 bytes");
    expect(() => user.setJson("ACME.X.Y", undefined)).toThrow(
      new InvalidTypeError("Expected a JSON-serialisable value for UserMeta.setJson value but received nothing"),
    );
    const cyclic: { self?: unknown } = {};
    cyclic.self = cyclic;
    expect(() => user.setJson("ACME.X.Y", cyclic)).toThrow("Expected a JSON-serialisable value for UserMeta.setJson value but received one JSON.stringify rejects");
    expect(() => user.setBytes("ACME.X.Y", [1] as unknown as Uint8Array)).toThrow("Expected a Uint8Array for UserMeta.setBytes bytes but received [1]");
    // An empty user meta cannot be added: its type is checked first.
    expect(() => batch.addUserMeta(batch.acquireUserMeta())).toThrow(
      'Expected a type of the form ORG.COMPONENT.DESCRIPTION (letters, digits, _ and -) for UserMeta.metaType but received ""',
    );
    expect(calls).not.toContain("addUserMeta");
  });

  it("DisplayMeta names the element's index", () => {
    const display = call().batch.acquireDisplayMeta();
    display.addRect({}).addRect({});
    expect(() => display.addRect({ width: NaN })).toThrow("Expected a finite number >= 0 for DisplayMeta.rects[2].width but received NaN");
    expect(() => display.addArrow({ arrowHead: "left" as never })).toThrow(
      'Expected "start", "end" or "both" for DisplayMeta.arrows[0].arrowHead but received "left"',
    );
    expect(() => display.addLine({ x1: -1 })).toThrow("Expected an integer from 0 to 4294967295 for DisplayMeta.lines[0].x1 but received -1");
    expect(() => display.addCircle({ bgColor: { red: 2 } })).toThrow("Expected a number from 0 to 1 for DisplayMeta.circles[0].bgColor.red but received 2");
    expect(() => display.addText({ font: { name: "a\0" } })).toThrow("Expected a string without NUL characters for DisplayMeta.texts[0].font.name but received a NUL at byte 1");
    expect(display.rects).toHaveLength(2);
  });

  it("refuse a non-handle where a handle is expected", () => {
    const { batch } = call();
    const frame = batch.frameItems[0]!;
    expect(() => frame.addObjectMeta({} as ObjectMeta)).toThrow(
      new InvalidTypeError("Expected an ObjectMeta for FrameMeta.addObjectMeta obj but received an instance of Object"),
    );
    expect(() => frame.addDisplayMeta(undefined as never)).toThrow("Expected a DisplayMeta for FrameMeta.addDisplayMeta display but received undefined");
    expect(() => batch.acquireObjectMeta().addClassifierMeta(null as never)).toThrow(
      "Expected a ClassifierMeta for ObjectMeta.addClassifierMeta classifier but received null",
    );
  });

  it("InvalidValueError and MetaStateError match native errors by code", () => {
    const native = Object.assign(new RangeError("Expected ... for NvDsObjectMeta.confidence"), { code: "ERR_DS_ELEMENT_INVALID_VALUE" });
    expect(native).toBeInstanceOf(InvalidValueError);
    expect(Object.assign(new Error("x"), { code: "ERR_DS_ELEMENT_META_STATE" })).toBeInstanceOf(MetaStateError);
    expect(new RangeError("x")).not.toBeInstanceOf(InvalidValueError);
  });
});

describe("staging and defaults", () => {
  it("display elements default to visible values; partial colours are opaque", () => {
    const display = call().batch.acquireDisplayMeta();
    display.addRect({ left: 1, borderColor: { red: 1 } }).addText({ displayText: "hi" }).addLine().addArrow().addCircle({ hasBgColor: true });
    expect(display.toJSON()).toEqual({
      rects: [
        rectJSON({ left: 1, borderColor: { red: 1, green: 0, blue: 0, alpha: 1 } }),
      ],
      texts: [
        textJSON({ displayText: "hi", font: { name: "Serif", size: 10, color: WHITE } }),
      ],
      lines: [{ x1: 0, y1: 0, x2: 0, y2: 0, lineWidth: 0, lineColor: BLACK }],
      arrows: [{ x1: 0, y1: 0, x2: 0, y2: 0, arrowWidth: 0, arrowHead: "end", arrowColor: BLACK }],
      circles: [{ xc: 0, yc: 0, radius: 0, circleColor: BLACK, hasBgColor: true, bgColor: TRANSPARENT, circleWidth: 0 }],
      miscOsdData: [0, 0, 0, 0],
    });
    expect(Object.isFrozen(display.rects[0])).toBe(true);
    expect(Object.isFrozen(display.rects[0]!.borderColor)).toBe(true);
  });

  it("a classifier stages its label infos; numLabels follows them until set", () => {
    const { batch } = call();
    const classifier = batch.acquireClassifierMeta();
    const labels = [batch.acquireLabelInfo(), batch.acquireLabelInfo()];
    labels[0]!.resultLabel = "red";
    classifier.addLabelInfo(labels[0]!);
    classifier.addLabelInfo(labels[1]!);
    expect(classifier.numLabels).toBe(2);
    expect(classifier.labelInfoItems).toEqual(labels);
    expect(() => classifier.addLabelInfo(labels[0]!)).toThrow(
      new MetaStateError("Expected a newly acquired LabelInfo for addLabelInfo but received one already added"),
    );
    classifier.removeLabelInfo(labels[1]!);
    expect(classifier.toJSON()).toEqual({
      numLabels: 1,
      uniqueComponentId: 0,
      classifierType: "",
      labelInfoItems: [{ numClasses: 0, resultLabel: "red", resultClassId: 0, labelId: 0, resultProb: 0 }],
    });
    classifier.numLabels = 5;
    expect(classifier.numLabels).toBe(5);
    expect(() => classifier.removeLabelInfo(labels[1]!)).toThrow("LabelInfo used after removeLabelInfo (passing it to removeLabelInfo())");
    expect(() => classifier.removeLabelInfo(batch.acquireLabelInfo())).toThrow(
      "Expected a LabelInfo of this classifier for removeLabelInfo but received one acquired but never added",
    );
  });

  it("a user meta keeps a copy of its payload and parses JSON on read", () => {
    const user = call().batch.acquireUserMeta();
    expect([user.kind, user.metaType, user.metaTypeId, user.json]).toEqual(["bytes", "", 0, undefined]);
    const bytes = new Uint8Array([1, 2]);
    user.setBytes("ACME.X.BYTES", bytes);
    bytes[0] = 9;
    expect(user.bytes).toEqual(new Uint8Array([1, 2]));
    expect(user.toJSON()).toEqual({ metaType: "ACME.X.BYTES", metaTypeId: 0, kind: "bytes", bytes: [1, 2] });
    user.setJson("ACME.X.JSON", { a: [1, "é"] });
    expect(user.kind).toBe("json");
    expect(user.json).toEqual({ a: [1, "é"] });
    expect(user.json).toBe(user.json);
    expect(new TextDecoder().decode(user.bytes)).toBe('{"a":[1,"é"]}');
    expect(user.asTensorOutput()).toBeUndefined();
  });

  it("an acquired object has DeepStream's defaults and nvinfer's border and font, without a native read", () => {
    const { batch, calls } = call();
    const obj = batch.acquireObjectMeta();
    expect(obj.toJSON()).toEqual({
      classId: 0,
      objectId: -1,
      uniqueComponentId: 0,
      confidence: 0,
      trackerConfidence: 0,
      label: "",
      rectParams: rectJSON({ borderWidth: 3, borderColor: RED }), // gstnvinfer_meta_utils.cpp:179-182
      textParams: textJSON({ font: { name: "Serif", size: 11, color: WHITE }, setBgColor: true, bgColor: BLACK }), // 199-206
      maskParams: null,
      detectorBboxInfo: { left: 0, top: 0, width: 0, height: 0 },
      trackerBboxInfo: { left: 0, top: 0, width: 0, height: 0 },
      miscObjInfo: [0, 0, 0, 0],
      parent: null,
      classifierItems: [],
      userMetaItems: [],
    });
    expect(calls).toEqual(["bindObjectTable", "acquireObject"]);
  });

  it("live views are the same object on every read and serialise to plain values", () => {
    const obj = object();
    expect(obj.rectParams).toBe(obj.rectParams);
    expect(obj.rectParams.borderColor).toBe(obj.rectParams.borderColor);
    expect(obj.textParams.font).toBe(obj.textParams.font);
    obj.textParams.font.color.red = 0.5;
    expect(JSON.parse(JSON.stringify(obj.textParams.font))).toEqual({ name: "Serif", size: 11, color: { red: 0.5, green: 1, blue: 1, alpha: 1 } });
    expect(Object.isFrozen(obj.miscObjInfo)).toBe(true);
  });

  it("a mask is copied when assigned", () => {
    const obj = object();
    const data = new Float32Array([0.5]);
    obj.maskParams = { data, threshold: 0.1, width: 1, height: 1 };
    data[0] = 1;
    expect(obj.maskParams?.data).toEqual(new Float32Array([0.5]));
    obj.maskParams = undefined;
    expect(obj.maskParams).toBeUndefined();
  });
});

describe("types", () => {
  it("keeps the public surface typed", () => {
    const obj = object();
    expectTypeOf(obj.rectParams).toEqualTypeOf<RectParams>();
    expectTypeOf(obj.rectParams.borderColor).toEqualTypeOf<Color>();
    expectTypeOf(obj.parent).toEqualTypeOf<ObjectMeta | undefined>();
    expectTypeOf(obj.miscObjInfo).toEqualTypeOf<readonly [number, number, number, number]>();
    expectTypeOf<BatchMeta["frameItems"][number]["ntpTimestamp"]>().toEqualTypeOf<bigint>();
    expectTypeOf<ReturnType<ObjectMeta["toJSON"]>["parent"]>().toEqualTypeOf<{ frameIndex: number; objectIndex: number } | null>();
  });
});
