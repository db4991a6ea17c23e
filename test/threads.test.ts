// Two TS elements on two streaming threads, and a long-lived host process that
// builds and tears pipelines down many times.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { launch, pythonHost, scratchDir } from "./helpers/gst";
import { exampleDist } from "./helpers/projects";

function frameNumbers(path: string): number[] {
  return readFileSync(path, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { type: string; frameNum?: number })
    .filter((line) => line.type === "frame")
    .map((line) => line.frameNum as number);
}

/** A python3-gi program of test/stress/ with the example on the plugin path and a registry in `dir`; its stdout. */
function runStressScript(script: string, args: string[], dir: string, timeoutMs: number, env: Record<string, string> = {}): string {
  const run = pythonHost(script, args, { dists: [exampleDist], registry: join(dir, "registry.bin"), timeoutMs, env });
  expect(run.signal, run.output).toBeNull();
  expect(run.code, run.output).toBe(0);
  return run.stdout;
}

describe("two TS elements on different streaming threads (tee + queues)", () => {
  it("both process every buffer", () => {
    const dir = scratchDir("tee");
    const [left, right] = [join(dir, "left.jsonl"), join(dir, "right.jsonl")];
    const run = launch(
      `videotestsrc num-buffers=500 ! video/x-raw,format=RGB,width=64,height=48 ! tee name=t ` +
        `t. ! queue ! framecounter location=${left} ! fakesink ` +
        `t. ! queue ! framecounter location=${right} ! fakesink`,
      { dists: [exampleDist] },
    );
    expect(run.code, run.output).toBe(0);
    const all = [...Array(500).keys()];
    expect(frameNumbers(left)).toEqual(all);
    expect(frameNumbers(right)).toEqual(all);
  });
});

describe("four independent streams, four streaming threads taking turns at the isolate", () => {
  /** The isolate gate's counters in the DS_ELEMENT_HANDOFF_STATS=1 line (direct hand-off). */
  function gateCounters(stderr: string) {
    const line = /isolate gate: entries (\d+), hand-overs (\d+), spin takes (\d+), sleeps (\d+), wake-ups (\d+), turns passed on (\d+), idle turns taken (\d+)/.exec(stderr);
    expect(line, stderr).not.toBeNull();
    const [entries, handovers, spinTakes, sleeps, wakeups, turns, idleTurns] = line!.slice(1).map(Number) as number[];
    return { entries: entries!, handovers: handovers!, spinTakes: spinTakes!, sleeps: sleeps!, wakeups: wakeups!, turns: turns!, idleTurns: idleTurns! };
  }

  // Waiters spin for the gate before they sleep (DS_ELEMENT_GATE_SPIN_US, by default 10 µs or
  // DS_ELEMENT_SPIN_US if lower; 0: sleep at once), and the streaming threads take the isolate
  // in turns (DS_ELEMENT_GATE_TURN_US, by default 1 ms; 0: no turns): every buffer of every
  // stream gets through, in order, either way. Four streams that want the isolate all the time
  // pass turns on; native-host/test/isolate_gate_test.cpp has what turns do to who holds it.
  const variants: { env: Record<string, string>; spins: boolean; turns: boolean }[] = [
    { env: { DS_ELEMENT_SPIN_US: "50" }, spins: true, turns: true },
    { env: { DS_ELEMENT_SPIN_US: "0" }, spins: false, turns: true },
    { env: { DS_ELEMENT_SPIN_US: "50", DS_ELEMENT_GATE_SPIN_US: "0" }, spins: false, turns: true },
    { env: { DS_ELEMENT_GATE_TURN_US: "0" }, spins: true, turns: false },
  ];
  for (const [index, variant] of variants.entries()) {
    const name = Object.entries(variant.env).map(([key, value]) => `${key}=${value}`).join(" ");
    it(`every stream's buffers in order, ${name}`, () => {
      const dir = scratchDir(`streams-${index}`);
      const files = [0, 1, 2, 3].map((i) => join(dir, `stream${i}.jsonl`));
      const buffers = 2000;
      const run = launch(
        files.map((file) => `videotestsrc num-buffers=${buffers} ! video/x-raw,format=RGB,width=16,height=16 ! framecounter location=${file} ! fakesink`).join(" "),
        // The gate is the shared isolate's (DS_ELEMENT_ISOLATE=own would give each element its own).
        { dists: [exampleDist], env: { DS_ELEMENT_HANDOFF_STATS: "1", ...variant.env, DS_ELEMENT_ISOLATE: "shared" } },
      );
      expect(run.code, run.output).toBe(0);
      const all = [...Array(buffers).keys()];
      for (const file of files) expect(frameNumbers(file)).toEqual(all);
      const gate = gateCounters(run.stderr);
      // Every transform, start and stop passed the gate (the JS thread's loop turns too).
      expect(gate.entries).toBeGreaterThanOrEqual(4 * buffers);
      expect(gate.spinTakes + gate.sleeps).toBeLessThanOrEqual(gate.entries);
      if (!variant.spins) expect(gate.spinTakes).toBe(0);
      if (variant.turns) expect(gate.turns).toBeGreaterThan(0);
      else expect(gate.turns + gate.idleTurns).toBe(0);
    });
  }
});

describe("a Python (python3-gi) host building and tearing down the pipeline 50 times", () => {
  const dir = scratchDir("cycles");
  // V8 resizes its young generation by its allocation-rate heuristics: a ~12 MiB step in RSS
  // at iteration 110-130 on a quiet machine (200 iterations, both backends, flat after it), as
  // early as iteration 50 on a loaded one (a CI failure). That is not a leak; fixing the young
  // generation's size takes the step out, and what is left is the old generation's growth,
  // which levels off. Fixed, its pages still enter RSS as allocation first reaches them: RSS
  // climbs by about three semi-spaces over the first iterations, then stays flat. At 16 MiB a
  // semi-space that took until iteration 10 on Node 18 and until 15 on Node 24 (Debian sid:
  // 8 MiB from 10 to 50, glibc's malloc flat at 14 MiB in use all along; at 32 MiB still
  // climbing at 40); at 4 MiB it is done by iteration 5 on both, so the window below starts
  // after it.
  // The shared environment, whatever DS_ELEMENT_ISOLATE says: elements in isolates of their own
  // start and stop a Node environment each per iteration, and RSS then moves by ±10 MiB from one
  // iteration to the next (test/isolates.test.ts has their build-and-teardown cycles, with a
  // bound for that).
  const output = runStressScript("pipeline_cycles.py", ["framecounter", dir, "50", "300"], dir, 300_000, {
    DS_ELEMENT_NODE_OPTIONS: "--min-semi-space-size=4 --max-semi-space-size=4",
    DS_ELEMENT_ISOLATE: "shared",
  });
  const report = JSON.parse(output) as { iterations: number; rss_kib: Record<string, number>; counts: number[][] };

  it("finishes every iteration without a crash, every buffer processed on both branches", () => {
    expect(report.iterations).toBe(50);
    expect(report.counts).toEqual(Array.from({ length: 50 }, () => [300, 300]));
  });

  it("keeps memory flat between iteration 10 and 50", () => {
    const rss = report.rss_kib;
    // Node, GStreamer and the bundle are loaded, and V8's heap has grown to most of its working
    // size (it grows with the bytes allocated, hence 300 buffers an iteration), by iteration 10.
    // What is left of V8's warm-up varies from run to run (0.5 to 2 MiB here); a leak does not
    // level off: the later iterations would grow as much as the earlier ones.
    // 40 × 2 element instances and 24 000 buffers: 100 bytes lost per buffer would be 2.3 MiB.
    const growthKiB = rss["50"]! - rss["10"]!;
    const lateGrowthKiB = rss["50"]! - rss["30"]!;
    expect(growthKiB, JSON.stringify(rss)).toBeLessThan(4 * 1024);
    expect(lateGrowthKiB, JSON.stringify(rss)).toBeLessThan(1.5 * 1024);
  });
});

describe("buffers pushed from short-lived threads of the application's own (python3-gi)", () => {
  it("every thread's calls run, threads that end let go of the isolate, and the process exits cleanly with one still alive", () => {
    const dir = scratchDir("caller-threads");
    const location = join(dir, "frames.jsonl");
    // Each of 12 threads pushes 25 buffers into the element's sink pad itself (the direct
    // hand-off runs the transforms on those threads) and ends; the 12th is still alive, blocked,
    // when the process exits.
    const output = runStressScript("caller_threads.py", ["framecounter", location, "12", "25"], dir, 120_000);
    expect(JSON.parse(output)).toEqual({ threads: 12, pushed: 300, flows: ["ok"] });
    expect(frameNumbers(location)).toEqual([...Array(300).keys()]);
  });
});
