import { Element, drawOverlay, z, type BatchMeta, type OverlayStats } from "ds-element";

const properties = z.object({
  displayBbox: z.boolean().default(true).describe("Draw each object's box (rectParams: border, and background when hasBgColor)"),
  displayText: z.boolean().default(true).describe("Draw each object's label (textParams)"),
  displayMask: z.boolean().default(true).describe("Draw each object's mask (maskParams) over its box"),
  displayMeta: z.boolean().default(true).describe("Draw the frames' display metas: rects, texts, lines, arrows, circles"),
});

type Totals = { frames: number } & OverlayStats;

/**
 * Draws the metadata of every frame on its pixels, on the CPU, the way nvdsosd draws it on
 * DeepStream: object boxes, masks and labels, and every display meta element (see
 * `drawOverlay`). For pipelines without DeepStream, to look at what a detector found; on
 * DeepStream's NVMM memory, nvdsosd stays the element to use.
 *
 * ```sh
 * gst-launch-1.0 videotestsrc pattern=ball ! video/x-raw,format=RGB,width=1280,height=720 ! \
 *   balldetector model=ball.onnx ! dsosd ! videoconvert ! autovideosink
 * ```
 */
export default class DsOsd extends Element.define({
  name: "dsosd",
  longName: "ds-element CPU overlay",
  klass: "Filter/Effect/Video",
  description: "Draws object boxes, masks, labels and display metas on RGB-family, NV12, NV21 and I420 frames, as nvdsosd does",
  author: "ds-element authors <ds-element@example.com>",
  caps: "video/x-raw, format=(string){ RGB, RGBA, BGR, BGRx, RGBx, BGRA, ARGB, ABGR, NV12, NV21, I420 }",
  properties,
}) {
  totals: Totals = emptyTotals();

  start() {
    this.totals = emptyTotals();
  }

  transform(batch: BatchMeta) {
    const options = {
      boxes: this.props.displayBbox,
      text: this.props.displayText,
      masks: this.props.displayMask,
      displayMeta: this.props.displayMeta,
    };
    const totals = this.totals;
    for (const frame of batch.frameItems) {
      const drawn = drawOverlay(frame, options);
      totals.frames++;
      for (const key of STAT_KEYS) totals[key] += drawn[key];
    }
  }

  stop() {
    const { frames, boxes, labels, masks, rects, texts, lines, arrows, circles } = this.totals;
    this.log.info(
      `drew on ${frames} frame(s): ${boxes} boxes, ${labels} labels, ${masks} masks; ` +
        `display metas: ${rects} rects, ${texts} texts, ${lines} lines, ${arrows} arrows, ${circles} circles`,
    );
  }
}

const STAT_KEYS = ["objects", "boxes", "labels", "masks", "rects", "texts", "lines", "arrows", "circles"] as const satisfies readonly (keyof OverlayStats)[];

function emptyTotals(): Totals {
  return { frames: 0, objects: 0, boxes: 0, labels: 0, masks: 0, rects: 0, texts: 0, lines: 0, arrows: 0, circles: 0 };
}
