/**
 * Turns a {@link BatchInit} into a GstBuffer with a portable batch meta, as upstream elements
 * would have left it: the frames' pixels in the buffer's memory, the frames in the batch, then
 * (in a call of its own, through the metadata API and the same native code an element uses)
 * the frame fields, objects, classifiers, user metas and tensor outputs.
 *
 * Inputs are checked before anything is made, with the project's one message shape and the
 * path of the bad member (`frames[1].pixels`); a value the metadata API rejects fails with
 * the API's message, prefixed with the path of the object it belongs to.
 *
 * @internal
 */
import type { BatchMeta } from "../metadata/batch-meta.js";
import type { FrameMeta } from "../metadata/frame-meta.js";
import { objectCoreOf, type ObjectMeta } from "../metadata/object-meta.js";
import { DATA_TYPES, ELEMENT_SIZES, type TensorDataType } from "../metadata/tensor-output-meta.js";
import type { UserMeta } from "../metadata/user-meta.js";
import { checkInteger, invalid, invalidReceived } from "../metadata/call/validation.js";
import { CLASSIFIER_FIELDS as CLASSIFIER_VALUE_FIELDS, LABEL_INFO_FIELDS } from "../protocol/value-fields.js";
import type { StandaloneBinding } from "../native/loader.js";
import type { NativeAnalyticsFrame, NativeAnalyticsObject, StandaloneHarness, UserMetaLevel } from "../native/meta-binding.js";
import { ANALYTICS_FRAME_MEMBERS, ANALYTICS_OBJECT_MEMBERS, analyticsFromInit } from "../metadata/analytics-meta.js";
import { checkSegmentation } from "../metadata/segmentation-meta.js";
import {
  FRAME_BATCH_ID,
  FRAME_INIT_MEMBERS,
  FRAME_BUF_PTS,
  FRAME_NUM,
  FRAME_NUM_SURFACES_PER_FRAME,
  FRAME_PAD_INDEX,
  FRAME_PIPELINE_HEIGHT,
  FRAME_PIPELINE_WIDTH,
  FRAME_SOURCE_FRAME_HEIGHT,
  FRAME_SOURCE_ID,
  FRAME_SOURCE_FRAME_WIDTH,
  OBJECT_MEMBERS,
  STATE_FRAME_STRIDE,
} from "../protocol/transform-state.js";
import type {
  BatchInit,
  ClassifierInit,
  FrameInit,
  ObjectInit,
  TensorLayerInit,
  TensorOutputInit,
  UserMetaInit,
  VideoFormat,
} from "./batch-init.js";
import { writeBatchComponents, writeFrameComponents, writeObjectReid } from "./component-meta-init.js";
import { inCall } from "./native-call.js";
import {
  capsOf,
  describePixels,
  describeVideo,
  frameLayout,
  isPlanar,
  layOutPixels,
  pixelBytes,
  sameVideo,
  VIDEO_FORMATS,
  type FrameLayout,
  type VideoInfo,
} from "./video-format.js";

/** videotestsrc's default size: what a frame is when the test does not say. */
const DEFAULT_WIDTH = 320;
const DEFAULT_HEIGHT = 240;
/** Most frames per batch, largest frame side and largest buffer the harness makes (the addon's bounds). */
const MAX_FRAMES = 65535;
const MAX_SIDE = 16384;
const MAX_BUFFER_BYTES = 1 << 30;
const BATCH_LEVEL: UserMetaLevel = 0;
const FRAME_LEVEL: UserMetaLevel = 1;
const OBJECT_LEVEL: UserMetaLevel = 2;

const BATCH_KEYS = ["frames", "maxFramesInBatch", "userMeta", "pts", "dts", "duration", "tracker", "preprocess"] as const;
/** Frame members written through FrameMeta's setters, in this order. */
const FRAME_FIELDS = FRAME_INIT_MEMBERS;
const FRAME_KEYS = ["width", "height", "format", "pixels", ...FRAME_FIELDS, "objects", "userMeta", "tensorOutputs", "sensorInfo", "rois"] as const;
/** Object members written through ObjectMeta's setters before it is added, in this order. */
const OBJECT_FIELDS = OBJECT_MEMBERS;
const OBJECT_KEYS = [...OBJECT_FIELDS, "parent", "classifiers", "userMeta", "tensorOutputs", "reid"] as const;
/** Classifier and label info members written through their setters, in the table's order. */
const CLASSIFIER_FIELDS = CLASSIFIER_VALUE_FIELDS.map((field) => field.name);
const CLASSIFIER_KEYS = [...CLASSIFIER_FIELDS, "labels"];
const LABEL_FIELDS = LABEL_INFO_FIELDS.map((field) => field.name);
const TENSOR_OUTPUT_KEYS = ["uniqueId", "gpuId", "networkInfo", "maintainAspectRatio", "symmetricPadding", "layers"] as const;
const LAYER_KEYS = ["name", "dims", "data", "dataType"] as const;

/** One frame, checked, with its defaults resolved. */
interface FramePlan {
  init: FrameInit;
  path: string;
  video: VideoInfo;
  /** Where its pixels start in the buffer's memory, and how they lie there. */
  offset: number;
  layout: FrameLayout;
  frameNum: number;
  sourceId: number;
}

/** A batch, checked: everything `buildBuffer` and `writeUpstreamMeta` need. */
export interface BatchPlan {
  init: BatchInit;
  frames: FramePlan[];
  /** The caps of every frame (one batch has one). */
  video: VideoInfo;
  maxFramesInBatch: number;
  size: number;
}

/** An error from the metadata API while writing `path`, as the harness reports it. */
function located(path: string, error: unknown): Error {
  if (!(error instanceof Error)) return new Error(`${path}: ${String(error)}`);
  const Kind = error instanceof TypeError ? TypeError : error instanceof RangeError ? RangeError : Error;
  const wrapped = new Kind(`${path}: ${error.message}`, { cause: error });
  const code = (error as { code?: unknown }).code;
  if (code !== undefined) Object.defineProperty(wrapped, "code", { value: code, enumerable: true });
  return wrapped;
}

function at<T>(path: string, write: () => T): T {
  try {
    return write();
  } catch (error) {
    throw located(path, error);
  }
}

function checkRecord(value: unknown, allowed: readonly string[], path: string): Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) invalid("an object", path, value, true);
  for (const key of Object.keys(value)) {
    if (!allowed.includes(key)) {
      invalidReceived(`only the members ${allowed.join(", ")}`, path, `a member ${JSON.stringify(key)}`);
    }
  }
  return value as Record<string, unknown>;
}

function checkList(value: unknown, path: string): unknown[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) invalid("an array", path, value, true);
  return value;
}

function checkClockTime(value: unknown, path: string): number {
  return value === undefined ? -1 : checkInteger(value, 0, Number.MAX_SAFE_INTEGER, path);
}

function checkFormat(value: unknown, path: string): VideoFormat {
  if (value === undefined) return "RGB";
  if (typeof value === "string" && (VIDEO_FORMATS as readonly string[]).includes(value)) return value as VideoFormat;
  return invalid(`one of ${VIDEO_FORMATS.map((format) => JSON.stringify(format)).join(", ")}`, path, value, typeof value !== "string");
}

/**
 * Checks `init` and resolves its defaults. `frameCounters` holds each source's next frameNum
 * (read, not changed: the caller records the frames once the buffer is made).
 */
export function planBatch(init: BatchInit, frameCounters: ReadonlyMap<number, number>): BatchPlan {
  checkRecord(init, BATCH_KEYS, "the batch");
  const frameInits = init.frames === undefined ? [{}] : checkList(init.frames, "frames");
  if (frameInits.length === 0 || frameInits.length > MAX_FRAMES) {
    invalidReceived(`1 to ${MAX_FRAMES} frames`, "frames", `${frameInits.length} frames`);
  }
  const maxFramesInBatch =
    init.maxFramesInBatch === undefined ? frameInits.length : checkInteger(init.maxFramesInBatch, 1, MAX_FRAMES, "maxFramesInBatch");
  if (maxFramesInBatch < frameInits.length) {
    invalidReceived(`at least the number of frames (${frameInits.length})`, "maxFramesInBatch", String(maxFramesInBatch));
  }
  checkClockTime(init.pts, "pts");
  checkClockTime(init.dts, "dts");
  checkClockTime(init.duration, "duration");
  checkUserMetaList(init.userMeta, "userMeta");

  const nextFrameNum = new Map(frameCounters);
  let offset = 0;
  const frames = frameInits.map((value, index): FramePlan => {
    const path = `frames[${index}]`;
    const frame = checkRecord(value, FRAME_KEYS, path) as FrameInit;
    const video: VideoInfo = {
      format: checkFormat(frame.format, `${path}.format`),
      width: frame.width === undefined ? DEFAULT_WIDTH : checkInteger(frame.width, 1, MAX_SIDE, `${path}.width`),
      height: frame.height === undefined ? DEFAULT_HEIGHT : checkInteger(frame.height, 1, MAX_SIDE, `${path}.height`),
    };
    const layout = frameLayout(video);
    if (frame.pixels !== undefined) {
      if (!(frame.pixels instanceof Uint8Array)) invalid("a Uint8Array", `${path}.pixels`, frame.pixels, true);
      const expected = pixelBytes(layout);
      if (frame.pixels.length !== expected) {
        invalidReceived(`${expected} bytes (${describePixels(video)})`, `${path}.pixels`, `${frame.pixels.length} bytes`);
      }
    }
    // The frame's own source id decides which counter its default frameNum comes from; an
    // invalid one is rejected by FrameMeta.sourceId when the batch is written.
    const sourceId = typeof frame.sourceId === "number" ? frame.sourceId : index;
    const frameNum = typeof frame.frameNum === "number" ? frame.frameNum : (nextFrameNum.get(sourceId) ?? 0);
    nextFrameNum.set(sourceId, frameNum + 1);
    for (const [i, object] of checkList(frame.objects, `${path}.objects`).entries()) checkObject(object, i, `${path}.objects[${i}]`);
    checkUserMetaList(frame.userMeta, `${path}.userMeta`);
    for (const [i, output] of checkList(frame.tensorOutputs, `${path}.tensorOutputs`).entries()) {
      checkTensorOutput(output, `${path}.tensorOutputs[${i}]`);
    }
    const plan: FramePlan = { init: frame, path, video, offset, layout, frameNum, sourceId };
    offset += layout.frameBytes;
    return plan;
  });
  if (offset > MAX_BUFFER_BYTES) {
    invalidReceived(`frames of at most ${MAX_BUFFER_BYTES} bytes of pixels in all`, "frames", `${offset} bytes`);
  }
  const first = frames[0] as FramePlan;
  for (const frame of frames) {
    if (!sameVideo(frame.video, first.video)) {
      invalidReceived(
        `${describeVideo(first.video)} like frames[0] (the frames of one batch share its caps)`,
        frame.path,
        describeVideo(frame.video),
      );
    }
  }
  return { init, frames, video: first.video, maxFramesInBatch, size: offset };
}

/** Each source's next frameNum after `plan`'s frames. */
export function countFrames(plan: BatchPlan, frameCounters: Map<number, number>): void {
  for (const frame of plan.frames) frameCounters.set(frame.sourceId, frame.frameNum + 1);
}

function checkObject(value: unknown, index: number, path: string): void {
  const object = checkRecord(value, OBJECT_KEYS, path) as ObjectInit;
  if (object.parent !== undefined) {
    if (index === 0) invalid("no parent (the first object has no earlier object to be the child of)", `${path}.parent`, object.parent, false);
    checkInteger(object.parent, 0, index - 1, `${path}.parent`);
  }
  for (const [i, classifier] of checkList(object.classifiers, `${path}.classifiers`).entries()) {
    const classifierPath = `${path}.classifiers[${i}]`;
    const checked = checkRecord(classifier, CLASSIFIER_KEYS, classifierPath) as ClassifierInit;
    for (const [j, label] of checkList(checked.labels, `${classifierPath}.labels`).entries()) {
      checkRecord(label, LABEL_FIELDS, `${classifierPath}.labels[${j}]`);
    }
  }
  checkUserMetaList(object.userMeta, `${path}.userMeta`);
  for (const [i, output] of checkList(object.tensorOutputs, `${path}.tensorOutputs`).entries()) {
    checkTensorOutput(output, `${path}.tensorOutputs[${i}]`);
  }
}

/** The payload members of a UserMetaInit: one of them, with `type` for json and bytes. */
const USER_META_PAYLOADS = ["json", "bytes", "analyticsFrame", "analyticsObject", "segmentation"] as const;

function checkUserMetaList(value: unknown, path: string): void {
  for (const [i, user] of checkList(value, path).entries()) {
    const userPath = `${path}[${i}]`;
    const checked = checkRecord(user, ["type", ...USER_META_PAYLOADS], userPath);
    const payloads = USER_META_PAYLOADS.filter((key) => key in checked);
    if (payloads.length !== 1) {
      invalidReceived("either json or bytes (or one of analyticsFrame, analyticsObject, segmentation)", userPath, payloads.length === 0 ? "neither" : payloads.join(" and "));
    }
    const [payload] = payloads;
    if (payload === "analyticsFrame") analyticsFromInit(checked["analyticsFrame"], ANALYTICS_FRAME_MEMBERS, `${userPath}.analyticsFrame`);
    else if (payload === "analyticsObject") analyticsFromInit(checked["analyticsObject"], ANALYTICS_OBJECT_MEMBERS, `${userPath}.analyticsObject`);
    else if (payload === "segmentation") checkSegmentation(checked["segmentation"], `${userPath}.segmentation`);
    if ("type" in checked && payload !== "json" && payload !== "bytes") invalidReceived(`no type with ${payload} (NVIDIA's metas have type numbers)`, `${userPath}.type`, JSON.stringify(checked["type"]));
  }
}

function checkTensorOutput(value: unknown, path: string): void {
  const output = checkRecord(value, TENSOR_OUTPUT_KEYS, path) as unknown as TensorOutputInit;
  const layers = checkList(output.layers, `${path}.layers`);
  if (output.layers === undefined) invalid("an array of layers", `${path}.layers`, undefined, true);
  for (const [i, layer] of layers.entries()) layerBytes(checkRecord(layer, LAYER_KEYS, `${path}.layers[${i}]`) as unknown as TensorLayerInit, `${path}.layers[${i}]`);
}

function dataTypeOf(data: unknown): TensorDataType | undefined {
  if (data instanceof Float32Array) return "float32";
  if (data instanceof Uint16Array) return "float16";
  if (data instanceof Int8Array) return "int8";
  if (data instanceof Int32Array) return "int32";
  if (data instanceof BigInt64Array) return "int64";
  if (data instanceof Uint8Array) return "uint8";
  return undefined;
}

/** The layer's `NvDsInferDataType` number, element count and bytes, checked against its dims. */
function layerBytes(layer: TensorLayerInit, path: string): { dataType: number; numElements: number; bytes: Uint8Array } {
  if (typeof layer.name !== "string") invalid("a string", `${path}.name`, layer.name, true);
  if (!Array.isArray(layer.dims)) invalid("an array of dimensions", `${path}.dims`, layer.dims, true);
  let numElements = 1;
  for (const [i, dim] of layer.dims.entries()) numElements *= checkInteger(dim, 1, 2147483647, `${path}.dims[${i}]`);
  const inferred = dataTypeOf(layer.data);
  if (inferred === undefined) {
    invalid("a Float32Array, Uint16Array (float16), Int8Array, Int32Array, BigInt64Array or Uint8Array", `${path}.data`, layer.data, true);
  }
  const name = layer.dataType ?? inferred;
  const dataType = DATA_TYPES.indexOf(name);
  if (dataType < 0) invalid(`one of ${DATA_TYPES.map((type) => JSON.stringify(type)).join(", ")}`, `${path}.dataType`, layer.dataType, false);
  const byteLength = numElements * (ELEMENT_SIZES[dataType] as number);
  const data = layer.data;
  if (data.byteLength !== byteLength) {
    invalidReceived(`${byteLength} bytes (${numElements} ${name} elements, dims [${layer.dims.join(", ")}])`, `${path}.data`, `${data.byteLength} bytes`);
  }
  return { dataType, numElements, bytes: new Uint8Array(data.buffer, data.byteOffset, data.byteLength) };
}

/** A black planar frame's pixels (Y 16, U and V 128: limited range), planes without padding. */
function blackYuv(layout: FrameLayout): Uint8Array {
  const [luma] = layout.planes;
  return new Uint8Array(pixelBytes(layout)).fill(128).fill(16, 0, luma!.rows * luma!.columns);
}

/** A GstBuffer holding the frames' pixels and a portable batch of the frames (fields other than the defaults are written later). */
export function buildBuffer(harness: StandaloneHarness, plan: BatchPlan): object {
  const buffer = harness.createBuffer(plan.maxFramesInBatch, plan.size);
  try {
    const pts = plan.init.pts ?? -1;
    for (const [index, frame] of plan.frames.entries()) {
      // The record holds the defaults; the test's own values go through FrameMeta's setters
      // (writeUpstreamMeta), which name the member when they reject one.
      const record = new Float64Array(STATE_FRAME_STRIDE);
      const { init } = frame;
      record[FRAME_NUM] = init.frameNum === undefined ? frame.frameNum : 0;
      record[FRAME_BUF_PTS] = pts;
      record[FRAME_SOURCE_ID] = init.sourceId === undefined ? index : 0;
      record[FRAME_PAD_INDEX] = init.sourceId === undefined && init.padIndex === undefined ? index : 0;
      record[FRAME_BATCH_ID] = index;
      record[FRAME_SOURCE_FRAME_WIDTH] = record[FRAME_PIPELINE_WIDTH] = frame.video.width;
      record[FRAME_SOURCE_FRAME_HEIGHT] = record[FRAME_PIPELINE_HEIGHT] = frame.video.height;
      record[FRAME_NUM_SURFACES_PER_FRAME] = 1;
      harness.addFrame(buffer, record);
      const pixels = frame.init.pixels ?? (isPlanar(frame.video.format) ? blackYuv(frame.layout) : undefined);
      if (pixels !== undefined) harness.writeBuffer(buffer, frame.offset, layOutPixels(frame.layout, pixels));
    }
    harness.setTimes(buffer, pts, plan.init.dts ?? -1, plan.init.duration ?? -1);
    // What the plugin knows from the caps, for Buffer.extract: packed rows unpadded (a
    // GstVideoMeta says so), planar frames in GStreamer's default layout; frame b at b x the
    // frame's size, as the pixels were written.
    const { video } = plan;
    const [first] = plan.frames[0]!.layout.planes;
    harness.setVideo(buffer, capsOf(video).string, isPlanar(video.format) ? undefined : first!.stride);
    return buffer;
  } catch (error) {
    harness.releaseBuffer(buffer);
    throw error;
  }
}

/** Writes what upstream left (frame fields, objects, user metas, tensor outputs) in a call of its own. */
export function writeUpstreamMeta(addon: StandaloneBinding, buffer: object, plan: BatchPlan): void {
  inCall(addon, buffer, plan.frames.length, (batch, call) => {
    const frames = batch.frameItems;
    for (const [index, frame] of plan.frames.entries()) {
      writeFrame(addon, call.callId, batch, frames[index] as FrameMeta, frame);
    }
    addUserMetas(batch, plan.init.userMeta, "userMeta", { addon, callId: call.callId, level: BATCH_LEVEL, owner: 0, add: (user) => batch.addUserMeta(user) });
    at("tracker/preprocess", () => writeBatchComponents(addon.harness, call.callId, plan.init.tracker, plan.init.preprocess));
  });
}

function writeFrame(addon: StandaloneBinding, callId: number, batch: BatchMeta, frame: FrameMeta, plan: FramePlan): void {
  const { init, path } = plan;
  at(path, () => {
    Object.assign(frame, pick(init, FRAME_FIELDS));
    if (init.padIndex === undefined && init.sourceId !== undefined) frame.padIndex = init.sourceId;
  });
  const added: ObjectMeta[] = [];
  for (const [i, object] of (init.objects ?? []).entries()) {
    added.push(addObject(addon, callId, batch, frame, plan, object, added, `${path}.objects[${i}]`));
  }
  addUserMetas(batch, init.userMeta, `${path}.userMeta`, { addon, callId, level: FRAME_LEVEL, owner: frame.batchId, add: (user) => frame.addUserMeta(user) });
  for (const [i, output] of (init.tensorOutputs ?? []).entries()) {
    const outputPath = `${path}.tensorOutputs[${i}]`;
    at(outputPath, () => addon.harness.addTensorOutput(callId, FRAME_LEVEL, frame.batchId, nativeTensorOutput(output, plan, outputPath)));
  }
  at(`${path}.sensorInfo/rois`, () => writeFrameComponents(addon.harness, callId, frame, init.sensorInfo, init.rois));
}

function addObject(
  addon: StandaloneBinding,
  callId: number,
  batch: BatchMeta,
  frame: FrameMeta,
  framePlan: FramePlan,
  init: ObjectInit,
  earlier: readonly ObjectMeta[],
  path: string,
): ObjectMeta {
  const obj = batch.acquireObjectMeta();
  at(path, () => {
    Object.assign(obj, pick(init, OBJECT_FIELDS));
    frame.addObjectMeta(obj, init.parent === undefined ? undefined : earlier[init.parent]);
  });
  for (const [i, classifierInit] of (init.classifiers ?? []).entries()) {
    const classifierPath = `${path}.classifiers[${i}]`;
    at(classifierPath, () => {
      const classifier = batch.acquireClassifierMeta();
      Object.assign(classifier, pick(classifierInit, CLASSIFIER_FIELDS));
      for (const labelInit of classifierInit.labels ?? []) {
        const label = batch.acquireLabelInfo();
        Object.assign(label, pick(labelInit, LABEL_FIELDS));
        classifier.addLabelInfo(label);
      }
      obj.addClassifierMeta(classifier);
    });
  }
  const row = objectCoreOf(obj)?.row ?? -1;
  addUserMetas(batch, init.userMeta, `${path}.userMeta`, { addon, callId, level: OBJECT_LEVEL, owner: row, add: (user) => obj.addUserMeta(user) });
  for (const [i, output] of (init.tensorOutputs ?? []).entries()) {
    const outputPath = `${path}.tensorOutputs[${i}]`;
    at(outputPath, () => addon.harness.addTensorOutput(callId, OBJECT_LEVEL, row, nativeTensorOutput(output, framePlan, outputPath)));
  }
  at(`${path}.reid`, () => writeObjectReid(addon.harness, callId, row, init.reid));
  return obj;
}

function pick(source: object, keys: readonly string[]): Record<string, unknown> {
  const picked: Record<string, unknown> = {};
  for (const key of keys) {
    const value = (source as Record<string, unknown>)[key];
    if (value !== undefined) picked[key] = value;
  }
  return picked;
}

/** Where user metas go: `add` for those written through UserMeta, (level, owner) for NVIDIA's analytics metas. */
interface UserMetaOwner {
  addon: StandaloneBinding;
  callId: number;
  level: UserMetaLevel;
  owner: number;
  add: (user: UserMeta) => void;
}

function addUserMetas(batch: BatchMeta, inits: readonly UserMetaInit[] | undefined, path: string, to: UserMetaOwner): void {
  const { harness } = to.addon;
  for (const [i, init] of (inits ?? []).entries()) {
    const userPath = `${path}[${i}]`;
    at(userPath, () => {
      if ("analyticsFrame" in init) {
        const value = analyticsFromInit<NativeAnalyticsFrame>(init.analyticsFrame, ANALYTICS_FRAME_MEMBERS, `${userPath}.analyticsFrame`);
        harness.addAnalyticsFrame(to.callId, to.level, to.owner, value);
        return;
      }
      if ("analyticsObject" in init) {
        const value = analyticsFromInit<NativeAnalyticsObject>(init.analyticsObject, ANALYTICS_OBJECT_MEMBERS, `${userPath}.analyticsObject`);
        harness.addAnalyticsObject(to.callId, to.level, to.owner, value);
        return;
      }
      const user = batch.acquireUserMeta();
      if ("segmentation" in init) user.setSegmentation(init.segmentation);
      else if ("bytes" in init) user.setBytes(init.type, init.bytes);
      else user.setJson(init.type, init.json);
      to.add(user);
    });
  }
}

function nativeTensorOutput(init: TensorOutputInit, frame: FramePlan, path: string): Parameters<StandaloneHarness["addTensorOutput"]>[3] {
  const network = init.networkInfo;
  return {
    uniqueId: init.uniqueId ?? 1,
    gpuId: init.gpuId ?? 0,
    networkWidth: network?.width ?? frame.video.width,
    networkHeight: network?.height ?? frame.video.height,
    networkChannels: network?.channels ?? 3,
    maintainAspectRatio: init.maintainAspectRatio ?? false,
    symmetricPadding: init.symmetricPadding ?? false,
    layers: init.layers.map((layer, index) => {
      const { dataType, numElements, bytes } = layerBytes(layer, `${path}.layers[${index}]`);
      return {
        layerName: layer.name,
        dataType,
        dims: [...layer.dims],
        numElements,
        bindingIndex: index,
        data: bytes,
      };
    }),
  };
}
