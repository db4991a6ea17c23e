#!/usr/bin/env node
// Writes the ball model's raw outputs for real `videotestsrc pattern=ball` frames, for the GPU
// post-processing test (native-host/test/postprocess_gpu_test.cu --outputs FILE), which has no
// Node or ONNX Runtime on the GPU machine: the same outputs then go through the CUDA candidate
// selection there and through the CPU reference, and must give the same candidates.
//
//   node scripts/gpu/ball-outputs.mjs --out gpu-bundle/ball-outputs.bin [--frames 60]
//
// Frames: 640×640 RGB, every 5th of the ball's path (it crosses every corner), scaled to 0..1
// in NCHW, the model's input (docs/internals/ball-model.md). File: "DSBO" (4 bytes), then
// uint32 count, channels, candidates (little-endian), then count × channels × candidates float32.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";

const require = createRequire(import.meta.url);
const { InferenceSession, Tensor } = require("onnxruntime-node");

const { values } = parseArgs({ options: { out: { type: "string" }, frames: { type: "string", default: "60" } } });
if (!values.out) {
  console.error("Usage: node scripts/gpu/ball-outputs.mjs --out <file> [--frames N]");
  process.exit(2);
}
const SIZE = 640;
const EVERY = 5;
const frames = Number(values.frames);
const root = join(import.meta.dirname ?? new URL(".", import.meta.url).pathname, "..", "..");
const work = mkdtempSync(join(tmpdir(), "ball-outputs-"));
try {
  const model = join(work, "ball.onnx");
  const made = spawnSync(process.execPath, [join(root, "scripts", "make-ball-model.mjs"), "--out", model], { encoding: "utf8" });
  if (made.status !== 0) throw new Error(`make-ball-model.mjs failed:\n${made.stderr}`);
  const raw = join(work, "frames.rgb");
  const args = ["-q", "videotestsrc", "pattern=ball", `num-buffers=${frames * EVERY}`, "!",
    `video/x-raw,format=RGB,width=${SIZE},height=${SIZE},framerate=30/1`, "!", "videorate", "drop-only=true", "!",
    `video/x-raw,framerate=30/${EVERY}`, "!", "filesink", `location=${raw}`];
  const run = spawnSync("gst-launch-1.0", args, { encoding: "utf8", timeout: 120_000 });
  if (run.status !== 0) throw new Error(`gst-launch-1.0 ${args.join(" ")} failed:\n${run.stdout}${run.stderr}`);
  const pixels = readFileSync(raw);
  const frameBytes = SIZE * SIZE * 3;  // 640 × 3 is a multiple of 4: rows are not padded
  const session = await InferenceSession.create(model);
  const outputs = [];
  let dims;
  for (let f = 0; f * frameBytes < pixels.length; f++) {
    const input = new Float32Array(3 * SIZE * SIZE);
    for (let i = 0; i < SIZE * SIZE; i++) {
      for (let c = 0; c < 3; c++) input[c * SIZE * SIZE + i] = pixels[f * frameBytes + i * 3 + c] / 255;
    }
    const { output0 } = await session.run({ images: new Tensor("float32", input, [1, 3, SIZE, SIZE]) });
    dims = output0.dims;
    outputs.push(Float32Array.from(output0.data));
  }
  const [, channels, candidates] = dims;
  const header = Buffer.alloc(16);
  header.write("DSBO", 0, "latin1");
  header.writeUInt32LE(outputs.length, 4);
  header.writeUInt32LE(channels, 8);
  header.writeUInt32LE(candidates, 12);
  writeFileSync(values.out, Buffer.concat([header, ...outputs.map((o) => Buffer.from(o.buffer))]));
  console.log(`ball-outputs: ${outputs.length} outputs of [${dims.join(", ")}] -> ${values.out}`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
