// A non-video batch is refused, never read as frames: nvstreammux's audio path attaches an
// NvDsBatchMeta under the same NVDS_BATCH_GST_META as the video path, made by
// nvds_create_audio_batch_meta (base_meta.meta_type NVDS_AUDIO_BATCH_META, frames that are
// NvDsAudioFrameMeta; gstnvstreammux.cpp:1435-1453). test/mux-standins/ (dsaudiobatch) attaches
// exactly that batch with NVIDIA's own libnvds_meta, so it runs on the DeepStream build and is
// skipped, saying so, on the portable one (whose GstMeta has no audio batch).
import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { launch, repoRoot, scratchDir } from "./helpers/gst";
import { fixturesDist, nativeBackend } from "./helpers/projects";

const native = createRequire(__filename)(join(repoRoot, "native-host", "index.js")) as { buildDir: string };
const standins = join(dirname(native.buildDir), "test-plugins");
const audio = "audiotestsrc num-buffers=3 ! dsaudiobatch";

describe.skipIf(nativeBackend !== "deepstream")("a buffer carrying nvstreammux's audio batch (DeepStream build only)", () => {
  beforeAll(() => {
    execFileSync("cmake", ["--build", dirname(native.buildDir), "--target", "dsnode-mux-standins"], { stdio: "pipe" });
  });

  it.each([
    ["metareader", "reads every frame and object"],
    ["metawriter", "acquires and adds objects"],
  ])("%s (%s) stops the pipeline with one error naming the element and the batch type, no crash", (element) => {
    const location = join(scratchDir(`non-video-${element}`), "out.jsonl");
    const run = launch(`${audio} ! ${element} location=${location} ! fakesink`, { dists: [fixturesDist, standins] });
    expect(run.signal, run.output).toBeNull();
    expect(run.code, run.output).not.toBe(0);
    expect(run.output).toContain(
      `${element}0: cannot process a buffer carrying an NvDsBatchMeta of NVDS_AUDIO_BATCH_META (audio, from nvstreammux's audio path) ` +
        "where a video batch (NVDS_BATCH_META) was expected: ds-element elements process video batches only",
    );
    expect(run.output.match(new RegExp(`^ERROR: from element .*${element}0: `, "gm"))).toHaveLength(1);
  });

  it("the same element on a video batch runs (the stand-in's video path)", () => {
    const location = join(scratchDir("non-video-control"), "out.jsonl");
    const run = launch(`videotestsrc num-buffers=3 ! mux.sink_0 nvstreammux name=mux ! metareader location=${location} ! fakesink`, {
      dists: [fixturesDist, standins],
    });
    expect(run.code, run.output).toBe(0);
  });
});
