// NVIDIA components' metas read from TS on DeepStream's own structs: stand-ins of nvtracker,
// nvdspreprocess (with nvinfer's frame ROI meta) and nvmultiurisrcbin's sensor information
// (test/component-standins/) attach them through NVIDIA's headers and libnvds_meta exactly as
// those components do; the fixture `componentreader` reads them with the typed API and writes
// what it read. The stand-ins need NVIDIA's libraries: this runs on the DeepStream build
// (`npm run test:deepstream`) and is skipped, saying so, on the portable one, whose harness
// writes the same metas for sdk/src/metadata/component-meta.test.ts.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { launch, repoRoot, scratchDir } from "./helpers/gst";
import { fixturesDist, nativeBackend } from "./helpers/projects";

const native = createRequire(__filename)(join(repoRoot, "native-host", "index.js")) as { buildDir: string };
const standins = join(dirname(native.buildDir), "test-plugins");

if (nativeBackend !== "deepstream")
  console.info(
    "component-meta.test.ts: skipped: the native build is portable (no libnvds_meta for the stand-ins); " +
      "run it on the DeepStream build with `DS_META_SOURCE=<NVIDIA's source> npm run test:deepstream -- test/component-meta.test.ts`",
  );

describe.skipIf(nativeBackend !== "deepstream")("nvtracker's, nvdspreprocess's and the source bin's metadata read from TS (DeepStream build only)", () => {
  beforeAll(() => {
    for (const target of ["dsnode-mux-standins", "dsnode-component-standins"])
      execFileSync("cmake", ["--build", dirname(native.buildDir), "--target", target], { stdio: "pipe" });
  });

  it("reads each buffer's past-frame, terminated and shadow lists, re-ID embeddings, preprocess batch meta, ROIs and sensor information", () => {
    const location = join(scratchDir("component-meta"), "out.jsonl");
    const run = launch(
      "videotestsrc num-buffers=3 ! mux.sink_0 nvstreammux name=mux ! dssensorinfostandin ! dstrackerstandin ! dspreprocessstandin ! " +
        `componentreader location=${location} ! fakesink`,
      { dists: [fixturesDist, standins] },
    );
    expect(run.code, run.output).toBe(0);
    const lines = readFileSync(location, "utf8").trim().split("\n").map((line) => JSON.parse(line));
    expect(lines).toHaveLength(3);
    for (const [n, line] of lines.entries()) {
      const box = (k: number) => ({ left: 10 + k, top: 20 + k, width: 30, height: 40 });
      const frame = (frameNum: number, k: number, trackerState: string) => ({
        frameNum,
        bbox: box(k),
        confidence: 0.5,
        age: 3 + k,
        trackerState,
        visibility: 0.75,
        worldFeet: [1.5, -2.5],
      });
      const stream = (targets: unknown[]) => ({ streamId: 0, surfaceStreamId: "1", targets });
      const roi = { roi: { left: 8, top: 4, width: 64, height: 32 }, frameBatchId: 0, frameSourceId: 0, scaleRatioX: 0.25, scaleRatioY: 0.5, offsetLeft: 2, offsetTop: 3 };
      const embedding = [n, n + 0.5, n + 0.25, -n - 1];
      // Batch user metas in the order nvtracker then nvdspreprocess added them.
      expect(line.batchMetas).toEqual([
        { kind: "tracker-past-frame", metaTypeId: 15, targets: { streams: [stream([{ uniqueId: 7, classId: 2, objLabel: "car", frames: [frame(n + 8, 0, "inactive"), frame(n + 9, 1, "active")] }])] } },
        { kind: "tracker-terminated-list", metaTypeId: 18, targets: { streams: [stream([{ uniqueId: 5, classId: 0, objLabel: "person", frames: [frame(n + 5, 0, "active")] }])] } },
        { kind: "tracker-shadow-list", metaTypeId: 19, targets: { streams: [stream([])] } },
        { kind: "tracker-batch-reid", metaTypeId: 16, reid: { featureSize: 4, numVectors: 1, data: embedding, devicePointer: String(0xd0000000) } },
        {
          kind: "preprocess-batch",
          metaTypeId: 28,
          preprocess: {
            targetUniqueIds: [2, 3],
            tensor: { tensorName: "input_1", dataType: "float32", tensorShape: [1, 3, 16, 16], bufferSize: 3 * 16 * 16 * 4, gpuId: 0, metaId: 0, maintainAspectRatio: true, devicePointer: String(0xd0010000) },
            rois: [roi],
          },
        },
      ]);
      expect(line.frames).toEqual([
        {
          frameNum: n,
          sensorInfo: { sourceId: 0, uri: "rtsp://10.0.0.0/stream", sensorId: "cam-0", sensorName: "Camera 0" },
          rois: [roi],
          objects: [{ objectId: 7, reid: embedding, devicePointer: String(0xd0000000) }],
        },
      ]);
    }
  });
});
