// Element A writes objects, classifier results, user and display metas;
// a tee with two queue branches follows; element B in each branch reads them back
// identically, and dsmetadump's output matches what A wrote. The tee makes each branch's
// in-place element copy the buffer, so this also proves the metadata survives buffer copies
// (portable GstMeta deep copy, or DeepStream's nvds_batch_meta_copy_func under
// `npm run test:deepstream`).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { launch, pythonHost, scratchDir, type GstRun } from "./helpers/gst";
import { asCopied } from "./helpers/deepstream-copy";
import { batchMetaApi, builtinDist, fixturesDist } from "./helpers/projects";

const FRAMES = 12;

interface Line {
  numFrames: number;
  frameItems: Array<Record<string, unknown> & { objectItems: Array<Record<string, unknown>>; displayMetaItems: unknown[]; userMetaItems: unknown[] }>;
  userMetaItems: unknown[];
  checks?: string[];
}

function lines(file: string): Line[] {
  return readFileSync(file, "utf8").trim().split("\n").filter(Boolean).map((line) => JSON.parse(line) as Line);
}

/** The batch part of a line: what A, B and dsmetadump all print (batch.toJSON()). */
function batchOf(line: Line): Record<string, unknown> {
  const { checks: _checks, batch: _index, buffer: _buffer, ...batch } = line as Line & { batch?: number; buffer?: unknown };
  return batch;
}

describe("metadata through a pipeline (tee, two branches)", () => {
  let dir: string;
  let run: GstRun;

  beforeAll(() => {
    dir = scratchDir("metadata-pipeline");
    const file = (name: string) => join(dir, name);
    run = launch(
      `videotestsrc num-buffers=${FRAMES} ! video/x-raw,format=RGB,width=320,height=240 ! ` +
        `metawriter location=${file("a.jsonl")} ! tee name=t ` +
        `t. ! queue ! metareader location=${file("b1.jsonl")} ! dsmetadump location=${file("dump.jsonl")} ! fakesink ` +
        `t. ! queue ! metareader location=${file("b2.jsonl")} ! fakesink`,
      { dists: [fixturesDist, builtinDist] },
    );
  });

  it("runs to the end", () => {
    expect(run.signal, run.output).toBeNull();
    expect(run.code, run.output).toBe(0);
  });

  it("A wrote what it meant to, as read back through the native side", () => {
    const written = lines(join(dir, "a.jsonl"));
    expect(written).toHaveLength(FRAMES);
    const frame = written[5]!.frameItems[0]!;
    expect(frame.frameNum).toBe(5);
    expect(frame.inferDone).toBe(true);
    expect(frame.miscFrameInfo).toEqual([5, 1, 2, 3]);
    expect(frame.objectItems).toHaveLength(3);
    const [first, second, third] = frame.objectItems as Array<Record<string, any>>;
    expect(first).toMatchObject({ classId: 0, objectId: 500, uniqueComponentId: 7, label: "thing-0", trackerConfidence: 0.25 });
    expect(first!.confidence).toBeCloseTo(0.5, 6);
    expect(first!.rectParams).toMatchObject({ left: 10, top: 25, width: 30.5, height: 40.25, borderWidth: 3, hasBgColor: true, rotationAngle: 0.5 });
    expect(first!.rectParams.borderColor).toEqual({ red: 1, green: 0, blue: 0, alpha: 1 });
    // The classifier's labels appended, as nvinfer's classifier does (gstnvinfer_meta_utils.cpp:326-350).
    expect(first!.textParams).toMatchObject({ displayText: "thing 0 of frame 5 red blue ", xOffset: 10, yOffset: 12 });
    expect(first!.detectorBboxInfo).toEqual({ left: 9, top: 19, width: 31, height: 41 });
    expect(first!.miscObjInfo).toEqual([5, 0, -1, 2 ** 40]);
    expect(first!.classifierItems).toHaveLength(1);
    expect(first!.classifierItems[0]).toMatchObject({ numLabels: 2, uniqueComponentId: 8, classifierType: "color" });
    expect(first!.classifierItems[0].labelInfoItems.map((l: { resultLabel: string }) => l.resultLabel)).toEqual(["red", "blue"]);
    expect(first!.userMetaItems[0]).toMatchObject({ metaType: "DSELEMENT.TEST.OBJECT", kind: "json", json: { frame: 5, object: 0, tags: ["a", "b"] } });
    // 127 bytes: the whole of DeepStream's result_label.
    expect(third!.classifierItems[0].labelInfoItems[1].resultLabel).toBe(`blue${"très ".repeat(20)}abc`);
    expect(third!.maskParams).toMatchObject({ threshold: 0.5, width: 3, height: 2, data: [0, 0.25, 0.5, 0.75, 1, 0.125] });
    expect(second!.parent).toBeDefined();
    // 20 rects chain into two physical display metas (16 + 4).
    const displays = frame.displayMetaItems as Array<{ rects: unknown[]; texts: unknown[]; lines: unknown[]; arrows: Array<{ arrowHead: string }>; circles: unknown[] }>;
    expect(displays.map((d) => d.rects.length)).toEqual([16, 4]);
    expect(displays[0]!.texts).toHaveLength(1);
    expect(displays[0]!.arrows[0]!.arrowHead).toBe("both");
    expect(frame.userMetaItems).toEqual([
      expect.objectContaining({ metaType: "DSELEMENT.TEST.FRAME", kind: "json", json: { frame: 5, text: "héllo" } }),
      expect.objectContaining({ metaType: "DSELEMENT.TEST.BYTES", kind: "bytes", bytes: [5, 0, 255, 7] }),
    ]);
    expect(written[5]!.userMetaItems).toEqual([expect.objectContaining({ metaType: "DSELEMENT.TEST.BATCH", json: { frames: 1 } })]);
  });

  // Per buffer, the branch whose in-place element runs while the other still holds the buffer
  // copies it (gst_buffer_make_writable); the other may get the original. A copy reads as
  // NVIDIA's copy function leaves it (asCopied), on both backends.
  it("B reads back what A wrote in both branches: as written, or as a buffer copy leaves it", () => {
    const written = lines(join(dir, "a.jsonl")).map(batchOf);
    const copied = written.map(asCopied);
    const wasCopied: boolean[][] = [];
    for (const branch of ["b1.jsonl", "b2.jsonl"]) {
      const read = lines(join(dir, branch));
      expect(read.flatMap((line) => line.checks ?? []), branch).toEqual([]);
      expect(read).toHaveLength(FRAMES);
      wasCopied.push(read.map((line, i) => {
        const batch = batchOf(line);
        if (JSON.stringify(batch) === JSON.stringify(copied[i])) return true;
        expect(batch, `${branch} buffer ${i}`).toEqual(written[i]);
        return false;
      }));
    }
    // The first branch to run on a buffer copies it: every buffer is read as a copy at least once.
    expect(written.map((_, i) => wasCopied[0]![i] || wasCopied[1]![i])).toEqual(written.map(() => true));
  });

  it("dsmetadump writes what the reader before it read", () => {
    const read = lines(join(dir, "b1.jsonl")).map(batchOf);
    const dumped = lines(join(dir, "dump.jsonl"));
    expect(dumped).toHaveLength(FRAMES);
    expect(dumped.map(batchOf)).toEqual(read);
    expect((dumped[0] as unknown as { buffer: { pts: number } }).buffer.pts).toBe(0);
  });
});

// A plain buffer gets a one-frame batch for the call; it goes onto the buffer only when the
// element wrote something into it (reading costs no GstMeta per buffer), and what was written
// reaches the next element.
describe("the batch of a buffer that arrived without one", () => {
  const source = "videotestsrc num-buffers=12 ! video/x-raw,format=RGB,width=64,height=48";

  function carried(description: string): { buffers: number; withBatch: number[]; apis: string[] } {
    const dir = scratchDir("batch-carried");
    const run = pythonHost("batch_carried.py", [description], { dists: [fixturesDist], registry: join(dir, "registry.bin") });
    expect(run.signal, run.stderr).toBeNull();
    expect(run.code, run.output).toBe(0);
    return JSON.parse(run.stdout.trim().split("\n").at(-1)!) as { buffers: number; withBatch: number[]; apis: string[] };
  }

  it("leaves with the buffers the element wrote to, and only those", () => {
    // The build's own batch meta: NvDsMeta on a DeepStream build, the portable one otherwise.
    expect(carried(`${source} ! framemark name=watched every=3 ! fakesink`)).toEqual({ buffers: 12, withBatch: [0, 3, 6, 9], apis: [batchMetaApi] });
  });

  it("is not put on buffers by an element that only reads", () => {
    const dir = scratchDir("batch-carried-reader");
    expect(carried(`${source} ! metareader name=watched location=${join(dir, "read.jsonl")} ! fakesink`)).toEqual({ buffers: 12, withBatch: [], apis: [] });
  });

  it("carries the frame fields written to the element after it; the other frames are numbered alike", () => {
    const dir = scratchDir("batch-carried-fields");
    const file = join(dir, "read.jsonl");
    const run = launch(`${source} ! framemark every=3 ! metareader location=${file} ! fakesink`, { dists: [fixturesDist] });
    expect(run.code, run.output).toBe(0);
    const frames = lines(file).map((line) => line.frameItems[0]!);
    expect(frames.map((frame) => frame.frameNum)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    for (const frame of frames) {
      const n = frame.frameNum as number;
      expect(frame.inferDone, `frame ${n}`).toBe(n % 3 === 0);
      expect(frame.miscFrameInfo, `frame ${n}`).toEqual(n % 3 === 0 ? [n, 7, 0, 0] : [0, 0, 0, 0]);
    }
  });
});
