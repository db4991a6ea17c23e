// Section 6: many streams in one process. 1, 4 and 16 independent streams (each its own source,
// element and sink, so its own streaming thread), and 4 branches of one tee, for identity, the
// gst-python no-op and the TypeScript no-op under each hand-off; the figure is the CPU time the
// whole process spends per buffer an element handles, from PLAYING to EOS (streams-bench).
import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { commandFailure, runCommand } from "./command.mjs";
import { median } from "./statistics.mjs";

const CAPS = "video/x-raw,format=GRAY8,width=16,height=16";

export const STREAM_LAYOUTS = [
  { name: "1 stream", streams: 1 },
  { name: "4 streams", streams: 4 },
  { name: "16 streams", streams: 16 },
  { name: "4 branches of one tee", tee: 4 },
];

export const STREAM_CONFIGURATIONS = [
  { name: "identity", element: "identity", env: {} },
  { name: "gst-python", element: "noopy", env: {} },
  { name: "TS (direct hand-off, default)", element: "noopts", env: {} },
  // Streaming threads take the isolate whenever it is free, as before turns (isolate_gate.h).
  { name: "TS, direct hand-off, no turns at the isolate's gate", element: "noopts", env: { DS_ELEMENT_GATE_TURN_US: "0" } },
  // Waiters sleep at the isolate's gate at once: the many-stream convoy (bench/RESULTS.md).
  { name: "TS, direct hand-off, no spin at the isolate's gate", element: "noopts", env: { DS_ELEMENT_SPIN_US: "0" } },
  { name: "TS, queue hand-off (spinning)", element: "noopts", env: { DS_ELEMENT_HANDOFF: "queue" } },
  { name: "TS, queue hand-off, no spinning", element: "noopts", env: { DS_ELEMENT_HANDOFF: "queue", DS_ELEMENT_SPIN_US: "0", DS_ELEMENT_JS_SPIN_US: "0" } },
];

/** Compiles streams-bench (plain C over GStreamer) into bench/out. */
export function buildStreamsBench(root) {
  const out = join(root, "bench", "out");
  mkdirSync(out, { recursive: true });
  const executable = join(out, "streams-bench");
  const flags = execFileSync("pkg-config", ["--cflags", "--libs", "gstreamer-1.0"], { encoding: "utf8" }).trim().split(/\s+/);
  execFileSync("cc", ["-O2", "-Wall", join(root, "bench", "streams", "streams_bench.c"), ...flags, "-o", executable], { stdio: "inherit" });
  return executable;
}

/** The pipeline of a layout, and how many buffers its elements handle in all. */
export function streamsPipeline(layout, element, buffersInAll) {
  if (layout.tee !== undefined) {
    const perBranch = Math.round(buffersInAll / layout.tee);
    const branches = Array.from({ length: layout.tee }, () => `t. ! queue ! ${element} ! fakesink`).join(" ");
    return { description: `videotestsrc num-buffers=${perBranch} ! ${CAPS} ! tee name=t ${branches}`, buffers: perBranch * layout.tee };
  }
  const perStream = Math.round(buffersInAll / layout.streams);
  const stream = `videotestsrc num-buffers=${perStream} ! ${CAPS} ! ${element} ! fakesink`;
  return { description: Array.from({ length: layout.streams }, () => stream).join(" "), buffers: perStream * layout.streams };
}

/**
 * Every layout × configuration, one process each, `rounds` rounds (the first is V8's and
 * Python's warm-up and is not counted); `trials` passes over the whole matrix, each in the
 * reverse order of the one before, so a slow stretch of the machine does not fall on one
 * configuration only. The figure is the median of all counted rounds.
 */
export async function measureStreams({ executable, env, buffers, rounds, trials, onProgress }) {
  const cells = STREAM_LAYOUTS.flatMap((layout) => STREAM_CONFIGURATIONS.map((configuration) => ({ layout, configuration, rounds: [] })));
  await playCells({ executable, env, rounds, trials, onProgress, cells, describe: (cell) => {
    const pipeline = streamsPipeline(cell.layout, cell.configuration.element, buffers);
    cell.buffers = pipeline.buffers;
    return { pipeline: pipeline.description, name: `${cell.layout.name}, ${cell.configuration.name}` };
  } });
  const results = cells.map((cell) => ({
    layout: cell.layout.name,
    configuration: cell.configuration.name,
    element: cell.configuration.element,
    buffers: cell.buffers,
    cpuUsPerBuffer: (median(cell.rounds.map((round) => round.cpu_s)) / cell.buffers) * 1e6,
    wallUsPerBuffer: (median(cell.rounds.map((round) => round.wall_s)) / cell.buffers) * 1e6,
    rounds: cell.rounds,
  }));
  return summarise(results);
}

/**
 * Plays every cell's pipeline in a streams-bench process of its own, `trials` passes, each in
 * the reverse order of the one before; appends the counted rounds (all but the warm-up) to
 * `cell.rounds`. `describe(cell)` gives the pipeline and the cell's name for errors.
 */
export async function playCells({ executable, env, rounds, trials, onProgress, cells, describe }) {
  let done = 0;
  for (let trial = 0; trial < trials; trial++) {
    for (const cell of trial % 2 === 0 ? cells : [...cells].reverse()) {
      const { pipeline, name } = describe(cell);
      const argv = [executable, String(rounds), pipeline];
      const run = await runCommand(argv, { env: { ...env, ...cell.configuration.env }, timeoutMs: 600_000 });
      if (run.code !== 0) throw commandFailure(`streams-bench (${name})`, argv, run);
      cell.rounds.push(...parseRounds(run.output).slice(1));
      onProgress?.(++done, cells.length * trials);
    }
  }
}

/** The rounds streams-bench printed (its JSON line; GStreamer may print warnings around it). */
export function parseRounds(output) {
  const line = output.split("\n").find((text) => text.startsWith('{"rounds"'));
  if (line === undefined) throw new Error(`streams-bench printed no results:\n${output}`);
  return JSON.parse(line).rounds;
}

function summarise(results) {
  const table = STREAM_LAYOUTS.map((layout) => {
    const of = (name) => results.find((result) => result.layout === layout.name && result.configuration === name);
    const identity = of("identity").cpuUsPerBuffer;
    const tsRow = of("TS (direct hand-off, default)");
    const ts = tsRow.cpuUsPerBuffer;
    const noTurns = of("TS, direct hand-off, no turns at the isolate's gate");
    const gateNotSpinning = of("TS, direct hand-off, no spin at the isolate's gate").cpuUsPerBuffer;
    const spinning = of("TS, queue hand-off (spinning)").cpuUsPerBuffer;
    const notSpinning = of("TS, queue hand-off, no spinning").cpuUsPerBuffer;
    return {
      layout: layout.name,
      identityUs: identity,
      gstPythonUs: of("gst-python").cpuUsPerBuffer,
      tsUs: ts,
      tsQueueSpinningUs: spinning,
      tsQueueNotSpinningUs: notSpinning,
      tsToIdentity: ts / identity,
      tsNoTurnsToIdentity: noTurns.cpuUsPerBuffer / identity,
      // Wall time per buffer: turns save CPU; this shows what they do to throughput.
      identityWallUs: of("identity").wallUsPerBuffer,
      tsWallUs: tsRow.wallUsPerBuffer,
      tsNoTurnsWallUs: noTurns.wallUsPerBuffer,
      tsGateNotSpinningUs: gateNotSpinning,
      tsGateNotSpinningToIdentity: gateNotSpinning / identity,
      gstPythonToIdentity: of("gst-python").cpuUsPerBuffer / identity,
      spinCostUs: spinning - notSpinning,
    };
  });
  return { results, table };
}
