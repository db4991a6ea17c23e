// Frames of `videotestsrc pattern=ball` and where the ball is in them, found from the pixels
// alone. What videotestsrc draws (GStreamer 1.22, gst_video_test_src_ball): a white disk of
// radius 20 pixels whatever the frame size, on black, anti-aliased over its outer 2 pixels;
// its centre is x = 20 + (0.5 + 0.5 sin(2πt/200))(width - 40), y = 20 + (0.5 + 0.5
// sin(2π√2 t/200))(height - 40) at frame t, so it never leaves the frame.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";

/** An axis-aligned box in pixels: left, top, right, bottom (right and bottom exclusive). */
export interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** One packed RGB frame (rows padded to 4 bytes, as GStreamer lays RGB out). */
export interface RgbFrame {
  width: number;
  height: number;
  stride: number;
  pixels: Uint8Array;
}

export interface RenderOptions {
  width: number;
  height: number;
  /** Frames to keep. */
  frames: number;
  /** Keep every `every`-th frame of the source, to follow the ball around its whole path. */
  every?: number;
  pattern?: string;
}

/** Renders videotestsrc frames as RGB with gst-launch-1.0 into `dir` and reads them back. */
export function renderFrames(dir: string, { width, height, frames, every = 1, pattern = "ball" }: RenderOptions): RgbFrame[] {
  const file = join(dir, `${pattern}-${width}x${height}-every${every}.rgb`);
  // Timestamps at 30 fps and videorate at 30/every fps keep every `every`-th source frame.
  const args = [
    "-q",
    "videotestsrc",
    `pattern=${pattern}`,
    `num-buffers=${frames * every}`,
    "!",
    `video/x-raw,format=RGB,width=${width},height=${height},framerate=30/1`,
    "!",
    "videorate",
    "drop-only=true",
    "!",
    `video/x-raw,framerate=30/${every}`,
    "!",
    "filesink",
    `location=${file}`,
  ];
  const run = spawnSync("gst-launch-1.0", args, { encoding: "utf8", timeout: 120_000 });
  if (run.status !== 0) throw new Error(`gst-launch-1.0 ${args.join(" ")} failed:\n${run.stdout}${run.stderr}`);
  const stride = Math.ceil((width * 3) / 4) * 4;
  const data = readFileSync(file);
  const frameBytes = stride * height;
  if (data.length % frameBytes !== 0) throw new Error(`${file} holds ${data.length} bytes, not whole ${width}x${height} RGB frames`);
  return Array.from({ length: data.length / frameBytes }, (_, index) => ({
    width,
    height,
    stride,
    pixels: new Uint8Array(data.buffer, data.byteOffset + index * frameBytes, frameBytes),
  }));
}

/**
 * The bounding box of the pixels whose grey level is at least `threshold` (default: half
 * brightness, where the anti-aliased edge crosses the disk's radius less one pixel), or
 * undefined when there are none.
 */
export function ballBoxFromPixels(frame: RgbFrame, threshold = 128): Box | undefined {
  let left = Infinity;
  let top = Infinity;
  let right = -Infinity;
  let bottom = -Infinity;
  for (let y = 0; y < frame.height; y++) {
    const row = y * frame.stride;
    for (let x = 0; x < frame.width; x++) {
      const at = row + 3 * x;
      const grey = (frame.pixels[at]! + frame.pixels[at + 1]! + frame.pixels[at + 2]!) / 3;
      if (grey < threshold) continue;
      left = Math.min(left, x);
      top = Math.min(top, y);
      right = Math.max(right, x + 1);
      bottom = Math.max(bottom, y + 1);
    }
  }
  return right < 0 ? undefined : { left, top, right, bottom };
}

/** Intersection over union of two boxes. */
export function intersectionOverUnion(a: Box, b: Box): number {
  const width = Math.max(0, Math.min(a.right, b.right) - Math.max(a.left, b.left));
  const height = Math.max(0, Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top));
  const intersection = width * height;
  const area = (box: Box) => (box.right - box.left) * (box.bottom - box.top);
  return intersection / (area(a) + area(b) - intersection);
}
