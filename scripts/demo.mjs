#!/usr/bin/env node
// `npm run demo`: the main job — the ball detector example (an InferenceElement running the
// ONNX test model with ONNX Runtime) in a real GStreamer pipeline, followed by the SDK's
// dsmetadump (the metadata as JSON lines) and dsosd (the boxes and labels drawn on the frames),
// whose output is encoded to a WebM video (VP8) and one frame of it to a PNG. Runs 300 frames,
// then prints what was detected, how fast it went, and where the video and the picture are.
// DS_ELEMENT_DEMO_OUT: the folder to write them to (default: a new one under the temp folder).
import { existsSync, mkdirSync, mkdtempSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createRequire } from "node:module";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(import.meta.url);
const { runWithPlugins } = require(join(root, "sdk", "dist", "cli", "run.js"));

const FRAMES = 300;
const example = join(root, "examples", "ball-detector");
// DS_ELEMENT_DEMO_DIST: another build of the example (`npm run test:deepstream`'s, against DeepStream).
const exampleDist = process.env.DS_ELEMENT_DEMO_DIST || join(example, "dist");
const out = process.env.DS_ELEMENT_DEMO_OUT || mkdtempSync(join(tmpdir(), "ds-element-demo-"));
mkdirSync(out, { recursive: true });
const dump = join(out, "metadata.jsonl");
const video = join(out, "ball-detector.webm");
// The last frame the 1-per-second branch lets through (frame 270): multifilesink rewrites the file.
const picture = join(out, "ball-detector.png");
const pipeline = [
  "videotestsrc", `num-buffers=${FRAMES}`, "pattern=ball", "!",
  "video/x-raw,format=RGB,width=1280,height=720,framerate=30/1", "!",
  "balldetector", `model=${join(example, "model", "ball.onnx")}`, "!",
  "dsmetadump", `location=${dump}`, "!",
  "dsosd", "!",
  "tee", "name=annotated",
  "annotated.", "!", "queue", "!", "videoconvert", "!", "vp8enc", "deadline=1", "cpu-used=8", "!", "webmmux", "!",
  "filesink", `location=${video}`,
  "annotated.", "!", "queue", "!", "videorate", "drop-only=true", "max-rate=1", "!", "videoconvert", "!", "pngenc", "!",
  "multifilesink", `location=${picture}`,
];
console.log(`$ gst-launch-1.0 ${pipeline.join(" ")}\n`);
const started = process.hrtime.bigint();
const code = await runWithPlugins({
  dists: [exampleDist],
  command: ["gst-launch-1.0", ...pipeline],
  env: { ...process.env, GST_DEBUG: process.env.GST_DEBUG ?? "balldetector:4", GST_DEBUG_NO_COLOR: "1" },
});
const seconds = Number(process.hrtime.bigint() - started) / 1e9;
if (code !== 0) {
  console.error(`\ndemo: gst-launch-1.0 failed (exit ${code})`);
  process.exit(code);
}

const batches = readFileSync(dump, "utf8").trim().split("\n").map((line) => JSON.parse(line));
const frames = batches.flatMap((batch) => batch.frameItems);
const withBall = frames.filter((frame) => frame.objectItems.some((object) => object.label === "ball"));
const show = (frame) => {
  const [object] = frame.objectItems;
  const { left, top, width, height } = object.rectParams;
  return `frame ${frame.frameNum}: ${object.label} ${object.confidence.toFixed(2)} at ` +
    `(${left.toFixed(1)}, ${top.toFixed(1)}) ${width.toFixed(1)}x${height.toFixed(1)}`;
};
console.log(`\ndsmetadump wrote ${batches.length} batches to ${dump}`);
console.log(`  the ball was found on ${withBall.length} of ${frames.length} frames`);
for (const frame of [withBall[0], withBall[Math.floor(withBall.length / 2)], withBall.at(-1)]) if (frame) console.log(`  ${show(frame)}`);
console.log(`${frames.length} frames of 1280x720 RGB in ${seconds.toFixed(2)} s including Node and model start-up ` +
  `(${(frames.length / seconds).toFixed(0)} fps end to end, drawing and VP8 encoding included)`);
const written = [video, picture].filter((file) => existsSync(file) && statSync(file).size > 0);
console.log(`\ndsosd drew the boxes and labels:`);
console.log(`  video (WebM, VP8): ${video}`);
console.log(`  one frame (PNG):   ${picture}`);
if (withBall.length !== frames.length || frames.length !== FRAMES || written.length !== 2) process.exit(1);
