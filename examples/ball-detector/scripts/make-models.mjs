// Writes the example's models into model/: ds-element's test detector (ds-element/testing's
// ballDetectorModel: a small ONNX graph in YOLOv8's layout that finds the ball of
// `videotestsrc pattern=ball`, no weights to download), and its twin that reports the ball as
// class 1, for changing models while playing.
import { mkdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";

const { ballDetectorModel } = createRequire(import.meta.url)("ds-element/testing");

mkdirSync("model", { recursive: true });
writeFileSync("model/ball.onnx", ballDetectorModel());
writeFileSync("model/ball-as-class-1.onnx", ballDetectorModel({ ballClass: 1 }));
