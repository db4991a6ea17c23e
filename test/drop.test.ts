// An element that returns Element.DROP for every other buffer, sync and
// async. 100 buffers in, 50 out, EOS reaches the elements after it, no error.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { launch, scratchDir } from "./helpers/gst";
import { builtinDist, exampleDist, fixturesDist } from "./helpers/projects";

interface Line {
  type?: string;
  frameNum?: number;
  count?: number;
  frameItems?: Array<{ frameNum: number; inferDone: boolean; miscFrameInfo: number[] }>;
}

const read = (file: string): Line[] =>
  readFileSync(file, "utf8").split("\n").filter(Boolean).map((line) => JSON.parse(line) as Line);

describe.each([false, true])("dropper async=%s", (async) => {
  const dir = scratchDir(`drop-${async ? "async" : "sync"}`);
  const counted = join(dir, "after.jsonl");
  const dump = join(dir, "dump.jsonl");
  const run = launch(
    `videotestsrc num-buffers=100 ! video/x-raw,format=RGB,width=64,height=48,framerate=30/1 ! dropper async=${async} ! ` +
      `framecounter location=${counted} ! dsmetadump location=${dump} ! fakesink`,
    { dists: [fixturesDist, exampleDist, builtinDist] },
  );
  const lines = read(counted);

  it("runs to the end without an error", () => {
    expect(run.signal, run.output).toBeNull();
    expect(run.code, run.output).toBe(0);
    expect(run.output).not.toMatch(/ERROR|WARN/);
  });

  it("passes 50 of 100 buffers: the even frame numbers, in order", () => {
    const frames = lines.filter((line) => line.type === "frame");
    expect(frames.map((line) => line.frameNum)).toEqual(Array.from({ length: 50 }, (_, i) => 2 * i));
    const dumped = read(dump).map((line) => line.frameItems![0]!);
    expect(dumped).toHaveLength(50);
    // What the dropper wrote on the buffers it kept travelled with them.
    for (const frame of dumped) {
      expect(frame.inferDone).toBe(true);
      expect(frame.miscFrameInfo[0]).toBe(frame.frameNum);
    }
  });

  it("EOS reaches the element after it, having counted 50 buffers", () => {
    expect(lines.at(-1)).toEqual({ type: "eos", count: 50 });
  });
});
