// mapBoxes and letterboxTransform with a centred letterbox worked out by hand:
// 1280×720 into 640×640 scales by 0.5 to 640×360, leaving (640 - 360) / 2 = 140 rows above and below.
import { describe, expect, it } from "vitest";
import { InvalidTypeError, InvalidValueError } from "../errors/errors.js";
import { detectionItems, detectionsFrom, type Detections } from "./detections.js";
import { letterboxTransform, mapBoxes } from "./map-boxes.js";

function boxes(detections: Detections): number[][] {
  return [...detectionItems(detections)].map((box) => [box.left, box.top, box.width, box.height]);
}

function network(...rows: [number, number, number, number][]): Detections {
  return detectionsFrom(rows.map(([left, top, width, height], classId) => ({ left, top, width, height, confidence: 0.5, classId })));
}

describe("letterboxTransform", () => {
  it("centres a wide frame with bands above and below", () => {
    expect(letterboxTransform({ frameWidth: 1280, frameHeight: 720, networkWidth: 640, networkHeight: 640 })).toEqual({
      scaleX: 0.5,
      scaleY: 0.5,
      padX: 0,
      padY: 140,
    });
  });

  it("centres a tall frame with bands left and right", () => {
    expect(letterboxTransform({ frameWidth: 720, frameHeight: 1280, networkWidth: 640, networkHeight: 640 })).toEqual({
      scaleX: 0.5,
      scaleY: 0.5,
      padX: 140,
      padY: 0,
    });
  });

  it("pads only right and bottom without symmetric padding, and stretches without keeping the aspect ratio", () => {
    const sizes = { frameWidth: 1280, frameHeight: 720, networkWidth: 640, networkHeight: 640 };
    expect(letterboxTransform({ ...sizes, symmetricPadding: false })).toEqual({ scaleX: 0.5, scaleY: 0.5, padX: 0, padY: 0 });
    expect(letterboxTransform({ ...sizes, maintainAspectRatio: false })).toEqual({ scaleX: 0.5, scaleY: 640 / 720, padX: 0, padY: 0 });
  });

  it("rejects sizes that are not positive", () => {
    expect(() => letterboxTransform({ frameWidth: 0, frameHeight: 720, networkWidth: 640, networkHeight: 640 })).toThrow(
      new InvalidValueError("Expected a finite number > 0 for letterboxTransform options.frameWidth but received 0"),
    );
  });
});

describe("mapBoxes", () => {
  const transform = { scaleX: 0.5, scaleY: 0.5, padX: 0, padY: 140 };

  it("maps network pixels back to frame pixels: (x - pad) / scale", () => {
    // (100, 190) → (100 / 0.5, (190 - 140) / 0.5) = (200, 100); 50×40 → 100×80.
    expect(boxes(mapBoxes(network([100, 190, 50, 40]), transform))).toEqual([[200, 100, 100, 80]]);
  });

  it("rewrites the boxes in place and returns the same object, other columns untouched", () => {
    const detections = network([100, 190, 50, 40], [0, 140, 640, 360]);
    expect(mapBoxes(detections, transform)).toBe(detections);
    expect(boxes(detections)).toEqual([
      [200, 100, 100, 80],
      [0, 0, 1280, 720],
    ]);
    expect(Array.from(detections.classId)).toEqual([0, 1]);
  });

  it("leaves boxes reaching into the bands unclamped without a frame size", () => {
    // top (120 - 140) / 0.5 = -40, bottom (520 - 140) / 0.5 = 760.
    expect(boxes(mapBoxes(network([-10, 120, 660, 400]), transform))).toEqual([[-20, -40, 1320, 800]]);
  });

  it("clamps edges to the frame when its size is given", () => {
    const clamped = mapBoxes(
      network(
        [-10, 120, 660, 400], // → [-20, -40, 1320, 800] → [0, 0, 1280, 720]
        [630, 150, 20, 10], //   → [1260, 20, 40, 20]    → right edge at 1280: width 20
        [100, 100, 50, 20], //   → [200, -80, 100, 40]   → wholly above the frame: top 0, height 0
      ),
      transform,
      { frameWidth: 1280, frameHeight: 720 },
    );
    expect(boxes(clamped)).toEqual([
      [0, 0, 1280, 720],
      [1260, 20, 20, 20],
      [200, 0, 100, 0],
    ]);
  });

  it("clamps only the axis whose size is given", () => {
    expect(boxes(mapBoxes(network([-10, 120, 660, 400]), transform, { frameHeight: 720 }))).toEqual([[-20, 0, 1320, 720]]);
  });

  it("round-trips with letterboxTransform", () => {
    const fit = letterboxTransform({ frameWidth: 1920, frameHeight: 1080, networkWidth: 640, networkHeight: 640 });
    // A frame box [960, 540, 192, 108] is at [320, 140 + 180, 64, 36] in the network (scale 1/3, pad 140).
    expect(fit.padY).toBe(140);
    const [mapped] = boxes(mapBoxes(network([320, 320, 64, 36]), fit));
    expect(mapped?.map((value) => Math.round(value * 1000) / 1000)).toEqual([960, 540, 192, 108]);
  });

  it("takes preprocess()'s FrameTransform shape as it is (same convention, extra members)", () => {
    // 1000×750 into 320×320: scale 0.32, 320×240 image, 40 rows of padding above.
    const frameTransform = { scaleX: 0.32, scaleY: 0.32, padX: 0, padY: 40, resizedWidth: 320, resizedHeight: 240, sourceWidth: 1000, sourceHeight: 750 };
    const mapped = mapBoxes(network([32, 72, 64, 32]), frameTransform, { frameWidth: frameTransform.sourceWidth, frameHeight: frameTransform.sourceHeight });
    expect(boxes(mapped)[0]?.map((value) => Math.round(value * 1000) / 1000)).toEqual([100, 100, 200, 100]);
  });

  it("rejects a bad transform or frame size, naming it", () => {
    expect(() => mapBoxes(network([0, 0, 1, 1]), { ...transform, scaleY: 0 })).toThrow(
      new InvalidValueError("Expected a finite number > 0 for mapBoxes transform.scaleY but received 0"),
    );
    expect(() => mapBoxes(network([0, 0, 1, 1]), { ...transform, padX: Number.NaN })).toThrow(InvalidValueError);
    expect(() => mapBoxes(network([0, 0, 1, 1]), { scaleX: 1, scaleY: 1, padY: 0 } as typeof transform)).toThrow(
      new InvalidTypeError("Expected a finite number for mapBoxes transform.padX but received nothing"),
    );
    expect(() => mapBoxes(network([0, 0, 1, 1]), transform, { frameWidth: -1 })).toThrow(InvalidValueError);
  });
});
