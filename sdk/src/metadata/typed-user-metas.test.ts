// NVIDIA's typed user metas as element code sees them, through ds-element/testing (which writes
// them as nvdsanalytics and nvinfer would): nvdsanalytics' frame and object metas read typed, a
// segmentation result read by one element and written by another, and the harness's checks.
import { describe, expect, expectTypeOf, it } from "vitest";
import { Element, z, type AnalyticsFrameMeta, type AnalyticsObjectInfo, type BatchMeta, type GstBuffer, type SegmentationMeta } from "../index.js";
import { runTransform } from "../testing/index.js";

const author = "ds-element tests <tests@example.com>";
const base = { klass: "Filter/Analyzer/Video", author, caps: "video/x-raw, format={ GRAY8, RGB }" };

/** Labels the objects nvdsanalytics saw cross the door line and sums the frame's counts into a JSON meta. */
class DoorCounter extends Element.define({ ...base, name: "doorcounter", longName: "Door counter", description: "Reads nvdsanalytics' metas", properties: z.object({}) }) {
  transform(batch: BatchMeta) {
    for (const frame of batch.frameItems) {
      const analytics = frame.userMetaItems.map((user) => user.asAnalyticsFrame()).find((found) => found !== undefined);
      for (const obj of frame.objectItems) {
        const info = obj.userMetaItems.map((user) => user.asAnalyticsObject()).find((found) => found !== undefined);
        if (info?.lcStatus.includes("Door")) obj.label = `through the door going ${info.dirStatus}`;
      }
      const user = batch.acquireUserMeta();
      user.setJson("ACME.DOOR.TOTALS", {
        total: analytics?.objLCCumCnt["Door"] ?? null,
        lobby: analytics?.objInROIcnt["Lobby"] ?? null,
        crowded: analytics?.ocStatus["Lobby"] ?? null,
        cars: analytics?.objCnt[2] ?? null,
      });
      frame.addUserMeta(user);
    }
  }
}

/** Thresholds a GRAY8 frame into 2 classes (dark 0, bright 1), as a segmentation network would, for nvsegvisual. */
class Threshold extends Element.define({ ...base, name: "threshold", longName: "Threshold", description: "Writes a segmentation meta", properties: z.object({}) }) {
  transform(batch: BatchMeta, buffer: GstBuffer) {
    for (const frame of batch.frameItems) {
      const pixels = buffer.extract(frame.batchId).toTypedArray() as Uint8Array;
      const classMap = Int32Array.from(pixels, (value) => (value > 127 ? 1 : 0));
      const classProbabilities = new Float32Array(2 * pixels.length);
      pixels.forEach((value, i) => {
        classProbabilities[pixels.length + i] = value / 255;
        classProbabilities[i] = 1 - value / 255;
      });
      const user = batch.acquireUserMeta();
      user.setSegmentation({ classes: 2, width: frame.sourceFrameWidth, height: frame.sourceFrameHeight, classMap, classProbabilities, uniqueId: 4 });
      frame.addUserMeta(user);
      // What it attached reads back typed in the same call.
      const segmentation = user.asSegmentation()!;
      frame.miscFrameInfo = [segmentation.classMap.reduce((sum, id) => sum + id, 0), segmentation.classProbabilities!.length, 0, 0];
    }
  }
}

/** Counts the pixels of each class of every segmentation result (frame and object level) into a JSON meta. */
class ClassArea extends Element.define({ ...base, name: "classarea", longName: "Class area", description: "Reads segmentation metas", properties: z.object({}) }) {
  transform(batch: BatchMeta) {
    for (const frame of batch.frameItems) {
      const found = [...frame.userMetaItems, ...frame.objectItems.flatMap((obj) => obj.userMetaItems)].flatMap((user) => user.asSegmentation() ?? []);
      const areas = found.map((segmentation: SegmentationMeta) => {
        const counts = new Array<number>(segmentation.classes + 1).fill(0); // the last: no class (-1)
        for (const id of segmentation.classMap) counts[id < 0 ? segmentation.classes : id]! += 1;
        return { uniqueId: segmentation.uniqueId, counts, maxProbability: segmentation.classProbabilities ? Math.max(...segmentation.classProbabilities) : null };
      });
      const user = batch.acquireUserMeta();
      user.setJson("ACME.SEG.AREAS", areas);
      frame.addUserMeta(user);
    }
  }
}

describe("nvdsanalytics' metas read typed", () => {
  it("gives the frame's counts and each object's statuses, with NVIDIA's member names", async () => {
    const out = await runTransform(DoorCounter, {
      frames: [
        {
          userMeta: [{ analyticsFrame: { objLCCumCnt: { Door: 12 }, objLCCurrCnt: { Door: 1 }, objInROIcnt: { Lobby: 3 }, ocStatus: { Lobby: true }, objCnt: { 2: 4 }, uniqueId: 9 } }],
          objects: [
            { classId: 2, userMeta: [{ analyticsObject: { lcStatus: ["Door"], dirStatus: "South", roiStatus: ["Lobby"] } }] },
            { classId: 2, userMeta: [{ analyticsObject: { roiStatus: ["Lobby"] } }] },
            { classId: 0 },
          ],
        },
      ],
    });
    const frame = out.frameItems[0]!;
    expect(frame.objectItems.map((obj) => obj.label)).toEqual(["through the door going South", "", ""]);
    const [analytics, totals] = frame.userMetaItems;
    expect(totals).toMatchObject({ metaType: "ACME.DOOR.TOTALS", json: { total: 12, lobby: 3, crowded: true, cars: 4 } });
    expect(analytics).toEqual({
      metaType: "",
      metaTypeId: 32, // NVDS_USER_FRAME_META_NVDSANALYTICS
      kind: "analytics-frame",
      analyticsFrame: { ocStatus: { Lobby: true }, objInROIcnt: { Lobby: 3 }, objLCCurrCnt: { Door: 1 }, objLCCumCnt: { Door: 12 }, uniqueId: 9, objCnt: { 2: 4 } },
    });
    expect(frame.objectItems[1]!.userMetaItems).toEqual([
      {
        metaType: "",
        metaTypeId: 33, // NVDS_USER_OBJ_META_NVDSANALYTICS
        kind: "analytics-object",
        analyticsObject: { roiStatus: ["Lobby"], ocStatus: [], lcStatus: [], dirStatus: "", uniqueId: 0, objStatus: "" },
      },
    ]);
  });

  it("are plain frozen values of the documented types", () => {
    expectTypeOf<AnalyticsFrameMeta["objInROIcnt"]>().toEqualTypeOf<Readonly<Record<string, number>>>();
    expectTypeOf<AnalyticsObjectInfo["lcStatus"]>().toEqualTypeOf<readonly string[]>();
  });

  it("the harness checks them with the member's path", async () => {
    await expect(runTransform(DoorCounter, { frames: [{ userMeta: [{ analyticsFrame: { objInRoiCnt: {} } as never }] }] })).rejects.toThrow(
      'Expected only the members ocStatus, objInROIcnt, objLCCurrCnt, objLCCumCnt, uniqueId, objCnt for frames[0].userMeta[0].analyticsFrame but received a member "objInRoiCnt"',
    );
    await expect(runTransform(DoorCounter, { frames: [{ userMeta: [{ analyticsFrame: { objInROIcnt: { Lobby: -1 } } }] }] })).rejects.toThrow(
      'Expected an integer from 0 to 9007199254740991 for frames[0].userMeta[0].analyticsFrame.objInROIcnt["Lobby"] but received -1',
    );
    await expect(runTransform(DoorCounter, { frames: [{ objects: [{ userMeta: [{ analyticsObject: { roiStatus: "Lobby" as never } }] }] }] })).rejects.toThrow(
      "Expected an array of labels for frames[0].objects[0].userMeta[0].analyticsObject.roiStatus but received",
    );
  });
});

describe("segmentation metas (NvDsInferSegmentationMeta)", () => {
  // A 4 x 2 GRAY8 frame: bright on the right half.
  const pixels = new Uint8Array([0, 10, 200, 255, 20, 30, 128, 250]);

  it("an element writes one from its own pixels, as nvinfer does for nvsegvisual", async () => {
    const out = await runTransform(Threshold, { frames: [{ width: 4, height: 2, format: "GRAY8", pixels }] });
    const frame = out.frameItems[0]!;
    expect(frame.userMetaItems).toEqual([
      {
        metaType: "",
        metaTypeId: 13, // NVDSINFER_SEGMENTATION_META
        kind: "segmentation",
        segmentation: { classes: 2, width: 4, height: 2, uniqueId: 4, hasProbabilities: true },
      },
    ]);
    expect(frame.miscFrameInfo).toEqual([4, 16, 0, 0]); // 4 bright pixels; 2 x 8 probabilities
  });

  it("an element reads nvinfer's, at frame and object level, with its maps", async () => {
    const classMap = new Int32Array([0, 0, 1, 1, 0, 2, 1, -1]);
    const classProbabilities = Float32Array.from({ length: 3 * 8 }, (_, i) => (i === 17 ? 0.875 : 0.125));
    const out = await runTransform(ClassArea, {
      frames: [
        {
          userMeta: [{ segmentation: { classes: 3, width: 4, height: 2, classMap, classProbabilities, uniqueId: 1 } }],
          objects: [{ userMeta: [{ segmentation: { classes: 1, width: 2, height: 1, classMap: new Int32Array([0, -1]), uniqueId: 2 } }] }],
        },
      ],
    });
    expect(out.frameItems[0]!.userMetaItems.at(-1)!.json).toEqual([
      { uniqueId: 1, counts: [3, 3, 1, 1], maxProbability: 0.875 },
      { uniqueId: 2, counts: [1, 1], maxProbability: null },
    ]);
  });

  it("setSegmentation checks its maps against its sizes, naming the member", async () => {
    class Wrong extends Element.define({ ...base, name: "wrongsegmentation", longName: "Wrong", description: "Writes a bad map", properties: z.object({}) }) {
      transform(batch: BatchMeta) {
        batch.acquireUserMeta().setSegmentation({ classes: 2, width: 4, height: 2, classMap: new Int32Array(6) });
      }
    }
    await expect(runTransform(Wrong, {})).rejects.toThrow("Expected 8 class ids (width 4 × height 2) for UserMeta.setSegmentation segmentation.classMap but received 6");
  });
});
