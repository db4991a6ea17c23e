// The colour classifier as an ONNX graph: the mean colour of the image, then the nearest of a
// few colour prototypes as a softmax over negative squared distances. Written as a linear layer
// (-g·|m − p|² = 2g·m·p − g·|p|² − g·|m|², and the last term is the same for every class, so the
// softmax ignores it): ReduceMean → MatMul → Add → Softmax. Like a secondary classifier of
// DeepStream's samples (vehicle colour) in shape, with an answer the test can predict.
import { describeValue, expectedMessage } from "../../errors/describe-value.js";
import { InvalidValueError } from "../../errors/errors.js";
import { IR_VERSION, OPSET_VERSION } from "./ball-detector.js";
import { DataType, encodeGraph, encodeModel, encodeNode, encodeTensor, encodeValueInfo } from "./onnx-encoding.js";

/** The classes of {@link colorClassifierModel}, in class-id order, and the RGB (0..1) each stands for. */
const PROTOTYPES = Object.freeze([
  ["black", [0, 0, 0]],
  ["white", [1, 1, 1]],
  ["red", [1, 0, 0]],
  ["green", [0, 1, 0]],
  ["blue", [0, 0, 1]],
  ["yellow", [1, 1, 0]],
] as const);

/**
 * The labels of {@link colorClassifierModel}, in class-id order.
 *
 * @example
 * ```ts
 * COLOR_CLASSIFIER_LABELS[2]; // "red"
 * ```
 */
export const COLOR_CLASSIFIER_LABELS: readonly string[] = Object.freeze(PROTOTYPES.map(([label]) => label));

/** How sharp the softmax is: a pure colour scores about 0.99 for its class. */
const GAIN = 5;

/**
 * Options of {@link colorClassifierModel}; every one has a default.
 *
 * @example
 * ```ts
 * const options: ColorClassifierModelOptions = { size: 32, batch: "dynamic" };
 * ```
 */
export interface ColorClassifierModelOptions {
  /** Input width = height, 1 to 4096. Default 64. */
  size?: number;
  /** The batch dimension: a number from 1 to 1024, or `"dynamic"` (default: every crop of a batch in one inference). */
  batch?: number | "dynamic";
}

function option(value: unknown, name: string, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
    throw new InvalidValueError(expectedMessage(`an integer from ${min} to ${max}`, `options.${name} of colorClassifierModel()`, describeValue(value)));
  }
  return value;
}

/**
 * A small deterministic ONNX classifier: the mean colour of each image, as a probability for
 * each of {@link COLOR_CLASSIFIER_LABELS} (the nearest colour scores highest). Input `images`
 * `[batch, 3, size, size]` float32 RGB 0..1, output `probabilities` `[batch, 6]` (a softmax).
 * The model of a secondary classifier's tests (like the vehicle colour classifier of
 * DeepStream's samples): crops of a white object classify as `white`, of a red one as `red`.
 * No weights to download; the same options always give the same bytes.
 *
 * @example
 * ```ts
 * import { writeFileSync } from "node:fs";
 * import { colorClassifierModel } from "ds-element/testing";
 * writeFileSync("/tmp/color.onnx", colorClassifierModel({ size: 32 }));
 * ```
 */
export function colorClassifierModel(options: ColorClassifierModelOptions = {}): Uint8Array {
  const size = option(options.size, "size", 64, 1, 4096);
  const batch = options.batch === undefined || options.batch === "dynamic" ? "batch" : option(options.batch, "batch", 1, 1, 1024);
  const classes = PROTOTYPES.length;
  // weights[c][k] = 2·GAIN·p_k[c], bias[k] = −GAIN·|p_k|²
  const weights = [0, 1, 2].flatMap((channel) => PROTOTYPES.map(([, rgb]) => 2 * GAIN * rgb[channel]!));
  const bias = PROTOTYPES.map(([, rgb]) => -GAIN * rgb.reduce((sum: number, value: number) => sum + value * value, 0));
  const graph = encodeGraph({
    name: "color_classifier",
    nodes: [
      encodeNode({ name: "mean_color", opType: "ReduceMean", inputs: ["images"], outputs: ["mean_color"], attributes: { axes: { ints: [2, 3] }, keepdims: { int: 0 } } }),
      encodeNode({ name: "similarity", opType: "MatMul", inputs: ["mean_color", "prototype_weights"], outputs: ["similarity"] }),
      encodeNode({ name: "logits", opType: "Add", inputs: ["similarity", "prototype_bias"], outputs: ["logits"] }),
      encodeNode({ name: "softmax", opType: "Softmax", inputs: ["logits"], outputs: ["probabilities"], attributes: { axis: { int: 1 } } }),
    ],
    initializers: [
      encodeTensor({ name: "prototype_weights", dataType: DataType.FLOAT, dims: [3, classes], values: weights }),
      encodeTensor({ name: "prototype_bias", dataType: DataType.FLOAT, dims: [classes], values: bias }),
    ],
    inputs: [encodeValueInfo({ name: "images", dataType: DataType.FLOAT, dims: [batch, 3, size, size], docString: "RGB, NCHW, 0..1" })],
    outputs: [
      encodeValueInfo({
        name: "probabilities",
        dataType: DataType.FLOAT,
        dims: [batch, classes],
        docString: `softmax over ${COLOR_CLASSIFIER_LABELS.join(", ")}`,
      }),
    ],
    docString: "The nearest of six colours to the image's mean colour",
  });
  return encodeModel({
    irVersion: IR_VERSION,
    opsetVersion: OPSET_VERSION,
    producerName: "ds-element colorClassifierModel()",
    producerVersion: "1",
    modelVersion: 1,
    docString: `Colour classifier: ${classes} classes, input ${size}x${size}`,
    graph,
    metadata: [["labels", JSON.stringify(COLOR_CLASSIFIER_LABELS)]],
  });
}
