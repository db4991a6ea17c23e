// The element in a real GStreamer pipeline: built as `npm run build` builds it (into a folder
// of the test's own) with a stand-in detector and tracker (test/fixtures/moving-object.ts)
// upstream; the built-in dsmetadump writes the metadata as JSON lines.
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildProject } from "ds-element/cli";
import { launchPipeline } from "ds-element/testing";
import type { FrameMetaJSON } from "ds-element";
import { beforeAll, describe, expect, it } from "vitest";
import { FRAME_ANALYTICS, OBJECT_ANALYTICS } from "../src/analytics-meta.js";

const dir = mkdtempSync(join(tmpdir(), "template-element-name-pipeline-"));
let dist: string;

beforeAll(async () => {
  const entries = ["src/index.ts", "test/fixtures/moving-object.ts"];
  dist = (await buildProject({ projectDir: join(__dirname, ".."), outDir: join(dir, "dist"), entries, typecheck: false })).outDir;
});

describe("template-element-name in gst-launch-1.0", () => {
  it("counts the object crossing the line once, on the frame it crosses, and draws the line", async () => {
    const dump = join(dir, "frames.jsonl");
    // The object's feet are at x = 10 + 10 × frame: on the line x = 160 at frame 15.
    const run = await launchPipeline(
      `videotestsrc num-buffers=30 ! video/x-raw,format=RGB,width=320,height=240 ! template-element-name-movingobject speed=10 ! ` +
        `template-element-name line=<160,0,160,240> roi=<0,0,100,0,100,240,0,240> ! dsmetadump location=${dump} ! fakesink sync=false`,
      { dists: [dist] },
    );
    expect(run.code, run.stderr).toBe(0);
    const frames = readFileSync(dump, "utf8").trim().split("\n").map((line) => (JSON.parse(line) as { frameItems: FrameMetaJSON[] }).frameItems[0]!);
    expect(frames).toHaveLength(30);
    // The typed user metas read dsmetadump's lines (each frame's toJSON()) as they read live metadata.
    const forward = frames.map((frame) => FRAME_ANALYTICS.get(frame)!.lineCrossings.forward);
    expect(forward.indexOf(1)).toBe(15);
    expect(forward.slice(15).every((count) => count === 1)).toBe(true);
    expect(OBJECT_ANALYTICS.get(frames[15]!.objectItems[0]!)).toEqual({ crossed: "forward", inRoi: false });
    // In the ROI (x < 100) until the feet reach x = 100, at frame 9.
    expect(frames.map((frame) => FRAME_ANALYTICS.get(frame)!.roiOccupancy).indexOf(0)).toBe(9);
    expect(frames[29]!.displayMetaItems[0]!.lines).toHaveLength(5);
    expect(frames[29]!.displayMetaItems[0]!.texts[0]!.displayText).toBe("forward 1  backward 0  in ROI 0");
  });
});
