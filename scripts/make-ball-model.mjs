#!/usr/bin/env node
// Writes the test detector for `videotestsrc pattern=ball` as an ONNX model in YOLOv8's output
// layout, plus a JSON sidecar with its labels. Same arguments, same bytes. What the model
// computes and how to feed it: docs/internals/ball-model.md.
//
//   node scripts/make-ball-model.mjs --out test/out/ball.onnx [--ball-class 0] [--classes 2]
//                                    [--size 640] [--batch 1|dynamic] [--setup-work 0]
//
// --setup-work N makes the model slow to load (N matrix products ONNX Runtime computes while it
// sets the session up) and leaves what it computes unchanged: for tests of loading in the background.
// The model itself is the SDK's (ds-element/testing's ballDetectorModel), built into sdk/dist.
import { mkdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname } from "node:path";
import { parseArgs } from "node:util";

const require = createRequire(import.meta.url);
const {
  CANDIDATES,
  DEFAULT_BALL_CLASS,
  DEFAULT_BATCH,
  DEFAULT_CLASSES,
  DEFAULT_SETUP_WORK,
  DEFAULT_SIZE,
  ballDetectorLabels,
  ballDetectorModel,
} = require("../sdk/dist/testing/models/ball-detector.js");

const USAGE =
  "Usage: node scripts/make-ball-model.mjs --out <model.onnx> [--ball-class K] [--classes C] [--size S] [--batch N|dynamic] [--setup-work N]";

/** An integer option within [min, max], or the message that says why not. */
function integerOption(name, text, min, max) {
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < min || value > max) {
    throw new Error(`Expected an integer from ${min} to ${max} for --${name} but received ${JSON.stringify(text)}`);
  }
  return value;
}

function parseOptions(argv) {
  const { values } = parseArgs({
    args: argv,
    options: {
      out: { type: "string" },
      "ball-class": { type: "string", default: String(DEFAULT_BALL_CLASS) },
      classes: { type: "string", default: String(DEFAULT_CLASSES) },
      size: { type: "string", default: String(DEFAULT_SIZE) },
      batch: { type: "string", default: String(DEFAULT_BATCH) },
      "setup-work": { type: "string", default: String(DEFAULT_SETUP_WORK) },
      help: { type: "boolean", default: false },
    },
  });
  if (values.help) return undefined;
  if (!values.out) throw new Error("Expected a file path for --out but received nothing");
  // Two classes at least: the low decoy reports the class after the ball's, which must differ.
  const classes = integerOption("classes", values.classes, 2, 1000);
  const ballClass = integerOption("ball-class", values["ball-class"], 0, classes - 1);
  // A multiple of 32 like YOLO's own input sizes; the quarter-size low decoy stays whole.
  const size = integerOption("size", values.size, 32, 4096);
  if (size % 32 !== 0) throw new Error(`Expected a multiple of 32 for --size but received ${size}`);
  const batch = values.batch === "dynamic" ? "dynamic" : integerOption("batch", values.batch, 1, 1024);
  const setupWork = integerOption("setup-work", values["setup-work"], 0, 100000);
  return { out: values.out, ballClass, classes, size, batch, setupWork };
}

function sidecarPath(modelPath) {
  return `${modelPath.replace(/\.onnx$/, "")}.json`;
}

function main() {
  let options;
  try {
    options = parseOptions(process.argv.slice(2));
  } catch (error) {
    console.error(`make-ball-model: ${error.message}\n${USAGE}`);
    process.exit(2);
  }
  if (!options) {
    console.log(USAGE);
    return;
  }
  const { out, ballClass, classes, size, batch, setupWork } = options;
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, ballDetectorModel({ ballClass, classes, size, batch, setupWork }));
  const sidecar = {
    labels: ballDetectorLabels({ ballClass, classes }),
    ballClass,
    input: { name: "images", shape: [batch, 3, size, size], scale: "0..1 (pixel / 255)", pad: "0 or 114/255" },
    output: { name: "output0", shape: [batch, 4 + classes, CANDIDATES.length], rows: "cx, cy, w, h, class scores", candidates: CANDIDATES },
  };
  writeFileSync(sidecarPath(out), `${JSON.stringify(sidecar, null, 2)}\n`);
}

main();
