import { PropertyValidationError } from "ds-element";
import { ballFrame, createHarness } from "ds-element/testing";
import { describe, expect, it } from "vitest";
import { labelsPath, modelPath } from "../test/models.js";
import Detector from "./index.js";

// The element runs as in a pipeline (properties checked, the model loaded, start(), transform()
// for each buffer, stop()) on synthetic frames, with the real ONNX Runtime and the test model.

const ball = (x: number, y: number) => ballFrame({ width: 320, height: 240, x, y });

describe("template-element-name", () => {
  it("finds the ball and writes it as an object with its label, where nvinfer would", async () => {
    const harness = await createHarness(Detector, { props: { model: modelPath, labelsFile: labelsPath } });
    const out = await harness.push({ frames: [ball(100, 80)] });
    await harness.stop();
    const objects = out.frameItems[0]!.objectItems;
    expect(objects).toHaveLength(1);
    expect(objects[0]).toMatchObject({ classId: 0, label: "ball", uniqueComponentId: 1 });
    expect(objects[0]!.confidence).toBeGreaterThan(0.9);
    const { left, top, width, height } = objects[0]!.rectParams;
    // A disk of radius 20 at (100, 80): a box of about 40x40 around it.
    expect(left + width / 2).toBeCloseTo(100, 0);
    expect(top + height / 2).toBeCloseTo(80, 0);
    expect(width).toBeGreaterThan(36);
    expect(width).toBeLessThan(44);
    // What nvinfer's detector writes besides the box (docs/metadata.md): untracked, the box as
    // detectorBboxInfo, a 3 px red border, the label as text above the box in Serif 11 white on
    // black (what nvdsosd / dsosd draw), and the frame marked as inferred on (nvtracker reads it).
    expect(objects[0]).toMatchObject({ objectId: -1, detectorBboxInfo: { left, top, width, height } });
    expect(objects[0]!.rectParams).toMatchObject({ borderWidth: 3, borderColor: { red: 1, green: 0, blue: 0, alpha: 1 } });
    expect(objects[0]!.textParams).toEqual({
      displayText: "ball",
      xOffset: Math.trunc(left),
      yOffset: Math.max(0, Math.trunc(top - 10)),
      font: { name: "Serif", size: 11, color: { red: 1, green: 1, blue: 1, alpha: 1 } },
      setBgColor: true,
      bgColor: { red: 0, green: 0, blue: 0, alpha: 1 },
    });
    expect(out.frameItems[0]!.inferDone).toBe(true);
  });

  it("gives every frame of a batch its own detections (several sources after nvstreammux)", async () => {
    const harness = await createHarness(Detector, { props: { model: modelPath, labels: ["ball", "other"], uniqueComponentId: 7 } });
    const out = await harness.push({ frames: [{ ...ball(60, 60), sourceId: 0 }, { ...ball(250, 180), sourceId: 1 }] });
    await harness.stop();
    const centres = out.frameItems.map((frame) =>
      frame.objectItems.map(({ rectParams: r, label, uniqueComponentId }) => [Math.round(r.left + r.width / 2), Math.round(r.top + r.height / 2), label, uniqueComponentId]),
    );
    expect(centres).toEqual([[[60, 60, "ball", 7]], [[250, 180, "ball", 7]]]);
  });

  it("keeps only the class ids asked for, and nothing below the confidence threshold", async () => {
    const otherClass = await createHarness(Detector, { props: { model: modelPath, classIds: [1] } });
    expect((await otherClass.push({ frames: [ball(100, 80)] })).frameItems[0]!.objectItems).toEqual([]);
    await otherClass.stop();
    // A ball of radius 1 is too small to be sure of: its score is far below 0.25.
    const harness = await createHarness(Detector, { props: { model: modelPath } });
    const tiny = await harness.push({ frames: [ballFrame({ width: 320, height: 240, x: 100, y: 80, radius: 1 })] });
    expect(tiny.frameItems[0]!.objectItems).toEqual([]);
    await harness.stop();
  });

  it("passes frames without a ball through with no object", async () => {
    const harness = await createHarness(Detector, { props: { model: modelPath } });
    const out = await harness.push({ frames: [{ width: 320, height: 240, format: "RGB", pixels: new Uint8Array(320 * 240 * 3) }] });
    await harness.stop();
    expect(out.frameItems[0]!.objectItems).toEqual([]);
    // Inferred on all the same: nvinfer sets bInferDone on every frame it runs on (gstnvinfer_meta_utils.cpp:61).
    expect(out.frameItems[0]!.inferDone).toBe(true);
  });

  it("refuses a bad property value and a missing labels file, naming them", async () => {
    await expect(createHarness(Detector, { props: { model: modelPath, confidenceThreshold: 2 } })).rejects.toThrow(PropertyValidationError);
    await expect(createHarness(Detector, { props: { model: modelPath, confidenceThreshold: 2 } })).rejects.toThrow(
      "Expected a number ≤ 1 for confidence-threshold but received 2",
    );
    await expect(createHarness(Detector, { props: { model: modelPath, labelsFile: "/nonexistent/labels.txt" } })).rejects.toThrow(
      "Cannot read the labels file /nonexistent/labels.txt: ENOENT",
    );
    await expect(createHarness(Detector, { props: { model: "/nonexistent/model.onnx" } })).rejects.toThrow(
      "Cannot load the ONNX model /nonexistent/model.onnx: no such file",
    );
  });
});
