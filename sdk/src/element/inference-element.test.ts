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
import { yCbCr601 } from "../test-support/frames.js";
import type { TensorHandle } from "../tensor/tensor-handle.js";
import type { FrameMeta } from "../metadata/frame-meta.js";
import type { PreprocessOptions } from "../ops/preprocess.js";
import type { Runner } from "../runners/types.js";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { COLOR_CLASSIFIER_LABELS, colorClassifierModel } from "../testing/models/color-classifier.js";

const WIDTH = 160;
const HEIGHT = 120;
const ballAsClass0 = makeBallModel("ball-0", { size: 64 });
const ballAsClass1 = makeBallModel("ball-1", { size: 64, ballClass: 1 });

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
      frame.addObjects({ ...mapBoxes(nms(images[i]!), t), labels: this.props.labels });
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

  it("coalesces changes faster than loads: one load at a time, then only the latest change (issue 29)", async () => {
    const harness = await createHarness(Detector, { props: { model: ballAsClass0 } });
    const models = [ballAsClass1, ballAsClass0];
    for (let change = 0; change < 20; change++) await harness.setProperty("model", models[change % 2]!);
    // The last change asked for ballAsClass0 (the running model's file: loaded again all the same).
    await vi.waitFor(() => expect(harness.logs.filter((record) => record.message.startsWith("loaded ")).length, JSON.stringify(harness.logs)).toBe(3), { timeout: 10_000 });
    await harness.push({ frames: [ballAt(50, 40)] });
    const messages = harness.logs.map((record) => record.message);
    // The start, the first change (in flight while the others came), the last change: nothing else loads.
    expect(messages.filter((message) => message.startsWith("loaded "))).toEqual([
      expect.stringMatching(`^loaded ${ballAsClass0} `),
      expect.stringMatching(`^loaded ${ballAsClass1} `),
      expect.stringMatching(`^loaded ${ballAsClass0} `),
    ]);
    // Change 1 waits for the load of change 0; changes 2 to 19 each replace the one waiting.
    expect(messages.filter((message) => message.endsWith("before its load began: not loaded"))).toHaveLength(18);
    expect(messages).toContain(`model ${ballAsClass1} superseded by ${ballAsClass0} while it loaded: not used`);
    expect(harness.logs.find((record) => record.message.includes("before its load began"))?.level).toBe("debug");
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(messages.filter((message) => message.startsWith("loaded ")).length).toBe(3);
    expect((await harness.push({ frames: [ballAt(50, 40)] })).frameItems[0]!.objectItems[0]!.classId).toBe(0);
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

/** A colour classifier written to a file: `{ batch }` of the model. */
function colorModel(batch: number | "dynamic"): string {
  const path = join(mkdtempSync(join(tmpdir(), "ds-element-color-")), `color-${batch}.onnx`);
  writeFileSync(path, colorClassifierModel({ size: 16, batch }));
  return path;
}
const colorDynamic = colorModel("dynamic");
const colorBatchOf1 = colorModel(1);

/** A secondary classifier of the test's own: objects of class 0, colour as classifier meta. */
class ColorClassifier extends InferenceElement.define({
  name: "testcolor",
  longName: "Test colour classifier",
  klass: "Filter/Analyzer/Video",
  description: "Classifies the colour of class-0 objects",
  author: "ds-element tests",
  caps: "video/x-raw, format={ RGB, NV12 }",
}) {
  objectsToProcess(frame: FrameMeta) {
    return frame.objectItems.filter((obj) => obj.classId === 0);
  }

  // nvinfer's secondary default (maintain-aspect-ratio=0): crops stretched to the input.
  preprocessOptions(runner: Runner): PreprocessOptions {
    return { ...super.preprocessOptions(runner), mode: "stretch" };
  }

  postprocess(inference: InferenceBatch, [probabilities]: TensorHandle[]) {
    this.log.info(`inference on ${inference.regions.map((r) => `${r.left},${r.top},${r.width}x${r.height}`).join(" ")}`);
    const scores = probabilities!.toTypedArray() as Float32Array;
    const classes = COLOR_CLASSIFIER_LABELS.length;
    for (const [i, object] of inference.objects.entries()) {
      const row = Array.from(scores.subarray(i * classes, (i + 1) * classes));
      const best = row.indexOf(Math.max(...row));
      const label = inference.batch.acquireLabelInfo();
      label.resultClassId = best;
      label.resultLabel = COLOR_CLASSIFIER_LABELS[best]!;
      label.resultProb = row[best]!;
      const classifier = inference.batch.acquireClassifierMeta();
      classifier.uniqueComponentId = 2;
      classifier.classifierType = "color";
      classifier.addLabelInfo(label);
      object!.addClassifierMeta(classifier);
      const note = inference.batch.acquireDisplayMeta().addText({ displayText: `${label.resultLabel} in frame ${inference.frames[i]!.batchId}` });
      inference.frames[i]!.addDisplayMeta(note);
    }
  }
}

function inferencesOf(harness: { logs: { message: string }[] }): string[] {
  return harness.logs.map((record) => record.message).filter((message) => message.startsWith("inference on"));
}

/** A black frame with coloured rectangles painted on it: [left, top, width, height, r, g, b]. */
function paintedFrame(width: number, height: number, rectangles: number[][]) {
  const pixels = new Uint8Array(width * height * 3);
  for (const [left, top, w, h, r, g, b] of rectangles) {
    for (let y = top!; y < top! + h!; y++) {
      for (let x = left!; x < left! + w!; x++) pixels.set([r!, g!, b!], (y * width + x) * 3);
    }
  }
  return { width, height, pixels };
}

/**
 * An RGB frame as NV12 (BT.601, limited range: GStreamer's colorimetry for a frame this small),
 * each chroma sample the mean of its 2x2 pixels.
 */
function asNv12({ width, height, pixels }: { width: number; height: number; pixels: Uint8Array }) {
  const yuv = (i: number) => yCbCr601(pixels[i * 3]!, pixels[i * 3 + 1]!, pixels[i * 3 + 2]!);
  const out = new Uint8Array(width * height + (width / 2) * 2 * (height / 2));
  for (let i = 0; i < width * height; i++) out[i] = Math.round(yuv(i)[0]);
  for (let y = 0; y < height; y += 2) {
    for (let x = 0; x < width; x += 2) {
      const block = [y * width + x, y * width + x + 1, (y + 1) * width + x, (y + 1) * width + x + 1].map(yuv);
      const at = width * height + (y / 2) * width + x;
      out[at] = Math.round(block.reduce((sum, [, u]) => sum + u, 0) / 4);
      out[at + 1] = Math.round(block.reduce((sum, [, , v]) => sum + v, 0) / 4);
    }
  }
  return { width, height, format: "NV12" as const, pixels: out };
}

describe("InferenceElement on objects (secondary mode, real ONNX Runtime)", () => {
  const frames = [
    {
      ...paintedFrame(64, 48, [[4, 4, 20, 10, 255, 0, 0], [30, 20, 16, 16, 0, 0, 255]]),
      objects: [
        { classId: 0, rectParams: { left: 4, top: 4, width: 20, height: 10 } },
        { classId: 1, rectParams: { left: 4, top: 4, width: 20, height: 10 } },
        { classId: 0, rectParams: { left: 29.6, top: 19.5, width: 17, height: 17 } },
        { classId: 0, rectParams: { left: 100, top: 100, width: 5, height: 5 } },
      ],
    },
    { ...paintedFrame(64, 48, [[40, 30, 24, 18, 0, 255, 0]]), objects: [{ classId: 0, rectParams: { left: 40, top: 30, width: 30, height: 30 } }] },
    paintedFrame(64, 48, []),
  ];

  it("runs the model once on the crops of every chosen object of the batch, and postprocess() attaches classifier metas from the batch's pools", async () => {
    const harness = await createHarness(ColorClassifier, { props: { model: colorDynamic } });
    const out = await harness.push({ frames });
    // The object with no pixel in the frame is skipped; boxes are rounded outward and clipped.
    expect(inferencesOf(harness)).toEqual(["inference on 4,4,20x10 29,19,18x18 40,30,24x18"]);
    const classified = out.frameItems.map((frame) =>
      frame.objectItems.map((obj) => obj.classifierItems.map((c) => `${c.classifierType}:${c.labelInfoItems[0]!.resultLabel}`).join()),
    );
    expect(classified).toEqual([["color:red", "", "color:blue", ""], ["color:green"], []]);
    expect(out.frameItems[0]!.objectItems[0]!.classifierItems[0]!).toMatchObject({ uniqueComponentId: 2, numLabels: 1 });
    expect(out.frameItems[0]!.objectItems[0]!.classifierItems[0]!.labelInfoItems[0]!.resultProb).toBeGreaterThan(0.98);
    expect(out.frameItems.map((frame) => frame.displayMetaItems.flatMap((display) => display.texts.map((text) => text.displayText)))).toEqual([
      ["red in frame 0", "blue in frame 0"],
      ["green in frame 1"],
      [],
    ]);
    await harness.stop();
  });

  it("classifies the same objects on NV12 frames: crops of the planar frame, converted to RGB as they are read", async () => {
    const harness = await createHarness(ColorClassifier, { props: { model: colorDynamic } });
    const out = await harness.push({ frames: frames.map((frame) => ({ ...frame, ...asNv12(frame) })) });
    expect(inferencesOf(harness)).toEqual(["inference on 4,4,20x10 29,19,18x18 40,30,24x18"]);
    const classified = out.frameItems.map((frame) =>
      frame.objectItems.map((obj) => obj.classifierItems.map((c) => `${c.classifierType}:${c.labelInfoItems[0]!.resultLabel}`).join()),
    );
    expect(classified).toEqual([["color:red", "", "color:blue", ""], ["color:green"], []]);
    expect(out.frameItems[0]!.objectItems[0]!.classifierItems[0]!.labelInfoItems[0]!.resultProb).toBeGreaterThan(0.98);
    await harness.stop();
  });

  it("feeds a model of fixed batch size 1 one crop at a time", async () => {
    const harness = await createHarness(ColorClassifier, { props: { model: colorBatchOf1 } });
    const out = await harness.push({ frames });
    expect(inferencesOf(harness)).toEqual(["inference on 4,4,20x10", "inference on 29,19,18x18", "inference on 40,30,24x18"]);
    expect(out.frameItems[1]!.objectItems[0]!.classifierItems[0]!.labelInfoItems[0]!.resultLabel).toBe("green");
    await harness.stop();
  });

  it("runs nothing on a batch without chosen objects", async () => {
    const harness = await createHarness(ColorClassifier, { props: { model: colorDynamic } });
    await harness.push({ frames: [paintedFrame(32, 32, [])] });
    expect(inferencesOf(harness)).toEqual([]);
    await harness.stop();
  });
});
