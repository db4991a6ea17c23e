/**
 * The CPU overlay: what nvdsosd draws, drawn natively (native-host/src/osd/) on a frame's
 * pixels in host memory. The `dsosd` element is this function applied to every frame.
 */
import { describeValue, expectedMessage } from "../errors/describe-value.js";
import { InvalidTypeError, StaleHandleError } from "../errors/errors.js";
import { frameInternals, type FrameMeta } from "../metadata/frame-meta.js";
import { tensorBinding } from "../native/installed-bindings.js";
import type { NativeOverlayOptions } from "../native/tensor-binding.js";

const WHERE = "drawOverlay()";

/**
 * What {@link drawOverlay} draws; every switch defaults to `true`.
 *
 * @example
 * ```ts
 * const labelsOnly: OverlayOptions = { boxes: false, masks: false, displayMeta: false };
 * ```
 */
export interface OverlayOptions {
  /** Each object's box (`rectParams`: border when `borderWidth` > 0, fill when `hasBgColor`). */
  boxes?: boolean;
  /** Each object's label (`textParams`, when `displayText` is not empty). */
  text?: boolean;
  /** Each object's mask (`maskParams`), over its box. */
  masks?: boolean;
  /** Every element of the frame's display metas: rects, texts, lines, arrows, circles. */
  displayMeta?: boolean;
}

/**
 * What {@link drawOverlay} drew on one frame.
 *
 * @example
 * ```ts
 * const { boxes, labels } = drawOverlay(frame);
 * this.log.debug(`${boxes} boxes, ${labels} labels`);
 * ```
 */
export interface OverlayStats {
  /** Objects of the frame, drawn or not. */
  objects: number;
  /** Object boxes drawn (objects with a border or a background). */
  boxes: number;
  /** Object labels drawn. */
  labels: number;
  /** Object masks drawn. */
  masks: number;
  /** Display meta rectangles drawn. */
  rects: number;
  /** Display meta texts drawn. */
  texts: number;
  /** Display meta lines drawn. */
  lines: number;
  /** Display meta arrows drawn. */
  arrows: number;
  /** Display meta circles drawn. */
  circles: number;
}

function flag(options: OverlayOptions, key: keyof OverlayOptions): boolean {
  const value = options[key];
  if (value === undefined) return true;
  if (typeof value !== "boolean") throw new InvalidTypeError(expectedMessage("a boolean", `options.${key} of ${WHERE}`, describeValue(value)));
  return value;
}

/**
 * Draws a frame's metadata on its pixels, in place, the way nvdsosd draws it on DeepStream:
 * each object's box (border colour and width, background when `hasBgColor`, turned by
 * `rotationAngle`), its mask (cells above the threshold, in the border colour at half its
 * alpha), its label (`textParams`: the text at `xOffset`/`yOffset` in the font's name, size in
 * points and colour, on its background colour when `setBgColor`), and every element of the
 * frame's display metas (rects, texts, lines, arrows, circles), all clipped to the frame. Text
 * is laid out by Pango and rendered by Cairo, as nvdsosd does on dGPU. Objects written in this
 * call are drawn as they are now.
 *
 * The frame must be in host memory (plain `video/x-raw`), packed RGB-family (RGB, BGR, RGBA,
 * BGRA, ARGB, ABGR, RGBx, BGRx) or planar YUV (NV12, NV21, I420, as nvdsosd draws on NV12):
 * on YUV frames each colour is converted with the frame's colorimetry, Y is drawn per pixel
 * and each chroma sample becomes the mean of what its 2×2 pixels became, as drawing in RGB and
 * converting would give. On DeepStream's NVMM memory use nvdsosd. Runs on the calling thread (a few tenths of a millisecond
 * for 50 labelled boxes on a 1280x720 frame; labels are rendered once and cached; `npm run bench`).
 *
 * Everything it would draw is checked first: a colour component outside 0..1, a font size
 * outside 1..256, a line wider than 1024 px, a coordinate past 32767 px, text that is not UTF-8
 * or a mask of the wrong size throws an {@link InvalidValueError} naming the field
 * (`frameItems[0].objectItems[3].textParams.font.size`), and nothing is drawn.
 *
 * @example
 * ```ts
 * import { Element, drawOverlay, type BatchMeta } from "ds-element";
 * // ...
 *   transform(batch: BatchMeta) {
 *     for (const frame of batch.frameItems) drawOverlay(frame, { masks: false });
 *   }
 * ```
 */
export function drawOverlay(frame: FrameMeta, options: OverlayOptions = {}): OverlayStats {
  const located = frameInternals.locate(frame);
  if (located === undefined) throw new InvalidTypeError(expectedMessage("a FrameMeta", `frame of ${WHERE}`, describeValue(frame)));
  if (typeof options !== "object" || options === null) {
    throw new InvalidTypeError(expectedMessage("an options object", `options of ${WHERE}`, describeValue(options)));
  }
  const { scope, index } = located;
  if (!scope.alive) throw new StaleHandleError("FrameMeta", WHERE, "calling");
  const resolved: NativeOverlayOptions = {
    boxes: flag(options, "boxes"),
    text: flag(options, "text"),
    masks: flag(options, "masks"),
    displayMeta: flag(options, "displayMeta"),
  };
  const binding = tensorBinding(WHERE);
  if (binding.drawOverlay === undefined) {
    throw new Error(`${WHERE} needs a newer ds-element-native (this build has no drawOverlay): reinstall ds-element and ds-element-native together`);
  }
  // Objects written since they were added are drawn as they are now.
  scope.commit();
  return binding.drawOverlay(scope.callId, index, resolved);
}
