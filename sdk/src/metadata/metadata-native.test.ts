// End-to-end tests of the metadata API over the real native binding (the standalone binding,
// portable backend): write in one call, commit, close, then read back in a new call.
import { describe, expect, it } from "vitest";
import { InvalidValueError, MetaStateError, StaleHandleError } from "../errors/errors.js";
import { inCall, makeBuffer, openCall, requireStandaloneBinding } from "../test-support/standalone-binding.js";
import type { BatchMeta } from "./batch-meta.js";
import { objectCoreOf, type ObjectMeta } from "./object-meta.js";

// `npm test` builds the addon first; a missing addon is a failure, not a skip.
const addon = requireStandaloneBinding();
const f = Math.fround;

// Every member of NvOSD_RectParams and NvOSD_TextParams away from its default: written to objects and
// display metas (one vocabulary for both), then expected back.
const RECT = {
  left: -5.5,
  top: 20.25,
  width: 100,
  height: 50.5,
  borderWidth: 3,
  borderColor: { red: 1, green: 0.5, blue: 0.25, alpha: 1 },
  hasBgColor: true,
  bgColor: { red: 0, green: 0, blue: 1, alpha: 0.5 },
  colorId: 7,
  hasColorInfo: true,
  rotationAngle: 12.5,
};
const TEXT = {
  displayText: "car 75%",
  xOffset: 4,
  yOffset: 6,
  font: { name: "Sans", size: 14, color: { red: 1, green: 1, blue: 1, alpha: 1 } },
  setBgColor: true,
  bgColor: { red: 0.25, green: 0.25, blue: 0.25, alpha: 0.75 },
};

describe("metadata over the native binding", () => {
  const buffers: object[] = [];
  function buffer(frames = 1, maxFramesInBatch?: number): object {
    const made = makeBuffer(addon.harness, Array.from({ length: frames }, (_, i) => ({ frameNum: 10 + i, bufPts: 1000 * i })), maxFramesInBatch);
    buffers.push(made);
    return made;
  }

  describe("frames", () => {
    it("round-trips every writable field", () => {
      const buf = buffer(2, 4);
      inCall(addon, buf, 2, (batch) => {
        expect(batch.numFrames).toBe(2);
        expect(batch.maxFramesInBatch).toBe(4);
        const frame = batch.frameItems[1]!;
        expect(frame.toJSON()).toMatchObject({ batchId: 1, frameNum: 11, bufPts: 1000, sourceFrameWidth: 640, pipelineHeight: 480, inferDone: false });
        frame.padIndex = 3;
        frame.sourceId = 4;
        frame.frameNum = -5;
        frame.bufPts = undefined;
        frame.ntpTimestamp = 0xfedcba9876543210n;
        frame.sourceFrameWidth = 1920;
        frame.sourceFrameHeight = 1080;
        frame.pipelineWidth = 1280;
        frame.pipelineHeight = 720;
        frame.surfaceType = 1;
        frame.surfaceIndex = 2;
        frame.numSurfacesPerFrame = 4;
        frame.inferDone = true;
        frame.miscFrameInfo = [1, -2, 2 ** 40, Number.MAX_SAFE_INTEGER];
      });
      inCall(addon, buf, 2, (batch) => {
        const { objectItems, displayMetaItems, userMetaItems, ...fields } = batch.frameItems[1]!.toJSON();
        expect(fields).toEqual({
          batchId: 1,
          padIndex: 3,
          sourceId: 4,
          frameNum: -5,
          bufPts: undefined,
          ntpTimestamp: String(0xfedcba9876543210n),
          sourceFrameWidth: 1920,
          sourceFrameHeight: 1080,
          pipelineWidth: 1280,
          pipelineHeight: 720,
          surfaceType: 1,
          surfaceIndex: 2,
          numSurfacesPerFrame: 4,
          inferDone: true,
          miscFrameInfo: [1, -2, 2 ** 40, Number.MAX_SAFE_INTEGER],
        });
        expect([objectItems, displayMetaItems, userMetaItems]).toEqual([[], [], []]);
        expect(batch.frameItems[1]!.ntpTimestamp).toBe(0xfedcba9876543210n);
        expect(batch.frameItems[0]!.frameNum).toBe(10);
      });
    });

    it("keep the old value when a write is refused", () => {
      inCall(addon, buffer(), 1, (batch) => {
        const frame = batch.frameItems[0]!;
        expect(() => (frame.frameNum = 2 ** 31)).toThrow(
          new InvalidValueError("Expected an integer from -2147483648 to 2147483647 for FrameMeta.frameNum but received 2147483648"),
        );
        expect(frame.frameNum).toBe(10);
      });
    });
  });

  describe("objects", () => {
    function fill(obj: ObjectMeta): void {
      obj.classId = -3;
      obj.objectId = 2 ** 40 + 1;
      obj.uniqueComponentId = 9;
      obj.confidence = 0.75;
      obj.trackerConfidence = -0.1;
      obj.label = "véhicule";
      obj.rectParams = RECT;
      obj.textParams = TEXT;
      obj.maskParams = { data: new Float32Array([0, 0.25, 0.5, 1, 0.75, 0.125]), threshold: 0.5, width: 3, height: 2 };
      obj.detectorBboxInfo = { left: 1, top: 2, width: 3, height: 4 };
      obj.trackerBboxInfo = { left: 5, top: 6, width: 7, height: 8 };
      obj.miscObjInfo = [1, 2, -3, 2 ** 50];
    }

    /** A buffer whose frame holds one object with every member set by fill(), added in a call of its own. */
    function bufferWithFilledObject(): object {
      const buf = buffer();
      inCall(addon, buf, 1, (batch) => {
        const obj = batch.acquireObjectMeta();
        fill(obj);
        batch.frameItems[0]!.addObjectMeta(obj);
      });
      return buf;
    }

    const expected = {
      classId: -3,
      objectId: 2 ** 40 + 1,
      uniqueComponentId: 9,
      confidence: 0.75,
      trackerConfidence: f(-0.1),
      label: "véhicule",
      rectParams: RECT,
      textParams: TEXT,
      maskParams: { data: [0, 0.25, 0.5, 1, 0.75, 0.125], threshold: 0.5, width: 3, height: 2 },
      detectorBboxInfo: { left: 1, top: 2, width: 3, height: 4 },
      trackerBboxInfo: { left: 5, top: 6, width: 7, height: 8 },
      miscObjInfo: [1, 2, -3, 2 ** 50],
      parent: null,
      classifierItems: [],
      userMetaItems: [],
    };

    it("start with DeepStream's defaults", () => {
      inCall(addon, buffer(), 1, (batch) => {
        const obj = batch.acquireObjectMeta();
        expect(obj.toJSON()).toMatchObject({ classId: 0, objectId: -1, confidence: 0, label: "", maskParams: null, parent: null });
      });
    });

    it("round-trip every field, set before adding", () => {
      const buf = bufferWithFilledObject();
      inCall(addon, buf, 1, (batch) => {
        expect(batch.frameItems[0]!.objectItems.map((obj) => obj.toJSON())).toEqual([expected]);
      });
    });

    it("round-trip every field, set after adding (sent at commit)", () => {
      const buf = buffer();
      inCall(addon, buf, 1, (batch) => {
        const obj = batch.acquireObjectMeta();
        batch.frameItems[0]!.addObjectMeta(obj);
        fill(obj);
      });
      inCall(addon, buf, 1, (batch) => {
        expect(batch.frameItems[0]!.objectItems[0]!.toJSON()).toEqual(expected);
      });
    });

    it("write listed objects through their live views; untouched members keep their values", () => {
      const buf = bufferWithFilledObject();
      inCall(addon, buf, 1, (batch) => {
        const obj = batch.frameItems[0]!.objectItems[0]!;
        obj.rectParams.left = 5;
        obj.rectParams.borderColor.green = 1;
        obj.rectParams = { width: 60 };
        obj.textParams.font.size = 20;
        obj.textParams.font.color.blue = 0;
        obj.textParams.bgColor = { alpha: 1 };
        obj.detectorBboxInfo.height = 44;
        obj.label = "car";
        obj.maskParams = undefined;
      });
      inCall(addon, buf, 1, (batch) => {
        const obj = batch.frameItems[0]!.objectItems[0]!;
        expect(obj.toJSON()).toEqual({
          ...expected,
          label: "car",
          maskParams: null,
          rectParams: { ...expected.rectParams, left: 5, width: 60, borderColor: { ...expected.rectParams.borderColor, green: 1 } },
          textParams: {
            ...expected.textParams,
            font: { name: "Sans", size: 20, color: { red: 1, green: 1, blue: 0, alpha: 1 } },
            bgColor: { ...expected.textParams.bgColor, alpha: 1 },
          },
          detectorBboxInfo: { ...expected.detectorBboxInfo, height: 44 },
        });
      });
    });

    it("send pending writes before objectItems is listed again", () => {
      inCall(addon, buffer(), 1, (batch) => {
        const frame = batch.frameItems[0]!;
        const first = batch.acquireObjectMeta();
        frame.addObjectMeta(first);
        first.classId = 5;
        const second = batch.acquireObjectMeta();
        frame.addObjectMeta(second); // drops the cached list
        expect(frame.objectItems.map((obj) => obj.classId)).toEqual([5, 0]);
      });
    });

    it("keep one handle per object: the one added is the one listed, lists are cached until changed", () => {
      inCall(addon, buffer(), 1, (batch) => {
        const frame = batch.frameItems[0]!;
        const a = batch.acquireObjectMeta();
        const b = batch.acquireObjectMeta();
        frame.addObjectMeta(a);
        frame.addObjectMeta(b, a);
        const items = frame.objectItems;
        expect(items).toEqual([a, b]);
        expect(items[0]).toBe(a);
        expect(frame.objectItems).toBe(items);
        expect(b.parent).toBe(a);
        expect(Object.isFrozen(items)).toBe(true);
        frame.removeObjectMeta(a);
        expect(frame.objectItems).toEqual([b]);
        expect(b.parent).toBeUndefined();
      });
    });

    it("link parents across frames, read back as the same handle", () => {
      const buf = buffer(2);
      inCall(addon, buf, 2, (batch) => {
        const car = batch.acquireObjectMeta();
        car.label = "car";
        batch.frameItems[0]!.addObjectMeta(car);
        const plate = batch.acquireObjectMeta();
        plate.label = "plate";
        batch.frameItems[1]!.addObjectMeta(plate, car);
      });
      inCall(addon, buf, 2, (batch) => {
        const plate = batch.frameItems[1]!.objectItems[0]!;
        const car = plate.parent;
        expect(car?.label).toBe("car");
        expect(batch.frameItems[0]!.objectItems[0]).toBe(car);
        expect(plate.toJSON().parent).toEqual({ frameIndex: 0, objectIndex: 0 });
      });
    });

    // Found by metadata-fuzz.test.ts on the DeepStream backend: NVIDIA's library leaves children
    // their parent pointer, and the backend cleared it only in the parent's own frame; the next
    // object acquired took the removed one's place in the pool, and became the child's parent.
    it("removing a parent in another frame unlinks its child, whatever is acquired next", () => {
      const buf = buffer(2);
      inCall(addon, buf, 2, (batch) => {
        const car = batch.acquireObjectMeta();
        batch.frameItems[0]!.addObjectMeta(car);
        const plate = batch.acquireObjectMeta();
        plate.label = "plate";
        batch.frameItems[1]!.addObjectMeta(plate, car);
        batch.frameItems[0]!.removeObjectMeta(car);
        expect(plate.parent).toBeUndefined();
        const next = batch.acquireObjectMeta();
        next.label = "next";
        batch.frameItems[0]!.addObjectMeta(next);
      });
      inCall(addon, buf, 2, (batch) => {
        const plate = batch.frameItems[1]!.objectItems[0]!;
        expect(plate.label).toBe("plate");
        expect(plate.parent).toBeUndefined();
        expect(plate.toJSON().parent).toBeNull();
      });
    });

    it("grow the object table past its first 64 rows", () => {
      const buf = buffer();
      inCall(addon, buf, 1, (batch) => {
        const frame = batch.frameItems[0]!;
        for (let i = 0; i < 300; i++) {
          const obj = batch.acquireObjectMeta();
          obj.classId = i;
          frame.addObjectMeta(obj);
        }
        expect(frame.objectItems.map((obj) => obj.classId)).toEqual(Array.from({ length: 300 }, (_, i) => i));
      });
      inCall(addon, buf, 1, (batch) => {
        expect(batch.frameItems[0]!.objectItems.map((obj) => obj.classId)).toEqual(Array.from({ length: 300 }, (_, i) => i));
      });
    });

    it("forget objects acquired and never added", () => {
      const buf = buffer();
      inCall(addon, buf, 1, (batch) => {
        batch.acquireObjectMeta().label = "lost";
      });
      inCall(addon, buf, 1, (batch) => expect(batch.frameItems[0]!.objectItems).toEqual([]));
    });

    it("refuse state errors: add twice, remove from another frame, use after remove", () => {
      inCall(addon, buffer(2), 2, (batch) => {
        const [first, second] = batch.frameItems as [typeof batch.frameItems[0] & object, typeof batch.frameItems[0] & object];
        const obj = batch.acquireObjectMeta();
        expect(() => first.removeObjectMeta(obj)).toThrow(
          new MetaStateError("Expected an ObjectMeta of this frame for removeObjectMeta but received one acquired but never added"),
        );
        const orphan = batch.acquireObjectMeta();
        expect(() => first.addObjectMeta(obj, orphan)).toThrow(
          "Expected an ObjectMeta added to a frame for addObjectMeta's parent but received one acquired but never added",
        );
        first.addObjectMeta(obj);
        expect(() => first.addObjectMeta(obj)).toThrow(
          new MetaStateError("Expected a newly acquired ObjectMeta for addObjectMeta but received one already added"),
        );
        expect(() => second.removeObjectMeta(obj)).toThrow(
          new MetaStateError("Expected an ObjectMeta of this frame for removeObjectMeta but received one that is not in it"),
        );
        first.removeObjectMeta(obj);
        expect(() => obj.label).toThrow(new MetaStateError("ObjectMeta used after removeObjectMeta (reading label)"));
        expect(() => (obj.classId = 1)).toThrow("ObjectMeta used after removeObjectMeta (writing classId)");
        expect(() => obj.rectParams.left).toThrow("ObjectMeta used after removeObjectMeta (reading rectParams)");
        expect(() => first.removeObjectMeta(obj)).toThrow("ObjectMeta used after removeObjectMeta (passing it to removeObjectMeta())");
        expect(() => first.addObjectMeta(obj)).toThrow("ObjectMeta used after removeObjectMeta (passing it to addObjectMeta())");
        try {
          void obj.confidence;
        } catch (error) {
          expect(error).toMatchObject({ name: "MetaStateError", code: "ERR_DS_ELEMENT_META_STATE" });
        }
      });
    });

    it("refuse handles of another call", () => {
      const one = openCall(addon, buffer(), 1);
      const two = openCall(addon, buffer(), 1);
      const foreign = one.batch.acquireObjectMeta();
      expect(() => two.batch.frameItems[0]!.addObjectMeta(foreign)).toThrow(
        new MetaStateError("Expected an ObjectMeta of this transform() call for addObjectMeta but received one from another call"),
      );
      one.close();
      expect(() => two.batch.frameItems[0]!.addObjectMeta(foreign)).toThrow(StaleHandleError);
      two.close();
    });
  });

  describe("bulk add", () => {
    it("adds 10 000 objects from columns in one call", () => {
      const n = 10_000;
      const column = (value: (i: number) => number) => Float32Array.from({ length: n }, (_, i) => value(i));
      const buf = buffer();
      inCall(addon, buf, 1, (batch) => {
        const added = batch.frameItems[0]!.addObjects({
          left: column((i) => i),
          top: column((i) => i / 2),
          width: column(() => 10),
          height: column(() => 20),
          confidence: column((i) => (i % 100) / 100),
          classId: Int32Array.from({ length: n }, (_, i) => i % 3),
          labels: ["person", "bicycle"],
          uniqueComponentId: 4,
          borderWidth: 2,
          borderColor: { red: 1 },
        });
        expect(added).toBe(n);
        expect(batch.frameItems[0]!.objectItems).toHaveLength(n);
      });
      inCall(addon, buf, 1, (batch) => {
        const objects = batch.frameItems[0]!.objectItems;
        expect(objects).toHaveLength(n);
        const obj = objects[4001]!;
        expect(obj.toJSON()).toMatchObject({
          classId: 2,
          uniqueComponentId: 4,
          confidence: f(0.01),
          label: "",
          rectParams: { left: 4001, top: 2000.5, width: 10, height: 20, borderWidth: 2, borderColor: { red: 1, green: 0, blue: 0, alpha: 1 } },
          detectorBboxInfo: { left: 4001, top: 2000.5, width: 10, height: 20 },
        });
        expect(objects[4000]!.label).toBe("bicycle");
      });
    });

    it("adds nothing when a row is invalid, naming the row", () => {
      const buf = buffer();
      inCall(addon, buf, 1, (batch) => {
        const columns = { left: new Float32Array(8), top: new Float32Array(8), width: new Float32Array(8), height: new Float32Array(8) };
        columns.width[5] = NaN;
        expect(() => batch.frameItems[0]!.addObjects(columns)).toThrow(
          new InvalidValueError("Expected a finite number >= 0 for FrameMeta.addObjects.width[5] but received NaN"),
        );
        expect(batch.frameItems[0]!.objectItems).toEqual([]);
      });
    });
  });

  describe("classifiers and label infos", () => {
    it("round-trip, with labels added before and after the classifier, and removed", () => {
      const buf = buffer();
      inCall(addon, buf, 1, (batch) => {
        const obj = batch.acquireObjectMeta();
        batch.frameItems[0]!.addObjectMeta(obj);
        const classifier = batch.acquireClassifierMeta();
        classifier.uniqueComponentId = 8;
        classifier.classifierType = "color";
        const labels = ["red", "green", "blue"].map((name, i) => {
          const label = batch.acquireLabelInfo();
          label.numClasses = 3;
          label.resultLabel = name;
          label.resultClassId = i;
          label.labelId = 0;
          label.resultProb = 0.5 + i / 10;
          return label;
        });
        classifier.addLabelInfo(labels[0]!);
        classifier.addLabelInfo(labels[1]!);
        expect(classifier.numLabels).toBe(2);
        obj.addClassifierMeta(classifier);
        expect(obj.classifierItems).toEqual([classifier]);
        expect(obj.classifierItems[0]).toBe(classifier);
        classifier.addLabelInfo(labels[2]!);
        classifier.removeLabelInfo(labels[0]!);
        expect(classifier.labelInfoItems).toEqual([labels[1], labels[2]]);
        expect(() => (classifier.classifierType = "x")).toThrow(
          new MetaStateError(
            "Expected a ClassifierMeta not yet added for ClassifierMeta.classifierType but received one already added " +
              "(its values are fixed once added: set them before addClassifierMeta)",
          ),
        );
        expect(() => (labels[1]!.resultProb = 1)).toThrow(MetaStateError);
        expect(() => labels[0]!.resultLabel).toThrow("LabelInfo used after removeLabelInfo (reading resultLabel)");
        const second = batch.acquireClassifierMeta();
        second.classifierType = "make";
        obj.addClassifierMeta(second);
        obj.removeClassifierMeta(second);
        expect(() => second.classifierType).toThrow("ClassifierMeta used after removeClassifierMeta (reading classifierType)");
      });
      inCall(addon, buf, 1, (batch) => {
        const [classifier] = batch.frameItems[0]!.objectItems[0]!.classifierItems;
        expect(classifier?.toJSON()).toEqual({
          numLabels: 2,
          uniqueComponentId: 8,
          classifierType: "color",
          labelInfoItems: [
            { numClasses: 3, resultLabel: "green", resultClassId: 1, labelId: 0, resultProb: f(0.6) },
            { numClasses: 3, resultLabel: "blue", resultClassId: 2, labelId: 0, resultProb: f(0.7) },
          ],
        });
        // Labels of a classifier read from the buffer can be removed too.
        classifier!.removeLabelInfo(classifier!.labelInfoItems[0]!);
      });
      inCall(addon, buf, 1, (batch) => {
        const [classifier] = batch.frameItems[0]!.objectItems[0]!.classifierItems;
        expect(classifier?.labelInfoItems.map((label) => label.resultLabel)).toEqual(["blue"]);
      });
    });
  });

  describe("result labels (DeepStream's result_label, never pResult_label)", () => {
    it("refuses a label past 127 bytes natively too, and a label written over another replaces it", () => {
      // nvinfer copies labels into result_label's 128 bytes (gstnvinfer_meta_utils.cpp:317) and
      // writes no pResult_label, which deepstream-app copies into 128 bytes (deepstream_app.c
      // ~1336-1364): a longer label is an error, never cut.
      const full = `${"é".repeat(63)}a`; // 127 bytes
      const buf = buffer();
      inCall(addon, buf, 1, (batch, call) => {
        const obj = batch.acquireObjectMeta();
        batch.frameItems[0]!.addObjectMeta(obj);
        const row = objectCoreOf(obj)!.row;
        const label = { numClasses: 0, resultLabel: `${full}b`, resultClassId: 0, labelId: 0, resultProb: 0.5 };
        const classifier = { numLabels: 1, uniqueComponentId: 0, classifierType: "", labels: [label] };
        expect(() => addon.meta.addClassifier(call.callId, row, classifier)).toThrow(
          "Expected at most 127 bytes (UTF-8) for NvDsLabelInfo[0].result_label but received 128 bytes",
        );
        const ok = batch.acquireClassifierMeta();
        for (const name of [full, "short"]) {
          const info = batch.acquireLabelInfo();
          info.resultLabel = name;
          ok.addLabelInfo(info);
        }
        obj.addClassifierMeta(ok);
      });
      inCall(addon, buf, 1, (batch) => {
        const classifiers = batch.frameItems[0]!.objectItems[0]!.classifierItems;
        expect(classifiers.map((c) => c.labelInfoItems.map((label) => label.resultLabel))).toEqual([[full, "short"]]);
      });
    });
  });

  describe("before adding the object", () => {
    it("a classifier and a user meta attached to an acquired object travel with it", () => {
      const buf = buffer();
      inCall(addon, buf, 1, (batch) => {
        const obj = batch.acquireObjectMeta();
        const classifier = batch.acquireClassifierMeta();
        classifier.classifierType = "early";
        obj.addClassifierMeta(classifier);
        const user = batch.acquireUserMeta();
        user.setJson("ACME.TEST.EARLY", 1);
        obj.addUserMeta(user);
        expect(obj.classifierItems).toEqual([classifier]);
        expect(obj.userMetaItems).toEqual([user]);
        batch.frameItems[0]!.addObjectMeta(obj);
      });
      inCall(addon, buf, 1, (batch) => {
        const obj = batch.frameItems[0]!.objectItems[0]!;
        expect(obj.classifierItems.map((c) => c.classifierType)).toEqual(["early"]);
        expect(obj.userMetaItems.map((u) => u.json)).toEqual([1]);
      });
    });
  });

  describe("async transforms", () => {
    it("write frame fields from a detached scope's own copy of the state", () => {
      const buf = buffer(2);
      const call = openCall(addon, buf, 2);
      call.scope.detach();
      call.batch.frameItems[1]!.frameNum = 77;
      call.close();
      inCall(addon, buf, 2, (batch) => expect(batch.frameItems.map((frame) => frame.frameNum)).toEqual([10, 77]));
    });
  });

  describe("display metas", () => {
    it("chain 40 rects and 3 texts into 3 DeepStream display metas (16 + 16 + 8)", () => {
      const buf = buffer();
      inCall(addon, buf, 1, (batch) => {
        const display = batch.acquireDisplayMeta();
        for (let i = 0; i < 40; i++) display.addRect({ left: i, top: 1, width: 2, height: 3 });
        for (let i = 0; i < 3; i++) display.addText({ displayText: `t${i}` });
        batch.frameItems[0]!.addDisplayMeta(display);
        expect(batch.frameItems[0]!.displayMetaItems.map((d) => d.rects.length)).toEqual([16, 16, 8]);
        expect(() => display.addRect()).toThrow(MetaStateError);
      });
      inCall(addon, buf, 1, (batch) => {
        const displays = batch.frameItems[0]!.displayMetaItems;
        expect(displays.map((d) => [d.rects.length, d.texts.length])).toEqual([
          [16, 3],
          [16, 0],
          [8, 0],
        ]);
        expect(displays.flatMap((d) => d.rects.map((rect) => rect.left))).toEqual(Array.from({ length: 40 }, (_, i) => i));
      });
    });

    it("round-trip every element kind, and keep identity of a one-link display meta", () => {
      const buf = buffer();
      const content = {
        rects: [RECT],
        texts: [{ ...TEXT, displayText: "hé" }],
        lines: [{ x1: 1, y1: 2, x2: 3, y2: 4, lineWidth: 5, lineColor: { red: 0, green: 0, blue: 1, alpha: 1 } }],
        arrows: [{ x1: 1, y1: 2, x2: 3, y2: 4, arrowWidth: 5, arrowHead: "both" as const, arrowColor: { red: 0, green: 1, blue: 1, alpha: 1 } }],
        circles: [
          { xc: 10, yc: 11, radius: 12, circleColor: { red: 1, green: 0, blue: 1, alpha: 1 }, hasBgColor: true, bgColor: { red: 0.5, green: 0.5, blue: 0.5, alpha: 0.5 }, circleWidth: 2 },
        ],
        miscOsdData: [0, 0, 0, 0],
      };
      inCall(addon, buf, 1, (batch) => {
        const display = batch.acquireDisplayMeta();
        display.addRect(content.rects[0]).addText(content.texts[0]).addLine(content.lines[0]).addArrow(content.arrows[0]).addCircle(content.circles[0]);
        const frame = batch.frameItems[0]!;
        frame.addDisplayMeta(display);
        expect(frame.displayMetaItems).toEqual([display]);
        expect(frame.displayMetaItems[0]).toBe(display);
      });
      inCall(addon, buf, 1, (batch) => {
        const frame = batch.frameItems[0]!;
        expect(frame.displayMetaItems.map((display) => display.toJSON())).toEqual([content]);
        frame.removeDisplayMeta(frame.displayMetaItems[0]!);
        expect(frame.displayMetaItems).toEqual([]);
      });
      inCall(addon, buf, 1, (batch) => expect(batch.frameItems[0]!.displayMetaItems).toEqual([]));
    });
  });

  describe("user metas", () => {
    it("round-trip JSON and bytes at batch, frame and object level, and remove", () => {
      const buf = buffer();
      inCall(addon, buf, 1, (batch) => {
        const frame = batch.frameItems[0]!;
        const obj = batch.acquireObjectMeta();
        frame.addObjectMeta(obj);
        const atBatch = batch.acquireUserMeta();
        atBatch.setJson("ACME.TEST.BATCH", { frames: 1 });
        batch.addUserMeta(atBatch);
        const atFrame = batch.acquireUserMeta();
        atFrame.setBytes("ACME.TEST.BYTES", new Uint8Array([1, 2, 255]));
        frame.addUserMeta(atFrame);
        const scratch = batch.acquireUserMeta();
        scratch.setJson("ACME.TEST.SCRATCH", null);
        frame.addUserMeta(scratch);
        const atObject = batch.acquireUserMeta();
        atObject.setJson("ACME.TEST.OBJECT", { tags: ["a", "é"] });
        obj.addUserMeta(atObject);
        expect(frame.userMetaItems).toEqual([atFrame, scratch]);
        frame.removeUserMeta(scratch);
        expect(frame.userMetaItems).toEqual([atFrame]);
        expect(atFrame.metaTypeId).toBeGreaterThanOrEqual(8193);
        expect(() => frame.removeUserMeta(atObject)).toThrow(
          new MetaStateError("Expected a UserMeta of this frame for removeUserMeta but received one that is not in it"),
        );
        expect(() => atBatch.setJson("ACME.TEST.OTHER", 1)).toThrow(MetaStateError);
      });
      inCall(addon, buf, 1, (batch) => {
        expect(batch.userMetaItems.map((user) => user.toJSON())).toEqual([
          { metaType: "ACME.TEST.BATCH", metaTypeId: expect.any(Number), kind: "json", json: { frames: 1 } },
        ]);
        const frame = batch.frameItems[0]!;
        expect(frame.userMetaItems.map((user) => user.toJSON())).toEqual([
          { metaType: "ACME.TEST.BYTES", metaTypeId: expect.any(Number), kind: "bytes", bytes: [1, 2, 255] },
        ]);
        expect(frame.userMetaItems[0]!.bytes).toEqual(new Uint8Array([1, 2, 255]));
        const [user] = frame.objectItems[0]!.userMetaItems;
        expect(user?.json).toEqual({ tags: ["a", "é"] });
        expect(user?.kind).toBe("json");
        expect(frame.tensorItems).toEqual([]);
      });
    });

    it("read nvinfer's tensor output at frame and object level", () => {
      const buf = buffer();
      let objectRow = -1;
      inCall(addon, buf, 1, (batch) => {
        const obj = batch.acquireObjectMeta();
        batch.frameItems[0]!.addObjectMeta(obj);
        objectRow = 0;
      });
      const floats = new Float32Array([0.5, 1.5, -2, 3]);
      const ints = new Int32Array([7, -8]);
      inCall(addon, buf, 1, (batch, call) => {
        void batch.frameItems[0]!.objectItems; // gives the object its row
        const output = {
          uniqueId: 1,
          gpuId: 0,
          networkWidth: 640,
          networkHeight: 384,
          networkChannels: 3,
          maintainAspectRatio: true,
          symmetricPadding: false,
          layers: [
            { layerName: "boxes", dataType: 0, dims: [2, 2], numElements: 4, bindingIndex: 1, data: new Uint8Array(floats.buffer) },
            { layerName: "classes", dataType: 3, dims: [2], numElements: 2, bindingIndex: 2, data: new Uint8Array(ints.buffer) },
          ],
        };
        addon.harness.addTensorOutput(call.callId, 1, 0, output);
        addon.harness.addTensorOutput(call.callId, 2, objectRow, { ...output, uniqueId: 2, layers: [output.layers[1]!] });
      });
      inCall(addon, buf, 1, (batch) => {
        const frame = batch.frameItems[0]!;
        expect(frame.userMetaItems.map((user) => user.kind)).toEqual(["tensor-output"]);
        const [tensor] = frame.tensorItems;
        expect(tensor?.toJSON()).toEqual({
          uniqueId: 1,
          gpuId: 0,
          networkInfo: { width: 640, height: 384, channels: 3 },
          maintainAspectRatio: true,
          symmetricPadding: false,
          layers: [
            { name: "boxes", dataType: "float32", dims: [2, 2], numElements: 4, devicePointer: "0x0" },
            { name: "classes", dataType: "int32", dims: [2], numElements: 2, devicePointer: "0x0" },
          ],
        });
        expect(tensor?.layers[0]?.data).toEqual(floats);
        expect(tensor?.layers[1]?.data).toEqual(ints);
        const objectTensors = frame.objectItems[0]!.tensorItems;
        expect(objectTensors.map((t) => [t.uniqueId, t.layers.map((layer) => layer.name)])).toEqual([[2, ["classes"]]]);
        expect(frame.userMetaItems[0]!.toJSON()).toMatchObject({ kind: "tensor-output", tensorOutput: { uniqueId: 1 } });
      });
    });
  });

  describe("buffer copies", () => {
    it("carry everything written (a tee branch's copy)", () => {
      const buf = buffer();
      inCall(addon, buf, 1, (batch) => {
        const obj = batch.acquireObjectMeta();
        obj.label = "kept";
        batch.frameItems[0]!.addObjectMeta(obj);
      });
      const copy = addon.harness.copyBuffer(buf);
      buffers.push(copy);
      const read = (b: object) => inCall(addon, b, 1, (batch: BatchMeta) => batch.toJSON());
      const original = read(buf);
      expect(original.frameItems[0]!.objectItems[0]!.label).toBe("kept");
      expect(original.frameItems[0]!.pipelineWidth).toBe(640);
      // NVIDIA's copy (nvds_batch_meta_copy_func) drops pipeline_width/height; the portable copy does too.
      const frames = original.frameItems.map((frame) => ({ ...frame, pipelineWidth: 0, pipelineHeight: 0 }));
      expect(read(copy)).toEqual({ ...original, frameItems: frames });
    });
  });

  describe("lifetimes", () => {
    it("every handle throws StaleHandleError once its call ended", () => {
      let handles: Record<string, () => unknown> = {};
      inCall(addon, buffer(), 1, (batch) => {
        const frame = batch.frameItems[0]!;
        const obj = batch.acquireObjectMeta();
        frame.addObjectMeta(obj);
        const rect = obj.rectParams;
        const text = obj.textParams;
        const color = rect.borderColor;
        const classifier = batch.acquireClassifierMeta();
        const label = batch.acquireLabelInfo();
        const display = batch.acquireDisplayMeta();
        const user = batch.acquireUserMeta();
        handles = {
          "BatchMeta used after its transform() call returned (reading numFrames)": () => batch.numFrames,
          "BatchMeta used after its transform() call returned (calling acquireObjectMeta())": () => batch.acquireObjectMeta(),
          "FrameMeta used after its transform() call returned (reading objectItems)": () => frame.objectItems,
          "FrameMeta used after its transform() call returned (writing frameNum)": () => (frame.frameNum = 1),
          "ObjectMeta used after its transform() call returned (reading classId)": () => obj.classId,
          "ObjectMeta used after its transform() call returned (writing label)": () => (obj.label = "x"),
          "ObjectMeta used after its transform() call returned (reading rectParams.left)": () => rect.left,
          "ObjectMeta used after its transform() call returned (writing rectParams.borderColor.red)": () => (color.red = 1),
          "ObjectMeta used after its transform() call returned (reading textParams.displayText)": () => text.displayText,
          "ClassifierMeta used after its transform() call returned (reading numLabels)": () => classifier.numLabels,
          "LabelInfo used after its transform() call returned (reading resultLabel)": () => label.resultLabel,
          "DisplayMeta used after its transform() call returned (reading rects)": () => display.rects,
          "UserMeta used after its transform() call returned (reading json)": () => user.json,
        };
      });
      for (const [message, use] of Object.entries(handles)) {
        expect(use).toThrow(StaleHandleError);
        expect(use).toThrow(message);
      }
    });
  });
});
