// A bounded soak: 300 000 buffers through two TypeScript elements in one host process (one that
// only reads, and one that writes frame fields into every second buffer, so batches are attached and
// released), its resident memory sampled every 50 ms. After the warm-up (Node, GStreamer, V8's
// heap growing to its working size) memory must not trend upwards: a leak of a few bytes per
// buffer would.
import { describe, expect, it } from "vitest";
import { pythonHost } from "./helpers/gst";
import { fixturesDist } from "./helpers/projects";
import { slope } from "./helpers/stats";

const BUFFERS = 300_000;
const WARM_UP = 100_000;

describe("soak", () => {
  it(`${BUFFERS} buffers through TypeScript elements: no growth of resident memory after the warm-up`, () => {
    const run = pythonHost("soak.py", [String(BUFFERS), "framemark every=1000000 ! framemark every=2"], { dists: [fixturesDist], timeoutMs: 300_000 });
    expect(run.code, run.output).toBe(0);
    const report = JSON.parse(run.stdout) as { end: string; seconds: number; samples: [number, number][] };
    expect(report.end).toBe("eos");
    const steady = report.samples.filter(([buffers]) => buffers >= WARM_UP);
    const summary = `${report.seconds} s; (buffers, RSS KiB) after the warm-up: ${JSON.stringify(steady)}`;
    expect(steady.length, summary).toBeGreaterThanOrEqual(8);
    // 100 000 buffers at 10 bytes each would be ~1 MiB; V8's heap moves RSS by less than that
    // once grown (0 to 0.1 MiB over these buffers on the development machine).
    const growthPer100k = slope(steady) * 100_000;
    expect(growthPer100k, summary).toBeLessThan(1024);
    const [first, last] = [steady[0]![1], steady.at(-1)![1]];
    expect(last - first, summary).toBeLessThan(2048);
  });
});
