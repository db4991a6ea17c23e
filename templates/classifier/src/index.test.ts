import { PropertyValidationError } from "ds-element";
import { createHarness, type FrameInit } from "ds-element/testing";
import { describe, expect, it } from "vitest";
import { labelsPath, modelPath } from "../test/models.js";
import Classifier from "./index.js";

// The element runs as in a pipeline (properties checked, the model loaded, start(), transform()
// for each buffer, stop()) on synthetic frames with objects "upstream", with the real ONNX
// Runtime and the test model (it classifies the mean colour of each crop).

const WIDTH = 160;
const HEIGHT = 120;

/** A black frame with coloured rectangles: [left, top, width, height, [r, g, b]]. */
function painted(rectangles: [number, number, number, number, [number, number, number]][]): FrameInit {
  const pixels = new Uint8Array(WIDTH * HEIGHT * 3);
  for (const [left, top, width, height, rgb] of rectangles) {
    for (let y = top; y < top + height; y++) for (let x = left; x < left + width; x++) pixels.set(rgb, (y * WIDTH + x) * 3);
  }
  return { width: WIDTH, height: HEIGHT, format: "RGB", pixels };
}

const RED: [number, number, number] = [255, 0, 0];
const BLUE: [number, number, number] = [0, 0, 255];
const car = (left: number, top: number, classId = 2, uniqueComponentId = 1) => ({
  classId,
  uniqueComponentId,
  rectParams: { left, top, width: 40, height: 30 },
});

/** Each object's classifier results as "type:label" (empty when it has none). */
function results(out: { frameItems: { objectItems: { classifierItems: { classifierType: string; labelInfoItems: { resultLabel: string }[] }[] }[] }[] }) {
  return out.frameItems.map((frame) =>
    frame.objectItems.map((object) => object.classifierItems.map((c) => `${c.classifierType}:${c.labelInfoItems.map((l) => l.resultLabel).join("+")}`).join()),
  );
}

describe("template-element-name", () => {
  it("classifies each object on its crop and attaches classifier metadata with label info", async () => {
    const harness = await createHarness(Classifier, { props: { model: modelPath, labelsFile: labelsPath, classifierType: "color" } });
    const out = await harness.push({
      frames: [
        { ...painted([[10, 10, 40, 30, RED], [100, 60, 40, 30, BLUE]]), objects: [car(10, 10), car(100, 60)] },
        { ...painted([[50, 50, 40, 30, BLUE]]), objects: [car(50, 50)] },
      ],
    });
    await harness.stop();
    expect(results(out)).toEqual([["color:red", "color:blue"], ["color:blue"]]);
    const [classifier] = out.frameItems[0]!.objectItems[0]!.classifierItems;
    expect(classifier).toMatchObject({ uniqueComponentId: 2, numLabels: 1 });
    expect(classifier!.labelInfoItems[0]).toMatchObject({ resultClassId: 2, resultLabel: "red", numClasses: 6 });
    expect(classifier!.labelInfoItems[0]!.resultProb).toBeGreaterThan(0.9);
    // As nvinfer's classifier: the label is appended to the object's text for nvdsosd / dsosd
    // to draw (here the upstream objects had no label: nvinfer's font first), and the frame
    // is marked as inferred on.
    expect(out.frameItems[0]!.objectItems[0]!.textParams).toMatchObject({ displayText: " red ", xOffset: 10, yOffset: 0, font: { name: "Serif", size: 11 } });
    expect(out.frameItems.map((frame) => frame.inferDone)).toEqual([true, true]);
  });

  it("classifies only the objects it operates on: class ids, component id, size", async () => {
    const harness = await createHarness(Classifier, {
      props: { model: modelPath, labelsFile: labelsPath, operateOnClassIds: [2], operateOnComponentId: 1, minObjectWidth: 20 },
    });
    const small = { classId: 2, uniqueComponentId: 1, rectParams: { left: 10, top: 60, width: 10, height: 30 } };
    const out = await harness.push({
      frames: [{ ...painted([[10, 10, 40, 30, RED]]), objects: [car(10, 10), car(10, 10, 0), car(10, 10, 2, 4), small] }],
    });
    await harness.stop();
    expect(results(out)).toEqual([["template-element-name:red", "", "", ""]]);
  });

  it("writes nothing below classifier-threshold", async () => {
    // A crop half red, half blue: neither colour is sure.
    const harness = await createHarness(Classifier, { props: { model: modelPath, classifierThreshold: 0.9 } });
    const out = await harness.push({ frames: [{ ...painted([[10, 10, 20, 30, RED], [30, 10, 20, 30, BLUE]]), objects: [car(10, 10)] }] });
    await harness.stop();
    expect(results(out)).toEqual([[""]]);
  });

  it("refuses bad property values, naming them", async () => {
    await expect(createHarness(Classifier, { props: { model: modelPath, operateOnComponentId: -2 } })).rejects.toThrow(PropertyValidationError);
    await expect(createHarness(Classifier, { props: { model: modelPath, classifierThreshold: 1.5 } })).rejects.toThrow(
      "Expected a number ≤ 1 for classifier-threshold but received 1.5",
    );
  });
});
