// Downstream DeepStream code cannot tell our metadata from nvinfer's: test/ds-consumer/ds_consumer.c,
// plain C linked only against NVIDIA's libnvds_meta / libnvdsgst_meta and GStreamer, reads
// through DeepStream's own API what the metawriter fixture wrote, and what a buffer copy
// (NVIDIA's copy function, our user metas' copy/release functions) leaves of it. It needs
// NVIDIA's libraries: it runs on the DeepStream build (`npm run test:deepstream`) and is skipped,
// saying so, on the portable one.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { asCopied } from "./helpers/deepstream-copy";
import { repoRoot, runGst, scratchDir, type GstRun } from "./helpers/gst";
import { fixturesDist, nativeBackend } from "./helpers/projects";

/* eslint-disable @typescript-eslint/no-explicit-any */
type Json = Record<string, any>;

const FRAMES = 6;
const native = createRequire(__filename)(join(repoRoot, "native-host", "index.js")) as { buildDir: string };

const rev = <T>(items: T[]): T[] => [...items].reverse();
const color = (c: Json) => [c.red, c.green, c.blue, c.alpha];
const round = (value: number) => Math.round(value * 1e5) / 1e5;
const user = (u: Json) => ({ type: u.metaType, hasCopy: 1, hasRelease: 1, data: u.kind === "json" ? u.json : u.bytes.slice(0, 4) });

/**
 * What C code walking DeepStream's lists sees of a batch.toJSON() (lists in added order): the
 * lists DeepStream prepends to, objects, classifiers, label infos, display metas and frame/object
 * user metas, hold the newest first, as nvinfer's do.
 */
function asDeepStreamSees(batch: Json): Json {
  return {
    maxFramesInBatch: batch.maxFramesInBatch,
    numFramesInBatch: batch.numFrames,
    frames: batch.frameItems.map((frame: Json) => ({
      frameNum: frame.frameNum,
      numObjMeta: frame.objectItems.length,
      bInferDone: frame.inferDone ? 1 : 0,
      objects: rev(frame.objectItems as Json[]).map((o) => ({
        classId: o.classId,
        objectId: o.objectId,
        uniqueComponentId: o.uniqueComponentId,
        confidence: round(o.confidence),
        label: o.label,
        rect: [o.rectParams.left, o.rectParams.top, o.rectParams.width, o.rectParams.height],
        borderWidth: o.rectParams.borderWidth,
        borderColor: color(o.rectParams.borderColor),
        hasBgColor: o.rectParams.hasBgColor ? 1 : 0,
        bgColor: color(o.rectParams.bgColor),
        detector: [o.detectorBboxInfo.left, o.detectorBboxInfo.top, o.detectorBboxInfo.width, o.detectorBboxInfo.height],
        parentObjectId: o.parent === null ? null : frame.objectItems[o.parent.objectIndex].objectId,
        displayText: o.textParams.displayText,
        font: o.textParams.font.name,
        fontSize: o.textParams.font.size,
        fontColor: color(o.textParams.font.color),
        xOffset: o.textParams.xOffset,
        yOffset: o.textParams.yOffset,
        setBgClr: o.textParams.setBgColor ? 1 : 0,
        textBgColor: color(o.textParams.bgColor),
        reads: {
          nvdsosdDrawsText: o.textParams.displayText === "" ? 0 : 1,
          nvtrackerLabel: `${o.textParams.displayText === "" ? "(null)" : o.textParams.displayText} 5`,
          untracked: o.objectId === -1 ? 1 : 0,
          detectorIsBox: ["left", "top", "width", "height"].every((k) => o.detectorBboxInfo[k] === o.rectParams[k]) ? 1 : 0,
        },
        classifiers: rev(o.classifierItems as Json[]).map((c) => ({
          uniqueComponentId: c.uniqueComponentId,
          numLabels: c.numLabels,
          classifierType: c.classifierType,
          labels: rev(c.labelInfoItems as Json[]).map((l) => ({
            resultLabel: l.resultLabel,
            pResultLabel: null,
            resultClassId: l.resultClassId,
            labelId: l.labelId,
            resultProb: round(l.resultProb),
            numClasses: l.numClasses,
          })),
        })),
        userMetas: rev(o.userMetaItems as Json[]).map(user),
      })),
      displays: rev(frame.displayMetaItems as Json[]).map((d) => ({
        numRects: d.rects.length,
        rects: d.rects.map((r: Json) => [r.left, r.top, r.width, r.height]),
        texts: d.texts.map((t: Json) => t.displayText),
        lines: d.lines.map((l: Json) => [l.x1, l.y1, l.x2, l.y2, l.lineWidth]),
        numArrows: d.arrows.length,
        numCircles: d.circles.length,
      })),
      userMetas: rev(frame.userMetaItems as Json[]).map(user),
    })),
    userMetas: (batch.userMetaItems as Json[]).map(user),
  };
}

/** The consumer's line with JSON payloads parsed and floats rounded as asDeepStreamSees does. */
function parsed(line: Json): Json {
  const users = (list: Json[]) => list.map((u) => ({ ...u, data: typeof u.data === "string" ? JSON.parse(u.data) : u.data }));
  const { copy: _copy, ...batch } = line;
  for (const frame of batch.frames) {
    frame.userMetas = users(frame.userMetas);
    for (const o of frame.objects) {
      o.confidence = round(o.confidence);
      o.userMetas = users(o.userMetas);
      for (const c of o.classifiers) for (const l of c.labels) l.resultProb = round(l.resultProb);
    }
  }
  batch.userMetas = users(batch.userMetas);
  return batch;
}

describe.skipIf(nativeBackend !== "deepstream")("a C consumer on DeepStream's API (DeepStream build only)", () => {
  let run: GstRun;
  let written: Json[];
  let seen: Json[];

  beforeAll(() => {
    execFileSync("cmake", ["--build", dirname(native.buildDir), "--target", "dsnode-ds-consumer"], { stdio: "pipe" });
    const dir = scratchDir("ds-consumer");
    const file = join(dir, "a.jsonl");
    run = runGst(
      join(dirname(native.buildDir), "dsnode-ds-consumer"),
      [`videotestsrc num-buffers=${FRAMES} ! video/x-raw,format=RGB,width=320,height=240 ! metawriter location=${file} ! identity name=probe ! fakesink`],
      { dists: [fixturesDist] },
    );
    written = readFileSync(file, "utf8").trim().split("\n").map((line) => JSON.parse(line) as Json);
    seen = run.stdout.trim().split("\n").filter(Boolean).map((line) => JSON.parse(line) as Json);
  });

  it("runs to the end and links only NVIDIA's libraries and GStreamer", () => {
    expect(run.code, run.output).toBe(0);
    const needed = execFileSync("readelf", ["-d", join(dirname(native.buildDir), "dsnode-ds-consumer")], { encoding: "utf8" })
      .split("\n")
      .flatMap((line) => /NEEDED.*\[(.+)\]/.exec(line)?.[1] ?? []);
    expect(needed).toContain("libnvds_meta.so");
    expect(needed).toContain("libnvdsgst_meta.so");
    expect(needed.filter((lib) => !/^lib(nvds_meta|nvdsgst_meta|gst\w*-1\.0|gobject-2\.0|glib-2\.0|c)\.so/.test(lib))).toEqual([]);
  });

  it("reads every field the element wrote, in DeepStream's list order, as nvinfer's metadata reads", () => {
    expect(written).toHaveLength(FRAMES);
    const originals = seen.filter((line) => line.copy === 0);
    expect(originals).toHaveLength(FRAMES);
    originals.forEach((line, i) => expect(parsed(line), `buffer ${i}`).toEqual(asDeepStreamSees(written[i]!)));
    // Spot checks of what the comparison covers, as a DeepStream engineer would read them.
    const frame = originals[2]!.frames[0];
    const [c, b, a] = frame.objects;
    expect([a.objectId, b.objectId, c.objectId]).toEqual([200, 201, 202]);
    expect(b.parentObjectId).toBe(200);
    expect(a.classifiers[0]).toMatchObject({ numLabels: 2, classifierType: "color" });
    expect(a.classifiers[0].labels.map((l: Json) => l.resultLabel)).toEqual(["blue", "red"]);
    expect(frame.displays.map((d: Json) => d.numRects)).toEqual([4, 16]);
    expect(frame.userMetas.map((u: Json) => u.type)).toEqual(["DSELEMENT.TEST.BYTES", "DSELEMENT.TEST.FRAME"]);
    // A 127-byte label fills result_label, as nvinfer's g_strlcpy would (gstnvinfer_meta_utils.cpp:317);
    // pResult_label stays NULL (no NVIDIA plugin writes it; deepstream-app copies it into 128 bytes).
    const long = c.classifiers[0].labels[0];
    expect(long.resultLabel).toBe(`blue${"très ".repeat(20)}abc`);
    expect(Buffer.byteLength(long.resultLabel)).toBe(127);
    expect(long.pResultLabel).toBeNull();
    expect(a.classifiers[0].labels[0].pResultLabel).toBeNull();
  });

  it("finds each user meta by nvds_get_user_meta_type on every buffer (one type number per string)", () => {
    const types = seen.flatMap((line) => [
      ...line.userMetas,
      ...line.frames.flatMap((f: Json) => [...f.userMetas, ...f.objects.flatMap((o: Json) => o.userMetas)]),
    ]);
    expect(types.length).toBe(2 * FRAMES * (1 + 2 + 3));
    expect(types.filter((u) => u.type === "unknown")).toEqual([]);
  });

  it("a buffer copy carries every user meta through our copy and release functions, as NVIDIA's copy leaves the rest", () => {
    const copies = seen.filter((line) => line.copy === 1);
    expect(copies).toHaveLength(FRAMES);
    copies.forEach((line, i) => expect(parsed(line), `copy of buffer ${i}`).toEqual(asDeepStreamSees(asCopied(written[i]!))));
    expect(copies[0]!.frames[0].objects[1].parentObjectId).toBeNull();
  });
});

describe.skipIf(nativeBackend !== "deepstream")("what nvtracker and nvdsosd read of a ds-element detector's objects (DeepStream build only)", () => {
  // The `detections` fixture leaves every default as it is: C code reads, through DeepStream's
  // API, what nvinfer's attach_metadata_detector / attach_metadata_classifier would have
  // written (gst-nvinfer/gstnvinfer_meta_utils.cpp, lines below; docs/metadata.md's table), and
  // what nvtracker and nvdsosd take from it ("reads", computed as their source does: ds_consumer.c).
  let run: GstRun;
  let frames: Json[];

  beforeAll(() => {
    execFileSync("cmake", ["--build", dirname(native.buildDir), "--target", "dsnode-ds-consumer"], { stdio: "pipe" });
    run = runGst(
      join(dirname(native.buildDir), "dsnode-ds-consumer"),
      ["videotestsrc num-buffers=3 ! video/x-raw,format=RGB,width=320,height=240 ! detections skip-every=2 ! identity name=probe ! fakesink"],
      { dists: [fixturesDist] },
    );
    // A frame the element wrote nothing to may carry no batch at all (no nvstreammux here): null.
    const lines = run.stdout.trim().split("\n").filter(Boolean).map((line) => JSON.parse(line) as Json);
    frames = lines.filter((line) => line.copy === 0).map((line) => line.frames?.[0] ?? null);
  });

  it("bInferDone on the frames inferred on, not on the skipped one (nvinfer: 61; nvtracker: detectionDone, nvtracker_proc.cpp:1444)", () => {
    expect(run.code, run.output).toBe(0);
    expect(frames).toHaveLength(3);
    expect(frames[1]).toMatchObject({ frameNum: 1, bInferDone: 1, numObjMeta: 3 });
    for (const skipped of [frames[0], frames[2]]) expect(skipped?.bInferDone ?? 0).toBe(0);
  });

  it("each object as nvinfer writes it: untracked, detector_bbox_info, 3 px red border, its label in Serif 11 white on black", () => {
    const objects = frames[1]!.objects as Json[];
    const byLabel = Object.fromEntries(objects.map((o) => [o.label, o]));
    for (const [label, rect, text] of [
      ["car", [40, 60, 80, 50], "car red "], // classifier label appended (326-350)
      ["person", [200, 5, 60, 40], "person"],
      ["dog", [120, 150, 70, 60], "dog"],
    ] as const) {
      const o = byLabel[label]!;
      expect(o.objectId, label).toBe(2 ** 64); // UNTRACKED_OBJECT_ID, 2^64 - 1, as a JSON number (150)
      expect(o, label).toMatchObject({
        uniqueComponentId: 1,
        rect: [...rect],
        detector: [...rect], // 173-176
        borderWidth: 3, // 179
        borderColor: [1, 0, 0, 1], // 182
        hasBgColor: 0,
        displayText: text, // 194
        xOffset: rect[0], // 196
        yOffset: Math.max(0, rect[1] - 10), // 197 (at least 0 here)
        setBgClr: 1, // 199
        textBgColor: [0, 0, 0, 1], // 200
        font: "Serif", // 203
        fontSize: 11, // 204
        fontColor: [1, 1, 1, 1], // 205
        reads: { nvdsosdDrawsText: 1, nvtrackerLabel: `${text} 5`, untracked: 1, detectorIsBox: 1 },
      });
    }
    expect(byLabel.car!.classifiers).toEqual([
      expect.objectContaining({ uniqueComponentId: 2, numLabels: 1, classifierType: "color", labels: [expect.objectContaining({ resultLabel: "red", pResultLabel: null })] }),
    ]);
  });
});

describe.skipIf(nativeBackend !== "deepstream")("a DeepStream build where DeepStream is absent (DeepStream build only)", () => {
  // DS_ELEMENT_DEEPSTREAM_LIB_DIR alone is searched when set: an empty folder stands for a
  // machine without DeepStream.
  const env = () => ({ DS_ELEMENT_DEEPSTREAM_LIB_DIR: scratchDir("no-deepstream") });

  it("still lists its elements", () => {
    const inspected = runGst("gst-inspect-1.0", ["framemark"], { dists: [fixturesDist], env: env() });
    expect(inspected.code, inspected.output).toBe(0);
  });

  it("fails the pipeline with one error naming the missing library and the portable build", () => {
    const run = runGst("gst-launch-1.0", ["videotestsrc", "num-buffers=1", "!", "framemark", "!", "fakesink"], {
      dists: [fixturesDist],
      env: env(),
    });
    expect(run.code).not.toBe(0);
    expect(run.output).toMatch(/framemark0: built against DeepStream \d+\.\d+ but cannot load libnvds_meta\.so \(.*libnvds_meta\.so: cannot open shared object file/);
    expect(run.output).toContain("rebuild ds-element-native with `npx cmake-js compile --out build --CDDSNODE_WITH_DEEPSTREAM=OFF`");
    expect(run.output.match(/^ERROR: from element/gm)).toHaveLength(1);
  });
});
