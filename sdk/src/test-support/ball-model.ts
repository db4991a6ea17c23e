/**
 * The repository's ONNX test detector (scripts/make-ball-model.mjs, docs/internals/ball-model.md)
 * for the SDK's runner tests, and disks drawn like videotestsrc's ball to feed it.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const script = resolve(__dirname, "..", "..", "..", "scripts", "make-ball-model.mjs");

/** Writes the model with the script's arguments (e.g. `["--ball-class", "1"]`) into a new folder. */
export function makeBallModel(name: string, args: readonly string[] = []): string {
  const out = join(mkdtempSync(join(tmpdir(), "ds-element-ball-")), `${name}.onnx`);
  execFileSync(process.execPath, [script, "--out", out, ...args], { stdio: "pipe" });
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
