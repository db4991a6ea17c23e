// Sources that come and go: nvstreammux's per-source events (GST_NVEVENT_PAD_ADDED, PAD_DELETED,
// STREAM_EOS, STREAM_SEGMENT, STREAM_RESET) reach an element's source hooks in order with the
// batches, and its SourceState drops a source's state when the source is removed or reset, so a
// source added again starts fresh.
//
// The events: NVIDIA publishes gst-nvevent.h (their type numbers) but not libnvdsgst_helper, the
// library whose gst_nvevent_new_pad_added() & co. build them (../shared/deepstream-9.1 has no
// source of it; src/gst-utils/gstnvcustomhelper builds only the decoder/encoder events 500-506).
// So the events here are built by test/mux-standins/nvevent_standin.c with gst-nvevent.h's type
// numbers (on the DeepStream build compiled against NVIDIA's header) and the structure users who
// parse them without NVIDIA's library read (a guint "source-id"), sent where nvstreammux sends them by the muxer
// stand-in (test/mux-standins/), whose pads the driver (test/source-events/source_events.c) links
// and releases while the pipeline plays. On the DeepStream build the stand-in numbers each frame's
// pad_index as the muxer does; without DeepStream it only passes buffers on, every frame is the
// element's one-frame batch of pad 0, and the expected counts say so.
import { execFileSync, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { repoRoot, scratchDir } from "./helpers/gst";
import { fixturesDist, nativeBackend } from "./helpers/projects";

const native = createRequire(__filename)(join(repoRoot, "native-host", "index.js")) as { buildDir: string };
const build = dirname(native.buildDir);
const standins = join(build, "test-plugins");

type Line = Record<string, unknown>;

/** What sourcelog writes for `script`, by a model of the muxer and of SourceState: frames count per pad. */
function expected(script: string, padOf: (sourceId: number) => number): Line[] {
  const counts = new Map<number, number>();
  const lines: Line[] = [];
  for (const step of script.split(";").map((s) => s.trim().split(" "))) {
    const [verb, id] = [step[0], Number(step[1])];
    if (verb === "add") {
      counts.delete(id);
      lines.push({ hook: "added", sourceId: id }, { event: "source-segment", sourceId: id });
    } else if (verb === "frames") {
      for (let i = 0; i < Number(step[2]); i++) {
        const pad = padOf(id);
        const count = (counts.get(pad) ?? 0) + 1;
        counts.set(pad, count);
        lines.push({ frame: pad, count, made: count === 1 });
      }
    } else if (verb === "reset") {
      lines.push({ hook: "reset", sourceId: id });
      counts.delete(id);
    } else if (verb === "eos") {
      lines.push({ hook: "eos", sourceId: id });
    } else if (verb === "remove") {
      lines.push({ hook: "removed", sourceId: id, frames: counts.get(id) ?? 0 });
      counts.delete(id);
    }
  }
  return [...lines, { event: "eos" }];
}

function run(script: string): { lines: Line[]; output: string; code: number | null } {
  const location = join(scratchDir("source-events"), "log.jsonl");
  const result = spawnSync(join(build, "dsnode-source-events"), [`sourcelog location=${location}`, script], {
    encoding: "utf8",
    timeout: 60_000,
    env: {
      ...process.env,
      GST_PLUGIN_PATH: [fixturesDist, standins].join(":"),
      GST_REGISTRY_1_0: join(dirname(location), "registry.bin"),
    },
  });
  const text = readFileSync(location, "utf8");
  return {
    lines: text.split("\n").filter(Boolean).map((line) => JSON.parse(line) as Line),
    output: `${result.stdout}\n${result.stderr}`,
    code: result.status,
  };
}

describe("sources that come and go (nvstreammux's per-source events)", () => {
  beforeAll(() => {
    execFileSync("cmake", ["--build", build, "--target", "dsnode-mux-standins", "dsnode-source-events"], { stdio: "pipe" });
  });

  // Two cameras: 1 joins while 0 runs, 1 is reset (an RTSP reconnect), 0 ends and is removed,
  // 0 is added again (a new camera on the same pad), 1 is removed, then 0.
  const script =
    "add 0; frames 0 2; add 1; frames 1 1; frames 0 1; reset 1; frames 1 2; eos 0; remove 0; add 0; frames 0 2; remove 1; frames 0 1; remove 0";

  it(`fire the hooks in order with the frames, with the source ids, and per-source state follows them (${nativeBackend} backend)`, () => {
    const { lines, output, code } = run(script);
    expect(code, output).toBe(0);
    // The DeepStream build's frames carry their pad_index; the portable one's are all pad 0.
    expect(lines).toEqual(expected(script, (sourceId) => (nativeBackend === "deepstream" ? sourceId : 0)));
  });

  it.runIf(nativeBackend === "deepstream")("a removed camera's state is gone and a re-added one starts at its first frame again", () => {
    const { lines } = run(script);
    const frames0 = lines.filter((line) => line.frame === 0).map((line) => [line.count, line.made]);
    expect(frames0).toEqual([[1, true], [2, false], [3, false], [1, true], [2, false], [3, false]]);
    const frames1 = lines.filter((line) => line.frame === 1).map((line) => [line.count, line.made]);
    expect(frames1).toEqual([[1, true], [1, true], [2, false]]);
    expect(lines.filter((line) => line.hook === "removed")).toEqual([
      { hook: "removed", sourceId: 0, frames: 3 },
      { hook: "removed", sourceId: 1, frames: 2 },
      { hook: "removed", sourceId: 0, frames: 3 },
    ]);
  });

  it("one camera removed and added again starts fresh on either backend", () => {
    const single = "add 0; frames 0 3; remove 0; add 0; frames 0 2; remove 0";
    const { lines, output, code } = run(single);
    expect(code, output).toBe(0);
    expect(lines).toEqual([
      { hook: "added", sourceId: 0 },
      { event: "source-segment", sourceId: 0 },
      { frame: 0, count: 1, made: true },
      { frame: 0, count: 2, made: false },
      { frame: 0, count: 3, made: false },
      { hook: "removed", sourceId: 0, frames: 3 },
      { hook: "added", sourceId: 0 },
      { event: "source-segment", sourceId: 0 },
      { frame: 0, count: 1, made: true },
      { frame: 0, count: 2, made: false },
      { hook: "removed", sourceId: 0, frames: 2 },
      { event: "eos" },
    ]);
  });
});
