// drawOverlay through the testing harness: the element writes metadata and draws it in the same
// call (objects written after they were added are drawn as they are now), and its arguments are
// checked with the project's error shape.
import { describe, expect, it } from "vitest";
import { Element, InvalidTypeError, StaleHandleError, drawOverlay, z, type BatchMeta, type GstBuffer, type FrameMeta, type OverlayStats } from "../index.js";
import { createHarness, type VideoFormat } from "../testing/index.js";
import { yCbCr601 } from "../test-support/frames.js";

const author = "ds-element tests <tests@example.com>";

/** What the last transform saw (the harness returns metadata, not pixels). */
let seen: { pixels: Uint8Array; stats: OverlayStats; frame: FrameMeta; errors: unknown[] } | undefined;

/** Adds one object, changes its border after adding it, draws, and keeps the frame's pixels. */
class BoxAndDraw extends Element.define({
  name: "boxanddraw",
  longName: "Box and draw",
  klass: "Filter/Video",
  description: "Writes a box and draws it",
  author,
  caps: "video/x-raw",
  properties: z.object({}),
}) {
  transform(batch: BatchMeta, buffer: GstBuffer) {
    const frame = batch.frameItems[0]!;
    const obj = batch.acquireObjectMeta();
    obj.rectParams = { left: 2, top: 2, width: 6, height: 4, borderWidth: 1, borderColor: { red: 1, alpha: 1 } };
    frame.addObjectMeta(obj);
    obj.rectParams.borderColor = { red: 0, blue: 1 }; // after adding: drawn as it is now
    const errors: unknown[] = [];
    for (const bad of [() => drawOverlay({} as FrameMeta), () => drawOverlay(frame, { boxes: "yes" as unknown as boolean })]) {
      try {
        bad();
      } catch (error) {
        errors.push(error);
      }
    }
    const stats = drawOverlay(frame, { text: false });
    seen = { pixels: Uint8Array.from(buffer.extract(frame.batchId).toTypedArray() as Uint8Array), stats, frame, errors };
  }
}

/** Each plane of the last frame DrawEverywhere drew on, row by row without padding. */
let drawn: Uint8Array[] = [];

/** Draws a box filled on whole 2x2 blocks, a thin box on odd coordinates and a label; keeps the planes. */
class DrawEverywhere extends Element.define({
  name: "draweverywhere",
  longName: "Draw everywhere",
  klass: "Filter/Video",
  description: "Draws boxes and a label on frames of any format",
  author,
  caps: "video/x-raw",
  properties: z.object({}),
}) {
  transform(batch: BatchMeta, buffer: GstBuffer) {
    const frame = batch.frameItems[0]!;
    const boxes = [
      { left: 2, top: 2, width: 8, height: 6, borderWidth: 2, borderColor: { red: 1, alpha: 1 }, hasBgColor: true, bgColor: { blue: 1, alpha: 1 } },
      { left: 13, top: 1, width: 5, height: 7, borderWidth: 1, borderColor: { green: 1, alpha: 0.5 } },
    ];
    for (const rectParams of boxes) {
      const obj = batch.acquireObjectMeta();
      obj.rectParams = rectParams;
      frame.addObjectMeta(obj);
    }
    const label = batch.acquireObjectMeta();
    label.rectParams = { left: 21, top: 9, width: 1, height: 1, borderWidth: 0 };
    label.textParams = { displayText: "Ab", xOffset: 21, yOffset: 9, font: { name: "Sans", size: 9, color: { red: 1, green: 1, alpha: 1 } } };
    frame.addObjectMeta(label);
    drawOverlay(frame);
    drawn = buffer.extract(frame.batchId).planes.map((plane) => {
      const [rows, columns, samples] = plane.shape as [number, number, number];
      const data = plane.toTypedArray() as Uint8Array;
      const bytes = new Uint8Array(rows * columns * samples);
      for (let y = 0; y < rows; y++) bytes.set(data.subarray(y * plane.strides[0]!, y * plane.strides[0]! + columns * samples), y * columns * samples);
      return bytes;
    });
  }
}

describe("drawOverlay on every format", () => {
  const [width, height] = [40, 24];
  const grey = 40;
  /** The RGB frame's pixels after drawing: what every other format is held to. */
  let reference: Uint8Array;
  const draw = async (format: VideoFormat, pixels: Uint8Array) => {
    const harness = await createHarness(DrawEverywhere);
    await harness.push({ frames: [{ width, height, format, pixels }] });
    await harness.stop();
    return drawn;
  };

  it("draws on RGB", async () => {
    reference = (await draw("RGB", new Uint8Array(width * height * 3).fill(grey)))[0]!;
    const at = (x: number, y: number) => Array.from(reference.subarray((y * width + x) * 3, (y * width + x) * 3 + 3));
    expect([at(2, 2), at(5, 5), at(0, 0)]).toEqual([[255, 0, 0], [0, 0, 255], [grey, grey, grey]]);
  });

  // Packed formats: the same picture, channel by channel.
  it.each([
    ["RGBA", [0, 1, 2]],
    ["BGRx", [2, 1, 0]],
    ["RGBx", [0, 1, 2]],
    ["BGRA", [2, 1, 0]],
    ["ARGB", [1, 2, 3]],
    ["ABGR", [3, 2, 1]],
  ] as const)("draws on %s as on RGB, the fourth byte untouched", async (format, rgbAt) => {
    const [pixels] = await draw(format, new Uint8Array(width * height * 4).fill(grey));
    const asRgb = new Uint8Array(width * height * 3);
    for (let i = 0; i < width * height; i++) for (let c = 0; c < 3; c++) asRgb[i * 3 + c] = pixels![i * 4 + rgbAt[c]!]!;
    expect(Buffer.from(asRgb).equals(Buffer.from(reference))).toBe(true);
    const fourth = [0, 1, 2, 3].find((byte) => !(rgbAt as readonly number[]).includes(byte))!;
    for (let i = 0; i < width * height; i++) if (pixels![i * 4 + fourth] !== grey) expect.fail(`pixel ${i}: byte ${fourth} changed`);
  });

  // YUV: Y as the RGB picture's luma, each chroma sample the mean of its block's chroma in
  // the RGB picture (BT.601, limited range: GStreamer's default for a frame this small).
  it.each(["NV12", "NV21", "I420"] as const)("draws on %s as the RGB picture's Y'CbCr, chroma by 2x2 block", async (format) => {
    const luma = 16 + (219 * grey) / 255;
    const chromaSize = (width / 2) * (height / 2);
    const base = new Uint8Array(width * height + 2 * chromaSize).fill(128).fill(Math.round(luma), 0, width * height);
    const planes = await draw(format, base);
    const yuvOf = (i: number) => yCbCr601(reference[i * 3]!, reference[i * 3 + 1]!, reference[i * 3 + 2]!);
    let worstY = 0;
    let worstChroma = 0;
    for (let i = 0; i < width * height; i++) worstY = Math.max(worstY, Math.abs(planes[0]![i]! - yuvOf(i)[0]!));
    for (let cy = 0; cy < height / 2; cy++) {
      for (let cx = 0; cx < width / 2; cx++) {
        const block = [0, 1, 2, 3].map((k) => yuvOf((2 * cy + (k >> 1)) * width + 2 * cx + (k & 1)));
        const want = [1, 2].map((c) => block.reduce((sum, yuv) => sum + yuv[c]!, 0) / 4);
        const index = cy * (width / 2) + cx;
        const got =
          format === "I420" ? [planes[1]![index]!, planes[2]![index]!] : format === "NV12" ? [planes[1]![index * 2]!, planes[1]![index * 2 + 1]!] : [planes[1]![index * 2 + 1]!, planes[1]![index * 2]!];
        for (let c = 0; c < 2; c++) worstChroma = Math.max(worstChroma, Math.abs(got[c]! - want[c]!));
      }
    }
    // Rounding of the paint's Y'CbCr and of each 8-bit blend.
    expect(worstY).toBeLessThanOrEqual(1.5);
    expect(worstChroma).toBeLessThanOrEqual(2);
    // And something was drawn: the red border's Y and the blue fill's chroma.
    expect(planes[0]![2 * width + 2]).toBe(Math.round(yCbCr601(255, 0, 0)[0]));
  });
});

describe("drawOverlay", () => {
  it("draws what the call wrote on the frame's pixels, writes made after adding included", async () => {
    const harness = await createHarness(BoxAndDraw);
    await harness.push({ frames: [{ width: 12, height: 8, format: "RGB" }] });
    await harness.stop();
    const { pixels, stats } = seen!;
    expect(stats).toEqual({ objects: 1, boxes: 1, labels: 0, masks: 0, rects: 0, texts: 0, lines: 0, arrows: 0, circles: 0 });
    const at = (x: number, y: number) => Array.from(pixels.subarray((y * 12 + x) * 3, (y * 12 + x) * 3 + 3));
    // Box x 2..7, y 2..5; a 1 px border on its edge pixels, in the colour set after adding.
    expect(at(2, 2)).toEqual([0, 0, 255]);
    expect(at(7, 5)).toEqual([0, 0, 255]);
    expect(at(4, 3)).not.toEqual([0, 0, 255]);
    expect(at(1, 2)).not.toEqual([0, 0, 255]);
  });

  it("checks its arguments", () => {
    const [notFrame, notBoolean] = seen!.errors;
    expect(notFrame).toBeInstanceOf(InvalidTypeError);
    expect((notFrame as Error).message).toBe("Expected a FrameMeta for frame of drawOverlay() but received {}");
    expect((notBoolean as Error).message).toBe('Expected a boolean for options.boxes of drawOverlay() but received "yes"');
  });

  it("refuses a frame whose call has ended", () => {
    expect(() => drawOverlay(seen!.frame)).toThrow(StaleHandleError);
  });
});
