// The element in a real GStreamer pipeline: built as `npm run build` builds it (into a folder
// of the test's own), its lines read from GST_DEBUG's output.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildProject } from "ds-element/cli";
import { launchPipeline } from "ds-element/testing";
import { beforeAll, describe, expect, it } from "vitest";

const dir = mkdtempSync(join(tmpdir(), "template-element-name-pipeline-"));
let dist: string;

beforeAll(async () => {
  dist = (await buildProject({ projectDir: join(__dirname, ".."), outDir: join(dir, "dist"), typecheck: false })).outDir;
});

/** The element's log lines, without GST_DEBUG's prefix. */
function logLines(stderr: string): string[] {
  return stderr
    .split("\n")
    .filter((line) => line.includes("<template-element-name0>"))
    .map((line) => line.replace(/^.*<template-element-name0>\s*/, ""));
}

describe("template-element-name in gst-launch-1.0", () => {
  it("logs the frame rate every N frames and at end of stream", async () => {
    const run = await launchPipeline(
      "videotestsrc num-buffers=30 ! video/x-raw,format=RGB,width=320,height=240,framerate=30/1 ! template-element-name every-n=10 ! fakesink sync=false",
      { dists: [dist], env: { GST_DEBUG: "template-element-name:4" } },
    );
    expect(run.code, run.stderr).toBe(0);
    expect(logLines(run.stderr).filter((line) => line.startsWith("source 0:"))).toEqual([
      "source 0: 10 frames, 30.0 fps, 0 gaps",
      "source 0: 20 frames, 30.0 fps, 0 gaps",
      "source 0: 30 frames, 30.0 fps, 0 gaps",
      "source 0: 30 frames, 30.0 fps, 0 gaps (end of stream)",
    ]);
  });

  it("warns about the frames a drop upstream left out", async () => {
    // identity drops each frame with a probability of 0.3: one dropped frame makes an interval of
    // twice the average, over gap-factor 1.5 (no drop in 60 frames: 0.7^60, about 5e-10).
    const run = await launchPipeline(
      "videotestsrc num-buffers=60 ! video/x-raw,format=RGB,width=64,height=48,framerate=30/1 ! identity drop-probability=0.3 ! " +
        "template-element-name every-n=1000 gap-factor=1.5 ! fakesink sync=false",
      { dists: [dist], env: { GST_DEBUG: "template-element-name:2" } },
    );
    expect(run.code, run.stderr).toBe(0);
    const gaps = logLines(run.stderr).filter((line) => / came \d+\.\d ms after the previous one/.test(line));
    expect(gaps.length).toBeGreaterThan(0);
  });
});
