/**
 * Builds YOLO-style output tensors for the post-processing tests from readable candidates, in
 * either layout, so each test states its boxes and scores instead of index arithmetic.
 */
import type { YoloLayout, YoloTensor } from "../postprocess/decode-yolo.js";

/** One candidate as the network writes it: box centre and size, then one score per class. */
export interface Candidate {
  cx: number;
  cy: number;
  w: number;
  h: number;
  scores: readonly number[];
}

/** One image's candidates → `[4 + C, N]` or `[N, 4 + C]`; several images → a leading batch dim. */
export function yoloOutput(
  images: readonly (readonly Candidate[])[],
  layout: YoloLayout = "channels-first",
  withBatchDim = images.length > 1,
  classes = images[0]?.[0]?.scores.length ?? 1,
): YoloTensor & { data: Float32Array } {
  const first = images[0] ?? [];
  const candidates = first.length;
  const channels = 4 + classes;
  const data = new Float32Array(images.length * channels * candidates);
  images.forEach((image, b) => {
    if (image.length !== candidates) throw new Error("every image needs the same number of candidates");
    image.forEach((candidate, i) => {
      const values = [candidate.cx, candidate.cy, candidate.w, candidate.h, ...candidate.scores];
      if (values.length !== channels) throw new Error("every candidate needs the same number of scores");
      values.forEach((value, channel) => {
        const at = layout === "channels-first" ? channel * candidates + i : i * channels + channel;
        data[b * channels * candidates + at] = value;
      });
    });
  });
  const dims = layout === "channels-first" ? [channels, candidates] : [candidates, channels];
  return { data, dims: withBatchDim ? [images.length, ...dims] : dims };
}

export { seededRandom } from "./seeded-random.mjs";
