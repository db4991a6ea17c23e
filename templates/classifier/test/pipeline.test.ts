// The element in a real GStreamer pipeline: built as `npm run build` builds it (into a folder
// of the test's own) with a stand-in detector (test/fixtures/fixed-objects.ts) upstream, on a
// red videotestsrc; the built-in dsmetadump writes the metadata as JSON lines.
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildProject } from "ds-element/cli";
import { launchPipeline } from "ds-element/testing";
import { beforeAll, describe, expect, it } from "vitest";
import { labelsPath, modelPath } from "./models.js";

interface DumpedObject {
  classId: number;
  classifierItems: { classifierType: string; uniqueComponentId: number; labelInfoItems: { resultLabel: string; resultProb: number }[] }[];
}

const dir = mkdtempSync(join(tmpdir(), "template-element-name-pipeline-"));
let dist: string;

beforeAll(async () => {
  const entries = ["src/index.ts", "test/fixtures/fixed-objects.ts"];
  dist = (await buildProject({ projectDir: join(__dirname, ".."), outDir: join(dir, "dist"), entries, typecheck: false })).outDir;
});

describe("template-element-name in gst-launch-1.0", () => {
  it("classifies the objects of class 2 a detector upstream found, as red", async () => {
    const dump = join(dir, "objects.jsonl");
    const run = await launchPipeline(
      `videotestsrc pattern=solid-color foreground-color=0xffff0000 num-buffers=10 ! video/x-raw,format=RGB,width=320,height=240 ! ` +
        `template-element-name-fixedobjects boxes=<10,20,64,48,2,200,100,80,60,0,150,150,40,40,2> ! ` +
        `template-element-name model=${modelPath} labels-file=${labelsPath} operate-on-class-ids=<2> ! dsmetadump location=${dump} ! fakesink sync=false`,
      { dists: [dist] },
    );
    expect(run.code, run.stderr).toBe(0);
    const batches = readFileSync(dump, "utf8").trim().split("\n").map((line) => JSON.parse(line) as { frameItems: { objectItems: DumpedObject[] }[] });
    expect(batches).toHaveLength(10);
    for (const batch of batches) {
      const objects = batch.frameItems[0]!.objectItems;
      expect(objects.map((object) => [object.classId, object.classifierItems.map((c) => c.labelInfoItems[0]!.resultLabel)])).toEqual([
        [2, ["red"]],
        [0, []],
        [2, ["red"]],
      ]);
      expect(objects[0]!.classifierItems[0]).toMatchObject({ classifierType: "template-element-name", uniqueComponentId: 2 });
      expect(objects[0]!.classifierItems[0]!.labelInfoItems[0]!.resultProb).toBeGreaterThan(0.9);
    }
  });
});
