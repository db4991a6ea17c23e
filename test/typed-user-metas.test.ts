// NVIDIA's typed user metas through the binding's raw functions, on the backend of the build
// (portable: `npm test`; DeepStream, where they are NVIDIA's structs in NvDsUserMetas of NVIDIA's
// types: `npm run test:deepstream`): nvinfer's segmentation meta (NvDsInferSegmentationMeta,
// NVDSINFER_SEGMENTATION_META) written and read, its maps as zero-copy views; nvdsanalytics'
// frame and object metas (NvDsAnalyticsFrameMeta, NvDsAnalyticsObjInfo) as the testing harness
// writes them; each surviving a buffer copy (as after a tee) with the original gone.
import { beforeAll, describe, expect, it } from "vitest";
import { PAYLOAD_ANALYTICS_FRAME, PAYLOAD_ANALYTICS_OBJECT, PAYLOAD_SEGMENTATION, type MetaBinding, type NativeAnalyticsFrame, type NativeAnalyticsObject, type StandaloneHarness } from "../sdk/src/native/meta-binding";
import { FRAME_NUM_SURFACES_PER_FRAME, FRAME_SOURCE_FRAME_HEIGHT, FRAME_SOURCE_FRAME_WIDTH, OBJ_STRIDE, STATE_FRAME_STRIDE, stateLength } from "../sdk/src/protocol/transform-state";
import { loadStandaloneBinding } from "../sdk/src/native/loader";
import { nativeBackend } from "./helpers/projects";

let meta: MetaBinding;
let harness: StandaloneHarness;

beforeAll(() => {
  ({ meta, harness } = loadStandaloneBinding());
});

const INVALID = "ERR_DS_ELEMENT_INVALID_VALUE";
const STATE = "ERR_DS_ELEMENT_META_STATE";
const FRAME = 1;
const OBJECT = 2;

function thrown(fn: () => unknown): { type: string; code: unknown; message: string } {
  try {
    fn();
  } catch (error) {
    const e = error as Error & { code?: unknown };
    return { type: e.constructor.name, code: e.code, message: e.message };
  }
  throw new Error("expected the call to throw");
}

function oneFrameBuffer(): object {
  const buffer = harness.createBuffer(1, 16);
  const record = new Float64Array(STATE_FRAME_STRIDE);
  record[FRAME_SOURCE_FRAME_WIDTH] = 320;
  record[FRAME_SOURCE_FRAME_HEIGHT] = 240;
  record[FRAME_NUM_SURFACES_PER_FRAME] = 1;
  harness.addFrame(buffer, record);
  return buffer;
}

function open(buffer: object): number {
  const id = harness.openCall(buffer, new Float64Array(stateLength(1)));
  meta.bindObjectTable(id, new Float64Array(8 * OBJ_STRIDE));
  return id;
}

/** An object added to frame 0; its row. */
function addObject(call: number): number {
  const row = meta.acquireObject(call);
  meta.addObject(call, row, 0, -1, null, null, null);
  return row;
}

/** Reads every user meta at a level after copyBuffer with the original released: the copy's own. */
function inCopy<T>(buffer: object, read: (call: number) => T): T {
  const copy = harness.copyBuffer(buffer);
  harness.releaseBuffer(buffer);
  const call = open(copy);
  try {
    return read(call);
  } finally {
    harness.closeCall(call);
    harness.releaseBuffer(copy);
  }
}

describe(`nvinfer's segmentation meta (NvDsInferSegmentationMeta) on the ${nativeBackend} backend`, () => {
  // 3 classes over a 4 x 2 map: class of (x, y) is x % 3, -1 (no class) at (3, 1).
  const classMap = new Int32Array([0, 1, 2, 0, 0, 1, 2, -1]);
  const probabilities = Float32Array.from({ length: 3 * 8 }, (_, i) => i / 32);

  it("is written at frame and object level, listed with NVDSINFER_SEGMENTATION_META's number and read back as zero-copy views", () => {
    const buffer = oneFrameBuffer();
    const call = open(buffer);
    const onFrame = meta.addSegmentation(call, FRAME, 0, { classes: 3, width: 4, height: 2, uniqueId: 7, classMap, classProbabilities: probabilities });
    const row = addObject(call);
    const onObject = meta.addSegmentation(call, OBJECT, row, { classes: 3, width: 4, height: 2, uniqueId: 8, classMap, classProbabilities: null });
    expect(meta.listUserMetas(call, FRAME, 0)).toEqual([{ index: onFrame, metaType: "", metaTypeId: 13, kind: PAYLOAD_SEGMENTATION, payload: null }]);
    expect(meta.listUserMetas(call, OBJECT, row)).toEqual([{ index: onObject, metaType: "", metaTypeId: 13, kind: PAYLOAD_SEGMENTATION, payload: null }]);
    const read = meta.readSegmentation(call, onFrame);
    expect(read).toMatchObject({ classes: 3, width: 4, height: 2, uniqueId: 7 });
    expect(new Int32Array(read.classMap!)).toEqual(classMap);
    expect(new Float32Array(read.classProbabilities!)).toEqual(probabilities);
    expect(meta.readSegmentation(call, onFrame).classMap).toBe(read.classMap); // one view per map
    expect(meta.readSegmentation(call, onObject)).toMatchObject({ uniqueId: 8, classProbabilities: null });
    harness.closeCall(call);
    expect(read.classMap!.byteLength).toBe(0); // detached with the call
    harness.releaseBuffer(buffer);
  });

  it("survives a buffer copy (the meta's copy function) with the original released", () => {
    const buffer = oneFrameBuffer();
    const call = open(buffer);
    meta.addSegmentation(call, FRAME, 0, { classes: 3, width: 4, height: 2, uniqueId: 7, classMap, classProbabilities: probabilities });
    harness.closeCall(call);
    const copied = inCopy(buffer, (copy) => {
      const [user] = meta.listUserMetas(copy, FRAME, 0);
      const read = meta.readSegmentation(copy, user!.index);
      return { kind: user!.kind, classes: read.classes, uniqueId: read.uniqueId, map: Array.from(new Int32Array(read.classMap!)), probabilities: new Float32Array(read.classProbabilities!.slice(0)) };
    });
    expect(copied).toEqual({ kind: PAYLOAD_SEGMENTATION, classes: 3, uniqueId: 7, map: Array.from(classMap), probabilities });
  });

  it("rejects maps that do not match its sizes and class ids out of range, naming DeepStream's member", () => {
    const buffer = oneFrameBuffer();
    const call = open(buffer);
    expect(thrown(() => meta.addSegmentation(call, FRAME, 0, { classes: 3, width: 4, height: 2, uniqueId: 0, classMap: new Int32Array(7), classProbabilities: null }))).toEqual({
      type: "RangeError",
      code: INVALID,
      message: "Expected 8 entries (width x height) for NvDsInferSegmentationMeta.class_map but received 7",
    });
    expect(thrown(() => meta.addSegmentation(call, FRAME, 0, { classes: 3, width: 4, height: 2, uniqueId: 0, classMap: new Int32Array([0, 1, 2, 3, 0, 0, 0, 0]), classProbabilities: null }))).toEqual({
      type: "RangeError",
      code: INVALID,
      message: "Expected a class id in [-1, 2] for NvDsInferSegmentationMeta.class_map[3] but received 3",
    });
    expect(thrown(() => meta.addSegmentation(call, FRAME, 0, { classes: 3, width: 4, height: 2, uniqueId: 0, classMap, classProbabilities: new Float32Array(8) }))).toEqual({
      type: "RangeError",
      code: INVALID,
      message: "Expected 24 entries (classes x width x height) or none for NvDsInferSegmentationMeta.class_probabilities_map but received 8",
    });
    expect(meta.listUserMetas(call, FRAME, 0)).toEqual([]);
    const bytes = meta.addUserMeta(call, FRAME, 0, "ACME.A.B", 0, new Uint8Array(1));
    expect(thrown(() => meta.readSegmentation(call, bytes))).toEqual({
      type: "Error",
      code: STATE,
      message: `Expected a segmentation meta (NVDSINFER_SEGMENTATION_META) for readSegmentation but received "ACME.A.B" (user meta index ${bytes})`,
    });
    harness.closeCall(call);
    harness.releaseBuffer(buffer);
  });
});

describe(`nvdsanalytics' metas (NvDsAnalyticsFrameMeta, NvDsAnalyticsObjInfo) on the ${nativeBackend} backend`, () => {
  const frameMeta: NativeAnalyticsFrame = {
    ocStatus: { Lobby: true, Door: false },
    objInROIcnt: { Lobby: 4, Door: 0 },
    objLCCurrCnt: { Entrance: 1 },
    objLCCumCnt: { Entrance: 2 ** 40 },
    uniqueId: 5,
    objCnt: { 0: 3, 2: 1, [-1]: 1 },
  };
  const objectInfo: NativeAnalyticsObject = {
    roiStatus: ["Lobby", "Door"],
    ocStatus: ["Lobby"],
    lcStatus: ["Entrance"],
    dirStatus: "North",
    uniqueId: 5,
    objStatus: "loitering",
  };

  it("are written as nvdsanalytics writes them and read back member for member, with NVIDIA's type numbers", () => {
    const buffer = oneFrameBuffer();
    const call = open(buffer);
    const onFrame = harness.addAnalyticsFrame(call, FRAME, 0, frameMeta);
    const row = addObject(call);
    const onObject = harness.addAnalyticsObject(call, OBJECT, row, objectInfo);
    // NVDS_USER_FRAME_META_NVDSANALYTICS = NVDS_FRAME_META_NVDSANALYTICS (32), NVDS_OBJ_META_NVDSANALYTICS (33).
    expect(meta.listUserMetas(call, FRAME, 0)).toEqual([{ index: onFrame, metaType: "", metaTypeId: 32, kind: PAYLOAD_ANALYTICS_FRAME, payload: null }]);
    expect(meta.listUserMetas(call, OBJECT, row)).toEqual([{ index: onObject, metaType: "", metaTypeId: 33, kind: PAYLOAD_ANALYTICS_OBJECT, payload: null }]);
    expect(meta.readAnalyticsFrame(call, onFrame)).toEqual(frameMeta);
    expect(meta.readAnalyticsObject(call, onObject)).toEqual(objectInfo);
    expect(thrown(() => meta.readAnalyticsObject(call, onFrame))).toEqual({
      type: "Error",
      code: STATE,
      message: `Expected an nvdsanalytics object meta (NVDS_USER_OBJ_META_NVDSANALYTICS) for readAnalyticsObject but received one of type 32 (user meta index ${onFrame})`,
    });
    expect(thrown(() => harness.addAnalyticsFrame(call, FRAME, 0, { ...frameMeta, objCnt: { car: 1 } }))).toEqual({
      type: "RangeError",
      code: INVALID,
      message: 'Expected a class id (an integer) for a key of NvDsAnalyticsFrameMeta.objCnt but received "car"',
    });
    harness.closeCall(call);
    harness.releaseBuffer(buffer);
  });

  it("survive a buffer copy (their copy functions) with the original released", () => {
    const buffer = oneFrameBuffer();
    const call = open(buffer);
    harness.addAnalyticsFrame(call, FRAME, 0, frameMeta);
    const row = addObject(call);
    harness.addAnalyticsObject(call, OBJECT, row, objectInfo);
    harness.closeCall(call);
    const copied = inCopy(buffer, (copy) => {
      const [frameUser] = meta.listUserMetas(copy, FRAME, 0);
      const rows = new Int32Array(4);
      meta.listObjects(copy, 0, rows);
      const [objectUser] = meta.listUserMetas(copy, OBJECT, rows[0]!);
      return { frame: meta.readAnalyticsFrame(copy, frameUser!.index), object: meta.readAnalyticsObject(copy, objectUser!.index) };
    });
    expect(copied).toEqual({ frame: frameMeta, object: objectInfo });
  });
});
