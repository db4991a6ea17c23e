import { describe, expect, it } from "vitest";
import { anchorOf, crossing, inside, sideOf } from "./geometry.js";

const vertical = { from: { x: 160, y: 0 }, to: { x: 160, y: 240 } };
const horizontal = { from: { x: 0, y: 120 }, to: { x: 320, y: 120 } };

describe("geometry", () => {
  it("anchors a box at its feet or its centre", () => {
    expect(anchorOf({ left: 10, top: 20, width: 40, height: 80 }, "bottom-center")).toEqual({ x: 30, y: 100 });
    expect(anchorOf({ left: 10, top: 20, width: 40, height: 80 }, "center")).toEqual({ x: 30, y: 60 });
  });

  it("tells the forward side of a line: right of a line drawn downwards, above a line drawn rightwards", () => {
    expect(sideOf(vertical, { x: 200, y: 10 })).toBeGreaterThan(0);
    expect(sideOf(vertical, { x: 100, y: 10 })).toBeLessThan(0);
    expect(sideOf(vertical, { x: 160, y: 10 })).toBe(0);
    expect(sideOf(horizontal, { x: 10, y: 100 })).toBeGreaterThan(0);
  });

  it("sees a move cross the line, in which direction, and only within the segment", () => {
    expect(crossing(vertical, { x: 150, y: 100 }, { x: 170, y: 100 })).toBe("forward");
    expect(crossing(vertical, { x: 170, y: 100 }, { x: 150, y: 120 })).toBe("backward");
    expect(crossing(vertical, { x: 150, y: 100 }, { x: 159, y: 100 })).toBeUndefined();
    expect(crossing(vertical, { x: 150, y: 100 }, { x: 160, y: 100 })).toBe("forward");
    expect(crossing(vertical, { x: 160, y: 100 }, { x: 170, y: 100 })).toBeUndefined();
    // Past the end of the segment.
    expect(crossing(vertical, { x: 150, y: 300 }, { x: 170, y: 300 })).toBeUndefined();
  });

  it("knows what is inside a polygon", () => {
    const square = [{ x: 0, y: 0 }, { x: 10, y: 0 }, { x: 10, y: 10 }, { x: 0, y: 10 }];
    expect(inside({ x: 5, y: 5 }, square)).toBe(true);
    expect(inside({ x: 15, y: 5 }, square)).toBe(false);
    const triangle = [{ x: 0, y: 0 }, { x: 100, y: 0 }, { x: 0, y: 100 }];
    expect(inside({ x: 20, y: 20 }, triangle)).toBe(true);
    expect(inside({ x: 60, y: 60 }, triangle)).toBe(false);
  });
});
