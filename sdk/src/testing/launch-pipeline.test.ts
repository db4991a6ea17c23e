// launchPipeline with the real gst-launch-1.0 and the SDK's built-in dsmetadump.
import { describe, expect, it } from "vitest";
import { launchPipeline } from "./launch-pipeline.js";

describe("launchPipeline", () => {
  it("runs a pipeline with the built-in elements on the plugin path and gives its output", async () => {
    const run = await launchPipeline("videotestsrc num-buffers=3 ! video/x-raw,width=64,height=48 ! dsmetadump ! fakesink", { dists: [] });
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stdout.split("\n").filter((line) => line.startsWith("{"));
    expect(lines.map((line) => (JSON.parse(line) as { batch: number }).batch)).toEqual([0, 1, 2]);
  });

  it("reports a failing pipeline with gst-launch-1.0's status and messages", async () => {
    const run = await launchPipeline("videotestsrc num-buffers=1 ! nosuchelement ! fakesink", { dists: [] });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('no element "nosuchelement"');
  });

  it("kills a pipeline that runs past its time", async () => {
    const run = await launchPipeline("videotestsrc is-live=true ! fakesink", { dists: [], timeoutMs: 1500 });
    expect(run).toMatchObject({ timedOut: true, code: null, signal: "SIGKILL" });
  });
});
