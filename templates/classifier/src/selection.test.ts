import { describe, expect, it } from "vitest";
import { classify, selected, type SelectionSettings } from "./selection.js";

const anyObject: SelectionSettings = { operateOnClassIds: [], operateOnComponentId: -1, minObjectWidth: 16, minObjectHeight: 16 };
const car = { classId: 2, uniqueComponentId: 1, rectParams: { width: 80, height: 60 } };

describe("selected", () => {
  it("takes every object big enough by default", () => {
    expect(selected(car, anyObject)).toBe(true);
    expect(selected({ ...car, rectParams: { width: 15, height: 60 } }, anyObject)).toBe(false);
    expect(selected({ ...car, rectParams: { width: 80, height: 15 } }, anyObject)).toBe(false);
  });

  it("follows operate-on-class-ids and operate-on-component-id", () => {
    expect(selected(car, { ...anyObject, operateOnClassIds: [0, 2] })).toBe(true);
    expect(selected(car, { ...anyObject, operateOnClassIds: [0] })).toBe(false);
    expect(selected(car, { ...anyObject, operateOnComponentId: 1 })).toBe(true);
    expect(selected(car, { ...anyObject, operateOnComponentId: 3 })).toBe(false);
  });
});

describe("classify", () => {
  it("takes the best score when it reaches the threshold", () => {
    expect(classify(new Float32Array([0.1, 0.7, 0.2]), 0.5)).toEqual({ classId: 1, probability: expect.closeTo(0.7, 6) });
    expect(classify([0.2, 0.5, 0.3], 0.5)).toEqual({ classId: 1, probability: 0.5 });
    expect(classify([0.4, 0.35, 0.25], 0.5)).toBeUndefined();
    expect(classify([], 0)).toBeUndefined();
  });
});
