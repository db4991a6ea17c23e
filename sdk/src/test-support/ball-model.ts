/**
 * The SDK's ONNX test detector (ds-element/testing's ballDetectorModel, docs/internals/ball-model.md)
 * for the SDK's runner tests, and disks drawn like videotestsrc's ball to feed it.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ballDetectorModel, type BallDetectorModelOptions } from "../testing/models/ball-detector.js";

/** Writes the model with `options` (e.g. `{ ballClass: 1 }`) into a new folder as `<name>.onnx`. */
export function makeBallModel(name: string, options: BallDetectorModelOptions = {}): string {
  const out = join(mkdtempSync(join(tmpdir(), "ds-element-ball-")), `${name}.onnx`);
  writeFileSync(out, ballDetectorModel(options));
  return out;
}

/** A packed RGB frame, black, with a white disk of `radius` at (cx, cy). */
export function diskFrame(width: number, height: number, cx: number, cy: number, radius = 20): Uint8Array {
  const pixels = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if ((x + 0.5 - cx) ** 2 + (y + 0.5 - cy) ** 2 <= radius * radius) pixels.fill(255, (y * width + x) * 3, (y * width + x) * 3 + 3);
    }
  }
  return pixels;
}
