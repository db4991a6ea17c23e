#!/usr/bin/env node
// The ONNX Runtime runner (sdk/dist: each session on a worker thread of its own, inputs read in
// place, outputs transferred back) against onnxruntime-node used directly on the JS thread, the
// way the runner itself worked before it had a thread, in one process:
//   1. latency of one inference, sequential, one intra-op thread each (so that ONNX Runtime's
//      own pool, whose threads spin after a run, does not weigh in): what the thread's messages
//      cost;
//   2. how long the JS thread is held while a slow-to-set-up model loads (the longest gap
//      between ticks of a 1 ms timer during the load);
//   3. two models inferring at once (each with one intra-op thread): Promise.all over two
//      runners against two direct sessions, whose synchronous runs take turns on the JS thread.
// The model is the repository's ball detector (scripts/make-ball-model.mjs), input 1×3×S×S.
//
// usage: node bench/onnx-runner.mjs   (after `npm run build -w ds-element`)
// settings: DS_BENCH_ONNX_ITERATIONS (per round, default 50), DS_BENCH_ONNX_ROUNDS (default 20),
// DS_BENCH_ONNX_SETUP_WORK (the slow model's matrix products, default 150)
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describeMachine } from "./harness/machine.mjs";
import { median } from "./harness/statistics.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const out = path.join(root, "bench", "out", "onnx-runner");
const require = createRequire(import.meta.url);
const { loadRunner, TensorHandle } = require(path.join(root, "sdk", "dist", "index.js"));
const ort = require("onnxruntime-node");

const ITERATIONS = Number(process.env.DS_BENCH_ONNX_ITERATIONS ?? 50);
const ROUNDS = Number(process.env.DS_BENCH_ONNX_ROUNDS ?? 20);
const SETUP_WORK = Number(process.env.DS_BENCH_ONNX_SETUP_WORK ?? 150);
const SESSION_OPTIONS = { executionProviders: ["cpu"], graphOptimizationLevel: "all" };

function makeModel(name, args) {
  const file = path.join(out, `${name}.onnx`);
  execFileSync(process.execPath, [path.join(root, "scripts", "make-ball-model.mjs"), "--out", file, ...args]);
  return file;
}

/** The direct peer: onnxruntime-node on this thread, a tensor over the same memory. */
async function directSession(model, options = {}) {
  const session = await ort.InferenceSession.create(readFileSync(model), { ...SESSION_OPTIONS, ...options });
  return (data, dims) => session.run({ images: new ort.Tensor("float32", data, dims) });
}

async function timeIterations(run) {
  const times = [];
  for (let i = 0; i < ITERATIONS; i++) {
    const started = process.hrtime.bigint();
    await run();
    times.push(Number(process.hrtime.bigint() - started) / 1e3);
  }
  return median(times);
}

/** Median µs per inference over rounds that alternate the runner and the direct session. */
async function latency(size) {
  const model = makeModel(`ball-${size}`, ["--size", String(size)]);
  const dims = [1, 3, size, size];
  const input = TensorHandle.fromTypedArray(new Float32Array(3 * size * size).fill(0.25), dims);
  const runner = await loadRunner(model, { intraOpThreads: 1 });
  const direct = await directSession(model, { intraOpNumThreads: 1 });
  const viaRunner = async () => (await runner.infer([input]))[0].dispose();
  const viaDirect = () => direct(input.toTypedArray(), dims);
  for (let i = 0; i < 20; i++) await Promise.all([viaRunner(), viaDirect()]);
  const rounds = { runner: [], direct: [] };
  for (let round = 0; round < ROUNDS; round++) {
    rounds.runner.push(await timeIterations(viaRunner));
    rounds.direct.push(await timeIterations(viaDirect));
  }
  await runner.dispose();
  return { size, runnerUs: median(rounds.runner), directUs: median(rounds.direct) };
}

/** The longest the JS thread went without running a 1 ms timer while `load` ran. */
async function longestGapDuring(load) {
  let last = performance.now();
  let longest = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 1);
  const started = performance.now();
  const loaded = await load();
  const loadMs = performance.now() - started;
  clearInterval(timer);
  longest = Math.max(longest, performance.now() - last);
  return { loaded, loadMs, longestGapMs: longest };
}

async function blockingLoad() {
  const model = makeModel("ball-slow-setup", ["--size", "64", "--setup-work", String(SETUP_WORK)]);
  const results = { runner: [], direct: [] };
  for (let round = 0; round < 3; round++) {
    const viaRunner = await longestGapDuring(() => loadRunner(model));
    await viaRunner.loaded.dispose();
    results.runner.push(viaRunner);
    results.direct.push(await longestGapDuring(() => directSession(model)));
  }
  const summary = (list) => ({ loadMs: median(list.map((r) => r.loadMs)), longestGapMs: median(list.map((r) => r.longestGapMs)) });
  return { setupWork: SETUP_WORK, runner: summary(results.runner), direct: summary(results.direct) };
}

/** Two models at once: µs per pair of inferences. */
async function concurrent(size) {
  const models = [makeModel(`ball-${size}-a`, ["--size", String(size)]), makeModel(`ball-${size}-b`, ["--size", String(size), "--ball-class", "1"])];
  const dims = [1, 3, size, size];
  const input = TensorHandle.fromTypedArray(new Float32Array(3 * size * size).fill(0.25), dims);
  const runners = await Promise.all(models.map((model) => loadRunner(model, { intraOpThreads: 1 })));
  const directs = await Promise.all(models.map((model) => directSession(model, { intraOpNumThreads: 1 })));
  const viaRunners = () => Promise.all(runners.map(async (runner) => (await runner.infer([input]))[0].dispose()));
  const viaDirect = () => Promise.all(directs.map((run) => run(input.toTypedArray(), dims)));
  for (let i = 0; i < 20; i++) await Promise.all([viaRunners(), viaDirect()]);
  const rounds = { runner: [], direct: [] };
  for (let round = 0; round < ROUNDS; round++) {
    rounds.runner.push(await timeIterations(viaRunners));
    rounds.direct.push(await timeIterations(viaDirect));
  }
  await Promise.all(runners.map((runner) => runner.dispose()));
  return { size, runnerUs: median(rounds.runner), directUs: median(rounds.direct) };
}

async function main() {
  mkdirSync(out, { recursive: true });
  const machine = describeMachine();
  console.log(`ONNX Runtime runner (session thread) vs onnxruntime-node on the JS thread — ${machine.cpu}, ${machine.cores} cores, Node ${process.versions.node}, onnxruntime-node ${require("onnxruntime-node/package.json").version}`);
  console.log(`${ROUNDS} rounds of ${ITERATIONS} inferences, alternating; medians\n`);

  const latencies = [];
  console.log("1. one inference at a time (1 intra-op thread)  runner µs   direct µs   runner / direct   thread cost µs");
  for (const size of [64, 320, 640]) {
    const result = await latency(size);
    latencies.push(result);
    const ratio = result.runnerUs / result.directUs;
    console.log(`   ball model 1x3x${size}x${size}`.padEnd(50) + `${result.runnerUs.toFixed(0).padStart(9)}   ${result.directUs.toFixed(0).padStart(9)}   ${ratio.toFixed(2).padStart(15)}   ${(result.runnerUs - result.directUs).toFixed(0).padStart(14)}`);
  }

  const load = await blockingLoad();
  console.log(`\n2. loading a model with ${load.setupWork} constant matrix products (3 loads each): the JS thread's longest stall`);
  console.log(`   runner: load ${load.runner.loadMs.toFixed(0)} ms, longest gap between 1 ms timer ticks ${load.runner.longestGapMs.toFixed(1)} ms`);
  console.log(`   direct: load ${load.direct.loadMs.toFixed(0)} ms, longest gap between 1 ms timer ticks ${load.direct.longestGapMs.toFixed(1)} ms`);
  console.log(`   runner / direct stall: ${(load.runner.longestGapMs / load.direct.longestGapMs).toFixed(3)}`);

  const pair = await concurrent(640);
  console.log("\n3. two models at once (one intra-op thread each), µs per pair of inferences");
  console.log(`   runner ${pair.runnerUs.toFixed(0)}, direct ${pair.directUs.toFixed(0)}: runner / direct ${(pair.runnerUs / pair.directUs).toFixed(2)}`);

  const resultsPath = path.join(out, "results.json");
  writeFileSync(resultsPath, `${JSON.stringify({ machine, iterations: ITERATIONS, rounds: ROUNDS, latencies, load, pair }, null, 2)}\n`);
  console.log(`\nWrote ${path.relative(root, resultsPath)}`);
}

main().catch((error) => {
  console.error(`bench/onnx-runner: ${error.stack ?? error}`);
  process.exitCode = 1;
});
