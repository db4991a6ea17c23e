// ds-element/testing with real element classes: what a user's tests do with it.
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from "vitest";
import { Element, PropertyValidationError, StaleHandleError, z, type BatchMeta, type GstBuffer, type Caps, type StreamEvent } from "../index.js";
import { createHarness, runTransform, type ElementHarness, type PropsInit } from "./index.js";

const author = "ds-element tests <tests@example.com>";
const f = Math.fround;

/** A detector working on pixels: an object on each frame's brightest pixel (sum of its channels). */
class BrightestPixel extends Element.define({
  name: "brightestpixel",
  longName: "Brightest pixel",
  klass: "Filter/Analyzer/Video",
  description: "Adds an object on the brightest pixel of each frame",
  author,
  caps: "video/x-raw, format={ RGB, RGBA, BGR, BGRx, GRAY8 }",
  properties: z.object({ classId: z.number().int().min(0).default(0).describe("class_id of the objects") }),
}) {
  transform(batch: BatchMeta, buffer: GstBuffer) {
    for (const frame of batch.frameItems) {
      const pixels = buffer.extract(frame.batchId);
      const [height, width, channels] = pixels.shape as [number, number, number];
      const [rowPitch, pixelPitch] = pixels.strides as [number, number];
      const data = pixels.toTypedArray() as Uint8Array;
      let best = { x: 0, y: 0, value: -1 };
      for (let y = 0; y < height; y++) {
        for (let x = 0; x < width; x++) {
          let value = 0;
          for (let c = 0; c < Math.min(channels, 3); c++) value += data[y * rowPitch + x * pixelPitch + c]!;
          if (value > best.value) best = { x, y, value };
        }
      }
      const obj = batch.acquireObjectMeta();
      obj.classId = this.props.classId;
      obj.label = `${pixels.format} ${best.value}`;
      obj.rectParams = { left: best.x, top: best.y, width: 1, height: 1 };
      frame.addObjectMeta(obj);
    }
  }
}

/** A detector's post-processor: an object on the hottest cell of nvinfer's "heatmap" output. */
class HeatmapPeak extends Element.define({
  name: "heatmappeak",
  longName: "Heatmap peak",
  klass: "Filter/Analyzer/Video",
  description: "Adds an object on the hottest cell of nvinfer's heatmap output",
  author,
  caps: "video/x-raw",
  properties: z.object({
    minScore: z.number().min(0).max(1).default(0.5).describe("Ignore peaks below this score"),
    classId: z.number().int().min(0).default(0).describe("class_id of the objects"),
  }),
}) {
  transform(batch: BatchMeta) {
    for (const frame of batch.frameItems) {
      const heatmap = frame.tensorItems[0]?.layers.find((layer) => layer.name === "heatmap");
      if (!(heatmap?.data instanceof Float32Array)) continue;
      const [rows, columns] = heatmap.dims as [number, number];
      let best = 0;
      for (let cell = 1; cell < heatmap.data.length; cell++) if (heatmap.data[cell]! > heatmap.data[best]!) best = cell;
      const score = heatmap.data[best]!;
      frame.inferDone = true;
      if (score < this.props.minScore) continue;
      const width = frame.pipelineWidth / columns;
      const height = frame.pipelineHeight / rows;
      const box = { left: (best % columns) * width, top: Math.floor(best / columns) * height, width, height };
      const obj = batch.acquireObjectMeta();
      obj.classId = this.props.classId;
      obj.confidence = score;
      obj.label = "peak";
      obj.rectParams = { ...box, borderWidth: 2, borderColor: { red: 1, alpha: 1 } };
      obj.detectorBboxInfo = box;
      frame.addObjectMeta(obj);
    }
  }
}

/** A secondary classifier's post-processor: a colour per object from its "color" output layer. */
class ColorClassifier extends Element.define({
  name: "colorclassifier",
  longName: "Colour classifier",
  klass: "Filter/Analyzer/Video",
  description: "Adds a colour classification to each object from a secondary nvinfer's raw output",
  author,
  caps: "video/x-raw",
}) {
  transform(batch: BatchMeta) {
    const colors = ["red", "green", "blue"];
    for (const frame of batch.frameItems) {
      for (const obj of frame.objectItems) {
        const scores = obj.tensorItems.find((tensor) => tensor.uniqueId === 2)?.layers[0]?.data;
        if (!(scores instanceof Float32Array)) continue;
        const best = scores.indexOf(Math.max(...scores));
        const label = batch.acquireLabelInfo();
        label.resultClassId = best;
        label.resultLabel = colors[best] ?? "";
        label.resultProb = scores[best]!;
        const classifier = batch.acquireClassifierMeta();
        classifier.classifierType = "color";
        classifier.uniqueComponentId = 2;
        classifier.addLabelInfo(label);
        obj.addClassifierMeta(classifier);
      }
    }
  }
}

/** Reads objects, classifiers and user meta left upstream, and changes them. */
class CarFlagger extends Element.define({
  name: "carflagger",
  longName: "Car flagger",
  klass: "Filter/Analyzer/Video",
  description: "Highlights cars of the colour the site config names, drops unsure detections, labels plates",
  author,
  caps: "video/x-raw",
  properties: z.object({ minConfidence: z.number().min(0).max(1).default(0.5).describe("Drop objects below this") }),
}) {
  transform(batch: BatchMeta) {
    const config = batch.userMetaItems.find((user) => user.metaType === "ACME.SITE.CONFIG")?.json as { highlight: string } | undefined;
    for (const frame of batch.frameItems) {
      const objects = frame.objectItems;
      for (const obj of objects) {
        if (obj.confidence < this.props.minConfidence) {
          frame.removeObjectMeta(obj);
          continue;
        }
        const colors = obj.classifierItems.filter((c) => c.classifierType === "color").flatMap((c) => c.labelInfoItems);
        if (obj.classId === 2 && colors.some((label) => label.resultLabel === config?.highlight)) {
          obj.rectParams.borderColor = { red: 1, green: 0, blue: 0, alpha: 1 };
          obj.rectParams.borderWidth = 4;
          const flag = batch.acquireUserMeta();
          flag.setJson("ACME.CARS.FLAGGED", { reason: config?.highlight, frameNum: frame.frameNum });
          obj.addUserMeta(flag);
        }
        if (obj.parent !== undefined) obj.textParams.displayText = `plate of ${obj.parent.label}`;
      }
    }
  }
}

/** Waits before writing, and reports (as a warning) what using the previous call's batch does. */
class SlowLabeller extends Element.define({
  name: "slowlabeller",
  longName: "Slow labeller",
  klass: "Filter/Analyzer/Video",
  description: "Labels every object after an await",
  author,
  caps: "video/x-raw",
}) {
  private kept: BatchMeta | undefined;

  async transform(batch: BatchMeta) {
    if (this.kept !== undefined) {
      try {
        void this.kept.numFrames;
      } catch (error) {
        this.log.warn((error as Error).message);
      }
    }
    this.kept = batch;
    await new Promise((resolve) => setTimeout(resolve, 5));
    for (const frame of batch.frameItems) {
      for (const obj of frame.objectItems) obj.label = `object ${obj.objectId}`;
      const marker = batch.acquireObjectMeta();
      marker.label = "added after an await";
      frame.addObjectMeta(marker);
    }
  }
}

let lastThrown: unknown;

/** Fails the way it is told to. */
class Failing extends Element.define({
  name: "failing",
  longName: "Failing",
  klass: "Filter",
  description: "Throws from transform()",
  author,
  caps: "ANY",
  properties: z.object({ mode: z.enum(["throw", "reject", "string", "none"]).default("throw").describe("How to fail") }),
}) {
  transform(batch: BatchMeta) {
    const frame = batch.frameItems[0]!;
    frame.addObjectMeta(batch.acquireObjectMeta());
    if (this.props.mode === "throw") throw (lastThrown = new Error(`frame ${frame.frameNum} is cursed`));
    if (this.props.mode === "reject") return Promise.reject((lastThrown = new RangeError("too late")));
    if (this.props.mode === "string") throw "just a string";
    return undefined;
  }
}

/** Logs every hook, to check what the harness calls and in which order. */
class Lifecycle extends Element.define({
  name: "lifecycle",
  longName: "Lifecycle",
  klass: "Filter",
  description: "Logs its hooks",
  author,
  caps: "video/x-raw",
  properties: z.object({
    location: z.string().describe("Required, like a model path"),
    word: z.string().regex(/^[a-z]+$/).default("abc").describe("A lowercase word"),
  }),
}) {
  start() {
    this.log.info(`start ${this.props.location}`);
  }
  onCaps(caps: Caps) {
    this.log.info(`caps ${caps.string}`);
  }
  transform(batch: BatchMeta, buffer: GstBuffer) {
    const frames = batch.frameItems.map((f) => `${f.sourceId}/${f.padIndex}/${f.frameNum}/${f.bufPts}`);
    this.log.debug(`transform ${buffer.size} bytes pts ${buffer.pts} dts ${buffer.dts} duration ${buffer.duration} frames ${frames.join(" ")}`);
  }
  onEvent(event: StreamEvent) {
    this.log.info(`event ${event.type}`);
  }
  onPropertyChange(name: string, value: unknown) {
    this.log.info(`property ${name}=${String(value)}`);
  }
  async stop() {
    await Promise.resolve();
    this.log.info("stop");
  }
}

function messages(harness: ElementHarness): string[] {
  return harness.logs.map((record) => `${record.level} ${record.message}`);
}

describe("createHarness", () => {
  it("validates properties as the pipeline does, with the same messages", async () => {
    await expect(createHarness(Lifecycle, { props: { location: "/m", word: "ABC" } })).rejects.toThrow(PropertyValidationError);
    await expect(createHarness(Lifecycle, { props: { location: "/m", word: "ABC" } })).rejects.toThrow(
      'Expected a string matching /^[a-z]+$/ for word but received "ABC"',
    );
    await expect(createHarness(Lifecycle)).rejects.toThrow("Expected a string for location but received nothing (the property is required)");
    await expect(createHarness(HeatmapPeak, { props: { minScore: 2 } })).rejects.toThrow("Expected a number ≤ 1 for min-score but received 2");
  });

  it("rejects what is not an element class", async () => {
    await expect(createHarness(class Plain {} as never)).rejects.toThrow(
      "Expected an element class (a class extending Element.define({...})) for createHarness element but received class Plain, which does not extend Element",
    );
  });

  it("calls start(), onCaps() before the first push, transform(), onEvent(), onPropertyChange() and stop(), in order", async () => {
    const harness = await createHarness(Lifecycle, { props: { location: "/models/a.onnx" } });
    expect(harness.caps).toBeUndefined();
    await harness.push({ pts: 1000, dts: 900, duration: 40, frames: [{ width: 4, height: 2 }] });
    await harness.pushEvent("eos");
    await harness.setProperty("word", "xyz");
    await harness.stop();
    expect(messages(harness)).toEqual([
      "info start /models/a.onnx",
      "info caps video/x-raw, format=(string)RGB, width=(int)4, height=(int)2",
      "debug transform 24 bytes pts 1000 dts 900 duration 40 frames 0/0/0/1000",
      "info event eos",
      "info property word=xyz",
      "info stop",
    ]);
    expect(harness.caps).toEqual({
      string: "video/x-raw, format=(string)RGB, width=(int)4, height=(int)2",
      structures: [{ name: "video/x-raw", fields: { format: "RGB", width: 4, height: 2 } }],
    });
  });

  it("rejects a property change the schema rejects, with the pipeline's message", async () => {
    const harness = await createHarness(Lifecycle, { props: { location: "/m" } });
    await expect(harness.setProperty("word", "NOPE")).rejects.toThrow('Expected a string matching /^[a-z]+$/ for word but received "NOPE"');
    expect(messages(harness)).toEqual(["info start /m"]);
    await harness.stop();
  });

  it("ends with stop(): later calls reject, a second stop() is harmless", async () => {
    const harness = await createHarness(Lifecycle, { props: { location: "/m" } });
    await harness.stop();
    await harness.stop();
    expect(messages(harness)).toEqual(["info start /m", "info stop"]);
    await expect(harness.push()).rejects.toThrow("Expected a harness that was not stopped for push() but received one stopped with stop()");
  });

  it("runs one call at a time, like a streaming thread", async () => {
    const harness = await createHarness(SlowLabeller);
    const first = harness.push();
    await expect(harness.push()).rejects.toThrow(
      "Expected the harness's push() to have settled for push() but received a call while it runs (await each call of the harness before the next)",
    );
    await first;
    await harness.stop();
  });

  it("types props and setProperty() from the element's schema", () => {
    expectTypeOf<PropsInit<typeof HeatmapPeak>>().toEqualTypeOf<{ minScore?: number | undefined; classId?: number | undefined }>();
    // @ts-expect-error not a property of HeatmapPeak
    void createHarness(HeatmapPeak, { props: { threshold: 1 } }).catch(() => undefined);
    expectTypeOf<ElementHarness<typeof Lifecycle>["setProperty"]>().parameter(0).toEqualTypeOf<"location" | "word">();
  });
});

describe("push", () => {
  it("runs a detector on the frames' pixels and returns the objects it added", async () => {
    /** A black frame of `format` with one pixel of `value` at (x, y). */
    function frame(format: "RGB" | "BGRx" | "GRAY8", x: number, y: number, value: number[]) {
      const bytesPerPixel = { RGB: 3, BGRx: 4, GRAY8: 1 }[format];
      const pixels = new Uint8Array(7 * 5 * bytesPerPixel); // 7x5: RGB rows are not a multiple of 4 bytes
      pixels.set(value, (y * 7 + x) * bytesPerPixel);
      return { width: 7, height: 5, format, pixels };
    }
    const rgb = await runTransform(BrightestPixel, { frames: [frame("RGB", 6, 0, [10, 20, 30]), frame("RGB", 0, 4, [255, 0, 1]), frame("RGB", 3, 2, [1, 1, 1])] }, { props: { classId: 4 } });
    expect(rgb.frameItems.map((f) => f.objectItems.map(({ classId, label, rectParams: { left, top } }) => ({ classId, label, left, top })))).toEqual([
      [{ classId: 4, label: "RGB 60", left: 6, top: 0 }],
      [{ classId: 4, label: "RGB 256", left: 0, top: 4 }],
      [{ classId: 4, label: "RGB 3", left: 3, top: 2 }],
    ]);
    const gray = await runTransform(BrightestPixel, { frames: [frame("GRAY8", 5, 3, [200])] });
    expect(gray.frameItems[0]!.objectItems[0]).toMatchObject({ label: "GRAY8 200", rectParams: { left: 5, top: 3 } });
    const bgrx = await runTransform(BrightestPixel, { frames: [frame("BGRx", 2, 1, [9, 9, 9, 255])] });
    expect(bgrx.frameItems[0]!.objectItems[0]).toMatchObject({ label: "BGRx 27", rectParams: { left: 2, top: 1 } });
  });

  it("gives frames in every format Buffer.extract reads, planar ones in GStreamer's layout with their planes", async () => {
    /** Each plane of each frame as the element reads it: its shape and every sample in row order. */
    let read: { format: string | undefined; planes: { shape: readonly number[]; bytes: number[] }[] }[] = [];
    class PlaneProbe extends Element.define({ name: "planeprobe", longName: "Plane probe", klass: "Filter/Analyzer/Video", description: "Reports its frames' planes", author, caps: "video/x-raw" }) {
      transform(batch: BatchMeta, buffer: GstBuffer) {
        for (const frame of batch.frameItems) {
          const pixels = buffer.extract(frame.batchId);
          const planes = pixels.planes.map((plane) => {
            const [rows, columns, samples] = plane.shape as [number, number, number];
            const data = plane.toTypedArray() as Uint8Array;
            const bytes: number[] = [];
            for (let y = 0; y < rows; y++) for (let x = 0; x < columns * samples; x++) bytes.push(data[y * plane.strides[0]! + x]!);
            return { shape: plane.shape, bytes };
          });
          read.push({ format: pixels.format, planes });
        }
      }
    }
    // 7x5: odd on both axes (chroma 4x3), rows not a multiple of 4 bytes.
    const shapes = {
      packed: (channels: number) => [[5, 7, channels]],
      NV12: [[5, 7, 1], [3, 4, 2]],
      NV21: [[5, 7, 1], [3, 4, 2]],
      I420: [[5, 7, 1], [3, 4, 1], [3, 4, 1]],
    };
    const formats = ["RGB", "BGR", "RGBA", "BGRx", "GRAY8", "RGBx", "BGRA", "ARGB", "ABGR", "NV12", "NV21", "I420"] as const;
    for (const format of formats) {
      const planeShapes = format === "NV12" || format === "NV21" || format === "I420" ? shapes[format] : shapes.packed({ GRAY8: 1, RGB: 3, BGR: 3 }[format as string] ?? 4);
      const size = planeShapes.reduce((sum, [rows, columns, samples]) => sum + rows! * columns! * samples!, 0);
      const frames = [0, 1].map((f) => ({ format, width: 7, height: 5, pixels: Uint8Array.from({ length: size }, (_, i) => (i * 7 + f * 101) % 251) }));
      read = [];
      await runTransform(PlaneProbe, { frames });
      expect(read).toHaveLength(2);
      for (const [f, frame] of read.entries()) {
        expect(frame.format).toBe(format);
        expect(frame.planes.map((plane) => plane.shape)).toEqual(planeShapes);
        expect(frame.planes.flatMap((plane) => plane.bytes)).toEqual([...frames[f]!.pixels]);
      }
    }
    // Planar frames default to black (Y 16, chroma 128), not to zeros (green).
    read = [];
    await runTransform(PlaneProbe, { frames: [{ format: "I420", width: 2, height: 2 }] });
    expect(read[0]!.planes.map((plane) => plane.bytes)).toEqual([[16, 16, 16, 16], [128], [128]]);
  });

  it("runs a detector-like element on nvinfer's tensor output and returns the objects it added", async () => {
    const heatmap = new Float32Array(3 * 4); // 3 rows x 4 columns over a 64x48 frame: cells of 16x16
    heatmap[1 * 4 + 2] = 0.75;
    heatmap[0] = 0.25;
    const out = await runTransform(
      HeatmapPeak,
      { frames: [{ width: 64, height: 48, tensorOutputs: [{ layers: [{ name: "heatmap", dims: [3, 4], data: heatmap }] }] }] },
      { props: { classId: 7 } },
    );
    const frame = out.frameItems[0]!;
    expect(frame.inferDone).toBe(true);
    expect(frame.objectItems).toHaveLength(1);
    expect(frame.objectItems[0]).toMatchObject({
      classId: 7,
      objectId: -1,
      confidence: 0.75,
      label: "peak",
      rectParams: { left: 32, top: 16, width: 16, height: 16, borderWidth: 2, borderColor: { red: 1, green: 0, blue: 0, alpha: 1 } },
      detectorBboxInfo: { left: 32, top: 16, width: 16, height: 16 },
      parent: null,
    });
    expect(frame.userMetaItems).toEqual([
      expect.objectContaining({ kind: "tensor-output", tensorOutput: expect.objectContaining({ uniqueId: 1, networkInfo: { width: 64, height: 48, channels: 3 } }) }),
    ]);
  });

  it("leaves a frame without a peak above min-score alone", async () => {
    const out = await runTransform(HeatmapPeak, {
      frames: [{ tensorOutputs: [{ layers: [{ name: "heatmap", dims: [2, 2], data: new Float32Array([0.1, 0.2, 0.3, 0.4]) }] }] }],
    });
    expect(out.frameItems[0]).toMatchObject({ inferDone: true, objectItems: [] });
  });

  it("attaches tensor outputs to objects, as a secondary nvinfer does", async () => {
    const scores = (red: number, green: number, blue: number) => ({ uniqueId: 2, layers: [{ name: "color", dims: [3], data: new Float32Array([red, green, blue]) }] });
    const out = await runTransform(ColorClassifier, {
      frames: [{ objects: [{ classId: 2, tensorOutputs: [scores(0.125, 0.75, 0.125)] }, { classId: 2 }, { classId: 2, tensorOutputs: [scores(0.5, 0.25, 0.25)] }] }],
    });
    expect(out.frameItems[0]!.objectItems.map((obj) => obj.classifierItems.map((c) => c.labelInfoItems.map((l) => [l.resultLabel, l.resultProb])))).toEqual([
      [[["green", 0.75]]],
      [],
      [[["red", 0.5]]],
    ]);
  });

  it("shows the element existing objects, classifiers and user meta, and returns its changes", async () => {
    const out = await runTransform(
      CarFlagger,
      {
        userMeta: [{ type: "ACME.SITE.CONFIG", json: { highlight: "red" } }],
        frames: [
          {
            frameNum: 41,
            objects: [
              {
                classId: 2,
                label: "car",
                confidence: 0.9,
                rectParams: { left: 10, top: 20, width: 100, height: 50, borderWidth: 1, borderColor: { green: 1 } },
                classifiers: [{ classifierType: "color", uniqueComponentId: 2, labels: [{ resultLabel: "red", resultClassId: 0, resultProb: 0.75 }] }],
              },
              { classId: 2, label: "car", confidence: 0.25 },
              { classId: 5, label: "plate", confidence: 0.8, parent: 0, userMeta: [{ type: "ACME.OCR.RAW", bytes: new Uint8Array([65, 66]) }] },
              { classId: 2, label: "car", confidence: 0.6, classifiers: [{ classifierType: "color", labels: [{ resultLabel: "blue" }] }] },
            ],
          },
        ],
      },
      { props: { minConfidence: 0.5 } },
    );
    const [car, plate, blueCar] = out.frameItems[0]!.objectItems;
    expect(out.frameItems[0]!.objectItems).toHaveLength(3);
    expect(car).toMatchObject({
      label: "car",
      confidence: f(0.9),
      rectParams: { left: 10, top: 20, width: 100, height: 50, borderWidth: 4, borderColor: { red: 1, green: 0, blue: 0, alpha: 1 } },
      classifierItems: [
        {
          classifierType: "color",
          uniqueComponentId: 2,
          numLabels: 1,
          labelInfoItems: [{ resultLabel: "red", resultClassId: 0, resultProb: 0.75, labelId: 0, numClasses: 0 }],
        },
      ],
      userMetaItems: [{ metaType: "ACME.CARS.FLAGGED", kind: "json", json: { reason: "red", frameNum: 41 } }],
    });
    expect(plate).toMatchObject({
      label: "plate",
      parent: { frameIndex: 0, objectIndex: 0 },
      textParams: { displayText: "plate of car" },
      userMetaItems: [{ metaType: "ACME.OCR.RAW", kind: "bytes", bytes: [65, 66] }],
    });
    expect(blueCar).toMatchObject({ confidence: f(0.6), rectParams: { borderWidth: 3 }, userMetaItems: [] });
    expect(out.userMetaItems).toMatchObject([{ metaType: "ACME.SITE.CONFIG", json: { highlight: "red" } }]);
  });

  it("awaits an async transform, and the element's kept handles go stale as in a pipeline", async () => {
    const harness = await createHarness(SlowLabeller);
    const first = await harness.push({ frames: [{ objects: [{ objectId: 7 }] }] });
    expect(first.frameItems[0]!.objectItems.map((obj) => obj.label)).toEqual(["object 7", "added after an await"]);
    await harness.push();
    expect(harness.logs).toEqual([
      expect.objectContaining({ level: "warn", message: expect.stringMatching(/^BatchMeta used after its transform\(\) call returned \(reading numFrames\)/) }),
    ]);
    await harness.stop();
  });

  it("rejects with the Error transform() threw, stack included, and goes on with the next buffer", async () => {
    const harness = await createHarness(Failing);
    const error = await harness.push().then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBe(lastThrown);
    expect((error as Error).message).toBe("frame 0 is cursed");
    expect((error as Error).stack).toMatch(/element-harness\.test\.ts:\d+/);
    await expect(harness.push()).rejects.toThrow("frame 1 is cursed");
    await harness.stop();
  });

  it("rejects with the Error an async transform rejected with, and wraps a non-Error as the host does", async () => {
    const rejected = createHarness(Failing, { props: { mode: "reject" } }).then((harness) => harness.push());
    await expect(rejected).rejects.toBeInstanceOf(RangeError);
    await expect(rejected).rejects.toBe(lastThrown);
    await expect(runTransform(Failing, {}, { props: { mode: "string" } })).rejects.toThrow('Element code threw a non-Error value: "just a string"');
  });

  it("makes batches of several frames: one source per frame, frames counted per source, every frame's pixels in the buffer", async () => {
    const harness = await createHarness(Lifecycle, { props: { location: "/m" } });
    const frames = [{ width: 4, height: 2, format: "RGBA" as const }, { width: 4, height: 2, format: "RGBA" as const, pixels: new Uint8Array(32).fill(9) }, { width: 4, height: 2, format: "RGBA" as const, sourceId: 5, bufPts: 7 }];
    const out = await harness.push({ pts: 100, frames });
    await harness.push({ pts: 200, frames });
    await harness.push({ pts: 300, frames: [{ width: 2, height: 2, format: "GRAY8", sourceId: 1 }] });
    expect(messages(harness).slice(1)).toEqual([
      "info caps video/x-raw, format=(string)RGBA, width=(int)4, height=(int)2",
      "debug transform 96 bytes pts 100 dts undefined duration undefined frames 0/0/0/100 1/1/0/100 5/5/0/7",
      "debug transform 96 bytes pts 200 dts undefined duration undefined frames 0/0/1/200 1/1/1/200 5/5/1/7",
      "info caps video/x-raw, format=(string)GRAY8, width=(int)2, height=(int)2",
      "debug transform 4 bytes pts 300 dts undefined duration undefined frames 1/1/2/300",
    ]);
    expect(out).toMatchObject({ numFrames: 3, maxFramesInBatch: 3, userMetaItems: [] });
    expect(out.frameItems.map((frame) => [frame.batchId, frame.pipelineWidth, frame.pipelineHeight, frame.sourceFrameWidth])).toEqual([
      [0, 4, 2, 4],
      [1, 4, 2, 4],
      [2, 4, 2, 4],
    ]);
    await harness.stop();
  });

  it("takes every frame field", async () => {
    const out = await runTransform(Lifecycle, {
      maxFramesInBatch: 4,
      frames: [
        {
          frameNum: 12,
          sourceId: 3,
          padIndex: 1,
          bufPts: 5,
          ntpTimestamp: 1700000000000000000n,
          sourceFrameWidth: 1920,
          sourceFrameHeight: 1080,
          surfaceType: 1,
          surfaceIndex: 2,
          numSurfacesPerFrame: 4,
          inferDone: true,
          miscFrameInfo: [1, 2, 3, 4],
        },
      ],
    }, { props: { location: "/m" } });
    expect(out).toMatchObject({ numFrames: 1, maxFramesInBatch: 4 });
    expect(out.frameItems[0]).toEqual({
      batchId: 0,
      frameNum: 12,
      sourceId: 3,
      padIndex: 1,
      bufPts: 5,
      ntpTimestamp: "1700000000000000000",
      sourceFrameWidth: 1920,
      sourceFrameHeight: 1080,
      pipelineWidth: 320,
      pipelineHeight: 240,
      surfaceType: 1,
      surfaceIndex: 2,
      numSurfacesPerFrame: 4,
      inferDone: true,
      miscFrameInfo: [1, 2, 3, 4],
      objectItems: [],
      displayMetaItems: [],
      userMetaItems: [],
    });
  });
});

describe("push: invalid batches", () => {
  let harness: ElementHarness<typeof HeatmapPeak>;
  beforeAll(async () => {
    harness = await createHarness(HeatmapPeak);
  });
  afterAll(() => harness.stop());

  it.each([
    [{ frames: [] }, "Expected 1 to 65535 frames for frames but received 0 frames"],
    [{ frames: [{ width: 2, height: 2, pixels: new Uint8Array(5) }] }, "Expected 12 bytes (2x2 RGB, 3 per pixel, rows without padding) for frames[0].pixels but received 5 bytes"],
    [{ frames: [{ format: "YUY2" }] }, 'Expected one of "RGB", "RGBA", "BGR", "BGRx", "GRAY8", "RGBx", "BGRA", "ARGB", "ABGR", "NV12", "NV21", "I420" for frames[0].format but received "YUY2"'],
    [
      { frames: [{ format: "NV12", width: 3, height: 3, pixels: new Uint8Array(9) }] },
      "Expected 17 bytes (3x3 NV12: a 3x3 Y plane, then a 2x2 plane of U,V pairs, rows without padding) for frames[0].pixels but received 9 bytes",
    ],
    [{ frames: [{}, { width: 640 }] }, "Expected 320x240 RGB like frames[0] (the frames of one batch share its caps) for frames[1] but received 640x240 RGB"],
    [{ frames: [{ objetcs: [] }] }, 'Expected only the members width, height, format, pixels, frameNum, sourceId, padIndex, bufPts, ntpTimestamp, sourceFrameWidth, sourceFrameHeight, surfaceType, surfaceIndex, numSurfacesPerFrame, inferDone, miscFrameInfo, objects, userMeta, tensorOutputs, sensorInfo, rois for frames[0] but received a member "objetcs"'],
    [{ frames: [{ objects: [{}, { parent: 1 }] }] }, "Expected an integer from 0 to 0 for frames[0].objects[1].parent but received 1"],
    [{ frames: [{ objects: [{ confidence: 1.5 }] }] }, "frames[0].objects[0]: Expected a number from 0 to 1 (or -0.1 for none) for ObjectMeta.confidence but received 1.5"],
    [{ frames: [{ frameNum: 1.5 }] }, "frames[0]: Expected an integer from -2147483648 to 2147483647 for FrameMeta.frameNum but received 1.5"],
    [{ userMeta: [{ type: "ACME.ONLYTWO", json: 1 }] }, 'userMeta[0]: Expected a type of the form ORG.COMPONENT.DESCRIPTION (letters, digits, _ and -) for UserMeta.metaType but received "ACME.ONLYTWO"'],
    [{ frames: [{ tensorOutputs: [{ layers: [{ name: "x", dims: [2, 3], data: new Float32Array(5) }] }] }] }, "Expected 24 bytes (6 float32 elements, dims [2, 3]) for frames[0].tensorOutputs[0].layers[0].data but received 20 bytes"],
  ])("%o", async (batch, message) => {
    await expect(harness.push(batch as never)).rejects.toThrow(message);
  });

  it("keeps the harness usable after an invalid batch", async () => {
    expect((await harness.push({ frames: [{}] })).numFrames).toBe(1);
  });
});

/** Drops buffers whose first frame has an odd frameNum, synchronously or after an await. */
class OddDropper extends Element.define({
  name: "odddropper",
  longName: "Odd dropper",
  klass: "Filter/Video",
  description: "Drops odd frames",
  author,
  caps: "video/x-raw",
  properties: z.object({ async: z.boolean().default(false).describe("Decide after an await") }),
}) {
  transform(batch: BatchMeta) {
    const odd = batch.frameItems[0]!.frameNum % 2 === 1;
    if (!this.props.async) return odd ? Element.DROP : undefined;
    return Promise.resolve().then(() => (odd ? Element.DROP : undefined));
  }
}

describe("Element.DROP", () => {
  it.each([false, true])("counts the buffers transform() dropped (async=%s)", async (async) => {
    const harness = await createHarness(OddDropper, { props: { async } });
    for (let i = 0; i < 10; i++) await harness.push();
    expect(harness.droppedBuffers).toBe(5);
    await harness.stop();
  });

  it("is one registered symbol, typed as a transform() result", () => {
    expect(Element.DROP).toBe(Symbol.for("ds-element.drop"));
    expectTypeOf(OddDropper.prototype.transform).returns.toExtend<ReturnType<Element["transform"]>>();
  });
});
