/**
 * `ds-element/testing`: run an element's `transform()` in vitest (or any Node script) on
 * synthetic batches, without GStreamer, and check what it wrote. Frames with pixels, objects,
 * classifier and user metadata and nvinfer tensor output already "upstream" are written into a
 * real GstBuffer through the same native metadata code a pipeline uses; the element runs as
 * the GStreamer host runs it (properties validated, `start()`, `onCaps()`, `transform()`,
 * `onEvent()`, `stop()`); the result is the buffer's metadata as plain objects.
 *
 * @example
 * ```ts
 * import { describe, expect, it } from "vitest";
 * import { runTransform } from "ds-element/testing";
 * import ZoneCounter from "./zone-counter.js";
 *
 * describe("zonecounter", () => {
 *   it("counts the people a detector left in the bottom half of the frame", async () => {
 *     const out = await runTransform(ZoneCounter, {
 *       frames: [{ width: 1280, height: 720, objects: [{ classId: 0, rectParams: { left: 100, top: 500, width: 40, height: 80 } }] }],
 *     });
 *     expect(out.frameItems[0]?.userMetaItems[0]?.json).toEqual({ zone: "gate", vehicles: 0, people: 1 });
 *   });
 * });
 * ```
 * @packageDocumentation
 */
export {
  createHarness,
  runTransform,
  ElementHarness,
  type HarnessOptions,
  type PropsInit,
  type HarnessElementClass,
  type LogRecord,
  type LogLevel,
} from "./element-harness.js";
export type {
  BatchInit,
  FrameInit,
  ObjectInit,
  ClassifierInit,
  LabelInfoInit,
  UserMetaInit,
  TensorOutputInit,
  TensorLayerInit,
  VideoFormat,
} from "./batch-init.js";
export type {
  TrackerMetaInit,
  TrackerStreamInit,
  TrackerTargetInit,
  TrackerTargetFrameInit,
  PreprocessBatchInit,
  PreprocessTensorInit,
  RoiInit,
  SensorInfoInit,
} from "./component-meta-init.js";
export { ballDetectorModel, ballDetectorLabels, ballFrame, type BallDetectorModelOptions, type BallFrameOptions } from "./models/ball-detector.js";
export { colorClassifierModel, COLOR_CLASSIFIER_LABELS, type ColorClassifierModelOptions } from "./models/color-classifier.js";
export { launchPipeline, type LaunchOptions, type PipelineRun } from "./launch-pipeline.js";
