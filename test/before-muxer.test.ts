// An element before nvstreammux must not corrupt the muxer's stream identity. NVIDIA's muxer
// copies the frames of an NvDsBatchMeta it finds on an incoming buffer as they are, pad_index,
// source_id and ntp_timestamp included (gst-nvmultistream2/gstnvstreammux_pads.cpp:89-110), and
// numbers the frame itself only when the buffer has none (:113-150). So an element whose
// buffers go to nvstreammux writes no metadata there (an error says where to put it) and
// attaches nothing when it only reads. nvstreammux itself links unpublished libraries: the
// stand-in in test/mux-standins/ makes the muxer's decision (same lines) with NVIDIA's
// libnvds_meta on the DeepStream build, and only passes buffers on without it.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { launch, repoRoot, scratchDir } from "./helpers/gst";
import { fixturesDist, nativeBackend } from "./helpers/projects";

/* eslint-disable @typescript-eslint/no-explicit-any */
type Json = Record<string, any>;

const native = createRequire(__filename)(join(repoRoot, "native-host", "index.js")) as { buildDir: string };
const standins = join(dirname(native.buildDir), "test-plugins");
const source = "videotestsrc num-buffers=3 ! video/x-raw,format=RGB,width=64,height=48";
const lines = (file: string): Json[] => readFileSync(file, "utf8").trim().split("\n").filter(Boolean).map((l) => JSON.parse(l) as Json);

describe("an element before nvstreammux", () => {
  beforeAll(() => {
    execFileSync("cmake", ["--build", dirname(native.buildDir), "--target", "dsnode-mux-standins"], { stdio: "pipe" });
  });

  it.each([
    ["directly", "mux.sink_3 nvstreammux name=mux"],
    ["through a queue and a bin's ghost pads", "queue ! ( identity ) ! mux.sink_3 nvstreammux name=mux"],
    ["on one branch of a tee", "tee name=t t. ! queue ! fakesink t. ! queue ! mux.sink_3 nvstreammux name=mux"],
  ])("refuses to write metadata there (%s), naming itself and the muxer's pad", (_how, downstream) => {
    const location = join(scratchDir("before-muxer-write"), "out.jsonl");
    const run = launch(`${source} ! metawriter location=${location} ! ${downstream} ! fakesink`, { dists: [fixturesDist, standins] });
    expect(run.signal, run.output).toBeNull();
    expect(run.code, run.output).not.toBe(0);
    expect(run.output).toContain(
      "metawriter0: cannot write metadata before nvstreammux (its buffers go to mux.sink_3 and carry no batch yet): the muxer " +
        "copies an upstream batch's frames as they are, so every source would reach nvtracker and nvstreamdemux as pad_index 0. " +
        "Place the element after nvstreammux, where each frame has its source's pad_index",
    );
    expect(run.output.match(/^ERROR: from element .*metawriter0: /gm)).toHaveLength(1);
  });

  it("reads frames there and attaches nothing", () => {
    const dir = scratchDir("before-muxer-read");
    const run = launch(
      `${source} ! metareader location=${join(dir, "before.jsonl")} ! mux.sink_3 nvstreammux name=mux ! fakesink`,
      { dists: [fixturesDist, standins] },
    );
    expect(run.code, run.output).toBe(0);
    expect(lines(join(dir, "before.jsonl")).map((b) => b.frameItems[0].frameNum)).toEqual([0, 1, 2]);
  });

  it("still writes in a pipeline without a muxer", () => {
    const dir = scratchDir("before-muxer-none");
    const run = launch(`${source} ! metawriter location=${join(dir, "w.jsonl")} ! metareader location=${join(dir, "r.jsonl")} ! fakesink`, {
      dists: [fixturesDist],
    });
    expect(run.code, run.output).toBe(0);
    expect(lines(join(dir, "r.jsonl"))[0]!.frameItems[0].objectItems.length).toBeGreaterThan(0);
  });

  it.skipIf(nativeBackend !== "deepstream")(
    "leaves the stream identity to the muxer: after it each frame has the muxer's pad_index and source_id, and an element there writes (DeepStream build only)",
    () => {
      const dir = scratchDir("before-muxer-after");
      const run = launch(
        `${source} ! metareader location=${join(dir, "before.jsonl")} ! mux.sink_3 nvstreammux name=mux ` +
          `! metawriter location=${join(dir, "w.jsonl")} ! metareader location=${join(dir, "after.jsonl")} ! fakesink`,
        { dists: [fixturesDist, standins] },
      );
      expect(run.code, run.output).toBe(0);
      const after = lines(join(dir, "after.jsonl"));
      expect(after.map((b) => [b.frameItems[0].padIndex, b.frameItems[0].sourceId, b.frameItems[0].frameNum])).toEqual([
        [3, 3, 0],
        [3, 3, 1],
        [3, 3, 2],
      ]);
      expect(after[0]!.frameItems[0].objectItems.length).toBeGreaterThan(0);
    },
  );
});
