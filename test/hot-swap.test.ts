// Changing an InferenceElement's `model` while PLAYING. The ball
// detector starts on the model that reports the ball as class 0 and is switched to its twin
// that reports it as class 1; a python3-gi host sets the property from a pad probe just before
// a known buffer and counts buffers in and out. No buffer may be lost, every frame must carry
// the output of exactly one model, and the switch must happen between two batches, at the
// first one after the new model finished loading (logged by the element). A model that takes
// long to set up must not hold the buffers back meanwhile: it loads on a thread of its own.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeBallModel } from "../sdk/src/test-support/ball-model";
import { outRoot, pythonHost, repoRoot, scratchDir } from "./helpers/gst";
import { ballDetectorDist, builtinDist } from "./helpers/projects";

const models = join(repoRoot, "examples", "ball-detector", "model");
const FRAMES = 240;
const SWAP_AT = 60;

interface Swap {
  counts: { in: number; out: number; swapAt: number };
  classes: number[][];
  log: string;
}

function runSwap(newModel: string, frames = FRAMES): Swap {
  const dir = scratchDir("hot-swap");
  const dump = join(dir, "dump.jsonl");
  const run = pythonHost("hot_swap.py", [join(models, "ball.onnx"), newModel, dump, String(frames), String(SWAP_AT)], {
    dists: [ballDetectorDist, builtinDist],
    registry: join(dir, "registry.bin"),
    timeoutMs: 150_000,
    env: { GST_DEBUG: "balldetector:4" },
  });
  expect(run.signal, run.stderr).toBeNull();
  expect(run.code, run.output).toBe(0);
  const lines = readFileSync(dump, "utf8").trim().split("\n").map((line) => JSON.parse(line) as { frameItems: { frameNum: number; objectItems: { classId: number }[] }[] });
  return {
    counts: JSON.parse(run.stdout.trim().split("\n").at(-1)!) as Swap["counts"],
    classes: lines.map((line) => line.frameItems[0]!.objectItems.map((object) => object.classId)),
    log: run.stderr,
  };
}

describe("InferenceElement: model changed while PLAYING", () => {
  it("loses no buffer and switches to the new model between two batches, soon after the request", () => {
    const { counts, classes, log } = runSwap(join(models, "ball-as-class-1.onnx"));
    expect(counts).toEqual({ in: FRAMES, out: FRAMES, swapAt: SWAP_AT });
    expect(classes).toHaveLength(FRAMES);
    // Every frame has one detection, from one model: class 0 (old) or class 1 (new).
    for (const [n, found] of classes.entries()) expect(found.length === 1 && [0, 1].includes(found[0]!), `frame ${n}: ${JSON.stringify(found)}`).toBe(true);
    const switchedAt = classes.findIndex((found) => found[0] === 1);
    // Old model up to the switch, new model from it on: one switch, never back.
    expect(classes.slice(0, switchedAt).every((found) => found[0] === 0)).toBe(true);
    expect(classes.slice(switchedAt).every((found) => found[0] === 1)).toBe(true);
    // The request came before buffer SWAP_AT; the load runs in the background, so the switch
    // comes after it, and the tiny model loads in milliseconds (frames are 16.7 ms apart).
    expect(switchedAt).toBeGreaterThan(SWAP_AT);
    expect(switchedAt).toBeLessThanOrEqual(SWAP_AT + 30);
    expect(log).toMatch(/loaded \S+ball-as-class-1\.onnx \(onnxruntime\)/);
    expect(log).toMatch(/switched to \S+ball-as-class-1\.onnx/);
  });

  it("keeps every buffer flowing while a model that is slow to set up loads", () => {
    // ONNX Runtime computes this twin's constant subgraph (matrix products) while it sets the
    // session up; at inference it is the class-1 ball model.
    const slow = makeBallModel("ball-as-class-1-slow", { ballClass: 1, setupWork: 150 });
    const frames = 480;
    const { counts, classes, log } = runSwap(slow, frames);
    expect(counts).toEqual({ in: frames, out: frames, swapAt: SWAP_AT });
    const loadMs = Number(/loaded \S+ball-as-class-1-slow\.onnx \(onnxruntime\) in (\d+) ms/.exec(log)?.[1]);
    expect(loadMs, log).toBeGreaterThan(0);
    const switchedAt = classes.findIndex((found) => found[0] === 1);
    expect(switchedAt, `no frame from the new model in ${frames}; load took ${loadMs} ms`).toBeGreaterThan(SWAP_AT);
    expect(classes.slice(switchedAt).every((found) => found.length === 1 && found[0] === 1)).toBe(true);
    // The source makes a frame every 16.7 ms. Had the load held the streaming thread, the
    // frames queued behind it would have reached the element after the load, on the new model:
    // the switch would come within a frame or two of the request. Frames went through on the
    // old model for (most of) the load instead.
    expect(switchedAt - SWAP_AT, `frames on the old model during a ${loadMs} ms load`).toBeGreaterThanOrEqual(Math.floor((loadMs / (1000 / 60)) / 2));
  });

  it("keeps the old model, and every buffer, when the new one cannot be loaded", () => {
    const missing = join(models, "no-such-model.onnx");
    const { counts, classes, log } = runSwap(missing);
    expect(counts).toEqual({ in: FRAMES, out: FRAMES, swapAt: SWAP_AT });
    expect(classes.every((found) => found.length === 1 && found[0] === 0)).toBe(true);
    expect(log).toContain(`cannot switch to ${missing}, keeping ${join(models, "ball.onnx")}: Cannot load the ONNX model ${missing}: no such file`);
  });

  // Issue 29: each change used to start a load of its own, each with a session thread and its
  // memory, all at once (every 200 ms for 200 s: 962 threads, 11.7 GB; every 50 ms: 34 frames
  // out of a 30 fps source in 40 s). Changes are coalesced now: one load in flight, and only the
  // latest change waits for it. CI runs 12 s of it; SWAP_STORM_S=60 runs the 60 s of the issue
  // (figures in STORM_FIGURES below, and in test/out/hot-swap-storm.json after such a run).
  it("coalesces changes faster than loads: threads and memory stay flat, frames flow, the last model runs", () => {
    const seconds = Number(process.env.SWAP_STORM_S ?? 12);
    const dir = scratchDir("hot-swap-storm");
    const dump = join(dir, "dump.jsonl");
    const slow = makeBallModel("ball-as-class-1-slow", { ballClass: 1, setupWork: 150 });
    const run = pythonHost("hot_swap_storm.py", [join(models, "ball.onnx"), slow, dump, String(seconds), "50", "1"], {
      dists: [ballDetectorDist, builtinDist],
      registry: join(dir, "registry.bin"),
      timeoutMs: (seconds + 240) * 1000,
      env: { GST_DEBUG: "balldetector:4" },
    });
    expect(run.signal, run.stderr).toBeNull();
    expect(run.code, run.output).toBe(0);
    const report = JSON.parse(run.stdout.trim().split("\n").at(-1)!) as {
      expected: number; in: number; out: number; changes: number; last: string; threads: [number, number]; rssMb: [number, number, number];
      storm: [number, number][];
    };
    // Measuring (SWAP_STORM_S set): the figures, for the bounds below.
    if (process.env.SWAP_STORM_S !== undefined) writeFileSync(join(outRoot, "hot-swap-storm.json"), JSON.stringify(report));
    expect(report.changes).toBeGreaterThanOrEqual(seconds * 10);
    expect(report.in).toBe(report.out);
    expect(report.out, JSON.stringify(report)).toBeGreaterThanOrEqual(0.9 * report.expected);
    // One model running, one loading, one taken at the next batch: a session thread pool each.
    expect(report.threads[1] - report.threads[0], JSON.stringify(report)).toBeLessThanOrEqual(STORM_FIGURES.maxExtraThreads);
    // Memory does not grow with the number of changes. Each load raises resident memory while
    // ONNX Runtime sets the slow twin up, and gives it back when the load lands: a sawtooth whose
    // height is the platform's (+170 MB on Debian 12, +300 on sid), over a baseline the first
    // sample may catch before or after the start's own load (166 to 415 MB on sid). So: the
    // resident memory once the storm is over (the last model running, the others disposed) is
    // not above the lowest the storm went through, and the storm's second half does not go
    // higher than its first. A session kept alive at every change fails both (STORM_FIGURES).
    const storm = report.storm.map(([, mb]) => mb);
    expect(storm.length, JSON.stringify(report)).toBeGreaterThanOrEqual(8);
    expect(report.rssMb[2] - Math.min(...storm), JSON.stringify(report)).toBeLessThanOrEqual(STORM_FIGURES.maxRssAfterStormMb);
    const half = Math.floor(storm.length / 2);
    expect(Math.max(...storm.slice(half)) - Math.max(...storm.slice(0, half)), JSON.stringify(report)).toBeLessThanOrEqual(STORM_FIGURES.maxRssSecondHalfMb);
    // The last change (ball.onnx, class 0) is the model of the last frames.
    const classes = readFileSync(dump, "utf8").trim().split("\n").map((line) => (JSON.parse(line) as { frameItems: { objectItems: { classId: number }[] }[] }).frameItems[0]!.objectItems.map((object) => object.classId));
    expect(report.last).toBe(join(models, "ball.onnx"));
    expect(classes.slice(-10), run.stderr.slice(-2000)).toEqual(Array(10).fill([0]));
  });
});

/**
 * Bounds for the storm test. Measured with SWAP_STORM_S=60 on the 2-core CI machine under a load
 * average of ~10, twice: 1 097 and 1 071 changes, 1 895 of 1 890 and 1 944 of 1 985 frames the
 * source's clock made (100 %, 98 %), threads 12 → 15 at most, the last model running. The 12 s
 * run takes ~27 s. Before (issue 29) every change started a load of its own: 8 s of it reached
 * 122 threads and 847 MB, let 22 of 334 frames through and aborted the process.
 *
 * Resident memory is a sawtooth, the same at every number of changes (2026-12-07, 2-core
 * machine; MB at the troughs / peaks): Debian 12 (Node 18), 20 s, 381 changes: 377-395 / 511-553;
 * sid (Node 24, GStreamer 1.28), 20 s, 333 changes: 440-466 / 724-737; 40 s, 709 changes:
 * 428-464 / 699-758, 225 MB once the storm was over. The last sample minus the storm's lowest:
 * -1 and +21 MB (Debian 12), -186 and -192 (sid); the second half's peak minus the first's: +26
 * and +22 (Debian 12), +13 and +17 (sid). The bound on the second is two thirds of one load's
 * tooth on sid, for a first half that a slow machine ends in the middle of a load: a coarse guard;
 * the first is the firm one. Injected leak (every session kept alive instead of disposed), 12 s:
 * Debian 12, 223 changes: threads 13 → 20 (within maxExtraThreads), resident memory 329 →
 * 1 053 MB, +723 and +457 on the two; sid, 233 changes: threads 14 → 21, 410 → 1 025 MB, +586
 * and +275. Both fail on each.
 * The bound it replaces (the peak at most 400 MB above the first sample) failed on sid at +452
 * without a leak: a first sample of 166 MB, 198 at the end.
 */
const STORM_FIGURES = { maxExtraThreads: 12, maxRssAfterStormMb: 100, maxRssSecondHalfMb: 200 };
