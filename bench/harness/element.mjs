// Section 7: a whole element against what a user would otherwise write. The ball detector
// example (TypeScript: native letterbox + normalise, ONNX Runtime on its runner thread,
// decodeYolo + nms + mapBoxes, object metadata) against its gst-python peer (OpenCV resize +
// numpy, the same ONNX model in a numpy interpreter of its graph, numpy decode + NMS, a
// GstCustomMeta per buffer), on 1280x720 frames of videotestsrc's ball. Per frame: the time the
// element held the buffer (streams-bench's probe: sink pad to source pad) less the model's own
// time, as each element measured it; the figure is the ratio of the means.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { commandFailure, runCommand } from "./command.mjs";
import { parseRounds } from "./streams.mjs";
import { median } from "./statistics.mjs";

const WARM_UP_FRAMES = 20;

function pipeline(element, frames) {
  return `videotestsrc pattern=ball num-buffers=${frames} ! video/x-raw,format=RGB,width=1280,height=720 ! ${element} ! fakesink`;
}

/** One process: a warm-up round, then the measured one; the element's report is of the last. */
async function measureOnce({ executable, env, side, frames, model, reportPath }) {
  const element = side === "ts" ? `balldetector name=subject model=${model}` : `ballpy name=subject model=${model} report=${reportPath}`;
  const argv = [executable, "2", pipeline(element, frames), "--probe", "subject", "--warmup", String(WARM_UP_FRAMES)];
  const run = await runCommand(argv, { env: { ...env, DS_BENCH_BALL_REPORT: reportPath }, timeoutMs: 600_000 });
  if (run.code !== 0) throw commandFailure(`streams-bench (${side} ball detector)`, argv, run);
  const measured = parseRounds(run.output).at(-1);
  const report = JSON.parse(readFileSync(reportPath, "utf8")).slice(WARM_UP_FRAMES);
  const modelMs = report.reduce((sum, frame) => sum + frame.modelMs, 0) / report.length;
  const heldMs = measured.probe.mean_us / 1000;
  return { heldMs, modelMs, elementMs: heldMs - modelMs, cpuS: measured.cpu_s, frames: report };
}

/** Frames whose objects differ between the two sides (count, class, or a box edge by more than `pixels`). */
function disagreements(ts, python, pixels) {
  const differ = [];
  for (let i = 0; i < Math.min(ts.length, python.length); i++) {
    const [a, b] = [ts[i].objects, python[i].objects];
    const same =
      a.length === b.length &&
      a.every((obj, k) => obj.classId === b[k].classId && ["left", "top", "width", "height"].every((key) => Math.abs(obj[key] - b[k][key]) <= pixels));
    if (!same) differ.push({ frame: i + WARM_UP_FRAMES, ts: a, python: b });
  }
  return differ;
}

export async function measureElement({ root, executable, env, frames, trials, onProgress }) {
  const model = join(root, "examples", "ball-detector", "model", "ball.onnx");
  const out = join(root, "bench", "out");
  const runs = { ts: [], python: [] };
  for (let trial = 0; trial < trials; trial++) {
    // Alternating which side goes first.
    for (const side of trial % 2 === 0 ? ["ts", "python"] : ["python", "ts"]) {
      runs[side].push(await measureOnce({ executable, env, side, frames, model, reportPath: join(out, `ball-${side}.json`) }));
      onProgress?.(runs.ts.length + runs.python.length, 2 * trials);
    }
  }
  const figure = (side, key) => median(runs[side].map((run) => run[key]));
  const differ = disagreements(runs.ts.at(-1).frames, runs.python.at(-1).frames, 1);
  const strip = (run) => ({ heldMs: run.heldMs, modelMs: run.modelMs, elementMs: run.elementMs, cpuS: run.cpuS });
  const ts = { heldMs: figure("ts", "heldMs"), modelMs: figure("ts", "modelMs"), elementMs: figure("ts", "elementMs"), runs: runs.ts.map(strip) };
  const python = { heldMs: figure("python", "heldMs"), modelMs: figure("python", "modelMs"), elementMs: figure("python", "elementMs"), runs: runs.python.map(strip) };
  return {
    frames,
    warmUpFrames: WARM_UP_FRAMES,
    ts,
    python,
    ratio: ts.elementMs / python.elementMs,
    trialRatios: runs.ts.map((run, i) => run.elementMs / runs.python[i].elementMs),
    framesCompared: Math.min(runs.ts.at(-1).frames.length, runs.python.at(-1).frames.length),
    disagreements: differ,
  };
}
