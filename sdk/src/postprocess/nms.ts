import { checkBooleanOr, checkIntegerOr, checkOptions, checkUnitOr } from "./checks.js";
import { confidenceOrder } from "./confidence-order.js";
import { checkDetections, ColumnStore, type Detections } from "./detections.js";
import { scratchAreas, type PostprocessScratch, type ScratchAreas } from "./scratch.js";

/**
 * IoU above which {@link nms} suppresses the weaker of two boxes (Ultralytics' `iou` default).
 *
 * @example
 * ```ts
 * const kept = nms(candidates, { iouThreshold: this.props.iouThreshold ?? DEFAULT_IOU_THRESHOLD });
 * ```
 */
export const DEFAULT_IOU_THRESHOLD = 0.45;

/**
 * Most boxes {@link nms} keeps (Ultralytics' `max_det` default).
 *
 * @example
 * ```ts
 * const kept = nms(candidates, { maxDetections: Math.min(DEFAULT_MAX_DETECTIONS, this.props.maxObjects) });
 * ```
 */
export const DEFAULT_MAX_DETECTIONS = 300;

const NAME = "nms";
const INT32_MAX = 2147483647;
/** Class ids below this are linked through an array indexed by id; others through a Map. */
const DENSE_CLASS_LIMIT = 65536;

/**
 * Options of {@link nms}.
 *
 * @example
 * ```ts
 * const options: NmsOptions = { iouThreshold: 0.5, classAware: false, maxDetections: 100 };
 * ```
 */
export interface NmsOptions {
  /**
   * A box is suppressed when its IoU with a kept, higher-ranked box is strictly greater than
   * this, 0..1 (default {@link DEFAULT_IOU_THRESHOLD}). An IoU exactly equal to it keeps both,
   * as torchvision's `nms` does; 1 suppresses nothing.
   */
  iouThreshold?: number;
  /**
   * Whether only boxes of the same class suppress each other (default true, as Ultralytics'
   * default and nvinfer's per-class clustering). False: a person box can suppress an
   * overlapping bicycle box (Ultralytics' `agnostic=True`).
   */
  classAware?: boolean;
  /** Most boxes kept, the best ranked (default {@link DEFAULT_MAX_DETECTIONS}); 0 keeps none. */
  maxDetections?: number;
  /** Write the result into these arrays instead of fresh ones (a call without a scratch allocates only its result; see {@link PostprocessScratch} for the lifetime of results). */
  scratch?: PostprocessScratch;
}

/**
 * Greedy non-maximum suppression: takes the boxes by confidence, highest first (equal
 * confidences by row, lowest first, so the result never depends on the sort), keeps each one
 * that no kept box overlaps by more than `iouThreshold`, and stops at `maxDetections`. The
 * result is in that order; rows with a NaN confidence are dropped. IoU is computed in double
 * precision from the float32 columns; boxes of negative size overlap nothing.
 *
 * Boxes of different classes never suppress each other while `classAware` is on: each box is
 * compared only with boxes of its own class id (per-class lists, exact, not the
 * coordinate-offset trick), which also makes class-aware NMS the cheaper of the two.
 *
 * @example
 * ```ts
 * const [candidates] = decodeYolo(layer);
 * const kept = nms(candidates, { iouThreshold: 0.5, maxDetections: 100 });
 * frame.addObjects(kept, { labels: this.props.labels });
 * ```
 */
export function nms(detections: Detections, options?: NmsOptions): Detections {
  const input = checkDetections(detections, `${NAME} detections`);
  const settings = checkOptions(options, `${NAME} options`);
  const iouThreshold = checkUnitOr(settings.iouThreshold, DEFAULT_IOU_THRESHOLD, `${NAME} options.iouThreshold`);
  const classAware = checkBooleanOr(settings.classAware, true, `${NAME} options.classAware`);
  const maxDetections = checkIntegerOr(settings.maxDetections, DEFAULT_MAX_DETECTIONS, 0, INT32_MAX, `${NAME} options.maxDetections`);
  const areas = scratchAreas(settings.scratch, `${NAME} options.scratch`);

  const { left, top, width, height, confidence, classId } = input;
  areas.reserveRows(input.count);
  const count = confidenceOrder(confidence, input.count, areas.order, areas.keys);
  const { order, suppressed, keep, x1, y1, x2, y2, area } = areas;
  // The boxes in rank order, as edges: the inner loop then reads memory mostly sequentially.
  for (let rank = 0; rank < count; rank++) {
    const row = order[rank] as number;
    const l = left[row] as number;
    const t = top[row] as number;
    const w = width[row] as number;
    const h = height[row] as number;
    x1[rank] = l;
    y1[rank] = t;
    x2[rank] = l + w;
    y2[rank] = t + h;
    area[rank] = w * h;
    suppressed[rank] = 0;
  }
  const next = linkCompetitors(areas, classId, count, classAware);

  let kept = 0;
  for (let rank = 0; rank < count && kept < maxDetections; rank++) {
    if (suppressed[rank] !== 0) continue;
    keep[kept++] = order[rank] as number;
    const ax1 = x1[rank] as number;
    const ay1 = y1[rank] as number;
    const ax2 = x2[rank] as number;
    const ay2 = y2[rank] as number;
    const areaA = area[rank] as number;
    for (let other = next[rank] as number; other !== -1; other = next[other] as number) {
      if (suppressed[other] !== 0) continue;
      const overlapWidth = Math.min(ax2, x2[other] as number) - Math.max(ax1, x1[other] as number);
      if (!(overlapWidth > 0)) continue;
      const overlapHeight = Math.min(ay2, y2[other] as number) - Math.max(ay1, y1[other] as number);
      if (!(overlapHeight > 0)) continue;
      const intersection = overlapWidth * overlapHeight;
      if (intersection / (areaA + (area[other] as number) - intersection) > iouThreshold) suppressed[other] = 1;
    }
  }

  // Without a scratch the result is the caller's; with one, feeding a result back in would have
  // us overwrite what we read.
  const store = !areas.keepsResults || readsFrom(input, areas.kept) ? new ColumnStore(kept) : areas.kept;
  store.reserve(kept, 0);
  for (let at = 0; at < kept; at++) {
    const row = keep[at] as number;
    store.left[at] = left[row] as number;
    store.top[at] = top[row] as number;
    store.width[at] = width[row] as number;
    store.height[at] = height[row] as number;
    store.confidence[at] = confidence[row] as number;
    store.classId[at] = classId[row] as number;
  }
  return store.view(0, kept);
}

/**
 * Links each rank to the next rank that can compete with it (-1 after the last): the next of
 * the same class when class-aware, so a kept box visits only its own class (80 classes make
 * the scan ~80× shorter than skipping the others one by one), else simply the next rank.
 */
function linkCompetitors(areas: ScratchAreas, classId: Int32Array, count: number, classAware: boolean): Int32Array {
  const { order, nextSameClass: next } = areas;
  if (!classAware) {
    for (let rank = 0; rank < count; rank++) next[rank] = rank + 1;
    if (count > 0) next[count - 1] = -1;
    return next;
  }
  let largest = 0;
  let negative = false;
  for (let rank = 0; rank < count; rank++) {
    const id = classId[order[rank] as number] as number;
    if (id > largest) largest = id;
    else if (id < 0) negative = true;
  }
  if (negative || largest >= DENSE_CLASS_LIMIT) {
    // Class ids from elsewhere, not 0..C-1: a Map instead of an array indexed by id.
    const last = new Map<number, number>();
    for (let rank = count - 1; rank >= 0; rank--) {
      const id = classId[order[rank] as number] as number;
      next[rank] = last.get(id) ?? -1;
      last.set(id, rank);
    }
    return next;
  }
  areas.reserveClasses(largest + 1);
  const last = areas.lastOfClass;
  last.fill(-1, 0, largest + 1);
  for (let rank = count - 1; rank >= 0; rank--) {
    const id = classId[order[rank] as number] as number;
    next[rank] = last[id] as number;
    last[id] = rank;
  }
  return next;
}

function readsFrom(input: Detections, store: ColumnStore): boolean {
  return (
    input.left.buffer === store.left.buffer ||
    input.top.buffer === store.top.buffer ||
    input.width.buffer === store.width.buffer ||
    input.height.buffer === store.height.buffer ||
    input.confidence.buffer === store.confidence.buffer ||
    input.classId.buffer === store.classId.buffer
  );
}
