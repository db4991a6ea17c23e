// The README's first command: `npm run demo` runs the ball detector on 300 frames, reports what
// it found, and writes what dsosd drew as a video and one frame as a PNG (here without its setup
// step, which `npm test` has just run). The PNG must show the ball's box and label: its border
// pixels lie along the detected box, its label region differs from the plain frame, and
// everything else is the plain frame.
import { spawnSync } from "node:child_process";
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { renderFrames, type RgbFrame } from "./helpers/ball-frames";
import { repoRoot, scratchDir } from "./helpers/gst";
import { ballDetectorDist, builtinDist } from "./helpers/projects";

const WIDTH = 1280;
const HEIGHT = 720;
/** The examples's border colour ({ green: 1, blue: 0.3 }) in 8 bits. */
const BORDER = [0, 255, 77];

interface Dumped {
  frameItems: { frameNum: number; objectItems: { rectParams: { left: number; top: number; width: number; height: number }; textParams: { xOffset: number; yOffset: number; displayText: string } }[] }[];
}

/** A PNG decoded to packed RGB by GStreamer (rows of WIDTH × 3 bytes: no padding at 1280). */
function decodePng(png: string, dir: string): RgbFrame {
  const raw = join(dir, "decoded.rgb");
  const run = spawnSync("gst-launch-1.0", ["-q", "filesrc", `location=${png}`, "!", "pngdec", "!", "videoconvert", "!", "video/x-raw,format=RGB", "!", "filesink", `location=${raw}`], {
    encoding: "utf8",
  });
  expect(run.status, `${run.stdout}${run.stderr}`).toBe(0);
  return { width: WIDTH, height: HEIGHT, stride: WIDTH * 3, pixels: readFileSync(raw) };
}

const pixel = (frame: RgbFrame, x: number, y: number) => Array.from(frame.pixels.subarray(y * frame.stride + x * 3, y * frame.stride + x * 3 + 3));

describe("npm run demo", () => {
  let dir: string;
  let run: ReturnType<typeof spawnSync>;
  let stdout = "";
  let output = "";

  beforeAll(() => {
    dir = scratchDir("demo");
    run = spawnSync(process.execPath, [join(repoRoot, "scripts", "demo.mjs")], {
      encoding: "utf8",
      timeout: 170_000,
      // The example and dsmetadump as this run built them (their own dist/ on `npm test`).
      env: { ...process.env, DS_ELEMENT_DEMO_DIST: ballDetectorDist, DS_ELEMENT_BUILTIN_DIST: builtinDist, DS_ELEMENT_DEMO_OUT: dir },
    });
    stdout = String(run.stdout);
    output = `${stdout}\n${String(run.stderr)}`;
  });

  it("finds the ball on all 300 frames and prints the frame rate", () => {
    expect(run.signal, output).toBeNull();
    expect(run.status, output).toBe(0);
    expect(stdout).toContain("the ball was found on 300 of 300 frames");
    expect(stdout).toMatch(/300 frames of 1280x720 RGB in [\d.]+ s including Node and model start-up \(\d+ fps end to end/);
  });

  it("prints the paths of the annotated video and PNG it wrote", () => {
    const video = join(dir, "ball-detector.webm");
    const png = join(dir, "ball-detector.png");
    expect(stdout).toContain(`video (WebM, VP8): ${video}`);
    expect(stdout).toContain(`one frame (PNG):   ${png}`);
    expect(readFileSync(video).subarray(0, 4)).toEqual(Buffer.from([0x1a, 0x45, 0xdf, 0xa3])); // EBML (WebM)
    expect(statSync(video).size).toBeGreaterThan(10_000);
  });

  it("the PNG is frame 270 with the ball's box and label drawn on it", () => {
    const png = decodePng(join(dir, "ball-detector.png"), dir);
    const plain = renderFrames(dir, { width: WIDTH, height: HEIGHT, frames: 10, every: 30 }).at(-1)!; // frame 270
    const lines = readFileSync(join(dir, "metadata.jsonl"), "utf8").trim().split("\n").map((line) => JSON.parse(line) as Dumped);
    const frame = lines.map((line) => line.frameItems[0]!).find((item) => item.frameNum === 270)!;
    const [ball] = frame.objectItems;
    const { left, top, width, height } = ball!.rectParams;
    const [x0, y0, x1, y1] = [Math.round(left), Math.round(top), Math.round(left + width) - 1, Math.round(top + height) - 1];

    // Border: the box's edge pixels (3 px centred on them) in the example's colour.
    const edge: [number, number][] = [];
    for (let x = x0; x <= x1; x++) edge.push([x, y0], [x, y1]);
    for (let y = y0; y <= y1; y++) edge.push([x0, y], [x1, y]);
    for (const [x, y] of edge) expect(pixel(png, x, y), `border pixel (${x}, ${y})`).toEqual(BORDER);

    // Label: "ball 1.00" above the box, on its background; the plain frame is black there.
    const { xOffset, yOffset, displayText } = ball!.textParams;
    expect(displayText).toMatch(/^ball \d\.\d\d$/);
    let changed = 0;
    for (let y = yOffset; y < yOffset + 18; y++) {
      for (let x = xOffset; x < xOffset + 70; x++) if (pixel(png, x, y).join() !== pixel(plain, x, y).join()) changed++;
    }
    expect(changed).toBeGreaterThan(70 * 18 * 0.9);

    // Everywhere else the PNG is the plain frame 270: the right frame, nothing else drawn.
    let elsewhere = 0;
    for (let y = 0; y < HEIGHT; y++) {
      for (let x = 0; x < WIDTH; x++) {
        const nearBox = x >= x0 - 2 && x <= x1 + 2 && y >= y0 - 2 && y <= y1 + 2;
        const inLabel = x >= xOffset && x < xOffset + 120 && y >= yOffset && y < yOffset + 30;
        if (!nearBox && !inLabel && pixel(png, x, y).join() !== pixel(plain, x, y).join()) elsewhere++;
      }
    }
    expect(elsewhere).toBe(0);
  });
});
