#!/usr/bin/env node
// decodeYolo + nms (sdk/dist, TypeScript, with its native class argmax and without) against C++ (bench/postprocess/decode_nms.cpp,
// compiled here: the same algorithm at -O2, and vectorised -O3 builds) on synthetic but
// realistic YOLOv8 outputs: [84, 8400] (80 classes, 640×640 input), background scores below
// 0.02 and 20 or 100 objects, each lit up on the anchors around its centre. Rounds alternate
// TS and C++; both time every iteration, and the medians are compared. Each C++ run also
// returns its kept boxes, which must equal the TS ones bit for bit (same rules, same double
// arithmetic), or the run fails.
//
// usage: node bench/postprocess.mjs   (after `npm run build -w ds-element`, or at least its tsc step)
// settings: DS_BENCH_POSTPROCESS_ITERATIONS (per round, default 300), DS_BENCH_POSTPROCESS_ROUNDS (default 5)
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describeMachine } from "./harness/machine.mjs";
import { median } from "./harness/statistics.mjs";
import { seededRandom } from "../sdk/src/test-support/seeded-random.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const out = path.join(root, "bench", "out", "postprocess");
const source = path.join(root, "bench", "postprocess", "decode_nms.cpp");
const sdkEntry = path.join(root, "sdk", "dist", "index.js");
const ITERATIONS = Number(process.env.DS_BENCH_POSTPROCESS_ITERATIONS ?? 300);
const ROUNDS = Number(process.env.DS_BENCH_POSTPROCESS_ROUNDS ?? 5);
const FRAME_BUDGET_US = 33_333; // one frame at 30 fps

const CLASSES = 80;
const INPUT = 640;
const STRIDES = [8, 16, 32]; // 80×80 + 40×40 + 20×20 = 8400 anchors
const CANDIDATES = STRIDES.reduce((sum, stride) => sum + (INPUT / stride) ** 2, 0);

// Deployment settings (Ultralytics' predict defaults) on a quiet and a crowded scene, then
// the settings of an mAP evaluation, where every candidate passes and NMS does the work.
const SCENARIOS = [
  { name: "20 objects, conf 0.25", objects: 20, confidence: 0.25, iou: 0.45, maxDetections: 300 },
  { name: "100 objects, conf 0.25", objects: 100, confidence: 0.25, iou: 0.45, maxDetections: 300 },
  { name: "20 objects, conf 0.001 (evaluation)", objects: 20, confidence: 0.001, iou: 0.7, maxDetections: 300 },
];

if (!existsSync(sdkEntry)) {
  console.error(`missing ${path.relative(root, sdkEntry)}: run \`npm run build -w ds-element\` first`);
  process.exit(1);
}
const requireSdk = createRequire(import.meta.url);
const { decodeYolo, nms, PostprocessScratch } = requireSdk(sdkEntry);
// Internal switch of the SDK's native class argmax (on by default where the binding loads).
const { useNativeArgmax } = requireSdk(path.join(root, "sdk", "dist", "postprocess", "decode-yolo.js"));

mkdirSync(out, { recursive: true });
// The same algorithm as the TS at -O2 (the fair peer); then the best native builds: the plain
// argmax loop, which GCC vectorises at -O3 with AVX2 (the gated one it does not), for
// x86-64-v3 (what a portable release build of a native fast path could target, with function
// multiversioning) and for this CPU (the bound).
const natives = {
  "C++ -O2, same algorithm": { binary: compile(["-O2"], "decode_nms-O2"), loop: "gated" },
  ...(process.arch === "x64"
    ? { "C++ -O3 -march=x86-64-v3, plain loop": { binary: compile(["-O3", "-march=x86-64-v3"], "decode_nms-O3-v3"), loop: "plain" } }
    : {}),
  "C++ -O3 -march=native, plain loop": { binary: compile(["-O3", "-march=native"], "decode_nms-O3-native"), loop: "plain" },
};

const machine = describeMachine();
console.log(`decodeYolo + nms, TypeScript vs C++ — ${machine.cpu}, ${machine.cores} cores, load ${machine.load}, Node ${process.version}`);
console.log(`output [${4 + CLASSES}, ${CANDIDATES}] float32, ${ROUNDS} rounds × ${ITERATIONS} iterations, medians in µs\n`);

const results = [];
for (const scenario of SCENARIOS) results.push(runScenario(scenario));
printTable(results);
writeFileSync(path.join(out, "results.json"), `${JSON.stringify({ machine, results }, null, 2)}\n`);
console.log(`\nwritten: ${path.relative(root, path.join(out, "results.json"))}`);

function runScenario(scenario) {
  const data = syntheticOutput(scenario.objects, 0x5eed);
  const dataPath = path.join(out, `yolov8-output-${scenario.objects}.bin`);
  writeFileSync(dataPath, Buffer.from(data.buffer, data.byteOffset, data.byteLength));
  const layer = { data, dims: [4 + CLASSES, CANDIDATES] };
  const decodeOptions = { confidenceThreshold: scenario.confidence };
  const nmsOptions = { iouThreshold: scenario.iou, maxDetections: scenario.maxDetections };
  const scratch = new PostprocessScratch();
  const ts = { "TS (scratch)": { decode: [], nms: [] }, "TS (no scratch)": { decode: [], nms: [] }, "TS, argmax in JS (scratch)": { decode: [], nms: [] } };
  const native = Object.fromEntries(Object.keys(natives).map((name) => [name, { decode: [], nms: [] }]));
  let reference;

  const runTs = (times, withScratch, iterations) => {
    let kept;
    for (let i = 0; i < iterations; i++) {
      const start = process.hrtime.bigint();
      const [candidates] = decodeYolo(layer, withScratch ? { ...decodeOptions, scratch } : decodeOptions);
      const middle = process.hrtime.bigint();
      kept = nms(candidates, withScratch ? { ...nmsOptions, scratch } : nmsOptions);
      const end = process.hrtime.bigint();
      times?.decode.push(Number(middle - start) / 1000);
      times?.nms.push(Number(end - middle) / 1000);
      reference ??= { candidates: candidates.count };
    }
    return kept;
  };
  // Warm-up: V8 optimises the hot loops only after they have run a while.
  runTs(undefined, true, 200);
  runTs(undefined, false, 200);
  useNativeArgmax(false);
  runTs(undefined, true, 200);
  useNativeArgmax(true);

  for (let round = 0; round < ROUNDS; round++) {
    // Kept boxes are views of the scratch: copy them before the next run reuses it.
    reference.kept = toRows(runTs(ts["TS (scratch)"], true, ITERATIONS));
    runTs(ts["TS (no scratch)"], false, ITERATIONS);
    useNativeArgmax(false);
    checkSame("TS, argmax in JS", reference.kept, toRows(runTs(ts["TS, argmax in JS (scratch)"], true, ITERATIONS)));
    useNativeArgmax(true);
    for (const [name, { binary, loop }] of Object.entries(natives)) {
      const args = [dataPath, CLASSES, CANDIDATES, scenario.confidence, scenario.iou, scenario.maxDetections, ITERATIONS, loop].map(String);
      const report = JSON.parse(execFileSync(binary, args, { encoding: "utf8", maxBuffer: 64 << 20 }));
      native[name].decode.push(...report.decodeUs);
      native[name].nms.push(...report.nmsUs);
      if (report.candidates !== reference.candidates) throw new Error(`${name}: ${report.candidates} candidates, TS ${reference.candidates}`);
      checkSame(name, reference.kept, nativeRows(report.kept));
    }
  }

  const summarise = (times) => {
    const decode = median(times.decode);
    const nmsTime = median(times.nms);
    return { decode, nms: nmsTime, total: decode + nmsTime };
  };
  return {
    scenario: scenario.name,
    candidates: reference.candidates,
    kept: reference.kept.length,
    timings: Object.fromEntries([...Object.entries(ts), ...Object.entries(native)].map(([name, times]) => [name, summarise(times)])),
  };
}

function printTable(results) {
  const rows = [["scenario", "above conf", "kept", "implementation", "decode", "nms", "total", "TS / this", "TS − this per frame"]];
  for (const result of results) {
    const base = result.timings["TS (scratch)"];
    Object.entries(result.timings).forEach(([name, timing], index) => {
      const isTs = name.startsWith("TS");
      rows.push([
        index === 0 ? result.scenario : "",
        index === 0 ? String(result.candidates) : "",
        index === 0 ? String(result.kept) : "",
        name,
        timing.decode.toFixed(1),
        timing.nms.toFixed(1),
        timing.total.toFixed(1),
        isTs ? (name === "TS (scratch)" ? "1.00" : (base.total / timing.total).toFixed(2)) : `${(base.total / timing.total).toFixed(2)}×`,
        isTs ? "" : `${(base.total - timing.total).toFixed(0)} µs (${((100 * (base.total - timing.total)) / FRAME_BUDGET_US).toFixed(1)}% of 33 ms)`,
      ]);
    });
  }
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column].length)));
  for (const [index, row] of rows.entries()) {
    console.log(row.map((cell, column) => (column >= 4 && column <= 7 ? cell.padStart(widths[column]) : cell.padEnd(widths[column]))).join("  "));
    if (index === 0) console.log(widths.map((width) => "-".repeat(width)).join("  "));
  }
  console.log("\nTS / this: how many times faster than TS (scratch) the row is. Same kept boxes in every row (checked).");
}

function compile(flags, name) {
  const binary = path.join(out, name);
  if (!existsSync(binary) || statSync(binary).mtimeMs < statSync(source).mtimeMs) {
    execFileSync("c++", ["-std=c++17", ...flags, "-o", binary, source], { stdio: "inherit" });
  }
  return binary;
}

function toRows(kept) {
  return Array.from({ length: kept.count }, (_, i) => [kept.left[i], kept.top[i], kept.width[i], kept.height[i], kept.confidence[i], kept.classId[i]]);
}

function nativeRows(kept) {
  return kept.left.map((_, i) => [
    Math.fround(kept.left[i]),
    Math.fround(kept.top[i]),
    Math.fround(kept.width[i]),
    Math.fround(kept.height[i]),
    Math.fround(kept.confidence[i]),
    kept.classId[i],
  ]);
}

function checkSame(name, expected, actual) {
  const text = (rows) => rows.map((row) => row.join(" ")).join("\n");
  if (text(expected) !== text(actual)) {
    throw new Error(`${name} kept other boxes than TS:\nTS:\n${text(expected).slice(0, 2000)}\n${name}:\n${text(actual).slice(0, 2000)}`);
  }
}

/**
 * A YOLOv8-like [84, 8400] output: every class score low (below 0.02, most far below), then
 * `objects` boxes, each raising its class on the anchors whose cell centre falls inside it at
 * the stride(s) that suit its size, with jittered box predictions around the true box: the
 * clusters NMS exists for.
 */
function syntheticOutput(objects, seed) {
  const random = seededRandom(seed);
  const output = new Float32Array((4 + CLASSES) * CANDIDATES);
  const anchors = [];
  for (const stride of STRIDES) {
    for (let y = 0; y < INPUT / stride; y++) for (let x = 0; x < INPUT / stride; x++) anchors.push({ x: (x + 0.5) * stride, y: (y + 0.5) * stride, stride });
  }
  anchors.forEach((anchor, i) => {
    output[i] = anchor.x;
    output[CANDIDATES + i] = anchor.y;
    output[2 * CANDIDATES + i] = anchor.stride * 2;
    output[3 * CANDIDATES + i] = anchor.stride * 2;
    for (let c = 0; c < CLASSES; c++) output[(4 + c) * CANDIDATES + i] = 0.02 * random() ** 4;
  });
  for (let k = 0; k < objects; k++) {
    const width = 16 + random() * 300;
    const height = 16 + random() * 300;
    const cx = width / 2 + random() * (INPUT - width);
    const cy = height / 2 + random() * (INPUT - height);
    const classId = Math.floor(random() * CLASSES);
    const peak = 0.5 + random() * 0.45;
    const size = Math.sqrt(width * height);
    anchors.forEach((anchor, i) => {
      const suits = anchor.stride === (size < 64 ? 8 : size < 160 ? 16 : 32);
      if (!suits) return;
      const dx = (anchor.x - cx) / (width / 2);
      const dy = (anchor.y - cy) / (height / 2);
      const distance = dx * dx + dy * dy;
      if (distance > 0.25) return;
      const score = peak * (1 - distance) * (0.6 + 0.4 * random());
      const at = (4 + classId) * CANDIDATES + i;
      if (score <= output[at]) return;
      output[at] = score;
      output[i] = cx + (random() - 0.5) * 0.1 * width;
      output[CANDIDATES + i] = cy + (random() - 0.5) * 0.1 * height;
      output[2 * CANDIDATES + i] = width * (0.9 + 0.2 * random());
      output[3 * CANDIDATES + i] = height * (0.9 + 0.2 * random());
    });
  }
  return output;
}

