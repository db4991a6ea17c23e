// NVIDIA components' metas read typed (nvtracker's past-frame/terminated/shadow lists and re-ID
// embeddings, nvdspreprocess's batch meta, nvinfer's ROI meta) and the frame's sensor
// information, on batches the testing harness builds. The harness attaches the component metas
// on the portable backend only (on DeepStream, test/component-meta.test.ts reads NVIDIA's
// structs as stand-ins of nvtracker and nvdspreprocess attach them); the sensor information on
// both.
import { describe, expect, it } from "vitest";
import { Element, type BatchMeta } from "../index.js";
import { loadStandaloneBinding } from "../native/loader.js";
import { runTransform, type TrackerStreamInit } from "../testing/index.js";
import type { PreprocessBatchMeta, RoiMeta } from "./preprocess-meta.js";
import type { SensorInfo } from "./sensor-info.js";
import type { TrackerTargetList } from "./tracker-meta.js";
import type { UserMetaKind } from "./user-meta.js";

const backend = loadStandaloneBinding().harness.backend;

interface Seen {
  kinds: UserMetaKind[];
  lists: Partial<Record<UserMetaKind, TrackerTargetList | undefined>>;
  batchReid: { featureSize: number; numVectors: number; second: number[] | undefined; devicePointer: bigint } | undefined;
  objectReids: (number[] | undefined)[];
  preprocess: (PreprocessBatchMeta | undefined)[];
  rois: (RoiMeta | undefined)[];
  sensors: SensorInfo[];
  notOfKind: unknown[];
  detached: number | undefined;
}
let seen: Seen;
let kept: Float32Array | undefined;

class ComponentReader extends Element.define({
  name: "componentreader",
  longName: "Component meta reader",
  klass: "Filter/Analyzer/Video",
  description: "Reads nvtracker's and nvdspreprocess's metas and the sensor information",
  author: "ds-element tests <tests@example.com>",
  caps: "video/x-raw",
}) {
  transform(batch: BatchMeta) {
    seen = { kinds: [], lists: {}, batchReid: undefined, objectReids: [], preprocess: [], rois: [], sensors: [], notOfKind: [], detached: undefined };
    for (const user of batch.userMetaItems) {
      seen.kinds.push(user.kind);
      if (user.kind.startsWith("tracker-") && user.kind.endsWith("list") || user.kind === "tracker-past-frame") seen.lists[user.kind] = user.asTrackerTargets();
      if (user.kind === "tracker-batch-reid") {
        const reid = user.asReid()!;
        seen.batchReid = { featureSize: reid.featureSize, numVectors: reid.numVectors, second: reid.vector(1) && [...reid.vector(1)!], devicePointer: reid.devicePointer };
        kept = reid.data;
      }
      if (user.kind === "preprocess-batch") seen.preprocess.push(user.asPreprocessBatch());
      seen.notOfKind.push(user.asRoi(), user.kind === "tracker-past-frame" ? user.asReid() : undefined);
    }
    for (const frame of batch.frameItems) {
      seen.sensors.push(frame.sensorInfo);
      for (const user of frame.userMetaItems) if (user.kind === "roi") seen.rois.push(user.asRoi());
      for (const obj of frame.objectItems) seen.objectReids.push(obj.reid?.vector(0) && [...obj.reid.vector(0)!]);
    }
  }
}

const pastFrame: TrackerStreamInit[] = [
  {
    streamId: 1,
    surfaceStreamId: 0x1_0000_0001n,
    targets: [
      {
        uniqueId: 7n,
        classId: 2,
        objLabel: "car",
        frames: [
          { frameNum: 40, bbox: { left: 10, top: 20, width: 30, height: 40 }, confidence: 0.5, age: 3, trackerState: "inactive", visibility: 0.75, worldFeet: [1.5, -2.5] },
          { frameNum: 41, bbox: { left: 11, top: 21, width: 30, height: 40 } },
        ],
      },
    ],
  },
];

describe.skipIf(backend !== "portable")("nvtracker's and nvdspreprocess's metas on the harness's batches (portable backend)", () => {
  it("reads the past-frame, terminated and shadow lists as the harness wrote them", async () => {
    await runTransform(ComponentReader, {
      tracker: { pastFrame, terminatedList: [{ streamId: 0, targets: [{ uniqueId: 9, frames: [] }] }], shadowList: [] },
    });
    expect(seen.kinds).toEqual(["tracker-past-frame", "tracker-terminated-list", "tracker-shadow-list"]);
    expect(seen.lists["tracker-past-frame"]).toEqual({
      streams: [
        {
          streamId: 1,
          surfaceStreamId: 0x1_0000_0001n,
          targets: [
            {
              uniqueId: 7,
              classId: 2,
              objLabel: "car",
              frames: [
                { frameNum: 40, bbox: { left: 10, top: 20, width: 30, height: 40 }, confidence: 0.5, age: 3, trackerState: "inactive", visibility: 0.75, worldFeet: [1.5, -2.5] },
                { frameNum: 41, bbox: { left: 11, top: 21, width: 30, height: 40 }, confidence: 1, age: 0, trackerState: "active", visibility: 1, worldFeet: [0, 0] },
              ],
            },
          ],
        },
      ],
    });
    expect(seen.lists["tracker-terminated-list"]).toEqual({ streams: [{ streamId: 0, surfaceStreamId: 0n, targets: [{ uniqueId: 9, classId: 0, objLabel: "", frames: [] }] }] });
    expect(seen.lists["tracker-shadow-list"]).toEqual({ streams: [] });
    expect(Object.isFrozen(seen.lists["tracker-past-frame"]!.streams[0]!.targets[0]!.frames[0]!.bbox)).toBe(true);
    expect(seen.notOfKind.every((value) => value === undefined)).toBe(true);
  });

  it("reads the batch's and each object's re-ID embeddings as Float32Array views, emptied when the call ends", async () => {
    await runTransform(ComponentReader, {
      tracker: { batchReid: { featureSize: 3, data: new Float32Array([1, 2, 3, 4, 5, 6]) } },
      frames: [{ objects: [{ objectId: 7, reid: new Float32Array([0.25, 0.5]) }, { objectId: 8 }] }],
    });
    expect(seen.batchReid).toEqual({ featureSize: 3, numVectors: 2, second: [4, 5, 6], devicePointer: 0n });
    expect(seen.objectReids).toEqual([[0.25, 0.5], undefined]);
    expect(kept?.length).toBe(0); // detached with the call
  });

  it("reads nvdspreprocess's batch meta and the frames' ROI metas", async () => {
    const roi = { roi: { left: 8, top: 4, width: 64, height: 32 }, frameBatchId: 1, frameSourceId: 5, scaleRatioX: 0.5, scaleRatioY: 0.25, offsetLeft: 2, offsetTop: 3 };
    await runTransform(ComponentReader, {
      preprocess: [{ targetUniqueIds: [2, 3], tensor: { tensorName: "input_1", tensorShape: [2, 3, 16, 16], dataType: "float16", gpuId: 1, metaId: 4, maintainAspectRatio: true, devicePointer: 0xdead0000n }, rois: [roi, { ...roi, objectId: 12n }] }, { targetUniqueIds: [5], rois: [] }],
      frames: [{}, { sourceId: 5, rois: [{ roi: { left: 1, top: 2, width: 3, height: 4 } }] }],
    });
    expect(seen.preprocess).toEqual([
      {
        targetUniqueIds: [2, 3],
        tensor: { tensorName: "input_1", dataType: "float16", tensorShape: [2, 3, 16, 16], bufferSize: 2 * 3 * 16 * 16 * 2, gpuId: 1, metaId: 4, maintainAspectRatio: true, devicePointer: 0xdead0000n },
        rois: [
          { roi: { left: 8, top: 4, width: 64, height: 32 }, frameBatchId: 1, frameSourceId: 5, objectId: undefined, scaleRatioX: 0.5, scaleRatioY: 0.25, offsetLeft: 2, offsetTop: 3 },
          { roi: { left: 8, top: 4, width: 64, height: 32 }, frameBatchId: 1, frameSourceId: 5, objectId: 12, scaleRatioX: 0.5, scaleRatioY: 0.25, offsetLeft: 2, offsetTop: 3 },
        ],
      },
      { targetUniqueIds: [5], tensor: undefined, rois: [] },
    ]);
    expect(seen.rois).toEqual([
      { roi: { left: 1, top: 2, width: 3, height: 4 }, frameBatchId: 1, frameSourceId: 5, objectId: undefined, scaleRatioX: 1, scaleRatioY: 1, offsetLeft: 0, offsetTop: 0 },
    ]);
  });

  it("keeps the metas read-only", async () => {
    class Rewriter extends ComponentReader {
      override transform(batch: BatchMeta) {
        const user = batch.userMetaItems[0]!;
        expect(() => user.setJson("ACME.A.B", {})).toThrow();
      }
    }
    await runTransform(Rewriter, { tracker: { pastFrame } });
  });
});

describe("the frame's sensor information (both backends)", () => {
  it("reads what the harness set, and nothing (NULL strings) where it set none", async () => {
    await runTransform(ComponentReader, {
      frames: [{ sourceId: 3, sensorInfo: { sensorId: "cam-north", sensorName: "North gate", uri: "rtsp://10.0.0.7/1" } }, { sensorInfo: { sourceId: 9, sensorId: "" } }, {}],
    });
    expect(seen.sensors).toEqual([
      { sourceId: 3, uri: "rtsp://10.0.0.7/1", sensorId: "cam-north", sensorName: "North gate" },
      { sourceId: 9, uri: undefined, sensorId: "", sensorName: undefined },
      { sourceId: 0, uri: undefined, sensorId: undefined, sensorName: undefined },
    ]);
  });
});
