import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseLabels, readLabelFile } from "./labels.js";

describe("labels files", () => {
  it("reads one label per line, in class-id order", () => {
    expect(parseLabels("person\nbicycle\ncar\n")).toEqual(["person", "bicycle", "car"]);
    expect(parseLabels("person \r\nbicycle\r\n\r\n")).toEqual(["person", "bicycle"]);
    expect(parseLabels("a\n\nc")).toEqual(["a", "", "c"]);
  });

  it("reads a classifier's labels separated by ; on one line, as nvinfer does", () => {
    expect(parseLabels("black;blue; red ;\n")).toEqual(["black", "blue", "red", ""]);
  });

  it("names the file when it cannot be read or is empty", () => {
    const dir = mkdtempSync(join(tmpdir(), "labels-"));
    expect(() => readLabelFile(join(dir, "missing.txt"))).toThrow(`Cannot read the labels file ${join(dir, "missing.txt")}: ENOENT`);
    writeFileSync(join(dir, "empty.txt"), "\n");
    expect(() => readLabelFile(join(dir, "empty.txt"))).toThrow(`Expected one label per line in the labels file ${join(dir, "empty.txt")} but received an empty file`);
    writeFileSync(join(dir, "coco.txt"), "person\nbicycle\n");
    expect(readLabelFile(join(dir, "coco.txt"))).toEqual(["person", "bicycle"]);
  });
});
