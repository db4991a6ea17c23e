// The overlay section: what drawing 50 labelled boxes costs per 1280x720 frame, dsosd against
// cairooverlay (GStreamer's Cairo overlay, its draw callback drawing the same boxes and Pango
// labels), in one process (native-host/bench/osd_bench.cpp, CMake target dsnode-osd-bench):
// the pipelines take turns, so a slow stretch of the machine falls on all of them. Per round,
// dsosd's cost is its segment minus the segment that only writes the metadata (benchboxes), and
// cairooverlay's is its segment minus a plain one. Labels stable from frame to frame (class names,
// tracker ids: dsosd renders each once and caches it) and changing every frame (no cache hit).
import { commandFailure, runCommand } from "./command.mjs";
import { backgroundCores, machineBusySeconds } from "./cpu-load.mjs";
import { buildNativeTarget, nativeBuildDir } from "./native-build.mjs";
import { parseSegments } from "./in-process.mjs";
import { median, quartiles } from "./statistics.mjs";
import { join } from "node:path";

export async function buildOsdBench(root) {
  await buildNativeTarget(nativeBuildDir(root), "dsnode-osd-bench", "dsnode-osd-bench");
}

/** Per round (T_a - T_b) / frames in ms; the median round, and the quartiles. */
function costs(ms, a, b, frames) {
  const rounds = ms[a].map((value, i) => (value - ms[b][i]) / frames);
  return { msPerFrame: median(rounds), quartiles: quartiles(rounds) };
}

/** `env` must show benchboxes (bench/elements) and dsosd (the SDK's built-in elements). */
export async function measureOsd({ root, env, frames, rounds, objects }) {
  const executable = join(nativeBuildDir(root), "dsnode-osd-bench");
  const busyBeforeS = machineBusySeconds();
  const startedAt = process.hrtime.bigint();
  const argv = [executable, String(frames), String(rounds), String(objects)];
  const result = await runCommand(argv, { env, cpu: true, timeoutMs: 600_000 });
  const parsed = parseSegments(result.output);
  if (result.code !== 0 || parsed === null) throw commandFailure("the overlay bench", argv, result);
  const ms = Object.fromEntries(parsed.elements.map((entry) => [entry.name, entry.ms]));
  const stable = { dsosd: costs(ms, "dsosd", "scene", frames), cairooverlay: costs(ms, "cairooverlay", "plain", frames) };
  const changing = { dsosd: costs(ms, "dsosd-changing", "scene-changing", frames), cairooverlay: costs(ms, "cairooverlay-changing", "plain", frames) };
  const load = backgroundCores({
    busyBeforeS, busyAfterS: machineBusySeconds(), wallS: Number(process.hrtime.bigint() - startedAt) / 1e9, ownCpuS: result.cpuS ?? 0,
  });
  return {
    method: "dsnode-osd-bench: one process, the pipelines played in turn; per round (T_dsosd - T_benchboxes) / frames and (T_cairooverlay - T_plain) / frames; median round",
    frames, rounds, objects, backgroundCores: load,
    stable: { ...stable, ratio: stable.dsosd.msPerFrame / stable.cairooverlay.msPerFrame },
    changing: { ...changing, ratio: changing.dsosd.msPerFrame / changing.cairooverlay.msPerFrame },
    segmentMsMedian: Object.fromEntries(Object.entries(ms).map(([name, values]) => [name, median(values)])),
  };
}
