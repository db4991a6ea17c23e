#!/usr/bin/env node
// The TypeScript side of the metadata section (bench/harness/meta.mjs): the same work as the
// C++ peer native-host/bench/meta_bench.cpp, through the public metadata API of the built SDK
// (sdk/dist) over the real binding in the standalone binding (dsnode_standalone.node), in plain Node.
//
//   one by one  const obj = batch.acquireObjectMeta(); obj.classId = ...; obj.confidence = ...;
//               obj.rectParams = { left, top, width, height }; obj.label = ...;
//               frame.addObjectMeta(obj);
//   bulk        frame.addObjects({ left, top, width, height, confidence, classId, labels })
//
// Each round is one call made the way the host adapter makes it (openCall, new
// TransformScope + BatchMeta, the work, commit, end, closeCall), timed as a whole; between
// rounds the objects are removed again in another call (not timed). Rounds alternate one by
// one and bulk. Prints one JSON object, like the C++ peer.
//
//   node bench/harness/meta-ts-peer.mjs [objects=1000] [rounds=51] [warmup=20]
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const require = createRequire(import.meta.url);
const { TransformScope } = require(join(root, "sdk", "dist", "metadata", "call", "transform-scope.js"));
const { BatchMeta } = require(join(root, "sdk", "dist", "metadata", "batch-meta.js"));
const layout = require(join(root, "sdk", "dist", "protocol", "transform-state.js"));

function argument(index, fallback, minimum) {
  const text = process.argv[index];
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < minimum) {
    throw new Error(`Expected an integer >= ${minimum} for argument ${index - 1} but received ${JSON.stringify(text)}`);
  }
  return value;
}

/** The standalone binding, through the SDK's one native loader (its version check included). */
function loadAddon() {
  return require(join(root, "sdk", "dist", "native", "loader.js")).loadStandaloneBinding();
}

/** The detections both sides write (meta_bench.cpp makes the same ones). */
function detections(n) {
  const columns = {
    left: new Float32Array(n),
    top: new Float32Array(n),
    width: new Float32Array(n),
    height: new Float32Array(n),
    confidence: new Float32Array(n),
    classId: new Int32Array(n),
    labels: ["car", "bicycle", "person", "roadsign"],
  };
  for (let i = 0; i < n; i++) {
    columns.left[i] = i % 1900;
    columns.top[i] = i % 1000;
    columns.width[i] = 20;
    columns.height[i] = 30;
    columns.confidence[i] = Math.fround((i % 100) / 100);
    columns.classId[i] = i % 4;
  }
  return columns;
}

/** A buffer with a portable batch of one 640x480 frame. */
function makeBuffer(harness) {
  const buffer = harness.createBuffer(1, 64);
  const record = new Float64Array(layout.STATE_FRAME_STRIDE);
  record[layout.FRAME_BUF_PTS] = -1;
  record[layout.FRAME_SOURCE_FRAME_WIDTH] = record[layout.FRAME_PIPELINE_WIDTH] = 640;
  record[layout.FRAME_SOURCE_FRAME_HEIGHT] = record[layout.FRAME_PIPELINE_HEIGHT] = 480;
  record[layout.FRAME_NUM_SURFACES_PER_FRAME] = 1;
  harness.addFrame(buffer, record);
  return buffer;
}

/** One call as the host adapter makes it (sdk/src/element/host-adapter-v1.ts, sdk/src/testing/native-call.ts). */
function inCall(addon, buffer, state, body) {
  const callId = addon.harness.openCall(buffer, state);
  const scope = new TransformScope(state, addon.meta);
  try {
    body(new BatchMeta(scope));
    scope.commit();
  } finally {
    scope.end();
    addon.harness.closeCall(callId);
  }
}

function oneByOne(batch, d) {
  const frame = batch.frameItems[0];
  const { left, top, width, height, confidence, classId, labels } = d;
  for (let i = 0; i < left.length; i++) {
    const obj = batch.acquireObjectMeta();
    const classOfObject = classId[i];
    obj.classId = classOfObject;
    obj.confidence = confidence[i];
    obj.rectParams = { left: left[i], top: top[i], width: width[i], height: height[i] };
    obj.label = labels[classOfObject];
    frame.addObjectMeta(obj);
  }
}

function bulk(batch, d) {
  batch.frameItems[0].addObjects(d);
}

/** Removes the frame's objects (back to the pool), last first: the C++ peer does the same. */
function clear(batch, expected) {
  const frame = batch.frameItems[0];
  const objects = frame.objectItems;
  if (objects.length !== expected) throw new Error(`expected ${expected} objects in the frame, found ${objects.length}`);
  for (let i = objects.length - 1; i >= 0; i--) frame.removeObjectMeta(objects[i]);
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** Median (the headline), mean (includes the rounds a garbage collection fell in), min, max and every round, in ns/object. */
function series(nsPerObject) {
  const mean = nsPerObject.reduce((sum, value) => sum + value, 0) / nsPerObject.length;
  return { nsPerObject: median(nsPerObject), mean, min: Math.min(...nsPerObject), max: Math.max(...nsPerObject), rounds: nsPerObject };
}

function main() {
  const objects = argument(2, 1000, 1);
  const rounds = argument(3, 51, 1);
  const warmup = argument(4, 20, 0);
  const addon = loadAddon();
  const buffer = makeBuffer(addon.harness);
  const state = new Float64Array(layout.stateLength(1));
  const d = detections(objects);
  const timed = (body) => {
    const started = process.hrtime.bigint();
    inCall(addon, buffer, state, body);
    return Number(process.hrtime.bigint() - started);
  };
  const single = [];
  const many = [];
  for (let round = 0; round < warmup + rounds; round++) {
    const singleNs = timed((batch) => oneByOne(batch, d));
    inCall(addon, buffer, state, (batch) => clear(batch, objects));
    const bulkNs = timed((batch) => bulk(batch, d));
    inCall(addon, buffer, state, (batch) => clear(batch, objects));
    if (round < warmup) continue;
    single.push(singleNs / objects);
    many.push(bulkNs / objects);
  }
  addon.harness.releaseBuffer(buffer);
  const result = { peer: "ts", objects, rounds, warmup, node: process.version, oneByOne: series(single), bulk: series(many) };
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

main();
