/**
 * Rows by confidence, highest first, ties by row (lowest first): the order NMS and top-K take
 * boxes in, deterministic for equal scores.
 *
 * Sorting indices with a comparator costs a JS call per comparison. Instead each row becomes
 * one float64 key, `orderedBits(confidence) * 2^21 + (2^21 - 1 - row)`: a float32's bits made
 * monotonic fill 32 bits, the row 21 more, 53 in all, so keys are exact and distinct, and the
 * typed array's native sort (no comparator) orders them. Rows whose confidence is NaN are left
 * out. Lists over 2^21 rows take the comparator path.
 *
 * @internal
 */

const ROW_BITS = 2 ** 21;
const FLOAT_SIGN = 0x80000000;

/**
 * Writes the rows of `confidence[0..count)` into `order` (capacity >= count), best first, and
 * returns how many it wrote (count minus NaN rows). `keys` is scratch of capacity >= count.
 */
export function confidenceOrder(confidence: Float32Array, count: number, order: Int32Array, keys: Float64Array): number {
  if (count > ROW_BITS) return comparatorOrder(confidence, count, order);
  const bits = new Uint32Array(confidence.buffer, confidence.byteOffset, count);
  let kept = 0;
  for (let row = 0; row < count; row++) {
    const value = confidence[row] as number;
    if (value !== value) continue; // NaN
    let ordered = bits[row] as number;
    // Negative floats order backwards by their bits: flip them all; set the sign bit of the
    // rest so they come after. -0 is made +0 so that it ties with 0 by row like any equal score.
    if (ordered === FLOAT_SIGN) ordered = FLOAT_SIGN;
    else ordered = ordered & FLOAT_SIGN ? ~ordered >>> 0 : (ordered | FLOAT_SIGN) >>> 0;
    keys[kept++] = ordered * ROW_BITS + (ROW_BITS - 1 - row);
  }
  const sorted = keys.subarray(0, kept).sort();
  for (let at = 0; at < kept; at++) {
    order[at] = ROW_BITS - 1 - ((sorted[kept - 1 - at] as number) % ROW_BITS);
  }
  return kept;
}

function comparatorOrder(confidence: Float32Array, count: number, order: Int32Array): number {
  let kept = 0;
  for (let row = 0; row < count; row++) if (confidence[row] === confidence[row]) order[kept++] = row;
  order.subarray(0, kept).sort((a, b) => (confidence[b] as number) - (confidence[a] as number) || a - b);
  return kept;
}
