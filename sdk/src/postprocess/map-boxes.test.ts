// mapBoxes and letterboxTransform with a centred letterbox worked out by hand, and mapBoxes
// against FrameTransform's one-box methods (the two must agree):
// 1280×720 into 640×640 scales by 0.5 to 640×360, leaving (640 - 360) / 2 = 140 rows above and below.
import { describe, expect, it } from "vitest";
import { InvalidTypeError, InvalidValueError } from "../errors/errors.js";
import { detectionItems, detectionsFrom, type Detections } from "./detections.js";
import { FrameTransform } from "../ops/frame-transform.js";
import { seededRandom } from "../test-support/seeded-random.mjs";
import { letterboxTransform, mapBoxes } from "./map-boxes.js";

function boxes(detections: Detections): number[][] {
  return [...detectionItems(detections)].map((box) => [box.left, box.top, box.width, box.height]);
}

function network(...rows: [number, number, number, number][]): Detections {
  return detectionsFrom(rows.map(([left, top, width, height], classId) => ({ left, top, width, height, confidence: 0.5, classId })));
}

describe("letterboxTransform", () => {
  it("centres a wide frame with bands above and below", () => {
    expect({ ...letterboxTransform({ frameWidth: 1280, frameHeight: 720, networkWidth: 640, networkHeight: 640 }) }).toEqual({
      scaleX: 0.5,
      scaleY: 0.5,
      padX: 0,
      padY: 140,
      resizedWidth: 640,
      resizedHeight: 360,
      frameWidth: 1280,
      frameHeight: 720,
    });
  });

  it("centres a tall frame with bands left and right", () => {
    expect(letterboxTransform({ frameWidth: 720, frameHeight: 1280, networkWidth: 640, networkHeight: 640 })).toMatchObject({
      scaleX: 0.5,
      scaleY: 0.5,
      padX: 140,
      padY: 0,
    });
  });

  it("pads only right and bottom without symmetric padding, and stretches without keeping the aspect ratio", () => {
    const sizes = { frameWidth: 1280, frameHeight: 720, networkWidth: 640, networkHeight: 640 };
    expect(letterboxTransform({ ...sizes, symmetricPadding: false })).toMatchObject({ scaleX: 0.5, scaleY: 0.5, padX: 0, padY: 0 });
    expect(letterboxTransform({ ...sizes, maintainAspectRatio: false })).toMatchObject({ scaleX: 0.5, scaleY: 640 / 720, padX: 0, padY: 0 });
  });

  it("rejects sizes that are not positive", () => {
    expect(() => letterboxTransform({ frameWidth: 0, frameHeight: 720, networkWidth: 640, networkHeight: 640 })).toThrow(
      new InvalidValueError("Expected a finite number > 0 for letterboxTransform options.frameWidth but received 0"),
    );
  });
});

describe("mapBoxes", () => {
  // 1280×720 letterboxed into 640×640: scale 0.5, 140 rows of padding above and below.
  const values = { scaleX: 0.5, scaleY: 0.5, padX: 0, padY: 140, resizedWidth: 640, resizedHeight: 360, frameWidth: 1280, frameHeight: 720 };
  const transform = new FrameTransform(values);

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

  it("leaves boxes reaching into the bands unclipped with clip: false", () => {
    // top (120 - 140) / 0.5 = -40, bottom (520 - 140) / 0.5 = 760.
    expect(boxes(mapBoxes(network([-10, 120, 660, 400]), transform, { clip: false }))).toEqual([[-20, -40, 1320, 800]]);
  });

  it("clips edges to the transform's frame", () => {
    const clipped = mapBoxes(
      network(
        [-10, 120, 660, 400], // → [-20, -40, 1320, 800] → [0, 0, 1280, 720]
        [630, 150, 20, 10], //   → [1260, 20, 40, 20]    → right edge at 1280: width 20
        [100, 100, 50, 20], //   → [200, -80, 100, 40]   → wholly above the frame: top 0, height 0
      ),
      transform,
    );
    expect(boxes(clipped)).toEqual([
      [0, 0, 1280, 720],
      [1260, 20, 20, 20],
      [200, 0, 100, 0],
    ]);
  });

  it("agrees with FrameTransform.clip(toFrame(box)) box for box", () => {
    const random = seededRandom(15);
    const transforms = [
      transform,
      letterboxTransform({ frameWidth: 1920, frameHeight: 1080, networkWidth: 640, networkHeight: 640 }),
      letterboxTransform({ frameWidth: 333, frameHeight: 777, networkWidth: 416, networkHeight: 320, symmetricPadding: false }),
      letterboxTransform({ frameWidth: 1000, frameHeight: 750, networkWidth: 320, networkHeight: 320, maintainAspectRatio: false }),
    ];
    for (const t of transforms) {
      const rows = Array.from({ length: 200 }, (): [number, number, number, number] => [
        random() * 800 - 80,
        random() * 800 - 80,
        random() * 300,
        random() * 300,
      ]);
      const detections = network(...rows);
      // What mapBoxes reads: the float32 columns.
      const one = [...detectionItems(detections)].map((box) => t.clip(t.toFrame(box)));
      mapBoxes(detections, t);
      expect(boxes(detections)).toEqual(one.map((box) => [box.left, box.top, box.width, box.height].map(Math.fround)));
    }
  });

  it("round-trips with letterboxTransform", () => {
    const fit = letterboxTransform({ frameWidth: 1920, frameHeight: 1080, networkWidth: 640, networkHeight: 640 });
    // A frame box [960, 540, 192, 108] is at [320, 140 + 180, 64, 36] in the network (scale 1/3, pad 140).
    expect(fit.padY).toBe(140);
    const [mapped] = boxes(mapBoxes(network([320, 320, 64, 36]), fit));
    expect(mapped?.map((value) => Math.round(value * 1000) / 1000)).toEqual([960, 540, 192, 108]);
    expect(fit.toNetwork({ left: 960, top: 540, width: 192, height: 108 })).toEqual({ left: 320, top: 320, width: 64, height: 36 });
  });

  it("rejects a bad transform, naming it", () => {
    expect(() => mapBoxes(network([0, 0, 1, 1]), new FrameTransform({ ...values, scaleY: 0 }))).toThrow(
      new InvalidValueError("Expected a finite number > 0 for mapBoxes transform.scaleY but received 0"),
    );
    expect(() => mapBoxes(network([0, 0, 1, 1]), new FrameTransform({ ...values, padX: Number.NaN }))).toThrow(InvalidValueError);
    expect(() => mapBoxes(network([0, 0, 1, 1]), { scaleX: 1, scaleY: 1, padY: 0 } as FrameTransform)).toThrow(
      new InvalidTypeError("Expected a finite number for mapBoxes transform.padX but received nothing"),
    );
    expect(() => mapBoxes(network([0, 0, 1, 1]), new FrameTransform({ ...values, frameWidth: -1 }))).toThrow(
      new InvalidValueError("Expected a finite number > 0 for mapBoxes transform.frameWidth but received -1"),
    );
    expect(boxes(mapBoxes(network([0, 0, 1, 1]), new FrameTransform({ ...values, frameWidth: -1 }), { clip: false }))).toEqual([[0, -280, 2, 2]]);
  });
});
