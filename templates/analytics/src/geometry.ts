/**
 * The geometry of line crossing and regions of interest, in frame pixels (y pointing down).
 * Plain TypeScript, tested on its own (geometry.test.ts).
 */

/** A point in frame pixels. */
export interface Point {
  x: number;
  y: number;
}

/** A counting line from `from` to `to`. */
export interface Line {
  from: Point;
  to: Point;
}

/** Where an object is, for counting: the middle of its box's bottom edge (its feet), or its centre. */
export type Anchor = "bottom-center" | "center";

/**
 * The point of a box that counts.
 *
 * @example
 * ```ts
 * anchorOf({ left: 10, top: 20, width: 40, height: 80 }, "bottom-center"); // { x: 30, y: 100 }
 * ```
 */
export function anchorOf(box: { left: number; top: number; width: number; height: number }, anchor: Anchor): Point {
  return { x: box.left + box.width / 2, y: anchor === "center" ? box.top + box.height / 2 : box.top + box.height };
}

/**
 * Which side of `line` a point is on: > 0 on the forward side (the direction of
 * (to.y − from.y, from.x − to.x): for a line drawn from top to bottom, its right), < 0 on the
 * other, 0 on the line.
 */
export function sideOf(line: Line, point: Point): number {
  return (point.x - line.from.x) * (line.to.y - line.from.y) + (point.y - line.from.y) * (line.from.x - line.to.x);
}

/**
 * How a move from `before` to `after` crosses `line` (the segment, not the infinite line):
 * "forward" onto its forward side (or onto the line from the other side), "backward" the other
 * way, undefined when it does not cross.
 *
 * @example
 * ```ts
 * const line = { from: { x: 160, y: 0 }, to: { x: 160, y: 240 } };
 * crossing(line, { x: 150, y: 100 }, { x: 170, y: 100 }); // "forward" (left to right)
 * ```
 */
export function crossing(line: Line, before: Point, after: Point): "forward" | "backward" | undefined {
  const sideBefore = sideOf(line, before);
  const sideAfter = sideOf(line, after);
  const direction = sideBefore < 0 && sideAfter >= 0 ? "forward" : sideBefore > 0 && sideAfter <= 0 ? "backward" : undefined;
  if (direction === undefined) return undefined;
  // Within the segment: its ends are on either side of the move (or on it).
  const move = { from: before, to: after };
  return sideOf(move, line.from) * sideOf(move, line.to) <= 0 ? direction : undefined;
}

/**
 * Whether `point` is inside the polygon (ray casting; points on an edge may go either way).
 *
 * @example
 * ```ts
 * inside({ x: 5, y: 5 }, [{ x: 0, y: 0 }, { x: 10, y: 0 }, { x: 10, y: 10 }, { x: 0, y: 10 }]); // true
 * ```
 */
export function inside(point: Point, polygon: readonly Point[]): boolean {
  let result = false;
  for (let i = 0, j = polygon.length - 1; i < polygon.length; j = i++) {
    const a = polygon[i]!;
    const b = polygon[j]!;
    if (a.y > point.y !== b.y > point.y && point.x < ((b.x - a.x) * (point.y - a.y)) / (b.y - a.y) + a.x) result = !result;
  }
  return result;
}
