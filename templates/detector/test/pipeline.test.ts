// The element in a real GStreamer pipeline: built as `npm run build` builds it (into a folder
// of the test's own), fed by `videotestsrc pattern=ball`, its metadata written by the
// built-in dsmetadump as JSON lines.
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildProject } from "ds-element/cli";
import { launchPipeline } from "ds-element/testing";
import { beforeAll, describe, expect, it } from "vitest";
import { labelsPath, modelPath } from "./models.js";

interface DumpedObject {
  classId: number;
  label: string;
  confidence: number;
  rectParams: { left: number; top: number; width: number; height: number };
}

const dir = mkdtempSync(join(tmpdir(), "template-element-name-pipeline-"));
let dist: string;

beforeAll(async () => {
  dist = (await buildProject({ projectDir: join(__dirname, ".."), outDir: join(dir, "dist"), typecheck: false })).outDir;
});

describe("template-element-name in gst-launch-1.0", () => {
  it("finds the ball of videotestsrc on every frame", async () => {
    const dump = join(dir, "objects.jsonl");
    const run = await launchPipeline(
      `videotestsrc pattern=ball num-buffers=30 ! video/x-raw,format=RGB,width=320,height=240,framerate=30/1 ! ` +
        `template-element-name model=${modelPath} labels-file=${labelsPath} ! dsmetadump location=${dump} ! fakesink sync=false`,
      { dists: [dist] },
    );
    expect(run.code, run.stderr).toBe(0);
    const frames = readFileSync(dump, "utf8").trim().split("\n").map((line) => JSON.parse(line) as { frameItems: { objectItems: DumpedObject[] }[] });
    expect(frames).toHaveLength(30);
    for (const frame of frames) {
      const objects = frame.frameItems[0]!.objectItems;
      expect(objects.map((object) => object.label)).toEqual(["ball"]);
      expect(objects[0]!.confidence).toBeGreaterThan(0.5);
      // videotestsrc's ball has a radius of 20 pixels.
      expect(objects[0]!.rectParams.width).toBeGreaterThan(34);
      expect(objects[0]!.rectParams.width).toBeLessThan(46);
    }
  });
});
