// `ds-element dev` runs a live pipeline; edits of the element's source
// reach it at the next buffer without stopping it or losing a buffer (start() on the new code
// before stop() on the old, onHotReload carrying state over), and an edit that does not build,
// or whose start() throws, never returns or never settles, keeps the running code and says why.
import { spawn, type ChildProcess } from "node:child_process";
import { cpSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot, scratchDir } from "./helpers/gst";

const cli = join(repoRoot, "sdk", "bin", "ds-element.js");
const WAIT_MS = 60_000;

/** Polls `test` every 100 ms until it holds; throws with `what` after WAIT_MS. */
async function until(what: string, test: () => boolean): Promise<void> {
  const deadline = Date.now() + WAIT_MS;
  while (!test()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe("ds-element dev on a live pipeline", () => {
  let dir: string;
  let project: string;
  let source: string;
  let lines: string;
  let dev: ChildProcess;
  let output = "";
  let exited: { code: number | null; signal: NodeJS.Signals | null } | undefined;

  const read = () => (existsSync(lines) ? readFileSync(lines, "utf8").split("\n").filter(Boolean) : []);
  const buffers = () => read().filter((line) => /^[A-Z] \d+ \d+$/.test(line)).map((line) => line.split(" "));
  const versionsSeen = () => new Set(buffers().map(([version]) => version));
  const edit = (from: string, to: string) => {
    const text = readFileSync(source, "utf8");
    expect(text).toContain(from);
    writeFileSync(source, text.replace(from, to));
  };

  beforeAll(async () => {
    dir = scratchDir("dev");
    project = join(dir, "project");
    cpSync(join(repoRoot, "test", "fixtures", "dev-project"), project, { recursive: true });
    source = join(project, "src", "index.ts");
    lines = join(dir, "lines.txt");
    dev = spawn(
      process.execPath,
      [cli, "dev", "--project", project, "--",
        "gst-launch-1.0", "videotestsrc", "is-live=true", "!", "video/x-raw,format=RGB,width=64,height=48,framerate=30/1", "!",
        "devprobe", `location=${lines}`, "!", "fakesink"],
      { env: { ...process.env, GST_REGISTRY_1_0: join(dir, "registry.bin"), GST_PLUGIN_PATH: undefined, GST_PLUGIN_PATH_1_0: undefined } },
    );
    dev.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    dev.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    dev.on("exit", (code, signal) => (exited = { code, signal }));
    await until("30 buffers through build 1", () => buffers().length >= 30);
  });

  afterAll(async () => {
    if (exited === undefined) {
      dev.kill("SIGTERM");
      await until("ds-element dev to exit", () => exited !== undefined);
    }
  });

  it("switches to an edited source at the next buffer: start() on the new code, then stop() on the old", async () => {
    edit('const VERSION: string = "A";', 'const VERSION: string = "B";');
    await until("buffers through build 2", () => buffers().filter(([version]) => version === "B").length >= 30);
    const events = read().filter((line) => line.startsWith("start") || line.startsWith("stop"));
    expect(events).toEqual(["start A", "start B", "stop A"]);
    expect(output).toContain("ds-element dev: devprobe (instance 1): switched from build 1 to build 2 at this buffer");
    expect(exited, output).toBeUndefined();
  });

  it("loses no buffer and keeps the state onHotReload carries over", () => {
    const seen = buffers();
    const frames = seen.map(([, frameNum]) => Number(frameNum));
    expect(frames).toEqual(Array.from({ length: frames.length }, (_, i) => i));
    // count is kept across the switch: it still equals frameNum + 1.
    for (const [, frameNum, count] of seen) expect(Number(count)).toBe(Number(frameNum) + 1);
  });

  it("keeps running the code it has when an edit does not build, and prints the error", async () => {
    edit('const VERSION: string = "B";', 'const VERSION: string = "C" +;');
    await until("the build error", () => output.includes("the pipeline keeps running build 2"));
    expect(output).toMatch(/src\/index\.ts:5:\d+: error/);
    const before = buffers().length;
    await until("more buffers after the failed build", () => buffers().length >= before + 15);
    expect(versionsSeen()).toEqual(new Set(["A", "B"]));
    expect(exited, output).toBeUndefined();
  });

  it("keeps running the code it has when the new code's start() throws, and prints the error", async () => {
    edit('const VERSION: string = "C" +;', 'const VERSION: string = "D";');
    await until("the start error", () => output.includes("failed to start: version D cannot start; still running build 2"));
    const before = buffers().length;
    await until("more buffers after the failed start", () => buffers().length >= before + 15);
    expect(versionsSeen()).toEqual(new Set(["A", "B"]));
  });

  it("takes the next good edit, still without losing a buffer or stopping the pipeline", async () => {
    edit('const VERSION: string = "D";', 'const VERSION: string = "E";');
    await until("buffers through the fixed build", () => versionsSeen().has("E"));
    const frames = buffers().map(([, frameNum]) => Number(frameNum));
    expect(frames).toEqual(Array.from({ length: frames.length }, (_, i) => i));
    expect(read().filter((line) => line.startsWith("start") || line.startsWith("stop"))).toEqual(["start A", "start B", "stop A", "start E", "stop B"]);
    expect(exited, output).toBeUndefined();
  });

  // Issue 29: a start() that never returned used to stop the frames for good, silently, and no
  // later build ever took over.
  it("drops a new build whose start() never returns (interrupted at the deadline), and frames flow on", async () => {
    edit('const VERSION: string = "E";', 'const VERSION: string = "L";');
    await until("the deadline message", () => /devprobe \(instance 1\): build \d+ failed to start: start\(\) did not return within 4 s: its JavaScript was interrupted .*; still running build \d+/.test(output));
    const before = buffers().length;
    await until("more buffers after the interrupted start", () => buffers().length >= before + 15);
    expect(versionsSeen()).toEqual(new Set(["A", "B", "E"]));
    expect(exited, output).toBeUndefined();
  });

  it("drops a new build whose start() never settles (abandoned at the deadline), and frames flow on", async () => {
    edit('const VERSION: string = "L";', 'const VERSION: string = "N";');
    await until("the deadline message", () => /devprobe \(instance 1\): build \d+ failed to start: start\(\) did not finish within 4 s: its Promise was abandoned .*; still running build \d+/.test(output));
    const before = buffers().length;
    await until("more buffers after the abandoned start", () => buffers().length >= before + 15);
    expect(versionsSeen()).toEqual(new Set(["A", "B", "E"]));
  });

  it("takes a fixed build after those, without losing a buffer or stopping the pipeline", async () => {
    edit('const VERSION: string = "N";', 'const VERSION: string = "F";');
    await until("buffers through the fixed build", () => versionsSeen().has("F"));
    const frames = buffers().map(([, frameNum]) => Number(frameNum));
    expect(frames).toEqual(Array.from({ length: frames.length }, (_, i) => i));
    expect(read().filter((line) => line.startsWith("start") || line.startsWith("stop"))).toEqual(["start A", "start B", "stop A", "start E", "stop B", "start F", "stop E"]);
    expect(output).not.toContain("ERROR: from element");
    expect(exited, output).toBeUndefined();
  });

  it("ends with the pipeline and removes its working files", async () => {
    dev.kill("SIGTERM");
    await until("ds-element dev to exit", () => exited !== undefined);
    expect(existsSync(join(project, "dist", ".ds-element-dev"))).toBe(false);
  });
});
