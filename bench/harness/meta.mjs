// Metadata writes: the cost per object of writing detections from TypeScript (one by one and
// with the bulk frame.addObjects) against the same work done directly in C++ on the portable
// backend (targets: bulk <= 2x C++, one by one <= 10x C++). Two peer programs do the same
// work and print ns/object as JSON: native-host/bench/meta_bench.cpp (built here as the CMake
// target dsnode-meta-bench) and bench/harness/meta-ts-peer.mjs (the built SDK over the testing
// addon dsnode_standalone.node). Each trial runs both, in alternating order; the figures are the
// median over the trials of each program's median round.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { commandFailure, runCommand } from "./command.mjs";
import { backgroundCores, machineBusySeconds } from "./cpu-load.mjs";
import { buildNativeTarget, nativeBuildDir } from "./native-build.mjs";
import { median } from "./statistics.mjs";

export const META_TARGETS = { oneByOne: 10, bulk: 2 };

/** V8 must have optimised the TS path before rounds count: at least 20 rounds and 20 000 objects of warm-up. */
export function metaWarmupRounds(objects) {
  return Math.max(20, Math.ceil(20_000 / objects));
}

/**
 * Where the peers come from: DS_BENCH_NATIVE_DIR (a CMake build folder of native-host, which
 * holds dsnode_standalone.node itself) or native-host/build (cmake-js puts the addon in Release/).
 */
export function metaPeers(root) {
  const nativeDir = process.env.DS_BENCH_NATIVE_DIR;
  const buildDir = nativeBuildDir(root);
  return {
    buildDir,
    executable: join(buildDir, "dsnode-meta-bench"),
    addon: nativeDir ? join(nativeDir, "dsnode_standalone.node") : join(buildDir, "Release", "dsnode_standalone.node"),
    tsPeer: join(root, "bench", "harness", "meta-ts-peer.mjs"),
    sdk: join(root, "sdk", "dist", "metadata", "batch-meta.js"),
  };
}

/** Builds the C++ peer (a CMake target outside ALL) in the native build folder. */
export async function buildMetaPeer(peers) {
  for (const file of [peers.addon, peers.sdk]) {
    if (!existsSync(file)) throw new Error(`Expected ${file}: run \`npm run build\` first`);
  }
  await buildNativeTarget(peers.buildDir, "dsnode-meta-bench", "the C++ peer dsnode-meta-bench");
}

export async function measureMeta({ peers, objects, rounds, trials, onProgress }) {
  const warmup = metaWarmupRounds(objects);
  const commands = {
    "c++": [peers.executable, String(objects), String(rounds), String(warmup)],
    ts: [process.execPath, peers.tsPeer, String(objects), String(rounds), String(warmup)],
  };
  const env = { ...process.env, DSNODE_STANDALONE_BINDING: peers.addon };
  const runs = { "c++": [], ts: [] };
  const busyBeforeS = machineBusySeconds();
  const startedAt = process.hrtime.bigint();
  let ownCpuS = 0;
  let done = 0;
  for (let trial = 0; trial < trials; trial++) {
    const order = trial % 2 === 0 ? ["c++", "ts"] : ["ts", "c++"];
    for (const peer of order) {
      const result = await runCommand(commands[peer], { env, cpu: true });
      ownCpuS += result.cpuS ?? 0;
      let parsed = null;
      try {
        parsed = JSON.parse(result.output.slice(result.output.indexOf("{"), result.output.lastIndexOf("}") + 1));
      } catch {
        // reported below with the output
      }
      if (result.code !== 0 || parsed === null) throw commandFailure(`the ${peer} metadata peer`, commands[peer], result);
      runs[peer].push(parsed);
      onProgress?.(++done, trials * 2);
    }
  }
  const load = {
    backgroundCores: backgroundCores({
      busyBeforeS, busyAfterS: machineBusySeconds(), wallS: Number(process.hrtime.bigint() - startedAt) / 1e9, ownCpuS,
    }),
  };

  const figures = (peer, mode) => {
    const trialsOfPeer = runs[peer].map((run) => run[mode]);
    return {
      nsPerObject: median(trialsOfPeer.map((series) => series.nsPerObject)),
      mean: median(trialsOfPeer.map((series) => series.mean)),
      best: Math.min(...trialsOfPeer.map((series) => series.min)),
      trials: trialsOfPeer.map((series) => series.nsPerObject),
    };
  };
  const modes = ["oneByOne", "bulk"].map((mode) => {
    const cpp = figures("c++", mode);
    const ts = figures("ts", mode);
    return {
      mode,
      cpp,
      ts,
      ratio: ts.nsPerObject / cpp.nsPerObject,
      meanRatio: ts.mean / cpp.mean,
      bestRatio: ts.best / cpp.best,
      trialRatios: ts.trials.map((value, index) => value / cpp.trials[index]),
      target: META_TARGETS[mode],
    };
  });
  return {
    method: "ns per object of a call writing N objects into one frame of a portable batch (call opened, objects written, committed, closed); median round of each peer program, median over trials",
    objects,
    rounds,
    warmup,
    trials,
    commands: Object.fromEntries(Object.entries(commands).map(([peer, argv]) => [peer, argv.join(" ")])),
    results: modes,
    backgroundCores: load.backgroundCores,
  };
}
