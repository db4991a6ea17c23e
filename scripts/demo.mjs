#!/usr/bin/env node
// `npm run demo`: the main job — the frame-counter example in a real GStreamer pipeline.
// Runs 300 frames through it, then prints what the element wrote and how fast it went.
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createRequire } from "node:module";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(import.meta.url);
const { runWithPlugins } = require(join(root, "sdk", "dist", "cli", "run.js"));

const location = join(mkdtempSync(join(tmpdir(), "ds-element-demo-")), "frames.jsonl");
const pipeline = [
  "videotestsrc", "num-buffers=300", "pattern=ball", "!",
  "video/x-raw,format=RGB,width=1280,height=720,framerate=30/1", "!",
  "framecounter", `location=${location}`, "every-n=100", "label=demo", "!",
  "fakesink",
];
console.log(`$ gst-launch-1.0 ${pipeline.join(" ")}\n`);
const started = process.hrtime.bigint();
const code = await runWithPlugins({
  dists: [join(root, "examples", "frame-counter", "dist")],
  command: ["gst-launch-1.0", ...pipeline],
  env: { ...process.env, GST_DEBUG: process.env.GST_DEBUG ?? "framecounter:4", GST_DEBUG_NO_COLOR: "1" },
});
const seconds = Number(process.hrtime.bigint() - started) / 1e9;
if (code !== 0) {
  console.error(`\ndemo: gst-launch-1.0 failed (exit ${code})`);
  process.exit(code);
}
const lines = readFileSync(location, "utf8").trim().split("\n").map((line) => JSON.parse(line));
const frames = lines.filter((line) => line.type === "frame");
console.log(`\nframecounter wrote ${lines.length} lines to ${location}:`);
console.log(`  ${frames.length} frames (first ${JSON.stringify({ frameNum: frames[0].frameNum, bufPts: frames[0].bufPts })},` +
  ` last ${JSON.stringify({ frameNum: frames.at(-1).frameNum, bufPts: frames.at(-1).bufPts })})`);
console.log(`  then ${JSON.stringify(lines.at(-1))}`);
console.log(`${frames.length} frames of 1280x720 RGB in ${seconds.toFixed(2)} s including Node start-up ` +
  `(${(frames.length / seconds).toFixed(0)} fps end to end)`);
