import type { TensorLayer, TensorLayerData } from "../metadata/tensor-output-meta.js";
import { checkIntegerOr, checkOptions, checkUnitOr, describeKind, invalid, invalidReceived, wrongType } from "./checks.js";
import { confidenceOrder } from "./confidence-order.js";
import { ColumnStore, type Detections } from "./detections.js";
import { scratchAreas, type PostprocessScratch, type ScratchAreas } from "./scratch.js";
import { optionalTensorBinding } from "../native/installed-bindings.js";
import type { TensorBinding } from "../native/tensor-binding.js";
import { nativeTensorSource, TensorHandle } from "../tensor/tensor-handle.js";

/**
 * Outputs with at least this many class scores (classes × candidates) take the native argmax:
 * below it the call costs more than it saves. bench/postprocess.mjs measures both paths.
 */
const NATIVE_ARGMAX_MIN = 4096;

let argmaxLookup: { fn: TensorBinding["classArgmax"] | undefined } | undefined;

/** The native class argmax, when the binding loads; looked up once. */
function nativeArgmax(): TensorBinding["classArgmax"] | undefined {
  if (argmaxLookup === undefined) {
    const binding = optionalTensorBinding();
    argmaxLookup = { fn: binding?.classArgmax.bind(binding) };
  }
  return argmaxLookup.fn;
}

/** @internal For tests and the bench: the native path off (`false`) or back to its default. */
export function useNativeArgmax(enabled: boolean): void {
  argmaxLookup = enabled ? undefined : { fn: undefined };
}

/**
 * How {@link decodeYolo} picks the candidates of a {@link TensorHandle}:
 * - `"auto"`: where the tensor is: a kernel on a CUDA tensor, which copies only the candidates
 *   to the host; the host scan of a host tensor.
 * - `"native"`: the native selection on host tensors too (the CPU reference of the kernel's
 *   rule, native-host/src/postprocess/candidates.h): tests compare it with the scan.
 * - `"host"`: every tensor through the host scan (a CUDA tensor copied whole): the bench's peer.
 */
type CandidateSelection = "auto" | "native" | "host";
let candidateSelection: CandidateSelection = "auto";

/** @internal For tests and the bench: see CandidateSelection. */
export function useCandidateSelection(selection: CandidateSelection): void {
  candidateSelection = selection;
}

/**
 * Minimum winning class score a candidate needs to be kept by {@link decodeYolo}
 * (Ultralytics' `conf` default).
 *
 * @example
 * ```ts
 * const threshold = this.props.confidenceThreshold ?? DEFAULT_CONFIDENCE_THRESHOLD;
 * ```
 */
export const DEFAULT_CONFIDENCE_THRESHOLD = 0.25;

const NAME = "decodeYolo";
const INT32_MAX = 2147483647;

/**
 * How a YOLO output is laid out per batch item, with `4 + C` channels (cx, cy, w, h, then C
 * class scores) and N candidates:
 * - `"channels-first"`: `[4 + C, N]`, channel-major (the N x-centres, then the N y-centres, …).
 *   What YOLOv8 / YOLO11 ONNX exports give (`[1, 84, 8400]` for 80 classes at 640×640).
 * - `"channels-last"`: `[N, 4 + C]`, one candidate after another (exports transposed for
 *   decoding, and many TensorRT YOLO builds).
 *
 * @example
 * ```ts
 * const layout: YoloLayout = layer.dims.at(-1) === 84 ? "channels-last" : "channels-first";
 * ```
 */
export type YoloLayout = "channels-first" | "channels-last";

/**
 * A tensor to decode: its data and dims, `[4 + C, N]` / `[N, 4 + C]` (one image, as nvinfer's
 * tensor output gives them) or `[B, 4 + C, N]` / `[B, N, 4 + C]`. A {@link TensorLayer} is one,
 * so nvinfer's layers go in as they are; the data must be float32.
 *
 * @example
 * ```ts
 * const tensor: YoloTensor = { data: outputs.output0.data, dims: outputs.output0.dims };
 * ```
 */
export interface YoloTensor {
  /** The values, in the layout's order (a float32 array; anything else is rejected). */
  readonly data: TensorLayerData | undefined;
  /** The shape: 2 dims (one image) or 3 (batch first). */
  readonly dims: readonly number[];
}

/**
 * Options of {@link decodeYolo}.
 *
 * @example
 * ```ts
 * const options: DecodeYoloOptions = { confidenceThreshold: 0.4, classes: [0, 2] }; // people and cars
 * ```
 */
export interface DecodeYoloOptions {
  /** Number of classes C. Required for a plain Float32Array; else taken from the dims (and checked when given). */
  numClasses?: number;
  /**
   * Minimum winning class score, 0..1 (default {@link DEFAULT_CONFIDENCE_THRESHOLD}). A candidate
   * is kept when its best score is `>=` the threshold (nvinfer's `pre-cluster-threshold`;
   * Ultralytics uses `>`, which differs only for scores exactly equal to it).
   */
  confidenceThreshold?: number;
  /**
   * Class ids to keep (default: all). Applied after the argmax over all classes, as
   * Ultralytics does: a box whose best class is not listed is dropped, not given its best
   * listed class.
   */
  classes?: readonly number[];
  /**
   * At most this many candidates per image, the highest scores (ties: lowest candidate index);
   * default: no limit. Bounds the NMS cost when a low threshold lets thousands through
   * (Ultralytics' `max_nms`, 30000).
   */
  maxCandidates?: number;
  /** Layout of the tensor (default `"channels-first"`, YOLOv8's). */
  layout?: YoloLayout;
  /** Number of images in a plain Float32Array (default 1); tensors give it in their dims. */
  batchSize?: number;
  /** Write the result into these arrays instead of fresh ones (a call without a scratch allocates only its result; see {@link PostprocessScratch} for the lifetime of results). */
  scratch?: PostprocessScratch;
}

/**
 * One {@link Detections} per image of the batch, in batch order; never empty, so
 * `const [candidates] = decodeYolo(…)` needs no check.
 *
 * @example
 * ```ts
 * const perImage: BatchDetections = decodeYolo(batched, { numClasses: 80, batchSize: 4 });
 * perImage.forEach((candidates, image) => this.log.debug(`image ${image}: ${candidates.count}`));
 * ```
 */
export type BatchDetections = readonly [Detections, ...Detections[]];

/** Images, classes and anchors of an output. */
interface Dims {
  batch: number;
  classes: number;
  candidates: number;
}

interface Shape extends Dims {
  data: Float32Array;
}

/**
 * Decodes a YOLO-style detection output (YOLOv8 / YOLO11 and the like: box centre and size,
 * then one score per class, no objectness) into candidate boxes, one {@link Detections} per
 * image: for each candidate the best class (argmax; the lowest class id wins a tie, NaN scores
 * never win), kept when its score passes `confidenceThreshold` and `classes`. Boxes are
 * `left = cx - w/2, top = cy - h/2, width = w, height = h` in network input pixels (map them
 * to the frame with {@link mapBoxes}); rows are in candidate order. Candidates with a
 * negative or non-finite box are dropped (they are not boxes, and `addObjects` would refuse them).
 *
 * This overload takes a plain Float32Array, with `numClasses` (and `batchSize` when > 1).
 *
 * @example
 * ```ts
 * const [candidates] = decodeYolo(output, { numClasses: 80, confidenceThreshold: 0.3 });
 * const kept = nms(candidates, { iouThreshold: 0.5 });
 * ```
 */
export function decodeYolo(output: Float32Array, options: DecodeYoloOptions & { numClasses: number }): BatchDetections;
/**
 * Decodes a YOLO output given with its dims, such as an nvinfer {@link TensorLayer}
 * (`[84, 8400]` for YOLOv8 with 80 classes) or an ONNX Runtime output (`[1, 84, 8400]`);
 * the number of classes comes from the dims. See the other overload for what is decoded.
 *
 * @example
 * ```ts
 * const layer = frame.tensorItems.find((tensor) => tensor.uniqueId === 1)?.layers[0];
 * if (layer !== undefined) {
 *   const [candidates] = decodeYolo(layer, { confidenceThreshold: this.props.confidenceThreshold });
 *   frame.addObjects(nms(candidates), { labels: this.props.labels });
 * }
 * ```
 */
export function decodeYolo(output: YoloTensor, options?: DecodeYoloOptions): BatchDetections;
/**
 * Decodes a runner's output {@link TensorHandle} (`[1, 84, 8400]` for YOLOv8 with 80 classes),
 * wherever it lives: on a `"cuda"` tensor (TensorRT, or any dense CUDA tensor) a kernel applies
 * the threshold and only the candidates that pass are copied to the host (a few KB instead of
 * the 2.8 MB output), then decoded as a host output is, with identical results; a host tensor is
 * read in place. The tensor must be float32 and, on the GPU, dense. The results do not refer to
 * the tensor: dispose it whenever you like. See the first overload for what is decoded.
 *
 * @example
 * ```ts
 * postprocess(inference: InferenceBatch, [output]: TensorHandle[]) {
 *   const images = decodeYolo(output!, { confidenceThreshold: this.props.confidenceThreshold });
 * }
 * ```
 */
export function decodeYolo(output: TensorHandle, options?: DecodeYoloOptions): BatchDetections;
export function decodeYolo(output: Float32Array | YoloTensor | TensorHandle, options?: DecodeYoloOptions): BatchDetections {
  const settings = checkOptions(options, `${NAME} options`);
  const channelsFirst = checkLayout(settings);
  if (output instanceof TensorHandle) return decodeTensor(output, settings, channelsFirst);
  const shape = resolveShape(output, settings, channelsFirst);
  const rules = decodeRules(settings, shape);
  const { data, classes, candidates } = shape;
  if (channelsFirst) rules.areas.reserveCandidates(candidates);
  const stride = (4 + classes) * candidates;
  return decodeImages(shape, rules, (image, store, used) =>
    channelsFirst
      ? decodeChannelsFirst(data, image * stride, candidates, classes, rules.threshold, rules.allowed, store, used, rules.areas.bestScore, rules.areas.bestClass)
      : decodeChannelsLast(data, image * stride, candidates, classes, rules.threshold, rules.allowed, store, used),
  );
}

/** What decodes every image the same way, whoever found the candidates. */
interface DecodeRules {
  threshold: number;
  maxCandidates: number;
  allowed: Uint8Array | undefined;
  areas: ScratchAreas;
}

function checkLayout(settings: Partial<DecodeYoloOptions>): boolean {
  const layout = settings.layout ?? "channels-first";
  if (layout !== "channels-first" && layout !== "channels-last") {
    invalid('"channels-first" or "channels-last"', `${NAME} options.layout`, layout, typeof layout !== "string");
  }
  return layout === "channels-first";
}

function decodeRules(settings: Partial<DecodeYoloOptions>, shape: Dims): DecodeRules {
  return {
    threshold: checkUnitOr(settings.confidenceThreshold, DEFAULT_CONFIDENCE_THRESHOLD, `${NAME} options.confidenceThreshold`),
    maxCandidates: checkIntegerOr(settings.maxCandidates, INT32_MAX, 0, INT32_MAX, `${NAME} options.maxCandidates`),
    allowed: allowedClasses(settings.classes, shape.classes),
    areas: scratchAreas(settings.scratch, `${NAME} options.scratch`),
  };
}

/**
 * One Detections per image: `decodeImage` appends an image's boxes to the store from row `used`
 * and returns the new row count; then the maxCandidates cut.
 */
function decodeImages(shape: Dims, rules: DecodeRules, decodeImage: (image: number, store: ColumnStore, used: number) => number): BatchDetections {
  const { batch, candidates } = shape;
  const store = rules.areas.keepsResults ? rules.areas.decoded : new ColumnStore(0);
  if (store.capacity === 0) store.reserve(Math.min(batch * candidates, 256), 0);
  const spans = new Array<number>(batch * 2);
  let used = 0;
  for (let image = 0; image < batch; image++) {
    const start = used;
    used = decodeImage(image, store, used);
    if (used - start > rules.maxCandidates) used = start + keepBest(store, start, used - start, rules.maxCandidates, rules.areas);
    spans[image * 2] = start;
    spans[image * 2 + 1] = used - start;
  }
  // Views only now: growing the store while decoding replaced its arrays.
  const first = store.view(spans[0] as number, spans[1] as number);
  const rest = new Array<Detections>(batch - 1);
  for (let image = 1; image < batch; image++) rest[image - 1] = store.view(spans[image * 2] as number, spans[image * 2 + 1] as number);
  return [first, ...rest];
}

/**
 * A tensor handle: on the GPU, the native selection (a kernel: only the candidates come to the
 * host); on the host, read in place. See CandidateSelection.
 */
function decodeTensor(tensor: TensorHandle, settings: Partial<DecodeYoloOptions>, channelsFirst: boolean): BatchDetections {
  if (tensor.dtype !== "float32") {
    return invalidReceived("a float32 tensor (convert other types first)", `${NAME} output`, `a ${tensor.dtype} tensor`);
  }
  const onGpu = tensor.device.type === "cuda";
  if (candidateSelection === "native" || (candidateSelection === "auto" && onGpu)) {
    const binding = optionalTensorBinding();
    if (binding !== undefined) return decodeSelected(binding, tensor, settings, channelsFirst);
  }
  const host = onGpu ? tensor.toHost() : tensor;
  try {
    return decodeYolo({ data: host.toTypedArray() as Float32Array, dims: host.shape }, settings);
  } finally {
    if (host !== tensor) host.dispose();
  }
}

/**
 * The candidates the native selection found (anchor order; each anchor's best class and score by
 * the scan's rules, candidates.h), decoded as the scan decodes them: the same class filter and
 * push, so the detections equal the host path's.
 */
function decodeSelected(binding: TensorBinding, tensor: TensorHandle, settings: Partial<DecodeYoloOptions>, channelsFirst: boolean): BatchDetections {
  const values = tensor.shape.reduce((product, size) => product * size, 1);
  const shape = dimsShape(tensor.shape, values, checkNumClasses(settings), channelsFirst);
  const rules = decodeRules(settings, shape);
  const source = nativeTensorSource(tensor, `${NAME} output`);
  const { ids, values: found } = binding.yoloCandidates(source, channelsFirst, shape.batch, shape.classes, shape.candidates, rules.threshold);
  const count = ids.length / 2;
  let next = 0;
  return decodeImages(shape, rules, (image, store, used) => {
    const end = (image + 1) * shape.candidates;
    for (; next < count && (ids[next * 2] as number) < end; next++) {
      const classId = ids[next * 2 + 1] as number;
      if (rules.allowed !== undefined && rules.allowed[classId] === 0) continue;
      const at = next * 5;
      used = push(store, used, found[at + 1] as number, found[at + 2] as number, found[at + 3] as number, found[at + 4] as number, found[at] as number, classId);
    }
    return used;
  });
}

/**
 * Channel-major: scanning one candidate's scores would stride N floats per class. Instead the
 * argmax runs over whole class rows, sequentially, keeping each candidate's best score and
 * class so far. Two loops do it, with identical results:
 * - gated: a score below the threshold cannot be a kept box's best, so it is skipped after
 *   one compare, without reading the best so far. At usual thresholds (0.25) almost every
 *   score is skipped, and this loop is about 2× faster than the plain one.
 * - plain: when many scores pass (evaluation thresholds like 0.001), the gate's branch
 *   mispredicts and costs 4× instead; so after a row in which more than 1/16 of the
 *   candidates pass, the remaining rows use the plain argmax.
 * A candidate whose best score is below the threshold may end with a partial best; it fails
 * the threshold either way.
 */
function decodeChannelsFirst(
  data: Float32Array,
  base: number,
  candidates: number,
  classes: number,
  threshold: number,
  allowed: Uint8Array | undefined,
  store: ColumnStore,
  used: number,
  bestScore: Float32Array,
  bestClass: Int32Array,
): number {
  const scores = base + 4 * candidates;
  const native = classes * candidates >= NATIVE_ARGMAX_MIN ? nativeArgmax() : undefined;
  // The same argmax in C++ when it pays (the gate below only skips work; it never changes a result).
  if (native !== undefined) native(data, scores, classes, candidates, bestScore, bestClass);
  else argmaxRows(data, scores, candidates, classes, threshold, bestScore, bestClass);
  for (let i = 0; i < candidates; i++) {
    const best = bestScore[i] as number;
    if (!(best >= threshold)) continue;
    const classId = bestClass[i] as number;
    if (allowed !== undefined && allowed[classId] === 0) continue;
    used = push(
      store,
      used,
      data[base + i] as number,
      data[base + candidates + i] as number,
      data[base + 2 * candidates + i] as number,
      data[base + 3 * candidates + i] as number,
      best,
      classId,
    );
  }
  return used;
}

/** The running argmax over the class rows, in JS. */
function argmaxRows(
  data: Float32Array,
  scores: number,
  candidates: number,
  classes: number,
  threshold: number,
  bestScore: Float32Array,
  bestClass: Int32Array,
): void {
  // -Infinity, not the first class's scores: a NaN best would never be beaten.
  bestScore.fill(Number.NEGATIVE_INFINITY, 0, candidates);
  bestClass.fill(-1, 0, candidates);
  let gated = true;
  for (let classId = 0; classId < classes; classId++) {
    const row = scores + classId * candidates;
    if (gated) {
      const passed = argmaxRowGated(data, row, candidates, classId, threshold, bestScore, bestClass);
      if (passed * 16 > candidates) gated = false;
    } else {
      argmaxRow(data, row, candidates, classId, bestScore, bestClass);
    }
  }
}

// Both row loops take four candidates per iteration: V8 does not unroll loops, and unrolled
// they run 30-40% faster (bench/postprocess.mjs measures the whole decode).

/** Argmax step over one class row for the scores >= threshold; returns how many there were. */
function argmaxRowGated(
  data: Float32Array,
  row: number,
  candidates: number,
  classId: number,
  threshold: number,
  bestScore: Float32Array,
  bestClass: Int32Array,
): number {
  let passed = 0;
  let i = 0;
  for (const unrolled = candidates - (candidates % 4); i < unrolled; i += 4) {
    const a = data[row + i] as number;
    const b = data[row + i + 1] as number;
    const c = data[row + i + 2] as number;
    const d = data[row + i + 3] as number;
    if (a >= threshold) {
      passed++;
      if (a > (bestScore[i] as number)) {
        bestScore[i] = a;
        bestClass[i] = classId;
      }
    }
    if (b >= threshold) {
      passed++;
      if (b > (bestScore[i + 1] as number)) {
        bestScore[i + 1] = b;
        bestClass[i + 1] = classId;
      }
    }
    if (c >= threshold) {
      passed++;
      if (c > (bestScore[i + 2] as number)) {
        bestScore[i + 2] = c;
        bestClass[i + 2] = classId;
      }
    }
    if (d >= threshold) {
      passed++;
      if (d > (bestScore[i + 3] as number)) {
        bestScore[i + 3] = d;
        bestClass[i + 3] = classId;
      }
    }
  }
  for (; i < candidates; i++) {
    const score = data[row + i] as number;
    if (score >= threshold) {
      passed++;
      if (score > (bestScore[i] as number)) {
        bestScore[i] = score;
        bestClass[i] = classId;
      }
    }
  }
  return passed;
}

/** Argmax step over one class row, every score. */
function argmaxRow(data: Float32Array, row: number, candidates: number, classId: number, bestScore: Float32Array, bestClass: Int32Array): void {
  let i = 0;
  for (const unrolled = candidates - (candidates % 4); i < unrolled; i += 4) {
    const a = data[row + i] as number;
    const b = data[row + i + 1] as number;
    const c = data[row + i + 2] as number;
    const d = data[row + i + 3] as number;
    if (a > (bestScore[i] as number)) {
      bestScore[i] = a;
      bestClass[i] = classId;
    }
    if (b > (bestScore[i + 1] as number)) {
      bestScore[i + 1] = b;
      bestClass[i + 1] = classId;
    }
    if (c > (bestScore[i + 2] as number)) {
      bestScore[i + 2] = c;
      bestClass[i + 2] = classId;
    }
    if (d > (bestScore[i + 3] as number)) {
      bestScore[i + 3] = d;
      bestClass[i + 3] = classId;
    }
  }
  for (; i < candidates; i++) {
    const score = data[row + i] as number;
    if (score > (bestScore[i] as number)) {
      bestScore[i] = score;
      bestClass[i] = classId;
    }
  }
}

/** Candidate-major: each candidate's scores are contiguous, so one pass does it all. */
function decodeChannelsLast(
  data: Float32Array,
  base: number,
  candidates: number,
  classes: number,
  threshold: number,
  allowed: Uint8Array | undefined,
  store: ColumnStore,
  used: number,
): number {
  const channels = 4 + classes;
  for (let i = 0, at = base; i < candidates; i++, at += channels) {
    let best = -Infinity;
    let bestClass = -1;
    for (let classId = 0; classId < classes; classId++) {
      const score = data[at + 4 + classId] as number;
      if (score > best) {
        best = score;
        bestClass = classId;
      }
    }
    if (!(best >= threshold)) continue;
    if (allowed !== undefined && allowed[bestClass] === 0) continue;
    used = push(store, used, data[at] as number, data[at + 1] as number, data[at + 2] as number, data[at + 3] as number, best, bestClass);
  }
  return used;
}

/** Appends one box (centre form in, corner form out) unless it is not a box; returns the new row count. */
function push(store: ColumnStore, used: number, cx: number, cy: number, w: number, h: number, score: number, classId: number): number {
  const left = cx - w * 0.5;
  const top = cy - h * 0.5;
  // The sum is finite only when all four are (NaN and ±Infinity propagate).
  if (!(w >= 0 && h >= 0 && Number.isFinite(left + top + w + h))) return used;
  if (used === store.capacity) store.reserve(used + 1, used);
  store.left[used] = left;
  store.top[used] = top;
  store.width[used] = w;
  store.height[used] = h;
  store.confidence[used] = score;
  store.classId[used] = classId;
  return used + 1;
}

/** Keeps the `limit` best of rows [start, start + count) in place, still in candidate order; returns `limit`. */
function keepBest(store: ColumnStore, start: number, count: number, limit: number, areas: ScratchAreas): number {
  areas.reserveRows(count);
  const { order, keys, suppressed: chosen } = areas;
  confidenceOrder(store.confidence.subarray(start, start + count), count, order, keys);
  chosen.fill(0, 0, count);
  for (let at = 0; at < limit; at++) chosen[order[at] as number] = 1;
  let to = start;
  for (let row = 0; row < count; row++) {
    if (chosen[row] === 0) continue;
    const from = start + row;
    store.left[to] = store.left[from] as number;
    store.top[to] = store.top[from] as number;
    store.width[to] = store.width[from] as number;
    store.height[to] = store.height[from] as number;
    store.confidence[to] = store.confidence[from] as number;
    store.classId[to] = store.classId[from] as number;
    to++;
  }
  return limit;
}

function allowedClasses(classes: readonly number[] | undefined, count: number): Uint8Array | undefined {
  if (classes === undefined) return undefined;
  const name = `${NAME} options.classes`;
  if (!Array.isArray(classes)) return invalid("an array of class ids", name, classes, true);
  const allowed = new Uint8Array(count);
  classes.forEach((classId: unknown, index) => {
    if (!(typeof classId === "number" && Number.isInteger(classId) && classId >= 0 && classId < count)) {
      invalid(`a class id from 0 to ${count - 1}`, `${name}[${index}]`, classId, typeof classId !== "number");
    }
    allowed[classId] = 1;
  });
  return allowed;
}

function resolveShape(output: Float32Array | YoloTensor, settings: Partial<DecodeYoloOptions>, channelsFirst: boolean): Shape {
  const classesName = `${NAME} options.numClasses`;
  const numClasses = checkNumClasses(settings);
  if (output instanceof Float32Array) {
    if (numClasses === undefined) return invalid("the number of classes (required for a plain Float32Array)", classesName, undefined, true);
    const batch = checkIntegerOr(settings.batchSize, 1, 1, INT32_MAX, `${NAME} options.batchSize`);
    const item = batch * (4 + numClasses);
    if (output.length % item !== 0) {
      return invalidReceived(`a multiple of batchSize × (4 + numClasses) = ${item} values`, `${NAME} output`, `${output.length} values`);
    }
    return { data: output, batch, classes: numClasses, candidates: output.length / item };
  }
  if (typeof output !== "object" || output === null) return invalid("a Float32Array or a tensor { data, dims }", `${NAME} output`, output, true);
  const { data, dims } = output;
  if (!(data instanceof Float32Array)) {
    return wrongType("a Float32Array (a float32 output; convert other types first)", `${NAME} output.data`, describeKind(data));
  }
  return { data, ...dimsShape(dims, data.length, numClasses, channelsFirst) };
}

function checkNumClasses(settings: Partial<DecodeYoloOptions>): number | undefined {
  return settings.numClasses === undefined ? undefined : checkIntegerOr(settings.numClasses, 0, 1, INT32_MAX, `${NAME} options.numClasses`);
}

/** The images, classes and anchors of `dims` ([4 + C, N] or [B, 4 + C, N], or channels last), checked against `length` values. */
function dimsShape(dims: readonly number[], length: number, numClasses: number | undefined, channelsFirst: boolean): Dims {
  const dimsName = `${NAME} output.dims`;
  if (!Array.isArray(dims) || (dims.length !== 2 && dims.length !== 3) || !dims.every((size) => Number.isInteger(size) && size >= 0)) {
    return invalid("2 or 3 integer sizes ([4 + C, N] or [B, 4 + C, N], or channels last)", dimsName, dims, !Array.isArray(dims));
  }
  const size = (from: number): number => dims[dims.length - from] as number;
  const batch = dims.length === 3 ? (dims[0] as number) : 1;
  const channels = channelsFirst ? size(2) : size(1);
  const candidates = channelsFirst ? size(1) : size(2);
  const layoutName = channelsFirst ? "channels-first" : "channels-last";
  if (batch < 1) return invalid("a batch of at least 1", dimsName, dims, false);
  if (channels < 5) return invalid(`at least 5 channels (4 box values + classes) in the ${layoutName} position`, dimsName, dims, false);
  if (batch * channels * candidates !== length) {
    return invalidReceived(`${batch * channels * candidates} values (dims ${JSON.stringify(dims)})`, `${NAME} output.data`, `${length} values`);
  }
  if (numClasses !== undefined && numClasses !== channels - 4) {
    return invalid(`${channels - 4} (the tensor's ${channels} ${layoutName} channels minus 4 box values)`, `${NAME} options.numClasses`, numClasses, false);
  }
  return { batch, classes: channels - 4, candidates };
}
