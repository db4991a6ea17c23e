/**
 * The test model: ds-element's colour classifier, a small ONNX graph that gives the mean colour
 * of each image (black, white, red, green, blue, yellow) as probabilities, like the colour
 * classifiers of DeepStream's samples. Dynamic batch: every crop of a batch in one inference.
 * Written once per test run, with its labels file.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { COLOR_CLASSIFIER_LABELS, colorClassifierModel } from "ds-element/testing";

const dir = mkdtempSync(join(tmpdir(), "template-element-name-"));

/** The model file: input [batch, 3, 32, 32], output [batch, 6]. */
export const modelPath = join(dir, "color.onnx");
/** Its labels file, one per line. */
export const labelsPath = join(dir, "labels.txt");

writeFileSync(modelPath, colorClassifierModel({ size: 32 }));
writeFileSync(labelsPath, `${COLOR_CLASSIFIER_LABELS.join("\n")}\n`);
