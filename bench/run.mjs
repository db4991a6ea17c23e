#!/usr/bin/env node
// `npm run bench`: the TypeScript element against its peers in one run (STYLE.md habit 9).
//   1. per-buffer overhead over identity: noopts (TypeScript) vs noopy (gst-python), in the
//      steady state (one process, the three in turn) and per whole gst-launch run, and noopts
//      under the hand-off tunables;
//   2. gst-inspect cost of noopts vs identity (and noopy), plus a check that inspecting does
//      not load libnode;
//   3. metadata writes: ns per object written from TypeScript (one by one and bulk) against
//      the same work in C++ on the portable backend;
//   4. the ONNX Runtime runner (its session thread) against onnxruntime-node on the JS thread
//      (bench/onnx-runner.mjs, run as a child process);
//   6. the CPU overlay: dsosd drawing 50 labelled boxes per 1280x720 frame against GStreamer's
//      cairooverlay drawing the same (bench/harness/osd.mjs);
//   7./8. many streams, and a whole element against gst-python (bench/harness/streams.mjs, element.mjs);
//   9. JavaScript on every core: 1-8 elements with 1 ms of synchronous work per buffer each
//      (bench/harness/js-threads.mjs).
// Prints tables and ratios, writes bench/out/results.json. See bench/README.md.
// `--only <section>[,<section>]` (per-buffer, inspect, meta, onnx-runner, osd, streams, element, js-threads) runs only those sections.
// Settings: DS_BENCH_SEGMENT_BUFFERS (20000), DS_BENCH_SEGMENT_ROUNDS (15), DS_BENCH_TRIALS (5)
// for the steady state; DS_BENCH_BUFFERS (50000), DS_BENCH_ROUNDS (7) for whole runs; DS_BENCH_INSPECT_RUNS (15),
// DS_BENCH_META_OBJECTS (1000), DS_BENCH_META_ROUNDS (51), DS_BENCH_META_TRIALS (7),
// DS_BENCH_OSD_FRAMES (100), DS_BENCH_OSD_ROUNDS (9), DS_BENCH_OSD_OBJECTS (50),
// DS_BENCH_NATIVE_DIR (measure another native build's libgstdsnode.so + libdsnode-runtime.so.0,
// dsnode_standalone.node, dsnode-meta-bench and dsnode-pipeline-bench).
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { commandFailure, runCommand } from "./harness/command.mjs";
import { backgroundCores, idleLoad, machineBusySeconds } from "./harness/cpu-load.mjs";
import { checkLazyLibnode, measureInspect } from "./harness/inspect.mjs";
import { describeMachine, describeVersions } from "./harness/machine.mjs";
import { buildMetaPeer, measureMeta, metaPeers } from "./harness/meta.mjs";
import { buildPipelineBench, measureInProcess, pipelineBenchPath } from "./harness/in-process.mjs";
import { measurePerBuffer, perBufferConfigurations } from "./harness/per-buffer.mjs";
import { buildOsdBench, measureOsd } from "./harness/osd.mjs";
import { printElement, printHeader, printInProcess, printInspect, printMeta, printOsd, printPerBuffer, printStreams } from "./harness/report.mjs";
import { prepareBench } from "./harness/setup.mjs";
import { buildStreamsBench, measureStreams } from "./harness/streams.mjs";
import { measureElement } from "./harness/element.mjs";
import { measureJsThreads, printJsThreads } from "./harness/js-threads.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const SECTIONS = ["per-buffer", "inspect", "meta", "onnx-runner", "osd", "streams", "element", "js-threads"];

/** The sections to run: all, or those of `--only a,b` (also `--only=a,b`). */
function selectedSections(argv) {
  const at = argv.findIndex((arg) => arg === "--only" || arg.startsWith("--only="));
  if (at < 0) {
    if (argv.length > 0) throw new Error(`Expected no arguments or --only <${SECTIONS.join("|")}>[,...] but received ${JSON.stringify(argv.join(" "))}`);
    return new Set(SECTIONS);
  }
  const text = argv[at].startsWith("--only=") ? argv[at].slice("--only=".length) : argv[at + 1];
  const names = (text ?? "").split(",").filter((name) => name !== "");
  const unknown = names.filter((name) => !SECTIONS.includes(name));
  if (names.length === 0 || unknown.length > 0 || argv.length !== (argv[at].startsWith("--only=") ? 1 : 2)) {
    throw new Error(`Expected --only <${SECTIONS.join("|")}>[,...] but received ${JSON.stringify(argv.join(" "))}`);
  }
  return new Set(names);
}

function positiveInteger(name, fallback) {
  const text = process.env[name];
  if (text === undefined || text === "") return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1) throw new Error(`Expected a positive integer for ${name} but received ${JSON.stringify(text)}`);
  return value;
}

function progress(stage) {
  return (done, total) => {
    if (process.stderr.isTTY) process.stderr.write(`\r  ${stage}: ${done}/${total}${done === total ? "\n" : ""}`);
    else if (done === total) process.stderr.write(`  ${stage}: ${total} runs done\n`);
  };
}

async function main() {
  const sections = selectedSections(process.argv.slice(2));
  const settings = {
    segmentBuffers: positiveInteger("DS_BENCH_SEGMENT_BUFFERS", 20000),
    segmentRounds: positiveInteger("DS_BENCH_SEGMENT_ROUNDS", 15),
    trials: positiveInteger("DS_BENCH_TRIALS", 5),
    buffers: positiveInteger("DS_BENCH_BUFFERS", 50000),
    rounds: positiveInteger("DS_BENCH_ROUNDS", 7),
    inspectRuns: positiveInteger("DS_BENCH_INSPECT_RUNS", 15),
    metaObjects: positiveInteger("DS_BENCH_META_OBJECTS", 1000),
    metaRounds: positiveInteger("DS_BENCH_META_ROUNDS", 51),
    metaTrials: positiveInteger("DS_BENCH_META_TRIALS", 7),
    osdFrames: positiveInteger("DS_BENCH_OSD_FRAMES", 100),
    osdRounds: positiveInteger("DS_BENCH_OSD_ROUNDS", 9),
    osdObjects: positiveInteger("DS_BENCH_OSD_OBJECTS", 50),
    streamsBuffers: positiveInteger("DS_BENCH_STREAMS_BUFFERS", 64000),
    streamsRounds: positiveInteger("DS_BENCH_STREAMS_ROUNDS", 4),
    streamsTrials: positiveInteger("DS_BENCH_STREAMS_TRIALS", 2),
    elementFrames: positiveInteger("DS_BENCH_ELEMENT_FRAMES", 150),
    elementTrials: positiveInteger("DS_BENCH_ELEMENT_TRIALS", 5),
    busyBuffers: positiveInteger("DS_BENCH_BUSY_BUFFERS", 400),
    busyUs: positiveInteger("DS_BENCH_BUSY_US", 1000),
    busyRounds: positiveInteger("DS_BENCH_BUSY_ROUNDS", 3),
    busyTrials: positiveInteger("DS_BENCH_BUSY_TRIALS", 2),
    sections: [...sections],
  };
  const started = Date.now();
  const results = { command: `npm run bench  (node bench/run.mjs${process.argv.length > 2 ? ` ${process.argv.slice(2).join(" ")}` : ""})` };
  // The element, the registry and GStreamer are needed by sections 1, 2, 6, 7 and 8 only.
  const gstSections = sections.has("per-buffer") || sections.has("inspect") || sections.has("osd") || sections.has("streams") || sections.has("element") || sections.has("js-threads");
  let bench;
  if (gstSections) {
    process.stderr.write("bench: building bench/elements into bench/out/dist\n");
    bench = await prepareBench(root);
  }
  const peers = metaPeers(root);
  if (sections.has("per-buffer")) {
    process.stderr.write("bench: building dsnode-pipeline-bench (the in-process per-buffer runs)\n");
    await buildPipelineBench(root);
  }
  if (sections.has("osd")) {
    process.stderr.write("bench: building dsnode-osd-bench (the overlay section)\n");
    await buildOsdBench(root);
  }
  let streamsBench;
  if (sections.has("streams") || sections.has("element") || sections.has("js-threads")) {
    process.stderr.write("bench: building streams-bench (sections 7, 8 and 9)\n");
    streamsBench = buildStreamsBench(root);
  }
  if (sections.has("meta")) {
    process.stderr.write(`bench: building the C++ metadata peer in ${relative(root, peers.buildDir) || "."}\n`);
    await buildMetaPeer(peers);
  }
  const machine = describeMachine();
  const versions = describeVersions(root, bench?.env.DS_ELEMENT_LIBNODE ?? "libnode.so.108 (loader path)");

  if (gstSections) {
    // A private registry starts empty: the first command scans every plugin (seconds).
    process.stderr.write(`bench: warming the private registry ${relative(root, bench.env.GST_REGISTRY_1_0)}\n`);
    const warm = [["identity", bench.env], ["noopy", bench.env], ["noopts", bench.env], ...(sections.has("osd") ? [["dsosd", bench.osdEnv]] : [])];
    for (const [element, env] of warm) {
      const argv = ["gst-inspect-1.0", element];
      const result = await runCommand(argv, { env, timeoutMs: 300_000 });
      if (result.code !== 0) throw commandFailure(`finding ${element} (is gstreamer1.0-python3-plugin-loader installed?)`, argv, result);
    }
  }

  machine.idleBusyCores = await idleLoad();
  printHeader({ machine, versions, native: bench?.native, settings });
  Object.assign(results, { machine, versions, native: bench?.native ?? null, settings });

  if (sections.has("per-buffer")) await perBufferSection(bench, settings, machine, results);
  if (sections.has("inspect")) await inspectSection(bench, settings, results);
  if (sections.has("meta")) {
    const meta = await measureMeta({
      peers, objects: settings.metaObjects, rounds: settings.metaRounds, trials: settings.metaTrials, onProgress: progress("metadata peer runs"),
    });
    printMeta(meta, machine.cores);
    results.meta = { ...meta, targets: "bulk <= 2x C++, one by one <= 10x C++" };
  }

  if (sections.has("onnx-runner")) {
    console.log("");
    const script = join(root, "bench", "onnx-runner.mjs");
    const run = await runCommand([process.execPath, script], { env: process.env, timeoutMs: 600_000 });
    if (run.code !== 0) throw commandFailure("the ONNX Runtime runner section", [process.execPath, script], run);
    process.stdout.write(run.output);
    results.onnxRunner = JSON.parse(readFileSync(join(root, "bench", "out", "onnx-runner", "results.json"), "utf8"));
  }

  if (sections.has("osd")) {
    const osd = await measureOsd({ root, env: bench.osdEnv, frames: settings.osdFrames, rounds: settings.osdRounds, objects: settings.osdObjects });
    printOsd(osd, machine.cores);
    results.osd = osd;
  }

  if (sections.has("streams")) {
    const started = machineBusySeconds();
    const startedAt = Date.now();
    const streams = await measureStreams({
      executable: streamsBench, env: bench.env, buffers: settings.streamsBuffers, rounds: settings.streamsRounds, trials: settings.streamsTrials,
      onProgress: progress("streams runs"),
    });
    const ownCpuS = streams.results.reduce((sum, result) => sum + result.rounds.reduce((inner, round) => inner + round.cpu_s, 0), 0);
    streams.backgroundCores = backgroundCores({ busyBeforeS: started, busyAfterS: machineBusySeconds(), wallS: (Date.now() - startedAt) / 1000, ownCpuS });
    printStreams(streams, settings, machine.cores);
    results.streams = { ...streams, target: "TS CPU per buffer <= 2x identity's at 1, 4 and 16 streams" };
  }

  if (sections.has("element")) {
    const element = await measureElement({
      root, executable: streamsBench, env: bench.env, frames: settings.elementFrames, trials: settings.elementTrials, onProgress: progress("whole-element runs"),
    });
    printElement(element);
    results.element = { ...element, target: "TS per-frame time less the model's <= 0.3 of the gst-python peer's" };
    if (element.disagreements.length > 0) throw new Error(`the TypeScript and Python ball detectors disagree on ${element.disagreements.length} frames: ${JSON.stringify(element.disagreements.slice(0, 3))}`);
  }

  if (sections.has("js-threads")) {
    const jsThreads = await measureJsThreads({
      executable: streamsBench, env: bench.env, perStream: settings.busyBuffers, busyUs: settings.busyUs, rounds: settings.busyRounds,
      trials: settings.busyTrials, cores: machine.cores, onProgress: progress("js-threads runs"),
    });
    printJsThreads(jsThreads, machine.cores);
    results.jsThreads = { ...jsThreads, target: "with isolates per element: 4 elements >= 1.8x one element on 2 cores, >= 3.5x on 16" };
  }

  results.durationS = (Date.now() - started) / 1000;
  const outDir = join(root, "bench", "out");
  mkdirSync(outDir, { recursive: true });
  const resultsPath = join(outDir, "results.json");
  writeFileSync(resultsPath, `${JSON.stringify(results, null, 2)}\n`);
  console.log(`\nWrote ${relative(root, resultsPath)} (${results.durationS.toFixed(0)} s in all)`);
}

async function perBufferSection(bench, settings, machine, results) {
  const inProcess = await measureInProcess({
    executable: pipelineBenchPath(root), env: bench.env, buffers: settings.segmentBuffers, rounds: settings.segmentRounds,
    trials: settings.trials, onProgress: progress("in-process trials"),
  });
  printInProcess(inProcess, machine.cores);

  const configurations = perBufferConfigurations(bench.native.tunables);
  const { results: perBuffer, load: perBufferLoad } = await measurePerBuffer({
    env: bench.env, configurations, buffers: settings.buffers, rounds: settings.rounds, onProgress: progress("per-buffer runs"),
  });
  const tsResult = perBuffer.find((result) => result.peer === "ts");
  const pythonResult = perBuffer.find((result) => result.peer === "python");
  const ts = tsResult.overheadUs;
  const python = pythonResult.overheadUs;
  const perBufferRatios = {
    ts,
    python,
    tsToPython: python > 0 ? ts / python : null,
    bestRunTsToPython: pythonResult.bestRunOverheadUs > 0 ? tsResult.bestRunOverheadUs / pythonResult.bestRunOverheadUs : null,
  };
  printPerBuffer(perBuffer, perBufferRatios, settings.buffers, perBufferLoad, machine.cores);
  results.perBuffer = {
    target: 0.1,
    steadyState: {
      method: "dsnode-pipeline-bench: one process, identity/noopy/noopts pipelines played in turn; per round (T_element - T_identity) / buffers; median round per trial, median of trials",
      ...inProcess,
    },
    ratioTsToGstPython: inProcess.ratioTsToGstPython,
    wholeRuns: {
      method: "gst-launch 'Execution ended after' (PLAYING->EOS), one process per run; overhead = (median T_element - median T_identity) / buffers",
      results: perBuffer,
      backgroundCores: perBufferLoad.backgroundCores,
      tsOverheadUs: ts,
      gstPythonOverheadUs: python,
      ratioTsToGstPython: perBufferRatios.tsToPython,
      bestRunRatioTsToGstPython: perBufferRatios.bestRunTsToPython,
    },
  };
}

async function inspectSection(bench, settings, results) {
  const inspect = await measureInspect({
    env: bench.env, elements: ["identity", "noopts", "noopy"], runs: settings.inspectRuns, onProgress: progress("gst-inspect runs"),
  });
  const median = (element) => inspect.find((result) => result.element === element).seconds.median;
  const inspectRatio = median("noopts") / median("identity");
  const lazyLibnode = await checkLazyLibnode({ env: bench.env, element: "noopts" });
  printInspect(inspect, inspectRatio, lazyLibnode);
  results.inspect = {
    method: "wall time of gst-inspect-1.0 <element> with a warm private registry, interleaved runs",
    results: inspect,
    ratioNooptsToIdentity: inspectRatio,
    target: 1.3,
    lazyLibnode,
  };
}

main().catch((error) => {
  console.error(`bench: ${error.message}`);
  process.exitCode = 1;
});
