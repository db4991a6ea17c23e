// The metadata binding's raw functions (sdk/src/native/meta-binding.ts) in an ordinary Node,
// through the standalone binding dsnode_standalone.node: calls opened on GstBuffers with portable batches,
// every kind of meta written, read back, copied with the buffer, and the error texts users see.
import { beforeAll, describe, expect, it } from "vitest";
import type {
  StandaloneHarness,
  MetaBinding,
  NativeColor,
  NativeDisplayContent,
  NativeMask,
  NativeText,
} from "../sdk/src/native/meta-binding";
import {
  FRAME_BATCH_ID,
  FRAME_BUF_DTS,
  FRAME_BUF_DURATION,
  FRAME_BUF_PTS,
  FRAME_INFER_DONE,
  FRAME_MISC_FRAME_INFO,
  FRAME_NTP_TIMESTAMP,
  FRAME_NUM,
  FRAME_NUM_SURFACES_PER_FRAME,
  FRAME_PAD_INDEX,
  FRAME_PIPELINE_HEIGHT,
  FRAME_PIPELINE_WIDTH,
  FRAME_SOURCE_FRAME_HEIGHT,
  FRAME_SOURCE_ID,
  FRAME_SOURCE_FRAME_WIDTH,
  FRAME_SURFACE_INDEX,
  FRAME_SURFACE_TYPE,
  META_LAYOUT_VERSION,
  OBJ_RECT_PARAMS_BG_COLOR,
  OBJ_RECT_PARAMS_BORDER_COLOR,
  OBJ_RECT_PARAMS_BORDER_WIDTH,
  OBJ_CLASS_ID,
  OBJ_RECT_PARAMS_COLOR_ID,
  OBJ_CONFIDENCE,
  OBJ_DETECTOR_BBOX_INFO,
  OBJ_FRAME_INDEX,
  OBJ_RECT_PARAMS_HAS_BG_COLOR,
  OBJ_RECT_PARAMS_HAS_COLOR_INFO,
  OBJ_MISC_OBJ_INFO,
  OBJ_OBJECT_ID,
  OBJ_PARENT_ROW,
  OBJ_RECT_PARAMS,
  OBJ_RECT_PARAMS_ROTATION_ANGLE,
  OBJ_STRIDE,
  OBJ_TRACKER_BBOX_INFO,
  OBJ_TRACKER_CONFIDENCE,
  OBJ_UNIQUE_COMPONENT_ID,
  STATE_BACKEND,
  STATE_CALL_ID,
  STATE_DTS,
  STATE_DURATION,
  STATE_FRAMES_BASE,
  STATE_FRAME_STRIDE,
  STATE_MAX_FRAMES,
  STATE_NUM_FRAMES,
  STATE_PTS,
  STATE_SIZE,
  stateLength,
} from "../sdk/src/protocol/transform-state";
import { loadStandaloneBinding } from "../sdk/src/native/loader";
import { nativeBackend } from "./helpers/projects";

let meta: MetaBinding;
let harness: StandaloneHarness;

beforeAll(() => {
  // The one loader (DSNODE_STANDALONE_BINDING: another build of the addon, e.g. one with
  // -fsanitize=address); it throws, naming the path and the fix, when the addon is not built.
  ({ meta, harness } = loadStandaloneBinding());
});

// ---------------------------------------------------------------- helpers

const INVALID = "ERR_DS_ELEMENT_INVALID_VALUE";
const STATE = "ERR_DS_ELEMENT_META_STATE";
const STALE = "ERR_DS_ELEMENT_STALE_HANDLE";
const f32 = Math.fround;

/** items[index], failing the test when there is none (the tsconfig has noUncheckedIndexedAccess). */
function at<T>(items: ArrayLike<T>, index: number): T {
  const item = items[index];
  if (item === undefined) throw new Error(`expected an item at ${index} of ${items.length}`);
  return item;
}

/** The error `fn` throws, as the fields a user sees. */
function thrown(fn: () => unknown): { type: string; code: unknown; message: string } {
  try {
    fn();
  } catch (error) {
    const e = error as Error & { code?: unknown };
    return { type: e.constructor.name, code: e.code, message: e.message };
  }
  throw new Error("expected the call to throw");
}

const color = (red: number, green: number, blue: number, alpha: number): NativeColor => ({ red, green, blue, alpha });

function text(displayText: string, x = 0, y = 0): NativeText {
  return {
    displayText,
    xOffset: x,
    yOffset: y,
    font: { name: "Serif", size: 12, color: color(1, 1, 1, 1) },
    setBgColor: true,
    bgColor: color(0, 0, 0, 0.5),
  };
}

interface FrameValues {
  frameNum: number;
  bufPts: number;
  sourceId: number;
  padIndex: number;
  batchId: number;
  width: number;
  height: number;
  ntp: bigint;
  misc: number[];
}

function frameRecord(v: FrameValues): Float64Array {
  const record = new Float64Array(STATE_FRAME_STRIDE);
  record[FRAME_NUM] = v.frameNum;
  record[FRAME_BUF_PTS] = v.bufPts;
  record[FRAME_SOURCE_ID] = v.sourceId;
  record[FRAME_PAD_INDEX] = v.padIndex;
  record[FRAME_BATCH_ID] = v.batchId;
  record[FRAME_SOURCE_FRAME_WIDTH] = v.width;
  record[FRAME_SOURCE_FRAME_HEIGHT] = v.height;
  record[FRAME_PIPELINE_WIDTH] = v.width / 2;
  record[FRAME_PIPELINE_HEIGHT] = v.height / 2;
  record[FRAME_NTP_TIMESTAMP] = Number(v.ntp >> 32n);
  record[FRAME_NTP_TIMESTAMP + 1] = Number(v.ntp & 0xffffffffn);
  record[FRAME_SURFACE_TYPE] = 1;
  record[FRAME_SURFACE_INDEX] = v.batchId;
  record[FRAME_NUM_SURFACES_PER_FRAME] = 1;
  record[FRAME_INFER_DONE] = 1;
  v.misc.forEach((value, i) => (record[FRAME_MISC_FRAME_INFO + i] = value));
  return record;
}

const NTP = (1n << 62n) + 123_456_789n; // needs all 64 bits: only exact as two halves

const FRAMES: FrameValues[] = [
  { frameNum: 7, bufPts: 1_000_000, sourceId: 3, padIndex: 3, batchId: 0, width: 1920, height: 1080, ntp: NTP, misc: [1, -2, 3, 2 ** 40] },
  { frameNum: 8, bufPts: -1, sourceId: 4, padIndex: 4, batchId: 1, width: 1280, height: 720, ntp: 0n, misc: [0, 0, 0, 0] },
];

/** A buffer of 64 bytes with the two frames of FRAMES in a batch of 4. */
function twoFrameBuffer(): object {
  const buffer = harness.createBuffer(4, 64);
  harness.setTimes(buffer, 5_000, 4_000, 33_000_000);
  for (const frame of FRAMES) harness.addFrame(buffer, frameRecord(frame));
  return buffer;
}

interface OpenCall {
  id: number;
  state: Float64Array;
  table: Float64Array;
}

function open(buffer: object, rows = 16): OpenCall {
  const state = new Float64Array(stateLength(4));
  const id = harness.openCall(buffer, state);
  const table = new Float64Array(rows * OBJ_STRIDE);
  meta.bindObjectTable(id, table);
  return { id, state, table };
}

/** The numeric fields of an object row, as named values. */
interface RowValues {
  classId: number;
  objectId: number;
  uniqueComponentId: number;
  confidence: number;
  trackerConfidence: number;
  rect: number[];
  borderWidth: number;
  borderColor: number[];
  hasBgColor: number;
  bgColor: number[];
  hasColorInfo: number;
  colorId: number;
  rotationAngle: number;
  detectorBbox: number[];
  trackerBbox: number[];
  misc: number[];
}

function readRow(table: Float64Array, row: number): RowValues & { parentRow: number; frameIndex: number } {
  const base = row * OBJ_STRIDE;
  const slot = (offset: number) => at(table, base + offset);
  const slice = (offset: number, n: number) => Array.from(table.subarray(base + offset, base + offset + n));
  return {
    classId: slot(OBJ_CLASS_ID),
    objectId: slot(OBJ_OBJECT_ID),
    uniqueComponentId: slot(OBJ_UNIQUE_COMPONENT_ID),
    confidence: slot(OBJ_CONFIDENCE),
    trackerConfidence: slot(OBJ_TRACKER_CONFIDENCE),
    rect: slice(OBJ_RECT_PARAMS, 4),
    borderWidth: slot(OBJ_RECT_PARAMS_BORDER_WIDTH),
    borderColor: slice(OBJ_RECT_PARAMS_BORDER_COLOR, 4),
    hasBgColor: slot(OBJ_RECT_PARAMS_HAS_BG_COLOR),
    bgColor: slice(OBJ_RECT_PARAMS_BG_COLOR, 4),
    hasColorInfo: slot(OBJ_RECT_PARAMS_HAS_COLOR_INFO),
    colorId: slot(OBJ_RECT_PARAMS_COLOR_ID),
    rotationAngle: slot(OBJ_RECT_PARAMS_ROTATION_ANGLE),
    detectorBbox: slice(OBJ_DETECTOR_BBOX_INFO, 4),
    trackerBbox: slice(OBJ_TRACKER_BBOX_INFO, 4),
    misc: slice(OBJ_MISC_OBJ_INFO, 4),
    parentRow: slot(OBJ_PARENT_ROW),
    frameIndex: slot(OBJ_FRAME_INDEX),
  };
}

function writeRow(table: Float64Array, row: number, v: RowValues): void {
  const at = row * OBJ_STRIDE;
  table[at + OBJ_CLASS_ID] = v.classId;
  table[at + OBJ_OBJECT_ID] = v.objectId;
  table[at + OBJ_UNIQUE_COMPONENT_ID] = v.uniqueComponentId;
  table[at + OBJ_CONFIDENCE] = v.confidence;
  table[at + OBJ_TRACKER_CONFIDENCE] = v.trackerConfidence;
  table.set(v.rect, at + OBJ_RECT_PARAMS);
  table[at + OBJ_RECT_PARAMS_BORDER_WIDTH] = v.borderWidth;
  table.set(v.borderColor, at + OBJ_RECT_PARAMS_BORDER_COLOR);
  table[at + OBJ_RECT_PARAMS_HAS_BG_COLOR] = v.hasBgColor;
  table.set(v.bgColor, at + OBJ_RECT_PARAMS_BG_COLOR);
  table[at + OBJ_RECT_PARAMS_HAS_COLOR_INFO] = v.hasColorInfo;
  table[at + OBJ_RECT_PARAMS_COLOR_ID] = v.colorId;
  table[at + OBJ_RECT_PARAMS_ROTATION_ANGLE] = v.rotationAngle;
  table.set(v.detectorBbox, at + OBJ_DETECTOR_BBOX_INFO);
  table.set(v.trackerBbox, at + OBJ_TRACKER_BBOX_INFO);
  table.set(v.misc, at + OBJ_MISC_OBJ_INFO);
}

/** Values every field of which differs from DeepStream's defaults (floats exact as float32). */
const PERSON: RowValues = {
  classId: 2,
  objectId: Number.MAX_SAFE_INTEGER, // a large tracker id, exact up to 2^53
  uniqueComponentId: 1,
  confidence: f32(0.75),
  trackerConfidence: f32(-0.1), // DeepStream's "none"
  rect: [10.5, -4, 100, 50], // a box may start off-frame
  borderWidth: 3,
  borderColor: [1, 0, 0, 1],
  hasBgColor: 1,
  bgColor: [0, 0, 1, 0.25],
  hasColorInfo: 1,
  colorId: 7,
  rotationAngle: 12.5,
  detectorBbox: [11, 12, 13, 14],
  trackerBbox: [21, 22, 23, 24],
  misc: [1, -2, 3, 2 ** 40],
};

const BAG: RowValues = {
  ...PERSON,
  classId: 5,
  objectId: -1, // UNTRACKED_OBJECT_ID
  confidence: f32(0.5),
  trackerConfidence: 0,
  rect: [20, 30, 8, 9],
  misc: [0, 0, 0, 0],
};

const MASK: NativeMask = { data: new Float32Array([0, 0.25, 0.5, 1, 1, 0.5, 0.25, 0]), threshold: 0.5, width: 4, height: 2 };

/** Acquires an object, fills its row with `values` and adds it. */
function addObject(call: OpenCall, frame: number, values: RowValues, parentRow = -1, label: string | null = null,
  objectText: NativeText | null = null, mask: NativeMask | null = null): number {
  const row = meta.acquireObject(call.id);
  writeRow(call.table, row, values);
  meta.addObject(call.id, row, frame, parentRow, label, objectText, mask);
  return row;
}

function list(call: OpenCall, frame: number): number[] {
  const out = new Int32Array(call.table.length / OBJ_STRIDE);
  const count = meta.listObjects(call.id, frame, out);
  expect(count).toBeGreaterThanOrEqual(0);
  return Array.from(out.subarray(0, count));
}

// ---------------------------------------------------------------- tests

describe("meta binding (dsnode_standalone.node)", () => {
  it("opens a call: header, frame records (NTP in exact halves, no PTS as -1) and writeFrame", () => {
    expect(meta.layoutVersion).toBe(META_LAYOUT_VERSION);
    const buffer = twoFrameBuffer();
    const call = open(buffer);
    const { state } = call;
    expect(call.id).toBeGreaterThan(0);
    expect([state[STATE_PTS], state[STATE_DTS], state[STATE_DURATION], state[STATE_SIZE]]).toEqual([5_000, 4_000, 33_000_000, 64]);
    expect([state[STATE_NUM_FRAMES], state[STATE_MAX_FRAMES], state[STATE_CALL_ID], state[STATE_BACKEND]]).toEqual([2, 4, call.id, nativeBackend === "deepstream" ? 1 : 0]);
    const first = state.subarray(STATE_FRAMES_BASE, STATE_FRAMES_BASE + STATE_FRAME_STRIDE);
    const expected = frameRecord(at(FRAMES, 0));
    expected[FRAME_BUF_DTS] = 4_000; // the buffer's, in every frame record
    expected[FRAME_BUF_DURATION] = 33_000_000;
    expect(Array.from(first)).toEqual(Array.from(expected));
    expect((BigInt(at(first, FRAME_NTP_TIMESTAMP)) << 32n) | BigInt(at(first, FRAME_NTP_TIMESTAMP + 1))).toBe(NTP);
    const second = state.subarray(STATE_FRAMES_BASE + STATE_FRAME_STRIDE, STATE_FRAMES_BASE + 2 * STATE_FRAME_STRIDE);
    expect([second[FRAME_NUM], second[FRAME_BUF_PTS], second[FRAME_SOURCE_ID]]).toEqual([8, -1, 4]);

    // writeFrame takes the record from the state array.
    second[FRAME_NUM] = 42;
    second[FRAME_SOURCE_ID] = 9;
    meta.writeFrame(call.id, 1, state);
    second[FRAME_SOURCE_ID] = -1;
    expect(thrown(() => meta.writeFrame(call.id, 1, state))).toEqual({
      type: "RangeError",
      code: INVALID,
      message: "Expected an integer from 0 to 4294967295 for NvDsFrameMeta.source_id but received -1",
    });
    harness.closeCall(call.id);

    const again = open(buffer);
    const reread = again.state.subarray(STATE_FRAMES_BASE + STATE_FRAME_STRIDE);
    expect([reread[FRAME_NUM], reread[FRAME_SOURCE_ID], reread[FRAME_BUF_PTS]]).toEqual([42, 9, -1]);
    expect(again.id).not.toBe(call.id);
    harness.closeCall(again.id);
    harness.releaseBuffer(buffer);
  });

  it("acquires objects with DeepStream's defaults, adds them with parents across frames and lists them", () => {
    const buffer = twoFrameBuffer();
    const call = open(buffer);
    const person = meta.acquireObject(call.id);
    // Defaults: untracked id reads -1; not in a frame, no parent.
    expect(readRow(call.table, person)).toMatchObject({ classId: 0, objectId: -1, confidence: 0, parentRow: -1, frameIndex: -1 });
    writeRow(call.table, person, PERSON);
    meta.addObject(call.id, person, 0, -1, "person", text("person 0.75", 5, 6), MASK);
    const bag = addObject(call, 1, BAG, person, "bag"); // its parent is in frame 0

    expect(readRow(call.table, person)).toEqual({ ...PERSON, parentRow: -1, frameIndex: 0 });
    expect(readRow(call.table, bag)).toEqual({ ...BAG, parentRow: person, frameIndex: 1 });
    expect(list(call, 0)).toEqual([person]);
    expect(list(call, 1)).toEqual([bag]);
    expect(list(call, 1)).toEqual([bag]); // rows are stable within a call
    const extras = meta.readObjectExtras(call.id, person);
    expect(extras.label).toBe("person");
    expect(extras.text).toEqual(text("person 0.75", 5, 6));
    expect(extras.mask).toEqual(MASK);
    expect(meta.readObjectExtras(call.id, bag)).toMatchObject({ label: "bag", mask: null, text: { displayText: "" } });
    harness.closeCall(call.id);

    // A new call lists the child's frame first: its parent (frame 0) gets a row too, filled.
    const next = open(buffer);
    const child = at(list(next, 1), 0);
    const parent = readRow(next.table, child).parentRow;
    expect(parent).not.toBe(-1);
    expect(readRow(next.table, child)).toEqual({ ...BAG, parentRow: parent, frameIndex: 1 });
    expect(readRow(next.table, parent)).toEqual({ ...PERSON, parentRow: -1, frameIndex: 0 });
    expect(list(next, 0)).toEqual([parent]); // the same row when its own frame is listed

    // Writing an added object: numbers from the row, label replaced, null keeps text and mask.
    writeRow(next.table, parent, { ...PERSON, classId: 9, confidence: f32(0.25) });
    meta.writeObject(next.id, parent, "runner", null, null);
    harness.closeCall(next.id);
    const third = open(buffer);
    const runner = at(list(third, 0), 0);
    expect(readRow(third.table, runner)).toMatchObject({ classId: 9, confidence: f32(0.25), objectId: Number.MAX_SAFE_INTEGER });
    expect(meta.readObjectExtras(third.id, runner)).toEqual({ label: "runner", text: text("person 0.75", 5, 6), mask: MASK });
    harness.closeCall(third.id);
    harness.releaseBuffer(buffer);
  });

  it("removes objects: the row is dead, children lose their parent, a failed call changes nothing", () => {
    const buffer = twoFrameBuffer();
    const call = open(buffer);
    const person = addObject(call, 0, PERSON, -1, "person");
    const bag = addObject(call, 0, BAG, person, "bag");

    // Added twice: a state error, and the row's new values did not reach the object.
    writeRow(call.table, bag, { ...BAG, classId: 99 });
    expect(thrown(() => meta.addObject(call.id, bag, 0, -1, null, null, null))).toEqual({
      type: "Error",
      code: STATE,
      message: "Expected a newly acquired ObjectMeta for addObjectMeta but received one already added",
    });
    // Removed from the wrong frame: nothing removed.
    expect(thrown(() => meta.removeObject(call.id, bag, 1))).toEqual({
      type: "Error",
      code: STATE,
      message: "Expected an ObjectMeta of this frame for removeObjectMeta but received one that is not in it",
    });
    expect(list(call, 0)).toEqual([person, bag]);
    expect(readRow(call.table, bag).classId).toBe(5);

    meta.removeObject(call.id, person, 0);
    expect(list(call, 0)).toEqual([bag]);
    expect(readRow(call.table, bag).parentRow).toBe(-1);
    for (const use of [
      () => meta.writeObject(call.id, person, null, null, null),
      () => meta.removeObject(call.id, person, 0),
      () => meta.readObjectExtras(call.id, person),
      () => meta.listClassifiers(call.id, person),
    ]) {
      expect(thrown(use)).toMatchObject({ type: "Error", code: STATE });
    }
    expect(thrown(() => meta.writeObject(call.id, person, null, null, null)).message).toBe(
      `Expected an ObjectMeta still in the batch for writeObject but received row ${person}, removed earlier in this call`,
    );
    // The pool hands the removed meta out again: it gets a new row.
    const reused = meta.acquireObject(call.id);
    expect(reused).not.toBe(person);

    // A parent that was never added.
    const orphan = meta.acquireObject(call.id);
    writeRow(call.table, orphan, BAG);
    expect(thrown(() => meta.addObject(call.id, orphan, 0, reused, null, null, null))).toEqual({
      type: "Error",
      code: STATE,
      message: "Expected an ObjectMeta added to a frame for parent but received one acquired but never added",
    });
    harness.closeCall(call.id);
    harness.releaseBuffer(buffer);
  });

  it("un-added acquired objects are gone after closeCall", () => {
    const buffer = twoFrameBuffer();
    const call = open(buffer);
    meta.acquireObject(call.id);
    const added = addObject(call, 0, PERSON, -1, "kept");
    meta.acquireObject(call.id);
    expect(list(call, 0)).toEqual([added]);
    harness.closeCall(call.id);
    const next = open(buffer);
    const rows = list(next, 0);
    expect(rows).toHaveLength(1);
    expect(meta.readObjectExtras(next.id, at(rows, 0)).label).toBe("kept");
    expect(list(next, 1)).toEqual([]);
    harness.closeCall(next.id);
    harness.releaseBuffer(buffer);
  });

  it("classifiers with label infos", () => {
    const buffer = twoFrameBuffer();
    const call = open(buffer);
    const car = addObject(call, 0, PERSON, -1, "car");
    const label = (resultLabel: string, resultClassId: number, resultProb: number) => ({
      numClasses: 4, resultLabel, resultClassId, labelId: resultClassId + 10, resultProb,
    });
    const colour = meta.addClassifier(call.id, car, {
      numLabels: 2, uniqueComponentId: 3, classifierType: "color", labels: [label("red", 0, 0.9), label("blue", 2, 0.1)],
    });
    const make = meta.addClassifier(call.id, car, { numLabels: 1, uniqueComponentId: 4, classifierType: "make", labels: [] });
    // A label added to a classifier already on the object counts, as nvds_add_label_info_meta_to_classifier counts it.
    const added = meta.addLabelInfo(call.id, make, label("acme", 1, 0.5));
    const read = meta.listClassifiers(call.id, car);
    expect(read).toEqual([
      {
        index: colour, numLabels: 2, uniqueComponentId: 3, classifierType: "color",
        labels: [expect.objectContaining({ ...label("red", 0, f32(0.9)) }), expect.objectContaining({ ...label("blue", 2, f32(0.1)) })],
      },
      { index: make, numLabels: 2, uniqueComponentId: 4, classifierType: "make", labels: [{ index: added, ...label("acme", 1, 0.5) }] },
    ]);
    const [red, blue] = at(read, 0).labels.map((l) => l.index) as [number, number];
    expect(new Set([red, blue, added]).size).toBe(3);

    meta.removeLabelInfo(call.id, colour, red);
    expect(at(meta.listClassifiers(call.id, car), 0).labels.map((l) => l.resultLabel)).toEqual(["blue"]);
    meta.removeClassifier(call.id, car, colour);
    expect(meta.listClassifiers(call.id, car).map((c) => c.classifierType)).toEqual(["make"]);
    expect(thrown(() => meta.addLabelInfo(call.id, colour, label("green", 3, 0.2)))).toEqual({
      type: "Error",
      code: STATE,
      message: `Expected a ClassifierMeta still in the batch for addLabelInfo but received index ${colour}, removed earlier in this call`,
    });
    // The label infos of a removed classifier went with it.
    expect(thrown(() => meta.removeLabelInfo(call.id, make, blue))).toMatchObject({ code: STATE });
    // Validation names the label in its list; nothing is added.
    expect(thrown(() => meta.addClassifier(call.id, car, {
      numLabels: 2, uniqueComponentId: 3, classifierType: "x", labels: [label("a", 0, 0.5), label("b", 1, 1.01)],
    }))).toEqual({
      type: "RangeError",
      code: INVALID,
      message: "Expected a number from 0 to 1 for NvDsLabelInfo[1].result_prob but received 1.01",
    });
    expect(meta.listClassifiers(call.id, car)).toHaveLength(1);
    harness.closeCall(call.id);
    harness.releaseBuffer(buffer);
  });

  it("display metas chain past 16 per kind: 40 rects + 3 texts → 16/16/8", () => {
    const buffer = twoFrameBuffer();
    const call = open(buffer);
    const rect = (i: number) => ({
      left: i, top: i + 0.5, width: 10, height: 20, borderWidth: 2, borderColor: color(0, 1, 0, 1),
      hasBgColor: i % 2 === 1, bgColor: color(0, 0, 0, 0.5), hasColorInfo: false, colorId: i, rotationAngle: 0,
    });
    const content: NativeDisplayContent = {
      rects: Array.from({ length: 40 }, (_, i) => rect(i)),
      texts: [text("a", 1, 2), text("b", 3, 4), text("c", 5, 6)],
      lines: [{ x1: 1, y1: 2, x2: 3, y2: 4, lineWidth: 5, lineColor: color(1, 0, 0, 1) }],
      arrows: [{ x1: 1, y1: 2, x2: 30, y2: 40, arrowWidth: 2, arrowHead: 2, arrowColor: color(0, 0, 1, 1) }],
      circles: [{ xc: 50, yc: 60, radius: 7, circleColor: color(1, 1, 0, 1), hasBgColor: true, bgColor: color(0, 0, 0, 1), circleWidth: 1 }],
    };
    const indices = meta.addDisplay(call.id, 1, content);
    expect(indices).toHaveLength(3);
    const displays = meta.listDisplays(call.id, 1);
    expect(displays.map((d) => d.index)).toEqual(indices);
    expect(displays.map((d) => [d.rects.length, d.texts.length, d.lines.length, d.arrows.length, d.circles.length])).toEqual([
      [16, 3, 1, 1, 1],
      [16, 0, 0, 0, 0],
      [8, 0, 0, 0, 0],
    ]);
    expect(displays.flatMap((d) => d.rects)).toEqual(content.rects);
    const first = at(displays, 0);
    expect(first.texts).toEqual(content.texts);
    expect([first.lines, first.arrows, first.circles]).toEqual([content.lines, content.arrows, content.circles]);
    expect(first.miscOsdData).toEqual([0, 0, 0, 0]);
    expect(meta.listDisplays(call.id, 0)).toEqual([]);

    // The logical index of the bad rect is named; nothing is added.
    const bad = { ...content, rects: content.rects.map((r, i) => (i === 20 ? { ...r, width: Number.NaN } : r)) };
    expect(thrown(() => meta.addDisplay(call.id, 1, bad))).toEqual({
      type: "RangeError",
      code: INVALID,
      message: "Expected a finite number >= 0 for NvDsDisplayMeta.rect_params[20].width but received NaN",
    });
    expect(thrown(() => meta.addDisplay(call.id, 1, { ...content, texts: [{ ...text("x"), xOffset: -1 }] }))).toEqual({
      type: "RangeError",
      code: INVALID,
      message: "Expected an integer from 0 to 4294967295 for NvDsDisplayMeta.text_params[0].x_offset but received -1",
    });
    expect(meta.listDisplays(call.id, 1)).toHaveLength(3);

    meta.removeDisplay(call.id, 1, at(indices, 1));
    expect(meta.listDisplays(call.id, 1).map((d) => d.index)).toEqual([indices[0], indices[2]]);
    expect(thrown(() => meta.removeDisplay(call.id, 1, at(indices, 1)))).toMatchObject({ type: "Error", code: STATE });
    harness.closeCall(call.id);
    harness.releaseBuffer(buffer);
  });

  it("user metas at batch, frame and object level (bytes and JSON)", () => {
    const buffer = twoFrameBuffer();
    const call = open(buffer);
    const car = addObject(call, 1, BAG, -1, "car");
    const bytes = new Uint8Array([0, 1, 2, 254, 255]);
    const json = new TextEncoder().encode(JSON.stringify({ plate: "AB-123", score: 0.5 }));
    const onBatch = meta.addUserMeta(call.id, 0, 0, "ACME.COUNTER.BYTES", 0, bytes);
    const onFrame = meta.addUserMeta(call.id, 1, 1, "ACME.PLATE.JSON", 1, json);
    const onObject = meta.addUserMeta(call.id, 2, car, "ACME.COUNTER.BYTES", 0, new Uint8Array([7]));

    const batchMeta = at(meta.listUserMetas(call.id, 0, 0), 0);
    expect(batchMeta).toMatchObject({ index: onBatch, metaType: "ACME.COUNTER.BYTES", kind: 0, payload: bytes });
    expect(batchMeta.metaTypeId).toBeGreaterThanOrEqual(8193); // NVDS_START_USER_META
    const frameMeta = at(meta.listUserMetas(call.id, 1, 1), 0);
    expect(frameMeta).toMatchObject({ index: onFrame, metaType: "ACME.PLATE.JSON", kind: 1 });
    expect(JSON.parse(new TextDecoder().decode(frameMeta.payload!))).toEqual({ plate: "AB-123", score: 0.5 });
    const objectMeta = at(meta.listUserMetas(call.id, 2, car), 0);
    expect(objectMeta).toMatchObject({ index: onObject, payload: new Uint8Array([7]), metaTypeId: batchMeta.metaTypeId });
    expect(meta.listUserMetas(call.id, 1, 0)).toEqual([]);
    // The payload is a copy: changing it changes nothing native.
    batchMeta.payload![0] = 99;
    expect(at(meta.listUserMetas(call.id, 0, 0), 0).payload).toEqual(bytes);

    meta.removeUserMeta(call.id, 1, 1, onFrame);
    expect(meta.listUserMetas(call.id, 1, 1)).toEqual([]);
    expect(thrown(() => meta.addUserMeta(call.id, 0, 0, "ACME.ONLYTWO", 0, bytes))).toEqual({
      type: "RangeError",
      code: INVALID,
      message:
        'Expected a type of the form ORG.COMPONENT.DESCRIPTION (letters, digits, _ and -) for NvDsUserMeta.meta_type but received "ACME.ONLYTWO"',
    });
    expect(thrown(() => meta.addUserMeta(call.id, 0, 0, "ACME.A.B", 2 as 0, bytes))).toEqual({
      type: "RangeError", code: INVALID, message: "Expected 0 (bytes) or 1 (JSON) for kind but received 2",
    });
    expect(thrown(() => meta.addUserMeta(call.id, 3 as 0, 0, "ACME.A.B", 0, bytes))).toEqual({
      type: "RangeError", code: INVALID, message: "Expected 0 (batch), 1 (frame) or 2 (object) for level but received 3",
    });
    expect(thrown(() => meta.addUserMeta(call.id, 0, 0, "ACME.A.B", 0, [1, 2] as unknown as Uint8Array))).toEqual({
      type: "TypeError", code: INVALID, message: "Expected a Uint8Array for payload but received an array",
    });
    expect(meta.listUserMetas(call.id, 0, 0)).toHaveLength(1);
    harness.closeCall(call.id);
    harness.releaseBuffer(buffer);
  });

  it("tensor output: host layers as zero-copy views, detached when the call closes", () => {
    const buffer = twoFrameBuffer();
    const call = open(buffer);
    const scores = new Float32Array([0.1, 0.2, 0.3, 0.4, 0.5, 0.6]);
    const classes = new Uint8Array([3, 1]);
    const index = harness.addTensorOutput(call.id, 1, 0, {
      uniqueId: 5, gpuId: 0, networkWidth: 640, networkHeight: 384, networkChannels: 3,
      maintainAspectRatio: true, symmetricPadding: false,
      layers: [
        { layerName: "scores", dataType: 0, dims: [2, 3], numElements: 6, bindingIndex: 1, data: new Uint8Array(scores.buffer) },
        { layerName: "classes", dataType: 5, dims: [2], numElements: 2, bindingIndex: 2, data: classes },
      ],
    });
    const listed = at(meta.listUserMetas(call.id, 1, 0), 0);
    expect(listed).toMatchObject({ index, kind: 2, metaTypeId: 12, payload: null }); // NVDSINFER_TENSOR_OUTPUT_META
    const output = meta.readTensorOutput(call.id, index);
    expect(output).toMatchObject({
      uniqueId: 5, gpuId: 0, networkWidth: 640, networkHeight: 384, networkChannels: 3,
      maintainAspectRatio: true, symmetricPadding: false,
    });
    expect(output.layers.map(({ host, ...rest }) => rest)).toEqual([
      { layerName: "scores", dataType: 0, dims: [2, 3], numElements: 6, bindingIndex: 1, devicePointer: 0n },
      { layerName: "classes", dataType: 5, dims: [2], numElements: 2, bindingIndex: 2, devicePointer: 0n },
    ]);
    const [scoreView, classView] = output.layers.map((l) => l.host!) as [ArrayBuffer, ArrayBuffer];
    expect(new Float32Array(scoreView)).toEqual(scores);
    expect(new Uint8Array(classView)).toEqual(classes);
    expect(at(meta.readTensorOutput(call.id, index).layers, 0).host).toBe(scoreView); // one view per layer
    meta.addUserMeta(call.id, 1, 0, "ACME.A.B", 0, new Uint8Array(1));
    const other = meta.listUserMetas(call.id, 1, 0).find((u) => u.kind === 0)!;
    expect(thrown(() => meta.readTensorOutput(call.id, other.index))).toEqual({
      type: "Error",
      code: STATE,
      message: `Expected a tensor output user meta (NVDSINFER_TENSOR_OUTPUT_META) for readTensorOutput but received "ACME.A.B" (user meta index ${other.index})`,
    });
    harness.closeCall(call.id);
    expect(scoreView.byteLength).toBe(0);
    expect(classView.byteLength).toBe(0);
    expect(() => new Float32Array(scoreView)).toThrow(TypeError); // detached

    // Bytes that do not match numElements x the type size.
    const next = open(buffer);
    expect(thrown(() => harness.addTensorOutput(next.id, 0, 0, {
      uniqueId: 1, gpuId: 0, networkWidth: 1, networkHeight: 1, networkChannels: 1, maintainAspectRatio: false,
      symmetricPadding: false, layers: [{ layerName: "x", dataType: 0, dims: [4], numElements: 4, bindingIndex: 0, data: new Uint8Array(15) }],
    }))).toEqual({
      type: "RangeError", code: INVALID,
      message: "Expected 16 bytes for NvDsInferTensorMeta.out_buf_ptrs_host[0] but received 15",
    });
    harness.closeCall(next.id);
    harness.releaseBuffer(buffer);
  });

  it("bulk add of 10 000 objects from typed-array columns", () => {
    const buffer = twoFrameBuffer();
    const call = open(buffer, 4);
    const n = 10_000;
    const column = (f: (i: number) => number) => Float32Array.from({ length: n }, (_, i) => f(i));
    const columns = {
      left: column((i) => i % 1000),
      top: column((i) => Math.floor(i / 1000) * 10),
      width: column((i) => 5 + (i % 7)),
      height: column(() => 8),
      confidence: column((i) => (i % 100) / 100),
      classId: Int32Array.from({ length: n }, (_, i) => i % 3), // class 2 has no label
    };
    const options = { uniqueComponentId: 3, borderWidth: 2, borderColor: color(0, 1, 0, 1), labels: ["car", "person"] };
    expect(meta.addObjects(call.id, 0, columns, options)).toBe(n);

    // The table of 4 rows is too small: the answer says how many rows to bind.
    const small = new Int32Array(4);
    expect(meta.listObjects(call.id, 0, small)).toBe(-n);
    const table = new Float64Array(n * OBJ_STRIDE);
    meta.bindObjectTable(call.id, table);
    const rows = list({ ...call, table }, 0);
    expect(rows).toHaveLength(n);
    for (const i of [0, 1234, 9999]) {
      expect(readRow(table, at(rows, i))).toMatchObject({
        classId: i % 3, uniqueComponentId: 3, objectId: -1, confidence: f32((i % 100) / 100),
        rect: [i % 1000, Math.floor(i / 1000) * 10, 5 + (i % 7), 8], borderWidth: 2, borderColor: [0, 1, 0, 1],
        detectorBbox: [i % 1000, Math.floor(i / 1000) * 10, 5 + (i % 7), 8], frameIndex: 0, parentRow: -1,
      });
      expect(meta.readObjectExtras(call.id, at(rows, i)).label).toBe(["car", "person", ""][i % 3]);
    }

    // All or nothing: one bad row names itself and adds nothing.
    const width = columns.width.slice();
    width[1] = Number.NaN;
    expect(thrown(() => meta.addObjects(call.id, 1, { ...columns, width }, options))).toEqual({
      type: "RangeError", code: INVALID,
      message: "Expected a finite number >= 0 for NvDsObjectMeta[1].rect_params.width but received NaN",
    });
    expect(thrown(() => meta.addObjects(call.id, 1, { ...columns, top: columns.top.subarray(1) }, options))).toEqual({
      type: "RangeError", code: INVALID,
      message: "Expected 10000 values (as many as columns.left) for columns.top but received 9999 values",
    });
    expect(thrown(() => meta.addObjects(call.id, 1, { ...columns, height: new Float64Array(n) as unknown as Float32Array }, options))).toEqual({
      type: "TypeError", code: INVALID,
      message: "Expected a Float32Array for columns.height but received a Float64Array of 10000 values",
    });
    expect(thrown(() => meta.addObjects(call.id, 1, columns, { ...options, labels: ["car", "x".repeat(128)] }))).toEqual({
      type: "RangeError", code: INVALID, message: "Expected at most 127 bytes (UTF-8) for labels[1] but received 128 bytes",
    });
    expect(list({ ...call, table }, 1)).toEqual([]);
    harness.closeCall(call.id);
    harness.releaseBuffer(buffer);
  });

  it("a copied buffer (copyBuffer, as after a tee) reads back identically, and copies are independent", () => {
    const buffer = twoFrameBuffer();
    const call = open(buffer);
    const person = addObject(call, 0, PERSON, -1, "person", text("hello"), MASK);
    addObject(call, 1, BAG, person, "bag");
    meta.addClassifier(call.id, person, {
      numLabels: 1, uniqueComponentId: 2, classifierType: "color",
      labels: [{ numClasses: 3, resultLabel: "red", resultClassId: 1, labelId: 0, resultProb: 0.5 }],
    });
    meta.addDisplay(call.id, 0, { rects: [], texts: [text("osd")], lines: [], arrows: [], circles: [] });
    meta.addUserMeta(call.id, 2, person, "ACME.X.Y", 1, new TextEncoder().encode("[1,2]"));
    meta.addUserMeta(call.id, 0, 0, "ACME.X.Z", 0, new Uint8Array([9]));
    harness.closeCall(call.id);

    /** Everything a call can read, with rows mapped to list positions. */
    function snapshot(target: object) {
      const c = open(target);
      const frames = [0, 1].map((frame) => {
        const rows = list(c, frame);
        return {
          objects: rows.map((row) => ({
            ...readRow(c.table, row),
            parentRow: undefined,
            frameIndex: readRow(c.table, row).frameIndex,
            extras: meta.readObjectExtras(c.id, row),
            classifiers: meta.listClassifiers(c.id, row).map(({ index, labels, ...rest }) => ({ ...rest, labels: labels.map(({ index: _, ...l }) => l) })),
            users: meta.listUserMetas(c.id, 2, row).map(({ index, ...rest }) => rest),
          })),
          displays: meta.listDisplays(c.id, frame).map(({ index, ...rest }) => rest),
          users: meta.listUserMetas(c.id, 1, frame).map(({ index, ...rest }) => rest),
        };
      });
      const parent = readRow(c.table, at(list(c, 1), 0)).parentRow;
      const parentIsPerson = parent === at(list(c, 0), 0);
      const result = { frames, parentIsPerson, batchUsers: meta.listUserMetas(c.id, 0, 0).map(({ index, ...rest }) => rest), state: Array.from(c.state.subarray(0, stateLength(2))) };
      harness.closeCall(c.id);
      return result;
    }

    const copy = harness.copyBuffer(buffer);
    const original = snapshot(buffer);
    const copied = snapshot(copy);
    original.state[STATE_CALL_ID] = copied.state[STATE_CALL_ID] = 0;
    expect(original.parentIsPerson).toBe(true);
    // What NVIDIA's copy (nvds_batch_meta_copy_func) leaves out, on both backends: classifier_type,
    // pipeline_width/height and a parent in another frame (docs/metadata.md, "Buffer copies").
    const expected = structuredClone(original);
    for (const frame of expected.frames) for (const object of frame.objects) for (const c of object.classifiers) c.classifierType = "";
    expected.parentIsPerson = false;
    for (const frame of [0, 1]) {
      expected.state[STATE_FRAMES_BASE + frame * STATE_FRAME_STRIDE + FRAME_PIPELINE_WIDTH] = 0;
      expected.state[STATE_FRAMES_BASE + frame * STATE_FRAME_STRIDE + FRAME_PIPELINE_HEIGHT] = 0;
    }
    expect(copied).toEqual(expected);
    expect(at(at(original.frames, 0).objects, 0).classifiers).toHaveLength(1);

    // A write to the copy does not reach the original.
    const c = open(copy);
    meta.removeObject(c.id, at(list(c, 1), 0), 1);
    harness.closeCall(c.id);
    const o = open(buffer);
    expect(list(o, 1)).toHaveLength(1);
    harness.closeCall(o.id);
    harness.releaseBuffer(copy);
    harness.releaseBuffer(buffer);
  });

  it("a call id that has ended is stale for every function", () => {
    const buffer = twoFrameBuffer();
    const call = open(buffer);
    const row = addObject(call, 0, PERSON);
    harness.closeCall(call.id);
    harness.closeCall(call.id); // closing twice is harmless
    const stale = {
      type: "Error",
      code: STALE,
      message: `BatchMeta used after its transform() call returned (call ${call.id} has ended); copy the values you need with toJSON()`,
    };
    const uses: (() => unknown)[] = [
      () => meta.writeFrame(call.id, 0, call.state),
      () => meta.bindObjectTable(call.id, call.table),
      () => meta.acquireObject(call.id),
      () => meta.addObject(call.id, row, 0, -1, null, null, null),
      () => meta.writeObject(call.id, row, null, null, null),
      () => meta.removeObject(call.id, row, 0),
      () => meta.listObjects(call.id, 0, new Int32Array(4)),
      () => meta.readObjectExtras(call.id, row),
      () => meta.addObjects(call.id, 0, { left: new Float32Array(0), top: new Float32Array(0), width: new Float32Array(0), height: new Float32Array(0) }, { uniqueComponentId: 0, borderWidth: 0, borderColor: color(0, 0, 0, 0) }),
      () => meta.addClassifier(call.id, row, { numLabels: 0, uniqueComponentId: 0, classifierType: "", labels: [] }),
      () => meta.listClassifiers(call.id, row),
      () => meta.addDisplay(call.id, 0, { rects: [], texts: [], lines: [], arrows: [], circles: [] }),
      () => meta.listDisplays(call.id, 0),
      () => meta.addUserMeta(call.id, 0, 0, "ACME.X.Y", 0, new Uint8Array(1)),
      () => meta.listUserMetas(call.id, 0, 0),
      () => meta.readTensorOutput(call.id, 0),
    ];
    for (const use of uses) expect(thrown(use)).toEqual(stale);
    expect(thrown(() => meta.listDisplays(0, 0))).toMatchObject({ code: STALE });
    expect(thrown(() => meta.listDisplays("1" as unknown as number, 0))).toEqual({
      type: "TypeError", code: INVALID, message: 'Expected a number for callId but received "1"',
    });
    harness.releaseBuffer(buffer);
  });

  it("invalid values name the DeepStream field; wrong types name the argument; nothing changes", () => {
    const buffer = twoFrameBuffer();
    const call = open(buffer);
    const row = meta.acquireObject(call.id);
    const attempt = (values: Partial<RowValues>, label: unknown = null, objectText: unknown = null, mask: unknown = null) => {
      writeRow(call.table, row, { ...BAG, ...values });
      return thrown(() => meta.addObject(call.id, row, 0, -1, label as string, objectText as NativeText, mask as NativeMask));
    };
    const range = (message: string) => ({ type: "RangeError", code: INVALID, message });
    const type = (message: string) => ({ type: "TypeError", code: INVALID, message });

    expect(attempt({ rect: [0, 0, Number.NaN, 1] })).toEqual(
      range("Expected a finite number >= 0 for NvDsObjectMeta.rect_params.width but received NaN"));
    expect(attempt({ confidence: 1.5 })).toEqual(
      range("Expected a number from 0 to 1 (or -0.1 for none) for NvDsObjectMeta.confidence but received 1.5"));
    expect(attempt({}, "x".repeat(128))).toEqual(
      range("Expected at most 127 bytes (UTF-8) for NvDsObjectMeta.obj_label but received 128 bytes"));
    expect(attempt({}, "é".repeat(64))).toEqual( // 128 bytes of UTF-8 in 64 characters
      range("Expected at most 127 bytes (UTF-8) for NvDsObjectMeta.obj_label but received 128 bytes"));
    expect(attempt({ classId: 1.5 })).toEqual(
      range("Expected an integer from -2147483648 to 2147483647 for NvDsObjectMeta.class_id but received 1.5"));
    expect(attempt({ objectId: -2 })).toEqual(
      range("Expected an integer from 0 to 9007199254740991 (or -1 for untracked) for NvDsObjectMeta.object_id but received -2"));
    expect(attempt({ borderColor: [0, 0, 1.25, 1] })).toEqual(
      range("Expected a number from 0 to 1 for NvDsObjectMeta.rect_params.border_color.blue but received 1.25"));
    expect(attempt({}, null, null, { ...MASK, data: MASK.data.subarray(0, 6) })).toEqual(
      range("Expected 8 values (width 4 x height 2) for NvDsObjectMeta.mask_params.data but received 6 values"));
    expect(attempt({}, null, { ...text("a\0b") })).toEqual(
      range("Expected a string without NUL characters for NvDsObjectMeta.text_params.display_text but received a NUL at byte 1"));
    expect(attempt({}, 5)).toEqual(type("Expected a string for label but received 5"));
    expect(attempt({}, null, { ...text("a"), font: undefined })).toEqual(
      type("Expected an object for NvDsObjectMeta.text_params.font_params but received undefined"));
    expect(attempt({}, null, { ...text("a"), xOffset: "3" })).toEqual(
      type('Expected a number for NvDsObjectMeta.text_params.x_offset but received "3"'));
    expect(attempt({}, null, null, { ...MASK, data: Array.from(MASK.data) })).toEqual(
      type("Expected a Float32Array for NvDsObjectMeta.mask_params.data but received an array"));
    expect(thrown(() => meta.addObject(call.id, "0" as unknown as number, 0, -1, null, null, null))).toEqual(
      type('Expected a number for row but received "0"'));
    expect(thrown(() => meta.addObject(call.id, 7, 0, -1, null, null, null))).toEqual(
      range(`Expected an object row from 0 to ${row} for row but received 7`));
    expect(thrown(() => meta.addObject(call.id, row, 2, -1, null, null, null))).toEqual(
      range("Expected a frame index from 0 to 1 for frameIndex but received 2"));
    expect(thrown(() => meta.bindObjectTable(call.id, new Float32Array(40) as unknown as Float64Array))).toEqual(
      type("Expected a Float64Array for table but received a Float32Array of 40 values"));
    expect(thrown(() => harness.openCall({}, call.state))).toEqual(
      type("Expected a buffer from harness.createBuffer for buffer but received an object"));

    // None of it reached the batch: the object is still un-added.
    expect(list(call, 0)).toEqual([]);
    writeRow(call.table, row, BAG);
    meta.addObject(call.id, row, 0, -1, "ok", null, null);
    expect(list(call, 0)).toEqual([row]);
    expect(readRow(call.table, row)).toMatchObject({ classId: BAG.classId, objectId: -1, rect: BAG.rect });

    // A full object table: JS grows it, binds it again and retries.
    meta.bindObjectTable(call.id, new Float64Array(OBJ_STRIDE));
    expect(thrown(() => meta.acquireObject(call.id))).toEqual({
      type: "RangeError", code: "ERR_DS_ELEMENT_TABLE_FULL",
      message: "Expected an object table of at least 2 rows for acquireObject but received one of 1 rows; grow it and bindObjectTable again",
    });
    harness.closeCall(call.id);
    expect(thrown(() => harness.addFrame(buffer, new Float64Array(4)))).toEqual(
      range("Expected a frame record of at least 21 values for record but received 4 values"));
    harness.releaseBuffer(buffer);
    expect(thrown(() => harness.openCall(buffer, new Float64Array(64)))).toEqual({
      type: "Error", code: STATE, message: "Expected a live buffer for buffer but received one freed by releaseBuffer",
    });
  });
});
