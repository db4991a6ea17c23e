/**
 * The SDK's ONNX test detector (ds-element/testing's ballDetectorModel, docs/internals/ball-model.md)
 * for the SDK's runner tests, and disks drawn like videotestsrc's ball to feed it.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ballDetectorModel, ballFrame, type BallDetectorModelOptions } from "../testing/models/ball-detector.js";

/** Writes the model with `options` (e.g. `{ ballClass: 1 }`) into a new folder as `<name>.onnx`. */
export function makeBallModel(name: string, options: BallDetectorModelOptions = {}): string {
  const out = join(mkdtempSync(join(tmpdir(), "ds-element-ball-")), `${name}.onnx`);
  writeFileSync(out, ballDetectorModel(options));
  return out;
}

/** A packed RGB frame, black, with a white disk of `radius` at (cx, cy). */
export function diskFrame(width: number, height: number, cx: number, cy: number, radius = 20): Uint8Array {
  return ballFrame({ width, height, x: cx, y: cy, radius }).pixels!;
}
