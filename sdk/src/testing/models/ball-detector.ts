// The ball detector as an ONNX graph: a bright-blob finder dressed in YOLOv8's output layout.
// It thresholds the mean of the three channels, takes the mass, centroid and spread of what is
// left, and turns them into one box (a uniform disk of radius r has a standard deviation of r/2
// along each axis, so 4 standard deviations span its diameter). Two fixed decoys ride along so
// that a decoder's confidence threshold and NMS are exercised. See docs/internals/ball-model.md.
// scripts/make-ball-model.mjs is its command line.
import { expectedMessage, describeValue } from "../../errors/describe-value.js";
import { InvalidValueError } from "../../errors/errors.js";
import type { FrameInit } from "../batch-init.js";
import { DataType, encodeGraph, encodeModel, encodeNode, encodeTensor, encodeValueInfo, type AttributeValue } from "./onnx-encoding.js";

/** @internal What {@link ballDetectorModel} fills in when an option is not given. */
export const DEFAULT_BALL_CLASS = 0;
/** @internal */
export const DEFAULT_CLASSES = 2;
/** @internal */
export const DEFAULT_SIZE = 640;
/** @internal */
export const DEFAULT_BATCH = 1;
/** @internal */
export const DEFAULT_SETUP_WORK = 0;

/** Side of the constant matrix of the set-up work (see ballDetectorModel's `setupWork`). */
const SETUP_WORK_SIZE = 512;

/**
 * Pixels count as ball from this grey level up (0..1 input). It sits above 114/255 = 0.447,
 * the pad grey of Ultralytics-style letterboxing, so both black (0) and grey padding read as
 * background; the mask ramps from 0 at 0.5 to 1 at 0.75 so anti-aliased edges weigh in partly.
 */
const MASK_THRESHOLD = 0.5;
const MASK_FULL = 0.75;
/** Mask mass (in input pixels) at which the ball score is 0.5, and how sharply it rises around it. */
const SCORE_MIDPOINT_MASS = 16;
const SCORE_MASS_SCALE = 4;
/** The duplicate decoy: the ball's box grown by this factor, at this fraction of its score. */
const DUPLICATE_GROWTH = 1.1;
const DUPLICATE_SCORE_FACTOR = 0.5;
/** The low decoy's constant score, under any usual confidence threshold (0.25 and up). */
const LOW_DECOY_SCORE = 0.1;

/** @internal Output candidates, in the order they appear along the last axis of output0. */
export const CANDIDATES = Object.freeze(["duplicate", "ball", "low"] as const);

/** @internal The ONNX IR version and opset of the test models. */
export const IR_VERSION = 8;
/** @internal */
export const OPSET_VERSION = 17;

/**
 * Options of {@link ballDetectorModel}; every one has a default.
 *
 * @example
 * ```ts
 * const options: BallDetectorModelOptions = { size: 320, ballClass: 1 };
 * ```
 */
export interface BallDetectorModelOptions {
  /** The class the ball is reported as, 0 ≤ ballClass < classes. Default 0. */
  ballClass?: number;
  /** Number of classes, 2 to 1000. Default 2 (`ball`, `not-ball`). */
  classes?: number;
  /** Input width = height, a multiple of 32 from 32 to 4096. Default 640. */
  size?: number;
  /** The batch dimension: a number from 1 to 1024, or `"dynamic"` (symbolic). Default 1. */
  batch?: number | "dynamic";
  /**
   * Makes the model slow to load and as fast to run: that many products of a constant 512×512
   * matrix that ONNX Runtime computes while it sets the session up (about 0.7 s for 150 on a
   * 2-core machine), for tests of loading a model in the background. Default 0.
   */
  setupWork?: number;
}

interface ResolvedOptions {
  ballClass: number;
  classes: number;
  size: number;
  batch: number | "dynamic";
  setupWork: number;
}

function integerOption(value: unknown, name: string, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
    throw new InvalidValueError(expectedMessage(`an integer from ${min} to ${max}`, `options.${name} of ballDetectorModel()`, describeValue(value)));
  }
  return value;
}

function resolveOptions(options: BallDetectorModelOptions): ResolvedOptions {
  // Two classes at least: the low decoy reports the class after the ball's, which must differ.
  const classes = integerOption(options.classes, "classes", DEFAULT_CLASSES, 2, 1000);
  const ballClass = integerOption(options.ballClass, "ballClass", DEFAULT_BALL_CLASS, 0, classes - 1);
  // A multiple of 32 like YOLO's own input sizes; the quarter-size low decoy stays whole.
  const size = integerOption(options.size, "size", DEFAULT_SIZE, 32, 4096);
  if (size % 32 !== 0) throw new InvalidValueError(expectedMessage("a multiple of 32", "options.size of ballDetectorModel()", String(size)));
  const batch = options.batch === "dynamic" ? "dynamic" : integerOption(options.batch, "batch", DEFAULT_BATCH, 1, 1024);
  const setupWork = integerOption(options.setupWork, "setupWork", DEFAULT_SETUP_WORK, 0, 100000);
  return { ballClass, classes, size, batch, setupWork };
}

/**
 * The class names of {@link ballDetectorModel}: `ball` at the ball's class, `not-ball`
 * (numbered when there are more than two classes) elsewhere.
 *
 * @example
 * ```ts
 * ballDetectorLabels(); // ["ball", "not-ball"]
 * ballDetectorLabels({ ballClass: 1, classes: 3 }); // ["not-ball-0", "ball", "not-ball-2"]
 * ```
 */
export function ballDetectorLabels(options: Pick<BallDetectorModelOptions, "ballClass" | "classes"> = {}): string[] {
  const { ballClass, classes } = resolveOptions(options);
  return Array.from({ length: classes }, (_, index) => {
    if (index === ballClass) return "ball";
    return classes === 2 ? "not-ball" : `not-ball-${index}`;
  });
}

/** Collects nodes and initializers under readable, unique names. */
class GraphBuilder {
  nodes: Uint8Array[] = [];
  initializers: Uint8Array[] = [];
  #names = new Set<string>();

  #claim(name: string): string {
    if (this.#names.has(name)) throw new Error(`Expected a new tensor name but received ${name} twice`);
    this.#names.add(name);
    return name;
  }

  /** A float32 initializer; a plain number becomes a scalar. */
  floats(name: string, values: number | readonly number[], dims: readonly number[] = []): string {
    const list = typeof values === "number" ? [values] : values;
    this.initializers.push(encodeTensor({ name: this.#claim(name), dataType: DataType.FLOAT, dims, values: list }));
    return name;
  }

  int64s(name: string, values: readonly number[]): string {
    this.initializers.push(encodeTensor({ name: this.#claim(name), dataType: DataType.INT64, dims: [values.length], values }));
    return name;
  }

  /** One node with a single output named after the node. */
  op(opType: string, name: string, inputs: readonly string[], attributes?: Record<string, AttributeValue>): string {
    this.nodes.push(encodeNode({ name: this.#claim(name), opType, inputs, outputs: [name], attributes }));
    return name;
  }

  /** A node whose output has a fixed name (a graph output). */
  opTo(opType: string, output: string, name: string, inputs: readonly string[], attributes?: Record<string, AttributeValue>): string {
    this.#claim(output);
    this.nodes.push(encodeNode({ name: this.#claim(name), opType, inputs, outputs: [output], attributes }));
    return output;
  }
}

/** The centre and extent along one axis from the mask's profile along that axis: tensor names, each [batch, 1]. */
function axisMoments(
  graph: GraphBuilder,
  axis: string,
  profile: string,
  coordinates: string,
  safeMass: string,
  four: string,
): { centre: string; extent: string } {
  const weighted = graph.op("Mul", `${axis}_weighted`, [profile, coordinates]);
  const firstMoment = graph.op("ReduceSum", `${axis}_first_moment`, [weighted, "axes_candidate"], { keepdims: { int: 1 } });
  const centre = graph.op("Div", `${axis}_centre`, [firstMoment, safeMass]);
  // Centred before squaring: E[x²] - E[x]² in float32 would lose the ball's spread in rounding.
  const offset = graph.op("Sub", `${axis}_offset`, [coordinates, centre]);
  const offsetSquared = graph.op("Mul", `${axis}_offset_squared`, [offset, offset]);
  const weightedSquares = graph.op("Mul", `${axis}_weighted_squares`, [offsetSquared, profile]);
  const secondMoment = graph.op("ReduceSum", `${axis}_second_moment`, [weightedSquares, "axes_candidate"], { keepdims: { int: 1 } });
  const variance = graph.op("Div", `${axis}_variance`, [secondMoment, safeMass]);
  const deviation = graph.op("Sqrt", `${axis}_deviation`, [variance]);
  const extent = graph.op("Mul", `${axis}_extent`, [deviation, four]);
  return { centre, extent };
}

/**
 * A scalar zero that costs `steps` products of SETUP_WORK_SIZE² matrices to compute, all of them
 * from constants: ONNX Runtime's constant folding computes it once, while it sets the session up,
 * and inferences never see it. It makes a model slow to load and as fast as before to run, which
 * is what a test of loading in the background needs. The matrix is the identity, so the values
 * stay finite however many steps there are.
 */
function setupWorkZero(graph: GraphBuilder, steps: number, zero: string): string {
  const side = SETUP_WORK_SIZE;
  const identity = Array.from({ length: side * side }, (_, index) => (index % (side + 1) === 0 ? 1 : 0));
  let product = graph.floats("setup_work_matrix", identity, [side, side]);
  for (let step = 1; step <= steps; step++) {
    product = graph.op("MatMul", `setup_work_product_${step}`, [product, "setup_work_matrix"]);
  }
  const total = graph.op("ReduceSum", "setup_work_total", [product], { keepdims: { int: 0 } });
  return graph.op("Mul", "setup_work_zero", [total, zero]);
}

/**
 * A small deterministic ONNX detector in YOLOv8's layout that finds the ball of
 * `videotestsrc pattern=ball` (a bright blob on a dark background): input `images`
 * `[batch, 3, size, size]` float32 RGB 0..1, output `output0` `[batch, 4 + classes, 3]` (cx,
 * cy, w, h in input pixels, then class scores; three candidates: the ball, a duplicate of it
 * at half its score for NMS to remove, and a low-score decoy under any usual confidence
 * threshold). No weights to download; the same options always give the same bytes. For
 * tests of detectors with real ONNX Runtime: write it to a file and load it as the element's
 * `model` (docs/internals/ball-model.md explains what it computes).
 *
 * @example
 * ```ts
 * import { writeFileSync } from "node:fs";
 * import { ballDetectorModel, createHarness } from "ds-element/testing";
 * writeFileSync("/tmp/ball.onnx", ballDetectorModel({ size: 320 }));
 * const harness = await createHarness(MyDetector, { props: { model: "/tmp/ball.onnx" } });
 * ```
 */
export function ballDetectorModel(options: BallDetectorModelOptions = {}): Uint8Array {
  const { ballClass, classes, size, batch, setupWork } = resolveOptions(options);
  const graph = new GraphBuilder();
  const rows = 4 + classes;
  const batchDim = batch === "dynamic" ? "batch" : batch;

  graph.int64s("axes_channels_rows", [1, 2]);
  graph.int64s("axes_channels_columns", [1, 3]);
  graph.int64s("axes_candidate", [1]);
  graph.int64s("axes_candidates", [2]);

  // The mask: 0 below MASK_THRESHOLD, 1 from MASK_FULL up, linear between.
  const grey = graph.op("ReduceMean", "grey", ["images"], { axes: { ints: [1] }, keepdims: { int: 1 } });
  const aboveThreshold = graph.op("Sub", "above_threshold", [grey, graph.floats("mask_threshold", MASK_THRESHOLD)]);
  const ramp = graph.op("Mul", "ramp", [aboveThreshold, graph.floats("mask_gain", 1 / (MASK_FULL - MASK_THRESHOLD))]);
  const mask = graph.op("Clip", "mask", [ramp, graph.floats("zero", 0), graph.floats("one", 1)]);

  // Profiles along x (summed over rows) and y (summed over columns): [batch, size] each, so the
  // moments below are sums over `size` values rather than over size² pixels.
  const columnMass = graph.op("ReduceSum", "column_mass", [mask, "axes_channels_rows"], { keepdims: { int: 0 } });
  const rowMass = graph.op("ReduceSum", "row_mass", [mask, "axes_channels_columns"], { keepdims: { int: 0 } });
  const mass = graph.op("ReduceSum", "mass", [columnMass, "axes_candidate"], { keepdims: { int: 1 } });
  const safeMass = graph.op("Max", "safe_mass", [mass, graph.floats("tiny_mass", 1e-6)]);

  // Pixel centres 0.5, 1.5, …, size - 0.5: a box edge then falls on a pixel boundary.
  const coordinates = graph.op("Range", "pixel_centres", [
    graph.floats("range_start", 0.5),
    graph.floats("range_limit", size),
    graph.floats("range_step", 1),
  ]);
  const four = graph.floats("deviations_per_diameter", 4);
  const x = axisMoments(graph, "x", columnMass, coordinates, safeMass, four);
  const y = axisMoments(graph, "y", rowMass, coordinates, safeMass, four);

  const massAboveMidpoint = graph.op("Sub", "mass_above_midpoint", [mass, graph.floats("score_midpoint_mass", SCORE_MIDPOINT_MASS)]);
  const scoreLogit = graph.op("Mul", "score_logit", [massAboveMidpoint, graph.floats("score_mass_gain", 1 / SCORE_MASS_SCALE)]);
  const score = graph.op("Sigmoid", "ball_score", [scoreLogit]);
  const oneHot = Array.from({ length: classes }, (_, index) => (index === ballClass ? 1 : 0));
  const classScores = graph.op("Mul", "ball_class_scores", [score, graph.floats("ball_one_hot", oneHot, [1, classes])]);
  const ball = graph.op("Concat", "ball", [x.centre, y.centre, x.extent, y.extent, classScores], { axis: { int: 1 } });

  const growth = graph.floats("duplicate_growth", DUPLICATE_GROWTH);
  const duplicateWidth = graph.op("Mul", "duplicate_width", [x.extent, growth]);
  const duplicateHeight = graph.op("Mul", "duplicate_height", [y.extent, growth]);
  const duplicateScores = graph.op("Mul", "duplicate_class_scores", [classScores, graph.floats("duplicate_score_factor", DUPLICATE_SCORE_FACTOR)]);
  const duplicate = graph.op("Concat", "duplicate", [x.centre, y.centre, duplicateWidth, duplicateHeight, duplicateScores], { axis: { int: 1 } });

  // The low decoy: a fixed box in the top-left quarter, of the class after the ball's. Adding a
  // zero column of the batch's height broadcasts the constant to every image of the batch.
  const lowClass = (ballClass + 1) % classes;
  const lowColumn = [size / 4, size / 4, size / 4, size / 4, ...Array.from({ length: classes }, (_, index) => (index === lowClass ? LOW_DECOY_SCORE : 0))];
  const massZeros = graph.op("Mul", "batch_zeros", [mass, "zero"]);
  const batchZeros = setupWork > 0 ? graph.op("Add", "batch_zeros_after_setup_work", [massZeros, setupWorkZero(graph, setupWork, "zero")]) : massZeros;
  const low = graph.op("Add", "low", [batchZeros, graph.floats("low_candidate", lowColumn, [1, rows])]);

  const columns: Record<(typeof CANDIDATES)[number], string> = { duplicate, ball, low };
  const unsqueezed = CANDIDATES.map((candidate) => graph.op("Unsqueeze", `${candidate}_column`, [columns[candidate], "axes_candidates"]));
  graph.opTo("Concat", "output0", "candidates", unsqueezed, { axis: { int: 2 } });

  const labels = ballDetectorLabels({ ballClass, classes });
  const encodedGraph = encodeGraph({
    name: "ball_detector",
    nodes: graph.nodes,
    initializers: graph.initializers,
    inputs: [
      encodeValueInfo({
        name: "images",
        dataType: DataType.FLOAT,
        dims: [batchDim, 3, size, size],
        docString: "RGB (or BGR: the channels are averaged), NCHW, 0..1; letterboxed with 0 or 114/255 padding",
      }),
    ],
    outputs: [
      encodeValueInfo({
        name: "output0",
        dataType: DataType.FLOAT,
        dims: [batchDim, rows, CANDIDATES.length],
        docString: "YOLOv8 layout: rows cx, cy, w, h (input pixels) then one score per class; one column per candidate",
      }),
    ],
    docString: "Finds the brightest blob (videotestsrc pattern=ball); see docs/internals/ball-model.md",
  });
  return encodeModel({
    irVersion: IR_VERSION,
    opsetVersion: OPSET_VERSION,
    producerName: "ds-element scripts/make-ball-model.mjs",
    producerVersion: "1",
    modelVersion: 1,
    docString: `Ball detector for videotestsrc pattern=ball: ${classes} classes, ball = class ${ballClass}, input ${size}x${size}`,
    graph: encodedGraph,
    // Ultralytics' own keys, so tools that read YOLOv8 exports find the class names and size.
    metadata: [
      ["task", "detect"],
      ["imgsz", `[${size}, ${size}]`],
      ["names", `{${labels.map((label, index) => `${index}: '${label}'`).join(", ")}}`],
      ["labels", JSON.stringify(labels)],
    ],
  });
}

/**
 * Options of {@link ballFrame}.
 *
 * @example
 * ```ts
 * const options: BallFrameOptions = { width: 320, height: 240, x: 100, y: 80 };
 * ```
 */
export interface BallFrameOptions {
  /** Frame width in pixels. */
  width: number;
  /** Frame height in pixels. */
  height: number;
  /** Centre of the ball, in pixels from the left. */
  x: number;
  /** Centre of the ball, in pixels from the top. */
  y: number;
  /** Radius in pixels. Default 20, as videotestsrc draws it. */
  radius?: number;
}

/**
 * A frame for `createHarness().push()` that {@link ballDetectorModel} finds a ball in: packed
 * RGB, black, with a white disk (as `videotestsrc pattern=ball` draws, without anti-aliasing).
 *
 * @example
 * ```ts
 * const out = await harness.push({ frames: [ballFrame({ width: 320, height: 240, x: 100, y: 80 })] });
 * ```
 */
export function ballFrame({ width, height, x, y, radius = 20 }: BallFrameOptions): FrameInit {
  const pixels = new Uint8Array(width * height * 3);
  for (let row = 0; row < height; row++) {
    for (let column = 0; column < width; column++) {
      if ((column + 0.5 - x) ** 2 + (row + 0.5 - y) ** 2 <= radius * radius) pixels.fill(255, (row * width + column) * 3, (row * width + column) * 3 + 3);
    }
  }
  return { width, height, format: "RGB", pixels };
}
