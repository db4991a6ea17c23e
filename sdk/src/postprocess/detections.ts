import { invalid, invalidReceived } from "./checks.js";

/**
 * N detections as columns: one entry per box in each typed array, every array exactly `count`
 * long. The shape {@link FrameMeta.addObjects} takes, so a result goes to the frame as it is:
 * `frame.addObjects(detections, { labels })`. Boxes are `left, top, width, height` in the
 * coordinates of whatever produced them (network input pixels after {@link decodeYolo}, frame
 * pixels after {@link mapBoxes}).
 *
 * Results of calls given a {@link PostprocessScratch} are views of its arrays: valid until the
 * next call of the same kind with the same scratch.
 *
 * @example
 * ```ts
 * const [candidates] = decodeYolo(layer);
 * const kept = nms(candidates);
 * frame.addObjects(kept, { labels: this.props.labels });
 * ```
 */
export interface Detections {
  /** Number of detections: the length of every column. */
  readonly count: number;
  /** Left edges. */
  readonly left: Float32Array;
  /** Top edges. */
  readonly top: Float32Array;
  /** Widths (>= 0). */
  readonly width: Float32Array;
  /** Heights (>= 0). */
  readonly height: Float32Array;
  /** Confidences (the winning class score). */
  readonly confidence: Float32Array;
  /** Class ids (index of the winning class score). */
  readonly classId: Int32Array;
}

/**
 * One row of a {@link Detections}, as {@link detectionItems} yields it: plain numbers, safe
 * to keep.
 *
 * @example
 * ```ts
 * const people: Detection[] = [...detectionItems(kept)].filter((box) => box.classId === 0);
 * ```
 */
export interface Detection {
  /** Row in the {@link Detections} it came from. */
  readonly index: number;
  /** Left edge. */
  readonly left: number;
  /** Top edge. */
  readonly top: number;
  /** Width. */
  readonly width: number;
  /** Height. */
  readonly height: number;
  /** Confidence. */
  readonly confidence: number;
  /** Class id. */
  readonly classId: number;
}

/**
 * The rows of a {@link Detections} one at a time, as plain objects. Convenient for logging,
 * tests and per-box logic; the columns themselves are the fast path (no object per box).
 *
 * @example
 * ```ts
 * for (const box of detectionItems(kept)) {
 *   if (box.confidence > 0.9) this.log.debug(`class ${box.classId} at ${box.left},${box.top}`);
 * }
 * ```
 */
export function* detectionItems(detections: Detections): IterableIterator<Detection> {
  const { count, left, top, width, height, confidence, classId } = checkDetections(detections, "detectionItems detections");
  for (let index = 0; index < count; index++) {
    yield {
      index,
      left: left[index] as number,
      top: top[index] as number,
      width: width[index] as number,
      height: height[index] as number,
      confidence: confidence[index] as number,
      classId: classId[index] as number,
    };
  }
}

/**
 * A {@link Detections} of fresh arrays holding a copy of the given rows (any iterable of
 * objects with the {@link Detection} fields but `index`). For tests, fixtures and boxes that
 * come from elsewhere; decoders fill columns directly.
 *
 * @example
 * ```ts
 * const boxes = detectionsFrom([{ left: 0, top: 0, width: 10, height: 10, confidence: 0.9, classId: 0 }]);
 * ```
 */
export function detectionsFrom(rows: Iterable<Omit<Detection, "index">>): Detections {
  const list = Array.from(rows);
  const store = new ColumnStore(list.length);
  list.forEach((row, index) => {
    store.left[index] = row.left;
    store.top[index] = row.top;
    store.width[index] = row.width;
    store.height[index] = row.height;
    store.confidence[index] = row.confidence;
    store.classId[index] = row.classId;
  });
  return store.view(0, list.length);
}

/** Bytes of one value of every column (float32, int32). */
const COLUMN_BYTES = 4;

/**
 * Growable columns that results are views of. Growing replaces the arrays, so views are taken
 * only once all rows of a call are written.
 *
 * @internal
 */
export class ColumnStore {
  left: Float32Array;
  top: Float32Array;
  width: Float32Array;
  height: Float32Array;
  confidence: Float32Array;
  classId: Int32Array;

  /**
   * The six columns are views of one buffer: one allocation instead of six. An array of more
   * than 64 bytes lives outside V8's heap, and each such allocation (with its tracking and the
   * collector's release) cost about half a microsecond; nms returns a fresh store per call.
   */
  constructor(capacity: number) {
    const columns = new ArrayBuffer(capacity * COLUMN_BYTES * 6);
    this.left = new Float32Array(columns, 0, capacity);
    this.top = new Float32Array(columns, capacity * COLUMN_BYTES, capacity);
    this.width = new Float32Array(columns, capacity * COLUMN_BYTES * 2, capacity);
    this.height = new Float32Array(columns, capacity * COLUMN_BYTES * 3, capacity);
    this.confidence = new Float32Array(columns, capacity * COLUMN_BYTES * 4, capacity);
    this.classId = new Int32Array(columns, capacity * COLUMN_BYTES * 5, capacity);
  }

  get capacity(): number {
    return this.left.length;
  }

  /** Makes room for `needed` rows, keeping the first `used` (at least doubling, so pushes stay cheap). */
  reserve(needed: number, used: number): void {
    if (needed <= this.left.length) return;
    const larger = new ColumnStore(Math.max(needed, this.left.length * 2, 64));
    this.left = grown(this.left, larger.left, used);
    this.top = grown(this.top, larger.top, used);
    this.width = grown(this.width, larger.width, used);
    this.height = grown(this.height, larger.height, used);
    this.confidence = grown(this.confidence, larger.confidence, used);
    this.classId = grown(this.classId, larger.classId, used);
  }

  /** Rows [start, start + count) as a Detections of views (no copy): the columns themselves when that is all of them. */
  view(start: number, count: number): Detections {
    if (start === 0 && count === this.left.length) {
      const { left, top, width, height, confidence, classId } = this;
      return { count, left, top, width, height, confidence, classId };
    }
    const end = start + count;
    return {
      count,
      left: this.left.subarray(start, end),
      top: this.top.subarray(start, end),
      width: this.width.subarray(start, end),
      height: this.height.subarray(start, end),
      confidence: this.confidence.subarray(start, end),
      classId: this.classId.subarray(start, end),
    };
  }
}

function grown<T extends Float32Array | Int32Array>(from: T, to: T, used: number): T {
  to.set(from.subarray(0, used));
  return to;
}

function checkColumn<T extends Float32Array | Int32Array>(value: unknown, type: new (length: number) => T, name: string, count: number): T {
  if (!(value instanceof type)) return invalid(`a ${type.name}`, name, value, true);
  if (value.length !== count) return invalidReceived(`a ${type.name} of ${count} values (count)`, name, `${value.length} values`);
  return value;
}

/** Checks that `value` is a Detections whose columns all hold `count` values. */
export function checkDetections(value: Detections, name: string): Detections {
  if (typeof value !== "object" || value === null) return invalid("a Detections object", name, value, true);
  const count = value.count;
  if (!(typeof count === "number" && Number.isInteger(count) && count >= 0)) {
    return invalid("an integer >= 0", `${name}.count`, count, typeof count !== "number");
  }
  checkColumn(value.left, Float32Array, `${name}.left`, count);
  checkColumn(value.top, Float32Array, `${name}.top`, count);
  checkColumn(value.width, Float32Array, `${name}.width`, count);
  checkColumn(value.height, Float32Array, `${name}.height`, count);
  checkColumn(value.confidence, Float32Array, `${name}.confidence`, count);
  checkColumn(value.classId, Int32Array, `${name}.classId`, count);
  return value;
}
