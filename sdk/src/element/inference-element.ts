import { z } from "zod";
import { expectedMessage } from "../errors/describe-value.js";
import { ElementDefinitionError } from "../errors/errors.js";
import type { BatchMeta } from "../metadata/batch-meta.js";
import type { GstBuffer } from "../stream/gst-buffer.js";
import type { FrameMeta } from "../metadata/frame-meta.js";
import type { ObjectMeta } from "../metadata/object-meta.js";
import type { Box } from "../metadata/values.js";
import type { FrameTransform } from "../ops/frame-transform.js";
import { preprocess, type PreprocessOptions } from "../ops/preprocess.js";
import { defOf, type AnySchema } from "../properties/zod-internals.js";
import { loadRunner } from "../runners/load-runner.js";
import type { LoadRunnerOptions, Runner } from "../runners/types.js";
import { imageRegion, type TensorHandle } from "../tensor/tensor-handle.js";
import { defineElement, type ElementDeclaration } from "./declaration.js";
import { definitionOf } from "./element-context.js";
import { Element, subclassWithDefinition, type CreateOptions, type ElementClass } from "./element.js";
import { RUNTIME_HOOKS, type RuntimeHooks } from "./runtime-hooks.js";

/** The model property every InferenceElement has (kebab-case and camelCase alike). */
const MODEL = "model";

/**
 * The props of an InferenceElement declared with schema `S`: the schema's output plus the
 * `model` path (declared by the schema, or added by `InferenceElement.define()`).
 *
 * @example
 * ```ts
 * type Props = ModelProps<typeof schema>; // { labels: string[]; model: string }
 * ```
 */
export type ModelProps<S extends z.ZodObject> = z.output<S> & ModelProperty;

/**
 * The schema shape `InferenceElement.define()` gives a declaration without properties: the
 * `model` file alone.
 *
 * @example
 * ```ts
 * const schema: z.ZodObject<ModelShape> = z.object({ model: z.string() });
 * ```
 */
export interface ModelShape extends z.ZodRawShape {
  /** The model file (added by define()). */
  model: z.ZodString;
}

/**
 * The property every InferenceElement has.
 *
 * @example
 * ```ts
 * const props: ModelProperty = { model: "/models/yolov8n.onnx" };
 * ```
 */
export interface ModelProperty {
  /** The model file: `.onnx` (ONNX Runtime, CPU) or `.engine`/`.plan` (TensorRT, GPU). */
  model: string;
}

/**
 * The class `InferenceElement.define()` returns, to be extended by the element's own class.
 *
 * @example
 * ```ts
 * const Base: InferenceElementClass<typeof schema> = InferenceElement.define({ ...declaration, properties: schema });
 * export default class BallDetector extends Base {}
 * ```
 */
export interface InferenceElementClass<S extends z.ZodObject = z.ZodObject> extends Omit<ElementClass<S>, "prototype" | "create"> {
  new (): InferenceElement<ModelProps<S>>;
  /** The prototype of the element's instances. */
  readonly prototype: InferenceElement<ModelProps<S>>;
  /**
   * See {@link ElementClass.create}; `props` include `model`. The model is loaded when the
   * element starts: drive it with `ds-element/testing`'s `createHarness()`.
   */
  create<T extends Element<z.output<S>>>(this: new () => T, props?: ModelInput<S>, options?: CreateOptions): T;
}

/**
 * The property values an InferenceElement takes (camelCase, as `create()` and the testing
 * harness take them): the schema's input, plus the `model` path when the schema does not
 * declare it (then it is required).
 *
 * @example
 * ```ts
 * const props: ModelInput<typeof schema> = { model: "model/ball.onnx", labels: ["ball"] };
 * ```
 */
export type ModelInput<S extends z.ZodObject> = "model" extends keyof S["shape"] ? z.input<S> : z.input<S> & ModelProperty;

/**
 * One inference's worth of a batch, as {@link InferenceElement.postprocess} receives it: the
 * images the model ran on (whole frames, or the object crops {@link InferenceElement.objectsToProcess}
 * chose; all of the batch, or a slice of at most the model's batch size when that is fixed),
 * their pixels, the model inputs made from them, the transforms that map boxes from network to
 * image pixels, and the batch itself. Image `i` of every output belongs to `frames[i]` (and to
 * `objects[i]` when the model runs on objects).
 *
 * Write results with `inference.batch`: acquire objects, classifier metas, label infos, display
 * and user metas from its pools (`inference.batch.acquireClassifierMeta()`, …) and add them to
 * `frames[i]` or `objects[i]`, as in `transform()`. Everything here is valid during the call.
 *
 * @example
 * ```ts
 * postprocess(inference: InferenceBatch, [output]: TensorHandle[]) {
 *   for (const [i, frame] of inference.frames.entries()) {
 *     const t = inference.transforms[i]!;
 *     // ... decode image i of output, map its boxes with t, frame.addObjects(...)
 *     const note = inference.batch.acquireDisplayMeta().addText({ displayText: `frame ${frame.frameNum}` });
 *     frame.addDisplayMeta(note);
 *   }
 * }
 * ```
 */
export interface InferenceBatch {
  /** The batch being transformed: its pools are where new metadata comes from (`acquireObjectMeta()`, `acquireClassifierMeta()`, `acquireLabelInfo()`, `acquireDisplayMeta()`, `acquireUserMeta()`). */
  readonly batch: BatchMeta;
  /** Per image, in batch order: the frame it comes from (a frame appears once per object in object mode). */
  readonly frames: readonly FrameMeta[];
  /** Per image: the object it is the crop of, or undefined for a whole frame (see {@link InferenceElement.objectsToProcess}). */
  readonly objects: readonly (ObjectMeta | undefined)[];
  /** Per image: the rectangle of its frame it covers, in whole frame pixels (the whole frame, or the object's box rounded outward and clipped). */
  readonly regions: readonly Box[];
  /** Their pixels (`buffer.extract(frame.batchId)`, or its `crop()`), valid during the call. */
  readonly tensors: readonly TensorHandle[];
  /** The model inputs, in `runner.inputs`' order (disposed after postprocess). */
  readonly inputs: readonly TensorHandle[];
  /** Per image: how network pixels map to image pixels (add `regions[i].left/top` for frame pixels of a crop). */
  readonly transforms: readonly FrameTransform[];
  /** The runner this inference ran on (the one current when the batch started). */
  readonly runner: Runner;
}

/** One image the model runs on: a whole frame, or an object's crop of it. */
interface InferenceImage {
  readonly frame: FrameMeta;
  readonly object: ObjectMeta | undefined;
  readonly region: Box;
  readonly pixels: TensorHandle;
}

/** What {@link InferenceElement.preprocess} returns: the model inputs and the per-frame transforms. */
export interface PreprocessedFrames {
  /** One tensor per model input, in `runner.inputs`' order; owned (the element disposes them). */
  readonly inputs: TensorHandle[];
  /** One per frame. */
  readonly transforms: readonly FrameTransform[];
}

function isStringSchema(schema: AnySchema): boolean {
  let current: AnySchema | undefined = schema;
  while (current !== undefined) {
    const def = defOf(current);
    if (def.type === "string") return true;
    if (def.type !== "default" && def.type !== "prefault" && def.type !== "optional") return false;
    current = def.innerType;
  }
  return false;
}

function withModel(declaration: ElementDeclaration<z.ZodObject>): ElementDeclaration<z.ZodObject> {
  const properties = declaration.properties ?? z.object({});
  const declared = (properties.shape as Record<string, AnySchema | undefined>)[MODEL];
  if (declared === undefined) {
    const model = z.string().describe("Model file: an ONNX model (.onnx, ONNX Runtime on the CPU) or a TensorRT engine (.engine/.plan)");
    return { ...declaration, properties: properties.extend({ [MODEL]: model }) };
  }
  if (!isStringSchema(declared)) {
    throw new ElementDefinitionError(
      expectedMessage("a z.string() schema (the path of the model file)", `the property ${MODEL} of an InferenceElement`, "another schema"),
    );
  }
  return declaration;
}

/** The default pre-processing for a model's first input: its size, layout and dtype. */
function defaultPreprocessOptions(runner: Runner, element: string): PreprocessOptions {
  const input = runner.inputs[0];
  const fail = (why: string): never => {
    throw new Error(
      `${element}: cannot derive the pre-processing for ${runner.path} (${why}): override preprocessOptions() ` +
        "to give width, height, layout and dtype, or override preprocess()",
    );
  };
  if (input === undefined) return fail("the model has no input");
  if (runner.inputs.length !== 1) fail(`it has ${runner.inputs.length} inputs`);
  if (input.shape.length !== 4) fail(`input "${input.name}" has shape [${input.shape.join(",")}], not [batch, channels, height, width]`);
  const [, d1, d2, d3] = input.shape as [number, number, number, number];
  const nchw = d1 === 1 || d1 === 3;
  const [channels, height, width] = nchw ? [d1, d2, d3] : [d3, d1, d2];
  if (channels !== 1 && channels !== 3) fail(`input "${input.name}" has shape [${input.shape.join(",")}]: neither NCHW nor NHWC with 1 or 3 channels`);
  if (width <= 0 || height <= 0) fail(`input "${input.name}" has a dynamic width or height`);
  const dtype = input.dtype;
  if (dtype !== "float32" && dtype !== "float16" && dtype !== "uint8") fail(`input "${input.name}" is ${dtype}`);
  return {
    width,
    height,
    channels: channels as 1 | 3,
    layout: nchw ? "NCHW" : "NHWC",
    dtype: dtype as "float32" | "float16" | "uint8",
    mode: "letterbox",
  };
}

interface ModelState {
  /** The runner transform() uses. */
  current: Runner | undefined;
  /** A runner loaded in the background, taken at the next batch. */
  next: Runner | undefined;
  /** Bumped by each load; a load whose number is not the latest is dropped when it lands. */
  generation: number;
  running: boolean;
  /** A background load is in flight (at most one at a time). */
  loading: boolean;
  /** The latest model asked for while a load was in flight: loaded once that one lands. */
  requested: string | undefined;
}

/**
 * An element that runs a model: it has a `model` property (added to the schema when the
 * declaration lacks it), loads it with {@link loadRunner} when the element starts, and runs
 * pre-process → infer → post-process on every batch. Override the steps you need:
 *
 * - {@link InferenceElement.postprocess} (required): outputs → metadata;
 * - {@link InferenceElement.preprocessOptions} or {@link InferenceElement.preprocess}: frames →
 *   model inputs (default: letterbox to the model's input size, RGB, 0..1, its layout and dtype);
 * - {@link InferenceElement.runnerOptions}: options of `loadRunner`;
 * - or `transform()` itself, using `this.runner`.
 *
 * Frames go to the model in slices of its batch size when that is fixed (the last slice padded
 * by repeating its last frame), else all at once.
 *
 * **Changing `model` while PLAYING** loads the new model in the background; batches keep
 * running on the old one and the element switches between two batches once the new one is
 * ready (the old one is freed when its last inference finishes). No buffer waits for the load
 * and none is dropped. A model that fails to load is logged as an error and the old one stays.
 * Changes faster than loads are coalesced: one load at a time, and of the changes made
 * meanwhile only the latest is loaded next (the others are dropped, logged at debug level).
 *
 * The model is handled around your hooks: `start()`, `stop()` and `onPropertyChange()` need no
 * `super` call (in `start()`, `this.runner` is already loaded).
 *
 * @example
 * ```ts
 * import { InferenceElement, decodeYolo, mapBoxes, nms, z, type InferenceBatch, type TensorHandle } from "ds-element";
 *
 * export default class Detector extends InferenceElement.define({
 *   name: "detector", longName: "Detector", klass: "Filter/Analyzer/Video",
 *   description: "YOLOv8-style detector", author: "Jane Doe <jane@example.com>",
 *   caps: "video/x-raw, format=RGB",
 *   properties: z.object({
 *     model: z.string().describe("Path to an .onnx or .engine file"),
 *     labels: z.array(z.string()).default([]).describe("Class labels, in class-id order"),
 *   }),
 * }) {
 *   postprocess(inference: InferenceBatch, [output]: TensorHandle[]) {
 *     const host = output!.device.type === "cuda" ? output!.toHost() : output!;
 *     const images = decodeYolo({ data: host.toTypedArray() as Float32Array, dims: host.shape });
 *     for (const [i, frame] of inference.frames.entries()) {
 *       const t = inference.transforms[i]!;
 *       const boxes = mapBoxes(nms(images[i]!), t);
 *       frame.addObjects(boxes, { labels: this.props.labels });
 *     }
 *   }
 * }
 * ```
 */
export class InferenceElement<P extends ModelProperty = ModelProperty> extends Element<P> {
  readonly #model: ModelState = { current: undefined, next: undefined, generation: 0, running: false, loading: false, requested: undefined };

  /**
   * Declares an inference element, as {@link Element.define} does, with a `model` string
   * property (added when the schema has none).
   *
   * @example
   * ```ts
   * export default class Classifier extends InferenceElement.define({
   *   name: "classifier", longName: "Classifier", klass: "Filter/Analyzer/Video",
   *   description: "Classifies objects", author: "Jane Doe <jane@example.com>", caps: "video/x-raw, format=RGB",
   * }) {
   *   postprocess() {}
   * }
   * ```
   */
  static override define<S extends z.ZodObject = z.ZodObject<ModelShape>>(declaration: ElementDeclaration<S>): InferenceElementClass<S> {
    const definition = defineElement(withModel(declaration as unknown as ElementDeclaration<z.ZodObject>));
    return subclassWithDefinition(InferenceElement as unknown as new () => Element<object>, definition) as unknown as InferenceElementClass<S>;
  }

  /**
   * The runner of the current model: loaded before `start()` runs, replaced between batches
   * after a `model` change. Throws when the element has not started.
   *
   * @example
   * ```ts
   * start() { this.log.info(`model input: ${JSON.stringify(this.runner.inputs[0])}`); }
   * ```
   */
  get runner(): Runner {
    const runner = this.#model.current;
    if (runner === undefined) {
      throw new Error(
        `No model is loaded: an InferenceElement loads this.props.model (${JSON.stringify(this.props.model)}) when it starts, ` +
          "in a pipeline or driven by ds-element/testing's createHarness()",
      );
    }
    return runner;
  }

  /**
   * Options for {@link loadRunner} (device, concurrency, threads). Called for each load.
   *
   * @example
   * ```ts
   * runnerOptions() { return { deviceId: this.props.gpuId, maxConcurrency: 4 }; }
   * ```
   */
  runnerOptions(): LoadRunnerOptions {
    return {};
  }

  /**
   * How frames become the model's input, for the default {@link InferenceElement.preprocess}.
   * Default: letterbox to the first input's width and height (pad 114), RGB, 0..1, the
   * input's layout (NCHW or NHWC) and dtype (float32, float16 or uint8).
   *
   * @example
   * ```ts
   * preprocessOptions(runner: Runner): PreprocessOptions {
   *   return { ...super.preprocessOptions(runner), padValue: 0, mean: [0.485, 0.456, 0.406], std: [0.229, 0.224, 0.225], scale: 1 / 255 };
   * }
   * ```
   */
  preprocessOptions(runner: Runner): PreprocessOptions {
    return defaultPreprocessOptions(runner, this.#elementName());
  }

  /**
   * Frames → model inputs. Default: {@link preprocess} of the frames' pixels with
   * {@link InferenceElement.preprocessOptions}, one input tensor.
   *
   * @example
   * ```ts
   * preprocess(frames: readonly FrameMeta[], pixels: readonly TensorHandle[], runner: Runner): PreprocessedFrames {
   *   const { tensor, transforms } = preprocess(pixels, { width: 320, height: 320, mode: "stretch" });
   *   return { inputs: [tensor], transforms };
   * }
   * ```
   */
  preprocess(frames: readonly FrameMeta[], pixels: readonly TensorHandle[], runner: Runner): PreprocessedFrames | Promise<PreprocessedFrames> {
    const { tensor, transforms } = preprocess(pixels, this.preprocessOptions(runner));
    return { inputs: [tensor], transforms };
  }

  /**
   * Model outputs → metadata: override it (the default throws). `outputs` are owned tensors in
   * `runner.outputs`' order, disposed after this returns (copy what you keep). New metadata
   * comes from `inference.batch`'s pools (objects, classifier metas and label infos, display
   * and user metas), added to `inference.frames[i]` or `inference.objects[i]`.
   *
   * @example
   * ```ts
   * postprocess(inference: InferenceBatch, [scores]: TensorHandle[]) {
   *   const values = scores!.toTypedArray() as Float32Array;
   *   inference.frames.forEach((frame, i) => this.log.debug(`frame ${frame.frameNum}: ${values[i]}`));
   * }
   * ```
   */
  postprocess(inference: InferenceBatch, outputs: TensorHandle[]): void | Promise<void> {
    throw new Error(
      `${this.#elementName()}: override postprocess(inference, outputs) to turn the outputs of ${inference.runner.path} ` +
        "into metadata (e.g. decodeYolo + nms + mapBoxes + frame.addObjects), or override transform()",
    );
  }

  /**
   * Secondary mode (nvinfer's `process-mode=2`): the objects of `frame` to run the model on,
   * each on its crop (`rectParams` rounded outward and clipped to the frame; objects with no
   * pixel in the frame are skipped). Crops of all frames go to the model together, in slices of
   * its batch size when that is fixed, and {@link InferenceBatch.objects} tells
   * `postprocess()` whose crop image `i` is. Return `undefined` (the default) to run on the
   * whole frame (primary mode, `process-mode=1`); an empty array skips the frame.
   *
   * @example
   * ```ts
   * // A secondary classifier of the cars (class 2) a primary detector (gie-unique-id 1) found.
   * objectsToProcess(frame: FrameMeta) {
   *   return frame.objectItems.filter((obj) => obj.classId === 2 && obj.uniqueComponentId === 1);
   * }
   * ```
   */
  objectsToProcess(frame: FrameMeta): readonly ObjectMeta[] | undefined {
    return undefined;
  }

  /**
   * Runs pre-process → infer → post-process on the batch's frames, or on the crops of the
   * objects {@link InferenceElement.objectsToProcess} chooses (in slices of the model's batch
   * size when it is fixed), and sets `inferDone` on every frame the model ran on, objects found
   * or not, as nvinfer sets `bInferDone` (nvtracker reads it). Override it to take over
   * entirely (`this.runner` is there).
   *
   * @example
   * ```ts
   * async transform(batch: BatchMeta, buffer: GstBuffer) {
   *   if (batch.numFrames > 0) await super.transform(batch, buffer);
   * }
   * ```
   */
  override async transform(batch: BatchMeta, buffer: GstBuffer): Promise<void> {
    const runner = this.runner;
    const images = this.#images(batch, buffer);
    if (images.length === 0) return;
    const batchDim = runner.inputs[0]?.shape[0] ?? -1;
    const sliceSize = batchDim > 0 ? batchDim : images.length;
    for (let start = 0; start < images.length; start += sliceSize) {
      const slice = images.slice(start, start + sliceSize);
      const frames = slice.map((image) => image.frame);
      const pixels = slice.map((image) => image.pixels);
      // A fixed batch larger than what is left: repeat the last image (its results are ignored).
      const fed = pixels.length < sliceSize && batchDim > 0 ? [...pixels, ...Array<TensorHandle>(sliceSize - pixels.length).fill(pixels[pixels.length - 1]!)] : pixels;
      const { inputs, transforms } = await this.preprocess(frames, fed, runner);
      try {
        const outputs = await runner.infer(inputs);
        try {
          await this.postprocess(
            {
              batch,
              frames,
              objects: slice.map((image) => image.object),
              regions: slice.map((image) => image.region),
              tensors: pixels,
              inputs,
              transforms: transforms.slice(0, slice.length),
              runner,
            },
            outputs,
          );
          // nvinfer sets bInferDone on every frame it ran the model on, objects found or not
          // (gstnvinfer_meta_utils.cpp:61, 237, 426); nvtracker reads it (nvtracker_proc.cpp ~1444).
          for (const frame of frames) frame.inferDone = true;
        } finally {
          for (const output of outputs) output.dispose();
        }
      } finally {
        for (const input of inputs) input.dispose();
      }
    }
  }

  /** The images of this batch: each frame whole, or the crops of the objects objectsToProcess() chose. */
  #images(batch: BatchMeta, buffer: GstBuffer): InferenceImage[] {
    const images: InferenceImage[] = [];
    for (const frame of batch.frameItems) {
      const objects = this.objectsToProcess(frame);
      if (objects === undefined) {
        const pixels = buffer.extract(frame.batchId);
        const [height, width] = pixels.shape as [number, number];
        images.push({ frame, object: undefined, region: { left: 0, top: 0, width, height }, pixels });
        continue;
      }
      if (objects.length === 0) continue;
      const pixels = buffer.extract(frame.batchId);
      const [height, width] = pixels.shape as [number, number];
      for (const object of objects) {
        const region = imageRegion(object.rectParams, width, height);
        if (region === undefined) continue;
        const [left, top, regionWidth, regionHeight] = region;
        const box = { left, top, width: regionWidth, height: regionHeight };
        images.push({ frame, object, region: box, pixels: pixels.crop(box) });
      }
    }
    return images;
  }

  /** @internal The model's lifecycle, run by the host adapter around the user's hooks. */
  get [RUNTIME_HOOKS](): RuntimeHooks {
    const state = this.#model;
    return {
      start: async () => {
        state.running = true;
        const generation = ++state.generation;
        const runner = await this.#load(this.props.model);
        if (generation !== state.generation || !state.running) {
          await runner.dispose();
          return;
        }
        state.current = runner;
      },
      stop: async () => {
        state.running = false;
        state.generation++;
        state.loading = false;
        state.requested = undefined;
        const { current, next } = state;
        state.current = undefined;
        state.next = undefined;
        await Promise.all([current?.dispose(), next?.dispose()]);
      },
      propertyChanged: (name) => {
        if (name !== MODEL || !state.running || state.current === undefined) return;
        this.#requestSwap(this.props.model);
      },
      beforeTransform: () => {
        const next = state.next;
        if (next === undefined) return;
        const previous = state.current;
        state.current = next;
        state.next = undefined;
        this.log.info(`switched to ${next.path}`);
        // Inferences of the previous model still in flight finish before it is freed.
        void previous?.dispose();
      },
    };
  }

  async #load(path: string): Promise<Runner> {
    const started = Date.now();
    const runner = await loadRunner(path, this.runnerOptions());
    this.log.info(`loaded ${path} (${runner.backend}) in ${Date.now() - started} ms`);
    return runner;
  }

  /** A `model` change while running: loaded now, or after the load in flight (only the latest change waits). */
  #requestSwap(path: string): void {
    const state = this.#model;
    if (!state.loading) {
      this.#swapInBackground(path);
      return;
    }
    if (state.requested !== undefined) this.log.debug(`model ${state.requested} superseded by ${path} before its load began: not loaded`);
    state.requested = path;
  }

  #swapInBackground(path: string): void {
    const state = this.#model;
    const generation = ++state.generation;
    state.loading = true;
    /** The load landed (for this run of the element): the next requested model, if any, loads now. */
    const landed = (): boolean => {
      if (generation !== state.generation || !state.running) return false;
      state.loading = false;
      const requested = state.requested;
      state.requested = undefined;
      if (requested === undefined) return true;
      this.log.debug(`model ${path} superseded by ${requested} while it loaded: not used`);
      this.#swapInBackground(requested);
      return false;
    };
    this.#load(path).then(
      (runner) => {
        if (!landed()) {
          void runner.dispose();
          return;
        }
        void state.next?.dispose();
        state.next = runner;
      },
      (error: unknown) => {
        if (generation !== state.generation || !state.running) return;
        const current = state.current?.path ?? "none";
        this.log.error(`cannot switch to ${path}, keeping ${current}: ${(error as Error).message}`);
        landed();
      },
    );
  }

  #elementName(): string {
    return definitionOf(this.constructor)?.name ?? "InferenceElement";
  }
}
