// A TS element in a real gst-launch-1.0 pipeline sees every buffer, in order,
// with the right timestamps and frame numbers, and gets its command-line properties typed.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { launch, scratchDir } from "./helpers/gst";
import { exampleDist, fixturesDist } from "./helpers/projects";

interface Line {
  type: string;
  [key: string]: unknown;
}

function readLines(path: string): Line[] {
  return readFileSync(path, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Line);
}

describe("videotestsrc num-buffers=300 ! framecounter ! fakesink", () => {
  const location = join(scratchDir("pipeline"), "frames.jsonl");
  const run = launch(
    `videotestsrc num-buffers=300 ! video/x-raw,format=RGB,width=320,height=240,framerate=30/1 ! ` +
      `framecounter location=${location} every-n=7 rate-window=2.5 mode=accurate label=cam-1 ` +
      `tags=<"a","b"> mark-frames=<3,5> verbose=true ! fakesink`,
    { dists: [exampleDist] },
  );
  const lines = readLines(location);
  const frames = lines.filter((line) => line.type === "frame");

  it("exits 0", () => {
    expect(run.signal).toBeNull();
    expect(run.code, run.output).toBe(0);
  });

  it("ran transform exactly 300 times, frame numbers 0..299 in order", () => {
    expect(frames).toHaveLength(300);
    expect(frames.map((frame) => frame.frameNum)).toEqual([...Array(300).keys()]);
    expect(frames.at(-1)?.count).toBe(300);
  });

  it("saw each buffer's PTS (30 fps: frame n at n/30 s)", () => {
    frames.forEach((frame, n) => {
      // videotestsrc scales with gst_util_uint64_scale, which rounds down.
      expect(frame.bufPts).toBe(Math.floor((n * 1e9) / 30));
    });
  });

  it("saw the frame size from the negotiated caps", () => {
    for (const frame of frames) {
      expect(frame.width).toBe(320);
      expect(frame.height).toBe(240);
      expect(frame.bufferSize).toBe(320 * 240 * 3);
    }
  });

  it("got the command-line properties in this.props with their types", () => {
    expect(frames[0]?.props).toEqual({
      location,
      everyN: 7,
      rateWindow: 2.5,
      mode: "accurate",
      label: "cam-1",
      tags: ["a", "b"],
      markFrames: [3, 5],
      verbose: true,
    });
  });

  it("got the caps before the first buffer and EOS after the last", () => {
    expect(lines[0]?.type).toBe("caps");
    expect(lines[0]?.caps).toMatch(/^video\/x-raw, format=\(string\)RGB, width=\(int\)320, height=\(int\)240/);
    expect(lines.at(-1)).toEqual({ type: "eos", count: 300 });
  });
});

describe("this.log", () => {
  it("goes to a GST_DEBUG category named after the element", () => {
    const location = join(scratchDir("log"), "frames.jsonl");
    const run = launch(
      `videotestsrc num-buffers=10 ! video/x-raw,format=RGB,width=64,height=48 ! framecounter location=${location} every-n=5 ! fakesink`,
      { dists: [exampleDist], env: { GST_DEBUG: "framecounter:4" } },
    );
    expect(run.code, run.output).toBe(0);
    expect(run.stderr).toMatch(/INFO\s+framecounter .*counting frames into/);
    expect(run.stderr).toMatch(/INFO\s+framecounter .*5 frames/);
    expect(run.stderr).toMatch(/INFO\s+framecounter .*10 frames/);
    expect(run.stderr).not.toMatch(/DEBUG\s+framecounter/);
  });
});

describe("DS_ELEMENT_V8_THREADS (V8's worker threads)", () => {
  /** The host process's thread count while its element runs, under DS_ELEMENT_V8_THREADS=value. */
  const threads = (value: string) => {
    const location = join(scratchDir("v8-threads"), "threads.txt");
    const run = launch(
      `videotestsrc num-buffers=20 ! video/x-raw,format=RGB,width=64,height=48 ! threadcount location=${location} ! fakesink`,
      { dists: [fixturesDist], env: { DS_ELEMENT_V8_THREADS: value } },
    );
    expect(run.code, run.output).toBe(0);
    return { count: Number(readFileSync(location, "utf8")), stderr: run.stderr };
  };

  it("sets how many worker threads V8 gets", () => {
    const one = threads("1");
    const five = threads("5");
    expect(five.count - one.count).toBe(4);
    expect(one.stderr + five.stderr).not.toContain("DS_ELEMENT_V8_THREADS");
  });

  it("warns about a value that is not a number from 1 to 64, naming it, and runs with the default", () => {
    for (const value of ["many", "0", "65"]) {
      expect(threads(value).stderr).toContain(`DS_ELEMENT_V8_THREADS=${value} is not a number from 1 to 64; using the default`);
    }
  });
});

describe("an async transform() that awaits a timer", () => {
  it("is awaited for every buffer: all 100 frames finish, in order, before EOS", () => {
    const location = join(scratchDir("async"), "frames.txt");
    const run = launch(
      `videotestsrc num-buffers=100 ! video/x-raw,format=RGB,width=64,height=48 ! asyncwait location=${location} delay-ms=2 ! fakesink`,
      { dists: [fixturesDist] },
    );
    expect(run.code, run.output).toBe(0);
    const frames = readFileSync(location, "utf8").trim().split("\n").map(Number);
    expect(frames).toEqual([...Array(100).keys()]);
  });
});

describe("work a transform() queues (nextTick, queueMicrotask, Promise reactions)", () => {
  // The default hand-off calls transform() outside a Node callback scope and host.js runs the
  // queues itself; the queue hand-off closes a scope around each batch. Both must have run
  // all of one call's queued work before the next call starts.
  const cases = [
    { label: "sync transform, default hand-off", mode: "sync", env: {} },
    { label: "transform returning a settled Promise, default hand-off", mode: "resolved", env: {} },
    { label: "sync transform, queue hand-off", mode: "sync", env: { DS_ELEMENT_HANDOFF: "queue" } },
    { label: "transform returning a settled Promise, queue hand-off", mode: "resolved", env: { DS_ELEMENT_HANDOFF: "queue" } },
  ];
  for (const { label, mode, env } of cases) {
    it(`${label}: has all run before the next buffer`, () => {
      const location = join(scratchDir("queuework"), "counts.json");
      const run = launch(
        `videotestsrc num-buffers=200 ! video/x-raw,format=GRAY8,width=16,height=16 ! queuework location=${location} mode=${mode} ! fakesink`,
        { dists: [fixturesDist], env },
      );
      expect(run.code, run.output).toBe(0);
      expect(JSON.parse(readFileSync(location, "utf8"))).toEqual({ calls: 200, ticks: 200, microtasks: 200, reactions: 200, late: 0 });
    });
  }
});
