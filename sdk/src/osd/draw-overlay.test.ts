// drawOverlay through the testing harness: the element writes metadata and draws it in the same
// call (objects written after they were added are drawn as they are now), and its arguments are
// checked with the project's error shape.
import { describe, expect, it } from "vitest";
import { Element, InvalidTypeError, StaleHandleError, drawOverlay, z, type BatchMeta, type GstBuffer, type FrameMeta, type OverlayStats } from "../index.js";
import { createHarness } from "../testing/index.js";

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
