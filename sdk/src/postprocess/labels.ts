/**
 * Class labels from a labels file, as nvinfer reads its `labelfile-path`: one label per line in
 * class-id order (a detector's), or the labels of a classifier's output on one line, separated
 * by `;` (a classifier's).
 */
import { readFileSync } from "node:fs";

/**
 * The labels in the text of a labels file: one per line (trailing spaces, `\r` and final empty
 * lines ignored; an empty line inside the list is a class without a name), or, when the file is
 * one line holding `;`, the labels that line separates.
 *
 * @example
 * ```ts
 * parseLabels("person\nbicycle\ncar\n"); // ["person", "bicycle", "car"]
 * parseLabels("black;blue;red\n");       // ["black", "blue", "red"]
 * ```
 */
export function parseLabels(text: string): string[] {
  const lines = text.replace(/\r\n/g, "\n").split("\n").map((line) => line.trim());
  while (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  if (lines.length === 1 && lines[0]!.includes(";")) return lines[0]!.split(";").map((label) => label.trim());
  return lines;
}

/**
 * The labels of the labels file at `path` ({@link parseLabels}); an Error naming the file when
 * it cannot be read or holds no label. Read it in `start()`, where an error stops the element
 * before the first buffer.
 *
 * @example
 * ```ts
 * start() {
 *   this.classNames = readLabelFile(this.props.labelsFile); // "/models/coco.txt"
 * }
 * ```
 */
export function readLabelFile(path: string): string[] {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new Error(`Cannot read the labels file ${path}: ${(error as Error).message}`, { cause: error });
  }
  const labels = parseLabels(text);
  if (labels.length === 0) throw new Error(`Expected one label per line in the labels file ${path} but received an empty file`);
  return labels;
}
