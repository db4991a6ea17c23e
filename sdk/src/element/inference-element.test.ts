import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { ElementDefinitionError, RunnerError } from "../errors/errors.js";
import { decodeYolo } from "../postprocess/decode-yolo.js";
import { mapBoxes } from "../postprocess/map-boxes.js";
import { nms } from "../postprocess/nms.js";
import { manifestOf } from "./declaration.js";
import { definitionOf } from "./element-context.js";
import { InferenceElement, type InferenceBatch } from "./inference-element.js";
import { createHarness } from "../testing/element-harness.js";
import { diskFrame, makeBallModel } from "../test-support/ball-model.js";
import type { TensorHandle } from "../tensor/tensor-handle.js";

const WIDTH = 160;
const HEIGHT = 120;
const ballAsClass0 = makeBallModel("ball-0", ["--size", "64"]);
const ballAsClass1 = makeBallModel("ball-1", ["--size", "64", "--ball-class", "1"]);

class Detector extends InferenceElement.define({
  name: "testdetector",
  longName: "Test detector",
  klass: "Filter/Analyzer/Video",
  description: "Writes the ball model's detections",
  author: "ds-element tests",
  caps: "video/x-raw, format=RGB",
  properties: z.object({ labels: z.array(z.string()).default(["ball", "other"]).describe("Labels") }),
}) {
  inferences = 0;

  postprocess(inference: InferenceBatch, [output]: TensorHandle[]) {
    this.inferences++;
    const images = decodeYolo({ data: output!.toTypedArray() as Float32Array, dims: output!.shape });
    for (const [i, frame] of inference.frames.entries()) {
      const t = inference.transforms[i]!;
      frame.addObjects({ ...mapBoxes(nms(images[i]!), t, { frameWidth: t.sourceWidth, frameHeight: t.sourceHeight }), labels: this.props.labels });
    }
  }
}

function ballAt(cx: number, cy: number) {
  return { width: WIDTH, height: HEIGHT, pixels: diskFrame(WIDTH, HEIGHT, cx, cy) };
}

describe("InferenceElement.define", () => {
  it("adds a required string property `model` when the schema has none", () => {
    const manifest = manifestOf(definitionOf(Detector)!);
    const model = manifest.properties.find((property) => property.name === "model");
    expect(model).toMatchObject({ name: "model", jsName: "model", type: "string", blurb: expect.stringContaining("Model file") });
    // Required: no default, not optional.
    expect(model).not.toHaveProperty("default");
    expect(model).not.toHaveProperty("optional");
    expect(manifest.properties.map((property) => property.name)).toEqual(["labels", "model"]);
  });

  it("keeps a declared `model` and refuses one that is not a string", () => {
    const declaration = { name: "m", longName: "M", klass: "Filter", description: "M", author: "A", caps: "video/x-raw" };
    const Own = InferenceElement.define({ ...declaration, properties: z.object({ model: z.string().default("/models/a.onnx").describe("Mine") }) });
    expect(manifestOf(definitionOf(Own)!).properties).toEqual([expect.objectContaining({ name: "model", blurb: "Mine", default: "/models/a.onnx" })]);
    expect(() => InferenceElement.define({ ...declaration, properties: z.object({ model: z.number() }) })).toThrow(
      new ElementDefinitionError("Expected a z.string() schema (the path of the model file) for the property model of an InferenceElement but received another schema"),
    );
  });
});

describe("InferenceElement in the harness (real ONNX Runtime, real metadata)", () => {
  it("loads the model at start and writes its detections where the frame's pixels say", async () => {
    const harness = await createHarness(Detector, { props: { model: ballAsClass0 } });
    const out = await harness.push({ frames: [ballAt(50, 40)] });
    const [object] = out.frameItems[0]!.objectItems;
    expect(object).toMatchObject({ classId: 0, label: "ball" });
    expect(object!.rectParams.left + object!.rectParams.width / 2).toBeCloseTo(50, 0);
    expect(object!.rectParams.top + object!.rectParams.height / 2).toBeCloseTo(40, 0);
    expect(harness.logs.some((record) => record.level === "info" && record.message.startsWith(`loaded ${ballAsClass0} (onnxruntime) in `))).toBe(true);
    await harness.stop();
  });

  it("feeds a model of fixed batch size 1 one frame at a time, each frame getting its own results", async () => {
    const harness = await createHarness(Detector, { props: { model: ballAsClass0 } });
    const out = await harness.push({ frames: [ballAt(30, 30), ballAt(80, 60), ballAt(130, 90)] });
    const centres = out.frameItems.map((frame) => {
      const { left, width, top, height } = frame.objectItems[0]!.rectParams;
      return [Math.round(left + width / 2), Math.round(top + height / 2)];
    });
    expect(centres).toEqual([[30, 30], [80, 60], [130, 90]]);
    await harness.stop();
  });

  it("switches models between batches after a background load, never mixing them in a batch", async () => {
    const harness = await createHarness(Detector, { props: { model: ballAsClass0 } });
    expect((await harness.push({ frames: [ballAt(50, 40)] })).frameItems[0]!.objectItems[0]!.classId).toBe(0);
    await harness.setProperty("model", ballAsClass1);
    // The load has only started: this batch still runs on the old model.
    expect((await harness.push({ frames: [ballAt(50, 40)] })).frameItems[0]!.objectItems[0]!.classId).toBe(0);
    await vi.waitFor(() => expect(harness.logs.map((record) => record.message)).toContainEqual(expect.stringMatching(`^loaded ${ballAsClass1} `)));
    const after = await harness.push({ frames: [ballAt(50, 40), ballAt(100, 80)] });
    expect(after.frameItems.map((frame) => frame.objectItems.map((object) => object.classId))).toEqual([[1], [1]]);
    expect(harness.logs.map((record) => record.message)).toContain(`switched to ${ballAsClass1}`);
    await harness.stop();
  });

  it("keeps the old model, logging why, when the new one does not load", async () => {
    const harness = await createHarness(Detector, { props: { model: ballAsClass0 } });
    await harness.setProperty("model", "/nonexistent/model.onnx");
    await vi.waitFor(() => expect(harness.logs.some((record) => record.level === "error")).toBe(true));
    expect(harness.logs.find((record) => record.level === "error")!.message).toBe(
      `cannot switch to /nonexistent/model.onnx, keeping ${ballAsClass0}: Cannot load the ONNX model /nonexistent/model.onnx: no such file`,
    );
    expect((await harness.push({ frames: [ballAt(50, 40)] })).frameItems[0]!.objectItems[0]!.classId).toBe(0);
    await harness.stop();
  });

  it("fails to start when the model does not load, naming it", async () => {
    const error = await createHarness(Detector, { props: { model: "/nonexistent/model.onnx" } }).catch((thrown: unknown) => thrown as Error);
    expect(error).toBeInstanceOf(RunnerError);
    expect((error as Error).message).toBe("Cannot load the ONNX model /nonexistent/model.onnx: no such file");
  });

  it("says what to override when postprocess() was not", async () => {
    const Bare = InferenceElement.define({ name: "bare", longName: "Bare", klass: "Filter", description: "B", author: "A", caps: "video/x-raw" });
    const harness = await createHarness(Bare, { props: { model: ballAsClass0 } });
    await expect(harness.push({ frames: [ballAt(50, 40)] })).rejects.toThrow(
      `bare: override postprocess(inference, outputs) to turn the outputs of ${ballAsClass0} into metadata (e.g. decodeYolo + nms + mapBoxes + frame.addObjects), or override transform()`,
    );
    await harness.stop();
  });

  it("has no runner before it starts", () => {
    const detector = Detector.create({ model: ballAsClass0 });
    expect(() => detector.runner).toThrow(
      `No model is loaded: an InferenceElement loads this.props.model ("${ballAsClass0}") when it starts, in a pipeline or driven by ds-element/testing's createHarness()`,
    );
  });
});
