import { Element, z, type BatchMeta } from "ds-element";

/**
 * The overlay benchmark's scene (bench/harness/osd.mjs): `objects` labelled boxes per frame on a
 * grid, written as nvinfer writes detections (3 px border, a "car <n>" label above the box on a
 * translucent background, Sans 12). native-host/bench/osd_bench.cpp's cairooverlay peer draws
 * the same boxes and labels with Cairo and Pango. `changing-labels` adds the frame number to
 * every label, so that no label repeats from one frame to the next.
 */
export default class BenchBoxes extends Element.define({
  name: "benchboxes",
  longName: "Overlay bench scene",
  klass: "Filter",
  description: "Writes a grid of labelled boxes into every frame",
  author: "ds-element authors <ds-element@example.com>",
  caps: "video/x-raw",
  properties: z.object({
    objects: z.number().int().min(1).max(1000).default(50).describe("Boxes per frame"),
    changingLabels: z.boolean().default(false).describe("Put the frame number in every label"),
  }),
}) {
  transform(batch: BatchMeta) {
    for (const frame of batch.frameItems) {
      const count = this.props.objects;
      const left = new Float32Array(count), top = new Float32Array(count);
      for (let i = 0; i < count; i++) [left[i], top[i]] = gridCell(i);
      frame.addObjects({
        left, top, width: new Float32Array(count).fill(100), height: new Float32Array(count).fill(80),
        borderWidth: 3, borderColor: { green: 1, blue: 0.3 },
      });
      frame.objectItems.forEach((object, i) => {
        object.textParams = {
          displayText: this.props.changingLabels ? `car ${i} #${frame.frameNum}` : `car ${i}`,
          xOffset: left[i]!, yOffset: top[i]! - 22,
          font: { name: "Sans", size: 12, color: { red: 1, green: 1, blue: 1, alpha: 1 } },
          setBgColor: true, bgColor: { red: 0, green: 0, blue: 0, alpha: 0.6 },
        };
      });
    }
  }
}

/** Box i's top-left corner: 10 columns of 125 px from x 20, rows of 135 px from y 40 (osd_bench.cpp's too). */
function gridCell(i: number): [number, number] {
  return [20 + (i % 10) * 125, 40 + Math.floor(i / 10) * 135];
}
