// What a ds-element writes is what nvinfer writes (docs/metadata.md, "What nvinfer writes"):
// objects added in bulk or one by one, classifier results, the frame's bInferDone, and upstream
// values outside ds-element's ranges kept as they are. Over the real native binding, so
// `npm run test:deepstream` runs it on NVIDIA's NvDsBatchMeta too. Each expectation names the
// line of DeepStream 9.1's gst-plugins/gst-nvinfer/gstnvinfer_meta_utils.cpp it mirrors.
import { describe, expect, it } from "vitest";
import { OBJ_CONFIDENCE, OBJ_RECT_PARAMS_WIDTH } from "../protocol/transform-state.js";
import { inCall, makeBuffer, requireStandaloneBinding } from "../test-support/standalone-binding.js";
import { objectCoreOf } from "./object-meta.js";

const addon = requireStandaloneBinding();
const f = Math.fround;

const RED = { red: 1, green: 0, blue: 0, alpha: 1 };
const WHITE = { red: 1, green: 1, blue: 1, alpha: 1 };
const BLACK = { red: 0, green: 0, blue: 0, alpha: 1 };
/** nvinfer's text params of an object labelled `label` whose box's top left corner is (left, top): lines 194-206. */
const labelText = (label: string, left: number, top: number) => ({
  displayText: label,
  xOffset: left,
  yOffset: Math.max(0, top - 10),
  font: { name: "Serif", size: 11, color: WHITE },
  setBgColor: true,
  bgColor: BLACK,
});

function buffer(frames = 1): object {
  return makeBuffer(addon.harness, Array.from({ length: frames }, (_, i) => ({ frameNum: i })));
}

describe("objects as nvinfer's attach_metadata_detector writes them", () => {
  it("in bulk: untracked, detector_bbox_info, 3 px red border, the label as text in Serif 11 white on black; bInferDone set", () => {
    const buf = buffer(2);
    inCall(addon, buf, 2, (batch) => {
      const frame = batch.frameItems[0]!;
      frame.addObjects({
        left: new Float32Array([40, 3]),
        top: new Float32Array([50, 4]),
        width: new Float32Array([20, 10]),
        height: new Float32Array([30, 12]),
        confidence: new Float32Array([0.9, 0.6]),
        classId: new Int32Array([1, 0]),
        labels: ["person", "car"],
        uniqueComponentId: 15,
      });
    });
    inCall(addon, buf, 2, (batch) => {
      const [frame, untouched] = batch.frameItems;
      expect(frame!.inferDone).toBe(true); // line 61
      expect(untouched!.inferDone).toBe(false);
      const [car, small] = frame!.objectItems.map((obj) => obj.toJSON());
      expect(car).toMatchObject({
        objectId: -1, // line 150
        uniqueComponentId: 15, // line 146
        classId: 1,
        label: "car", // line 192
        rectParams: { left: 40, top: 50, width: 20, height: 30, borderWidth: 3, borderColor: RED, hasBgColor: false }, // lines 179-183
        detectorBboxInfo: { left: 40, top: 50, width: 20, height: 30 }, // lines 173-176
        textParams: labelText("car", 40, 50), // lines 194-206
      });
      expect(car!.confidence).toBe(f(0.9));
      // nvinfer's y_offset = top - 10 is an unsigned int: a box near the top gets 0 here.
      expect(small!.textParams).toEqual(labelText("person", 3, 4));
    });
  });

  it("in bulk: the defaults can be overridden (border, font, no text)", () => {
    const buf = buffer(1);
    const box = { left: new Float32Array([10]), top: new Float32Array([20]), width: new Float32Array([5]), height: new Float32Array([5]) };
    inCall(addon, buf, 1, (batch) => {
      const frame = batch.frameItems[0]!;
      frame.addObjects({ ...box, labels: ["a"], borderWidth: 1, borderColor: { green: 1 }, labelText: { font: { name: "Sans", size: 14 }, setBgColor: false } });
      frame.addObjects({ ...box, labels: ["b"], labelText: false });
    });
    inCall(addon, buf, 1, (batch) => {
      const [custom, silent] = batch.frameItems[0]!.objectItems.map((obj) => obj.toJSON());
      expect(custom!.rectParams).toMatchObject({ borderWidth: 1, borderColor: { red: 0, green: 1, blue: 0, alpha: 1 } });
      expect(custom!.textParams).toEqual({ ...labelText("a", 10, 20), font: { name: "Sans", size: 14, color: WHITE }, setBgColor: false });
      expect(silent!.textParams).toMatchObject({ displayText: "", font: { name: "", size: 0 } });
    });
  });

  it("in bulk: the shared values may come apart from the columns, and then only from there", () => {
    const buf = buffer(1);
    const box = { left: new Float32Array([10, 30]), top: new Float32Array([20, 40]), width: new Float32Array([5, 6]), height: new Float32Array([5, 7]), classId: new Int32Array([1, 0]) };
    // The columns' own shared values are not read once options are given.
    const columns = { ...box, labels: ["ignored", "ignored too"], uniqueComponentId: 99, borderWidth: 9 };
    inCall(addon, buf, 1, (batch) => {
      const frame = batch.frameItems[0]!;
      expect(frame.addObjects(columns, { labels: ["a", "b"], uniqueComponentId: 7, borderColor: { green: 1 }, labelText: { setBgColor: false } })).toBe(2);
      frame.addObjects(box, {});
    });
    inCall(addon, buf, 1, (batch) => {
      const [first, second, plain] = batch.frameItems[0]!.objectItems.map((obj) => obj.toJSON());
      expect(first).toMatchObject({ label: "b", classId: 1, uniqueComponentId: 7, rectParams: { left: 10, top: 20, borderWidth: 3, borderColor: { red: 0, green: 1, blue: 0, alpha: 1 } } });
      expect(first!.textParams).toEqual({ ...labelText("b", 10, 20), setBgColor: false });
      expect(second).toMatchObject({ label: "a", classId: 0, uniqueComponentId: 7 });
      // Empty options: nvinfer's defaults, whatever the columns say.
      expect(plain).toMatchObject({ label: "", uniqueComponentId: 0, rectParams: { borderWidth: 3, borderColor: RED } });
    });
  });

  it("one by one: an acquired object starts with nvinfer's border and font; adding it derives its text and detector_bbox_info", () => {
    const buf = buffer(1);
    inCall(addon, buf, 1, (batch) => {
      const frame = batch.frameItems[0]!;
      const obj = batch.acquireObjectMeta();
      expect(obj.rectParams).toMatchObject({ borderWidth: 3, borderColor: RED });
      expect(obj.textParams.font).toMatchObject({ name: "Serif", size: 11, color: WHITE });
      obj.label = "dog";
      obj.rectParams = { left: 100, top: 200, width: 60, height: 20 };
      frame.addObjectMeta(obj);
      // Written by the user before adding: kept.
      const own = batch.acquireObjectMeta();
      own.label = "cat";
      own.rectParams = { left: 1, top: 2, width: 3, height: 4 };
      own.detectorBboxInfo = { left: 5, top: 6, width: 7, height: 8 };
      own.textParams = { displayText: "cat 90%", xOffset: 9, yOffset: 9 };
      frame.addObjectMeta(own);
    });
    inCall(addon, buf, 1, (batch) => {
      const frame = batch.frameItems[0]!;
      expect(frame.inferDone).toBe(true);
      const [dog, cat] = frame.objectItems.map((obj) => obj.toJSON());
      expect(dog).toMatchObject({
        objectId: -1,
        rectParams: { left: 100, top: 200, width: 60, height: 20, borderWidth: 3, borderColor: RED },
        detectorBboxInfo: { left: 100, top: 200, width: 60, height: 20 },
        textParams: labelText("dog", 100, 200),
      });
      expect(cat).toMatchObject({
        detectorBboxInfo: { left: 5, top: 6, width: 7, height: 8 },
        textParams: { ...labelText("cat 90%", 9, 19), yOffset: 9 },
      });
    });
  });

  it("one by one, text never touched: native code composes the same text (read back in the call and after it)", () => {
    const buf = buffer(1);
    const boxes = [
      { label: "dog", left: 100, top: 200 },
      { label: "cat", left: 7.75, top: 4.5 }, // y_offset clamped at 0, offsets truncated
      { label: "", left: 50, top: 60 }, // no label: no text, no offsets
      { label: "far", left: 2 ** 31, top: 2 ** 31 }, // top - 10 in double: in float it would round to 2^31
    ];
    inCall(addon, buf, 1, (batch) => {
      const frame = batch.frameItems[0]!;
      const added = boxes.map(({ label, left, top }) => {
        const obj = batch.acquireObjectMeta();
        if (label !== "") obj.label = label;
        obj.rectParams = { left, top, width: 10, height: 10 };
        frame.addObjectMeta(obj);
        return obj;
      });
      // Read in the same call, after adding: derived on the JS side as well.
      expect(added[0]!.toJSON().textParams).toEqual(labelText("dog", 100, 200));
      expect(added[1]!.toJSON().textParams).toEqual(labelText("cat", 7, 0));
      expect(added[2]!.toJSON().textParams).toEqual({ ...labelText("", 0, 0), yOffset: 0 });
      expect(added[3]!.toJSON().textParams).toEqual(labelText("far", 2 ** 31, 2 ** 31));
      // The text written after adding is sent whole at commit.
      added[0]!.textParams.font.size = 14;
    });
    inCall(addon, buf, 1, (batch) => {
      const texts = batch.frameItems[0]!.objectItems.map((obj) => obj.toJSON().textParams);
      expect(texts).toEqual([
        { ...labelText("dog", 100, 200), font: { name: "Serif", size: 14, color: WHITE } },
        labelText("cat", 7, 0),
        { ...labelText("", 0, 0), yOffset: 0 },
        labelText("far", 2 ** 31, 2 ** 31),
      ]);
    });
  });
});

describe("classifier results as nvinfer's attach_metadata_classifier writes them", () => {
  it("appends the result labels to the object's text (lines 326-350) and counts labels added later in num_labels", () => {
    const buf = buffer(1);
    inCall(addon, buf, 1, (batch) => {
      const frame = batch.frameItems[0]!;
      frame.addObjects({ left: new Float32Array([30]), top: new Float32Array([40]), width: new Float32Array([8]), height: new Float32Array([8]), labels: ["car"] });
      const bare = batch.acquireObjectMeta();
      bare.rectParams = { left: 50, top: 60, width: 8, height: 8 };
      frame.addObjectMeta(bare);
    });
    inCall(addon, buf, 1, (batch) => {
      for (const [i, obj] of batch.frameItems[0]!.objectItems.entries()) {
        const classifier = batch.acquireClassifierMeta();
        const label = batch.acquireLabelInfo();
        label.resultLabel = i === 0 ? "red" : "blue";
        classifier.addLabelInfo(label);
        obj.addClassifierMeta(classifier);
        // A label added to a classifier already on the object counts (nvdsmeta.c:227).
        const more = batch.acquireLabelInfo();
        more.resultLabel = "sedan";
        classifier.addLabelInfo(more);
        expect(classifier.numLabels).toBe(2);
      }
    });
    inCall(addon, buf, 1, (batch) => {
      const [car, bare] = batch.frameItems[0]!.objectItems;
      expect(car!.classifierItems[0]!.numLabels).toBe(2);
      expect(car!.textParams.displayText).toBe("car red ");
      // No text before: nvinfer's text params first, then " " + the labels (lines 329-344).
      expect(bare!.toJSON().textParams).toEqual(labelText(" blue ", 50, 60));
      const classifier = car!.classifierItems[0]!;
      classifier.removeLabelInfo(classifier.labelInfoItems[1]!);
      expect(classifier.numLabels).toBe(1);
    });
    inCall(addon, buf, 1, (batch) => {
      expect(batch.frameItems[0]!.objectItems[0]!.classifierItems[0]!.numLabels).toBe(1);
    });
  });
});

describe("upstream values outside ds-element's ranges", () => {
  it("an object upstream wrote with confidence 1.25 and width -4 is relabelled and keeps both", () => {
    // nvinfer passes a custom parser's confidence through unclamped and crop mode can give
    // negative widths: read and kept as they are; only what the user writes is checked.
    const buf = buffer(1);
    inCall(addon, buf, 1, (batch, call) => {
      const obj = batch.acquireObjectMeta();
      obj.label = "person";
      batch.frameItems[0]!.addObjectMeta(obj);
      const core = objectCoreOf(obj)!;
      core.scope.table[core.base + OBJ_CONFIDENCE] = 1.25;
      core.scope.table[core.base + OBJ_RECT_PARAMS_WIDTH] = -4;
      addon.harness.writeObjectAsUpstream(call.callId, core.row);
    });
    inCall(addon, buf, 1, (batch) => {
      const obj = batch.frameItems[0]!.objectItems[0]!;
      expect([obj.confidence, obj.rectParams.width]).toEqual([1.25, -4]);
      obj.label = "pedestrian";
      obj.rectParams.left = 7;
    });
    inCall(addon, buf, 1, (batch) => {
      const obj = batch.frameItems[0]!.objectItems[0]!;
      expect(obj.toJSON()).toMatchObject({ label: "pedestrian", confidence: 1.25, rectParams: { left: 7, width: -4 } });
      // What the user writes is still checked.
      expect(() => (obj.confidence = 1.25)).toThrow("Expected a number from 0 to 1 (or -0.1 for none) for ObjectMeta.confidence but received 1.25");
    });
  });
});
