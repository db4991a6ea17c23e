/**
 * The test model: ds-element's ball detector, a small ONNX graph in YOLOv8's layout that finds
 * the ball of `videotestsrc pattern=ball` (no weights to download). Written once per test run,
 * with its labels file.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ballDetectorLabels, ballDetectorModel } from "ds-element/testing";

const dir = mkdtempSync(join(tmpdir(), "template-element-name-"));

/** The model file: input 1x3x320x320, two classes ("ball", "not-ball"). */
export const modelPath = join(dir, "ball.onnx");
/** Its labels file, one per line. */
export const labelsPath = join(dir, "labels.txt");

writeFileSync(modelPath, ballDetectorModel({ size: 320 }));
writeFileSync(labelsPath, `${ballDetectorLabels().join("\n")}\n`);
