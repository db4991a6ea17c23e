// Per-buffer overhead in one process: native-host/bench/pipeline_bench.cpp (CMake target
// dsnode-pipeline-bench) holds identity's, gst-python's and the TypeScript element's pipelines
// and plays them in turn, one segment of `buffers` buffers each per round. Within a round the
// three segments run within a second of each other, so a slow or fast stretch of the machine
// (a small VM has both, for seconds to minutes) falls on all three; the overhead of a round is
// its element segment minus its identity segment. Node and Python stay warm between segments:
// this is the steady state. Each element's first segment (start-up and warm-up) is kept apart.
// Several trials (processes) in alternating element order, because a process's code and heap
// layout also make it a little faster or slower as a whole.
import { join } from "node:path";
import { commandFailure, runCommand } from "./command.mjs";
import { backgroundCores, machineBusySeconds } from "./cpu-load.mjs";
import { buildNativeTarget, nativeBuildDir } from "./native-build.mjs";
import { median, quartiles } from "./statistics.mjs";

/** In this order in even trials, reversed in odd ones; identity is each round's baseline. */
const ELEMENTS = ["identity", "noopy", "noopts"];

/** The built executable, in the native build folder. */
export function pipelineBenchPath(root) {
  return join(nativeBuildDir(root), "dsnode-pipeline-bench");
}

/** Builds dsnode-pipeline-bench (a CMake target outside ALL) in the native build folder. */
export async function buildPipelineBench(root) {
  await buildNativeTarget(nativeBuildDir(root), "dsnode-pipeline-bench", "dsnode-pipeline-bench");
}

/** The JSON line of a program of native-host/bench/segments.h ({"buffers" or {"frames"), or null. */
export function parseSegments(output) {
  const line = output.split("\n").find((text) => /^\{"(buffers|frames)"/.test(text));
  if (line === undefined) return null;
  try {
    return JSON.parse(line);
  } catch {
    return null;
  }
}

/**
 * Per round: (T_element - T_identity) / buffers, in microseconds. Per trial: the median round.
 * The figures: medians over the trials, and the ratio TS / gst-python of those.
 */
export function summariseSegments(trials) {
  const perTrial = trials.map(({ buffers, elements }) => {
    const ms = Object.fromEntries(elements.map((entry) => [entry.name, entry.ms]));
    const rounds = ms.identity.length;
    const overhead = (name) => median(Array.from({ length: rounds }, (_, i) => ((ms[name][i] - ms.identity[i]) / buffers) * 1000));
    const overheadUs = { noopy: overhead("noopy"), noopts: overhead("noopts") };
    const roundRatios = Array.from({ length: rounds }, (_, i) => (ms.noopts[i] - ms.identity[i]) / (ms.noopy[i] - ms.identity[i]));
    return {
      usPerBuffer: Object.fromEntries(ELEMENTS.map((name) => [name, (median(ms[name]) / buffers) * 1000])),
      overheadUs,
      firstSegmentMs: Object.fromEntries(elements.map((entry) => [entry.name, entry.firstMs])),
      ratio: overheadUs.noopts / overheadUs.noopy,
      roundRatioQuartiles: quartiles(roundRatios),
    };
  });
  const ts = median(perTrial.map((trial) => trial.overheadUs.noopts));
  const python = median(perTrial.map((trial) => trial.overheadUs.noopy));
  return {
    perTrial,
    tsOverheadUs: ts,
    gstPythonOverheadUs: python,
    ratioTsToGstPython: python > 0 ? ts / python : null,
    trialRatios: perTrial.map((trial) => trial.ratio),
  };
}

export async function measureInProcess({ executable, env, buffers, rounds, trials, onProgress }) {
  const busyBeforeS = machineBusySeconds();
  const startedAt = process.hrtime.bigint();
  let ownCpuS = 0;
  const runs = [];
  for (let trial = 0; trial < trials; trial++) {
    const elements = trial % 2 === 1 ? [...ELEMENTS].reverse() : ELEMENTS;
    const argv = [executable, String(buffers), String(rounds), ...elements];
    const result = await runCommand(argv, { env, cpu: true, timeoutMs: 600_000 });
    ownCpuS += result.cpuS ?? 0;
    const parsed = parseSegments(result.output);
    if (result.code !== 0 || parsed === null) throw commandFailure("the in-process per-buffer run", argv, result);
    runs.push(parsed);
    onProgress?.(trial + 1, trials);
  }
  const load = backgroundCores({
    busyBeforeS, busyAfterS: machineBusySeconds(), wallS: Number(process.hrtime.bigint() - startedAt) / 1e9, ownCpuS,
  });
  return { buffers, rounds, trials, backgroundCores: load, ...summariseSegments(runs) };
}
