// Text of any length, size and line count through drawOverlay, natively (native-host/src/osd/text.cpp):
// it draws clipped to the frame or is refused with an InvalidValueError naming the field; it never
// crashes the process. Texts whose rendering passed ~32 767 px (Cairo's largest surface: 4 000 "x"
// at 12 pt, 120 "W" at 256 pt, 2 000 lines) crashed in a memcpy; 10 000 "W" at 256 pt (past Pango's
// coordinate range) drew nothing.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Element, InvalidValueError, drawOverlay, z, type BatchMeta, type GstBuffer, type OverlayStats } from "../index.js";
import { createHarness, type ElementHarness } from "../testing/index.js";

interface TextCase {
  text: string;
  /** Default: "Sans". */
  font?: string;
  size: number;
  x: number;
  y: number;
  /** An object's label (textParams) rather than a display meta text. */
  label: boolean;
  width: number;
  height: number;
}

/** What the element is to draw next, and what came of it. */
let next: TextCase | undefined;
let outcome: { stats?: OverlayStats; error?: unknown; inked: number } | undefined;

/** Writes one white text as the case says, draws the frame and counts the inked pixels. */
class LongText extends Element.define({
  name: "longtext",
  longName: "Long text",
  klass: "Filter/Video",
  description: "Writes one text and draws it",
  author: "ds-element tests <tests@example.com>",
  caps: "video/x-raw",
  properties: z.object({}),
}) {
  transform(batch: BatchMeta, buffer: GstBuffer) {
    const input = next!;
    const frame = batch.frameItems[0]!;
    const params = { displayText: input.text, xOffset: input.x, yOffset: input.y, font: { name: input.font ?? "Sans", size: input.size, color: { red: 1, green: 1, blue: 1, alpha: 1 } } };
    if (input.label) {
      const obj = batch.acquireObjectMeta();
      obj.textParams = params;
      frame.addObjectMeta(obj);
    } else {
      frame.addDisplayMeta(batch.acquireDisplayMeta().addText(params));
    }
    try {
      const stats = drawOverlay(frame);
      const pixels = buffer.extract(frame.batchId).toTypedArray() as Uint8Array;
      outcome = { stats, inked: pixels.reduce((n, value) => n + (value > 128 ? 1 : 0), 0) };
    } catch (error) {
      outcome = { error, inked: 0 };
    }
  }
}

async function draw(harness: ElementHarness, input: TextCase) {
  next = input;
  outcome = undefined;
  await harness.push({ frames: [{ width: input.width, height: input.height, format: "RGB" }] });
  return outcome!;
}

const line = (unit: string, times: number) => unit.repeat(times);

describe("drawOverlay with long and large text", () => {
  it.each([
    ["4 000 x at 12 pt", line("x", 4000), 12],
    ["1 000 characters at 48 pt", line("abcdefghij", 100), 48],
    ["120 W at 256 pt (the largest size)", line("W", 120), 256],
    ["10 000 W at 256 pt", line("W", 10_000), 256],
    ["2 000 lines at 12 pt", line("x\n", 2000), 12],
  ])("%s: drawn, clipped to the frame", async (_what, text, size) => {
    const harness = await createHarness(LongText);
    try {
      const result = await draw(harness, { text, size, x: 0, y: 0, label: false, width: 320, height: 240 });
      expect(result.error).toBeUndefined();
      expect(result.stats!.texts).toBe(1);
      expect(result.inked).toBeGreaterThan(0);
    } finally {
      await harness.stop();
    }
  });

  it("any length, size, line count and place: drawn or refused with an InvalidValueError, never a crash", async () => {
    const harness = await createHarness(LongText);
    const started = Date.now();
    try {
      await fc.assert(
        fc.asyncProperty(
          fc.record({
            unit: fc.constantFrom("x", "W", "é", "字", "\u200b", "ab ", "\t", "\u05d0\u05d1", "👍🏽", "\r"),
            length: fc.oneof(fc.integer({ min: 0, max: 200 }), fc.integer({ min: 1000, max: 40_000 })),
            lines: fc.oneof(fc.constant(1), fc.integer({ min: 2, max: 5000 })),
            size: fc.oneof(fc.integer({ min: 1, max: 256 }), fc.constantFrom(0, 257, 4096, 2 ** 31)),
            font: fc.constantFrom("Sans", "", "DejaVu Serif Bold Italic", "No Such Font 99", "Sans ".repeat(2000)),
            x: fc.oneof(fc.integer({ min: 0, max: 400 }), fc.constantFrom(2 ** 31, 2 ** 32 - 1)),
            y: fc.oneof(fc.integer({ min: 0, max: 300 }), fc.constantFrom(2 ** 31, 2 ** 32 - 1)),
            label: fc.boolean(),
            width: fc.integer({ min: 1, max: 400 }),
            height: fc.integer({ min: 1, max: 300 }),
          }),
          async ({ unit, length, lines, size, ...place }) => {
            // `lines` lines sharing `length` repetitions of `unit`.
            const perLine = Math.max(1, Math.floor(length / lines));
            const text = Array.from({ length: Math.min(lines, Math.max(length, 1)) }, () => unit.repeat(perLine)).join("\n");
            const result = await draw(harness, { text, size, ...place });
            if (size < 1 || size > 256) {
              expect(result.error).toBeInstanceOf(InvalidValueError);
              expect((result.error as Error).message).toMatch(/^Expected a font size from 1 to 256 \(points\) for frameItems\[0\]\.(objectItems\[0\]\.textParams|displayMetaItems\[0\]\.texts\[0\])\.font\.size but received \d+$/);
            } else {
              expect(result.error).toBeUndefined();
              expect(result.stats![place.label ? "labels" : "texts"]).toBe(text === "" ? 0 : 1);
            }
          },
        ),
        { numRuns: 200, seed: 29 },
      );
    } finally {
      await harness.stop();
    }
    // Bounded in time: the drawing of each is bounded by the frame, not by the text.
    expect(Date.now() - started).toBeLessThan(60_000);
  }, 90_000);
});
