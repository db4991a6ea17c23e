// Property-based fuzz of the metadata API over the real native binding (the standalone binding: the
// portable backend under `npm test`, NVIDIA's NvDsBatchMeta under `npm run test:deepstream`).
// Random sequences of acquire / add / remove / set / read with random values, within one call:
// every step either succeeds or throws one of the API's typed errors, and after every step
// everything written before reads back as it was (a model of the batch, updated only with what
// each successful step was meant to change). What the call left behind must read the same in
// the next call, through the native side.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { INVALID_VALUE_CODE, META_STATE_CODE } from "../errors/errors.js";
import { inCall, makeBuffer, requireStandaloneBinding } from "../test-support/standalone-binding.js";
import type { BatchMeta } from "./batch-meta.js";
import type { ObjectMeta } from "./object-meta.js";

const addon = requireStandaloneBinding();
const FRAMES = 2;

// ---------------------------------------------------------------- values

const wildNumber = fc.oneof(
  fc.integer({ min: -(2 ** 33), max: 2 ** 33 }),
  fc.double(),
  fc.constantFrom(NaN, Infinity, -Infinity, -0, 2 ** 31, 2 ** 32, 2 ** 53, -1, 0, 1, 255, 256, 1e308, 1e-310),
);
const wildString = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.string({ unit: "grapheme", maxLength: 200 }),
  fc.constantFrom("", "a\u0000b", "é".repeat(70), "x".repeat(127), "x".repeat(128), "x".repeat(70_000)),
);
const wildValue = fc.oneof(wildNumber, wildString, fc.boolean(), fc.constantFrom(undefined, null), fc.bigInt(), fc.array(wildNumber, { maxLength: 5 }));
/** Mostly what a real element writes, sometimes anything: most steps go through, some must be refused. */
const mostly = <T, U>(plain: fc.Arbitrary<T>, wild: fc.Arbitrary<U>) => fc.oneof({ weight: 5, arbitrary: plain }, { weight: 1, arbitrary: wild });
const coordinate = mostly(fc.double({ min: 0, max: 4096, noNaN: true }), wildNumber);
const unit = mostly(fc.double({ min: 0, max: 1, noNaN: true }), wildNumber);
const count = mostly(fc.integer({ min: 0, max: 100 }), wildNumber);
const name = mostly(fc.string({ maxLength: 30 }), wildString);
const color = fc.record({ red: unit, green: unit, blue: unit, alpha: unit }, { requiredKeys: [] });
const box = fc.record({ left: coordinate, top: coordinate, width: coordinate, height: coordinate }, { requiredKeys: [] });
const rect = fc.record(
  { left: coordinate, top: coordinate, width: coordinate, height: coordinate, borderWidth: count, borderColor: color, hasBgColor: fc.boolean(), bgColor: color },
  { requiredKeys: [] },
);
const text = fc.record(
  { displayText: name, xOffset: count, yOffset: count, fontParams: fc.record({ fontName: name, fontSize: count }, { requiredKeys: [] }) },
  { requiredKeys: [] },
);

/** An object field and values for it: plausible ones and anything at all. */
const objectField = fc.oneof(
  fc.record({ field: fc.constantFrom("classId", "objectId", "uniqueComponentId"), value: mostly(fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }), wildValue) }),
  fc.record({ field: fc.constantFrom("confidence", "trackerConfidence"), value: mostly(fc.float({ min: 0, max: 1, noNaN: true }), wildValue) }),
  fc.record({ field: fc.constant("label"), value: mostly(fc.string({ maxLength: 40 }), wildValue) }),
  fc.record({ field: fc.constant("rectParams"), value: mostly(rect, wildValue) }),
  fc.record({ field: fc.constant("textParams"), value: mostly(text, wildValue) }),
  fc.record({ field: fc.constantFrom("detectorBboxInfo", "trackerBboxInfo"), value: mostly(box, wildValue) }),
  fc.record({ field: fc.constant("miscObjInfo"), value: mostly(fc.tuple(count, count, count, count), wildValue) }),
);
const frameField = fc.record({
  field: fc.constantFrom("padIndex", "sourceId", "frameNum", "bufPts", "sourceFrameWidth", "pipelineHeight", "surfaceIndex", "inferDone", "miscFrameInfo"),
  value: mostly(fc.integer({ min: 0, max: 4096 }), wildValue),
});
const userPayload = fc.oneof(
  fc.record({ kind: fc.constant("json" as const), type: mostly(fc.constant("ORG.TEST.FUZZ"), wildString), value: fc.jsonValue({ maxDepth: 3 }) }),
  fc.record({ kind: fc.constant("bytes" as const), type: mostly(fc.constant("ORG.TEST.BYTES"), wildString), value: fc.uint8Array({ maxLength: 300 }) }),
);

const step = fc.oneof(
  { weight: 3, arbitrary: fc.constant({ op: "acquire" as const }) },
  { weight: 3, arbitrary: fc.record({ op: fc.constant("add" as const), object: fc.nat(), frame: fc.nat(FRAMES - 1), parent: fc.option(fc.nat(), { freq: 3 }) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("remove" as const), object: fc.nat() }) },
  { weight: 6, arbitrary: fc.record({ op: fc.constant("set" as const), object: fc.nat(), change: objectField }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("frame" as const), frame: fc.nat(FRAMES - 1), change: frameField }) },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant("classifier" as const),
      object: fc.nat(),
      classifierType: name,
      numLabels: count,
      labels: fc.array(fc.record({ resultLabel: name, resultProb: unit, resultClassId: count, labelId: count }, { requiredKeys: [] }), { maxLength: 3 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("unclassify" as const), object: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant("display" as const), frame: fc.nat(FRAMES - 1), rects: fc.array(rect, { maxLength: 20 }), texts: fc.array(text, { maxLength: 3 }) }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant("user" as const), level: fc.constantFrom("batch", "frame", "object"), target: fc.nat(), payload: userPayload }) },
);
type Step = typeof step extends fc.Arbitrary<infer T> ? T : never;

// ---------------------------------------------------------------- the model

type Json = Record<string, unknown>;

interface ModelObject {
  handle: ObjectMeta;
  /** Its JSON as it must read, parent aside. */
  expected: Json;
  frame: number | undefined;
  parent: ModelObject | undefined;
}

interface Model {
  objects: ModelObject[];
  frames: ModelObject[][];
  /** Each frame's JSON without objectItems. */
  frameFields: Json[];
  batchUsers: unknown;
}

const json = (value: { toJSON(): unknown }): Json => JSON.parse(JSON.stringify(value.toJSON())) as Json;
const without = (value: Json, ...keys: string[]): Json => Object.fromEntries(Object.entries(value).filter(([key]) => !keys.includes(key)));

/** A typed error of the API (JS validation or native code): what a step may throw. */
function isTypedError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return error instanceof Error && (code === INVALID_VALUE_CODE || code === META_STATE_CODE);
}

/** Runs a step body: true if it succeeded, false if it threw a typed error; anything else fails the test. */
function attempt(body: () => void): boolean {
  try {
    body();
    return true;
  } catch (error) {
    if (!isTypedError(error)) throw new Error(`a step threw an untyped error: ${String(error)}`, { cause: error });
    return false;
  }
}

function check(batch: BatchMeta, model: Model): void {
  for (let f = 0; f < FRAMES; f++) {
    const frame = batch.frameItems[f]!;
    expect(without(json(frame), "objectItems")).toEqual(model.frameFields[f]);
    const actual = frame.objectItems;
    expect(actual.map((obj) => without(json(obj), "parent"))).toEqual(model.frames[f]!.map((entry) => entry.expected));
    actual.forEach((obj, i) => {
      const parent = model.frames[f]![i]!.parent;
      const position = parent?.frame === undefined ? undefined : { frameIndex: parent.frame, objectIndex: model.frames[parent.frame]!.indexOf(parent) };
      expect(json(obj).parent ?? undefined).toEqual(position === undefined || position.objectIndex < 0 ? undefined : position);
    });
  }
  expect(JSON.parse(JSON.stringify(batch.userMetaItems))).toEqual(model.batchUsers);
}

/** Plainly valid values read back exactly (wild ones are the API's to take or refuse). */
function expectPlainValue(obj: ObjectMeta, field: string, value: unknown): void {
  const plainInteger = typeof value === "number" && Number.isInteger(value) && value >= -(2 ** 31) && value < 2 ** 31;
  if (["classId", "objectId"].includes(field) && plainInteger) expect(obj[field as "classId"]).toBe(value);
  if (field === "uniqueComponentId" && plainInteger && value >= 0) expect(obj.uniqueComponentId).toBe(value);
  if (field === "confidence" && typeof value === "number" && value >= 0 && value <= 1) expect(obj.confidence).toBe(Math.fround(value));
  if (field === "label" && typeof value === "string" && /^[\x20-\x7e]{0,40}$/.test(value)) expect(obj.label).toBe(value);
}

type Box = { left: number; top: number; width: number; height: number };
type Text = { displayText: string; xOffset: number; yOffset: number } & Json;
const offset = (value: number) => Math.max(0, Math.min(Math.trunc(value), 4294967295));

/** What nvinfer derives from a detection, as addObjectMeta gives it to a fresh object (docs/metadata.md). */
function derivedOnAdd(expected: Json): void {
  const { left, top, width, height } = expected.rectParams as Box;
  const detector = expected.detectorBboxInfo as Box;
  if (detector.left === 0 && detector.top === 0 && detector.width === 0 && detector.height === 0) {
    expected.detectorBboxInfo = { left, top, width, height };
  }
  const text = expected.textParams as Text;
  if (text.displayText === "" && expected.label !== "") text.displayText = expected.label as string;
  if (text.displayText !== "" && text.xOffset === 0 && text.yOffset === 0) Object.assign(text, { xOffset: offset(left), yOffset: offset(top - 10) });
}

/** nvinfer's classifier: `display_text + " " +` each label and a space (nvinfer's text params first when empty). */
function appendClassifierText(expected: Json, labels: string[]): void {
  const shown = labels.filter((label) => label !== "");
  if (shown.length === 0) return;
  const text = expected.textParams as Text;
  if (text.displayText === "") {
    const { left, top } = expected.rectParams as Box;
    Object.assign(text, {
      xOffset: offset(left),
      yOffset: offset(top - 10),
      font: { name: "Serif", size: 11, color: { red: 1, green: 1, blue: 1, alpha: 1 } },
      setBgColor: true,
      bgColor: { red: 0, green: 0, blue: 0, alpha: 1 },
    });
  }
  text.displayText = `${text.displayText} ${shown.map((label) => `${label} `).join("")}`;
}

function run(batch: BatchMeta, steps: Step[]): Json {
  const model: Model = {
    objects: [],
    frames: Array.from({ length: FRAMES }, () => []),
    frameFields: batch.frameItems.map((frame) => without(json(frame), "objectItems")),
    batchUsers: JSON.parse(JSON.stringify(batch.userMetaItems)),
  };
  const pick = (index: number): ModelObject | undefined => model.objects[index % Math.max(model.objects.length, 1)];
  const added = (entry: ModelObject | undefined): entry is ModelObject & { frame: number } => entry?.frame !== undefined;
  for (const s of steps) {
    switch (s.op) {
      case "acquire": {
        const handle = batch.acquireObjectMeta();
        model.objects.push({ handle, expected: without(json(handle), "parent"), frame: undefined, parent: undefined });
        break;
      }
      case "add": {
        const entry = pick(s.object);
        if (entry === undefined) break;
        // A parent is picked among the objects added so far (any other is refused, and also tried).
        const candidates = model.objects.filter((other) => other.frame !== undefined);
        const parent = s.parent === null ? undefined : s.parent % 5 === 4 ? pick(s.parent) : candidates[s.parent % Math.max(candidates.length, 1)];
        if (attempt(() => batch.frameItems[s.frame]!.addObjectMeta(entry.handle, parent?.handle))) {
          expect(entry.frame, "an object added twice").toBeUndefined();
          entry.frame = s.frame;
          entry.parent = parent;
          model.frames[s.frame]!.push(entry);
          derivedOnAdd(entry.expected);
          model.frameFields[s.frame]!.inferDone = true;
        }
        break;
      }
      case "remove": {
        const entry = pick(s.object);
        if (!added(entry)) {
          if (entry !== undefined) attempt(() => batch.frameItems[0]!.removeObjectMeta(entry.handle));
          break;
        }
        if (attempt(() => batch.frameItems[entry.frame]!.removeObjectMeta(entry.handle))) {
          model.frames[entry.frame] = model.frames[entry.frame]!.filter((other) => other !== entry);
          (entry as ModelObject).frame = undefined;
          for (const other of model.objects) if (other.parent === entry) other.parent = undefined;
        }
        break;
      }
      case "set": {
        const entry = pick(s.object);
        if (entry === undefined) break;
        const { field, value } = s.change;
        if (attempt(() => ((entry.handle as unknown as Record<string, unknown>)[field] = value))) {
          expectPlainValue(entry.handle, field, value);
          entry.expected[field] = json(entry.handle)[field];
        }
        break;
      }
      case "frame": {
        const frame = batch.frameItems[s.frame]!;
        const { field, value } = s.change;
        if (attempt(() => ((frame as unknown as Record<string, unknown>)[field] = value))) {
          model.frameFields[s.frame]![field] = json(frame)[field];
        }
        break;
      }
      case "classifier": {
        const entry = pick(s.object);
        if (entry === undefined) break;
        attempt(() => {
          const classifier = batch.acquireClassifierMeta();
          attempt(() => (classifier.classifierType = s.classifierType));
          attempt(() => (classifier.numLabels = s.numLabels));
          for (const init of s.labels) {
            const label = batch.acquireLabelInfo();
            for (const [key, value] of Object.entries(init)) attempt(() => ((label as unknown as Record<string, unknown>)[key] = value));
            attempt(() => classifier.addLabelInfo(label));
          }
          entry.handle.addClassifierMeta(classifier);
          entry.expected.classifierItems = json(entry.handle).classifierItems;
          appendClassifierText(entry.expected, classifier.labelInfoItems.map((label) => label.resultLabel));
        });
        break;
      }
      case "unclassify": {
        const entry = pick(s.object);
        if (entry === undefined) break;
        attempt(() => {
          const classifier = entry.handle.classifierItems.at(-1);
          if (classifier === undefined) return;
          entry.handle.removeClassifierMeta(classifier);
          entry.expected.classifierItems = json(entry.handle).classifierItems;
        });
        break;
      }
      case "display": {
        const frame = batch.frameItems[s.frame]!;
        attempt(() => {
          const display = batch.acquireDisplayMeta();
          for (const init of s.rects) attempt(() => display.addRect(init as never));
          for (const init of s.texts) attempt(() => display.addText(init as never));
          frame.addDisplayMeta(display);
          model.frameFields[s.frame]!.displayMetaItems = json(frame).displayMetaItems;
        });
        break;
      }
      case "user": {
        const entry = pick(s.target);
        attempt(() => {
          const user = batch.acquireUserMeta();
          const { kind, type, value } = s.payload;
          if (kind === "json") user.setJson(type, value);
          else user.setBytes(type, value);
          if (s.level === "batch") {
            batch.addUserMeta(user);
            model.batchUsers = JSON.parse(JSON.stringify(batch.userMetaItems));
          } else if (s.level === "frame") {
            const frame = batch.frameItems[s.target % FRAMES]!;
            frame.addUserMeta(user);
            model.frameFields[s.target % FRAMES]!.userMetaItems = json(frame).userMetaItems;
          } else if (entry !== undefined) {
            entry.handle.addUserMeta(user);
            entry.expected.userMetaItems = json(entry.handle).userMetaItems;
          }
        });
        break;
      }
      default:
        break;
    }
    check(batch, model);
  }
  return json(batch);
}

describe("the metadata API under random sequences of steps and values", () => {
  it("every step succeeds or throws a typed error, and nothing written before changes", () => {
    fc.assert(
      fc.property(fc.array(step, { minLength: 5, maxLength: 80, size: "max" }), (steps) => {
        const buffer = makeBuffer(addon.harness, Array.from({ length: FRAMES }, (_, i) => ({ frameNum: i, bufPts: 1000 * i })));
        let written: Json | undefined;
        inCall(addon, buffer, FRAMES, (batch) => {
          written = run(batch, steps);
        });
        // What the call left on the buffer, read back through the native side in a new call.
        inCall(addon, buffer, FRAMES, (batch) => {
          expect(json(batch)).toEqual(written);
        });
      }),
      { numRuns: 150 },
    );
  });
});
