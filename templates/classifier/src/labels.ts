/**
 * Class labels, from a labels file like nvinfer's `labelfile-path`: one label per line, in
 * class-id order. Plain TypeScript, tested on its own (labels.test.ts).
 */
import { readFileSync } from "node:fs";

/**
 * The labels in `text`: one per line (trailing spaces and a final empty line ignored; an empty
 * line inside the list is a class without a name).
 *
 * @example
 * ```ts
 * parseLabels("person\nbicycle\ncar\n"); // ["person", "bicycle", "car"]
 * ```
 */
export function parseLabels(text: string): string[] {
  const lines = text.replace(/\r\n/g, "\n").split("\n").map((line) => line.trim());
  while (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  return lines;
}

/**
 * The labels of the file at `path`, or an Error naming the file and the property to fix.
 *
 * @example
 * ```ts
 * const labels = readLabels("/models/coco.txt");
 * ```
 */
export function readLabels(path: string): string[] {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new Error(`Cannot read the labels file ${path} (labels-file): ${(error as Error).message}`, { cause: error });
  }
  const labels = parseLabels(text);
  if (labels.length === 0) throw new Error(`Expected one label per line in the labels file ${path} (labels-file) but received an empty file`);
  return labels;
}
