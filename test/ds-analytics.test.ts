// NVIDIA's nvdsanalytics (libnvds_dsanalytics + the gst-nvdsanalytics plugin, built from ../shared
// by scripts/build-deepstream-consumers.sh) downstream of a ds-element detector whose objects carry
// tracking ids: dsnvmmtestmux (test/nvmm-testmux/) hands out NvBufSurface batches in system memory,
// as nvstreammux would (nvdsanalytics reads each frame's size from the surface,
// gstnvdsanalytics.cpp ~490); the trackeddetector fixture writes two boxes moving right across a
// 320 x 240 frame; nvdsanalytics counts them in a right-half ROI and across the vertical middle
// line. What it attached (NvDsAnalyticsFrameMeta / NvDsAnalyticsObjInfo) is read by C++ through
// NVIDIA's header (test/ds-consumers/nvidia_consumers.cpp) and, typed (UserMeta.asAnalyticsFrame,
// asAnalyticsObject, in its toJSON), by a TS element (metareader) after it. The same objects left untracked (object_id
// UNTRACKED_OBJECT_ID, as a detector writes them) show why the ids matter: ROI counts only, no
// line crossings. DeepStream build only (`npm run test:deepstream`), skipped,
// saying so, on the portable one.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { runGst, scratchDir, type GstRun } from "./helpers/gst";
import { consumersProgram, deepstreamLibDir, nvmmTestMuxDir } from "./helpers/nvidia-consumers";
import { fixturesDist, nativeBackend } from "./helpers/projects";

/* eslint-disable @typescript-eslint/no-explicit-any */
type Json = Record<string, any>;

const FRAMES = 16;
const STEP = 16;
const NVBUF_MEM_SYSTEM = 6;
/** Box i of frame n: left 10 + STEP n, top 20 + 60 i, 40 x 40 (the trackeddetector's geometry). */
const centreX = (frame: number) => 10 + STEP * frame + 20;

// deepstream-nvdsanalytics-test's config_nvdsanalytics.txt keys: a ROI over the right half and a
// line down the middle, crossed left to right (direction 100,120 -> 220,120).
const CONFIG = `[property]
enable=1
config-width=320
config-height=240
osd-mode=0
display-font-size=12

[roi-filtering-stream-0]
enable=1
roi-RightHalf=160;0;319;0;319;239;160;239
inverse-roi=0
class-id=-1

[line-crossing-stream-0]
enable=1
line-crossing-Middle=100;120;220;120;160;0;160;239
class-id=-1
extended=0
mode=loose
`;

interface Analysed {
  run: GstRun;
  /** What C++ read of NVIDIA's analytics metas, one line per frame. */
  seen: Json[];
  /** What the TS element after nvdsanalytics read (batch.toJSON()), one line per buffer. */
  read: Json[];
}

function analyse(tracked: boolean): Analysed {
  const lib = deepstreamLibDir();
  const dir = scratchDir("nvdsanalytics");
  const config = join(dir, "config_nvdsanalytics.txt");
  writeFileSync(config, CONFIG);
  const location = join(dir, "read.jsonl");
  const run = runGst(
    consumersProgram(),
    [
      "analytics",
      `videotestsrc num-buffers=${FRAMES} ! video/x-raw,format=RGBA,width=320,height=240 ` +
        `! dsnvmmtestmux batch-size=1 nvbuf-memory-type=${NVBUF_MEM_SYSTEM} ! trackeddetector objects=2 step=${STEP} tracked=${tracked} ` +
        `! nvdsanalytics config-file=${config} ! metareader location=${location} name=probe ! fakesink`,
    ],
    { dists: [fixturesDist, nvmmTestMuxDir(), join(lib, "gst-plugins")] },
  );
  return {
    run,
    seen: run.stdout.split("\n").filter((line) => line.startsWith("{")).map((line) => JSON.parse(line) as Json),
    read: run.code === 0 ? readFileSync(location, "utf8").trim().split("\n").filter(Boolean).map((line) => JSON.parse(line) as Json) : [],
  };
}

describe.skipIf(nativeBackend !== "deepstream")("NVIDIA's nvdsanalytics on a ds-element's tracked objects (DeepStream build only)", () => {
  let run: GstRun;
  let seen: Json[];
  let read: Json[];

  beforeAll(() => {
    ({ run, seen, read } = analyse(true));
  });

  it("runs NVIDIA's plugin on every NVMM batch", () => {
    expect(run.code, run.output).toBe(0);
    expect(seen.map((line) => line.frameNum)).toEqual([...Array(FRAMES).keys()]);
    expect(seen.every((line) => line.frame !== null)).toBe(true);
  });

  it("counts the objects in the ROI on every frame (NvDsAnalyticsFrameMeta.objInROIcnt, objCnt)", () => {
    for (const line of seen) {
      const inside = centreX(line.frameNum) >= 160 ? 2 : 0;
      expect(line.frame.objInROIcnt, `frame ${line.frameNum}`).toEqual({ RightHalf: inside });
      expect(line.frame.objCnt).toEqual({ 0: 1, 1: 1 });
      for (const object of line.objects) {
        if (inside) expect(object.analytics?.roiStatus, `frame ${line.frameNum}`).toEqual(["RightHalf"]);
        else expect(object.analytics?.roiStatus ?? [], `frame ${line.frameNum}`).toEqual([]);
      }
    }
  });

  it("counts each tracked object's crossing of the line once, on the frame it crossed (objLCCurrCnt, objLCCumCnt, lcStatus)", () => {
    const crossings = seen.flatMap((line) =>
      line.objects.filter((o: Json) => o.analytics?.lcStatus.includes("Middle")).map((o: Json) => ({ frame: line.frameNum, id: o.objectId })),
    );
    // Both on the first frame whose box centre is past x = 160 (frame 9: 174; frame 8: 158).
    const firstPast = [...Array(FRAMES).keys()].find((frame) => centreX(frame) >= 160);
    expect(crossings).toEqual([
      { frame: firstPast, id: 2 },
      { frame: firstPast, id: 1 },
    ]);
    for (const line of seen) {
      const now = crossings.filter((c) => c.frame === line.frameNum).length;
      const before = crossings.filter((c) => c.frame <= line.frameNum).length;
      expect(line.frame.objLCCurrCnt, `frame ${line.frameNum}`).toEqual({ Middle: now });
      expect(line.frame.objLCCumCnt, `frame ${line.frameNum}`).toEqual({ Middle: before });
    }
  });

  it("a TS element downstream reads NVIDIA's analytics metas typed (asAnalyticsFrame, asAnalyticsObject), as C++ read them", () => {
    expect(read).toHaveLength(FRAMES);
    const { frameMetaType, objectMetaType } = seen[0]!;
    expect([frameMetaType, objectMetaType]).toEqual([32, 33]); // NVDS_FRAME_META_NVDSANALYTICS, NVDS_OBJ_META_NVDSANALYTICS
    for (const [i, batch] of read.entries()) {
      const frame = batch.frameItems[0];
      const line = seen[i]!;
      expect(frame.frameNum).toBe(line.frameNum);
      const analytics = (frame.userMetaItems as Json[]).filter((u) => u.metaTypeId === frameMetaType);
      expect(analytics.map((u) => u.kind)).toEqual(["analytics-frame"]);
      const inside = centreX(line.frameNum) >= 160 ? 2 : 0;
      const crossed = line.frame.objLCCurrCnt.Middle as number;
      expect(analytics[0]!.analyticsFrame, `frame ${line.frameNum}`).toEqual({
        ocStatus: {},
        objInROIcnt: { RightHalf: inside },
        objLCCurrCnt: { Middle: crossed },
        objLCCumCnt: line.frame.objLCCumCnt,
        uniqueId: line.frame.uniqueId,
        objCnt: { 0: 1, 1: 1 },
      });
      const typed = (frame.objectItems as Json[])
        .map((o) => ({ objectId: o.objectId, info: (o.userMetaItems as Json[]).find((u) => u.metaTypeId === objectMetaType) }))
        .filter(({ info }) => info !== undefined)
        .map(({ objectId, info }) => ({ objectId, kind: info!.kind, ...info!.analyticsObject }))
        .sort((a, b) => a.objectId - b.objectId);
      const fromC = (line.objects as Json[])
        .filter((o) => o.analytics !== null)
        .map((o) => ({ objectId: o.objectId, kind: "analytics-object", ocStatus: [], objStatus: expect.any(String), ...o.analytics }))
        .sort((a, b) => a.objectId - b.objectId);
      expect(typed, `frame ${line.frameNum}`).toEqual(fromC);
      for (const info of typed) {
        expect(info.roiStatus).toEqual(inside ? ["RightHalf"] : []);
        // nvdsanalytics' own summary of the object (" ROI:RightHalf LC:Middle " on the crossing frame).
        expect(info.objStatus.includes("ROI:RightHalf")).toBe(inside > 0);
        expect(info.objStatus.includes("LC:Middle")).toBe(info.lcStatus.includes("Middle"));
      }
    }
    const crossings = read.flatMap((batch) =>
      (batch.frameItems[0].objectItems as Json[]).filter((o) => (o.userMetaItems as Json[]).some((u) => u.analyticsObject?.lcStatus.includes("Middle"))),
    );
    expect(crossings).toHaveLength(2);
  });
});

describe.skipIf(nativeBackend !== "deepstream")("NVIDIA's nvdsanalytics on a ds-element's untracked objects (DeepStream build only)", () => {
  let analysed: Analysed;

  beforeAll(() => {
    analysed = analyse(false);
  });

  it("counts them in the ROI but turns line crossing off, saying it needs a tracker (nvds_analytics.cpp ~751-756)", () => {
    const { run, seen } = analysed;
    expect(run.code, run.output).toBe(0);
    expect(run.output).toContain("NVDSANALYTICS:Cant get direction information without enabling tracker, disabling direction");
    expect(seen.map((line) => line.frame.objInROIcnt.RightHalf)).toEqual([...Array(FRAMES).keys()].map((frame) => (centreX(frame) >= 160 ? 2 : 0)));
    expect(seen.flatMap((line) => line.objects.flatMap((o: Json) => o.analytics?.lcStatus ?? []))).toEqual([]);
    expect(seen.at(-1)!.frame.objLCCumCnt).toEqual({ Middle: 0 });
  });
});
