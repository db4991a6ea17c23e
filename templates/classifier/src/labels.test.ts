import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseLabels, readLabels } from "./labels.js";

describe("labels", () => {
  it("reads one label per line, in class-id order", () => {
    expect(parseLabels("person\nbicycle\ncar\n")).toEqual(["person", "bicycle", "car"]);
    expect(parseLabels("person \r\nbicycle\r\n\r\n")).toEqual(["person", "bicycle"]);
    expect(parseLabels("a\n\nc")).toEqual(["a", "", "c"]);
  });

  it("names the file when it cannot be read or is empty", () => {
    const dir = mkdtempSync(join(tmpdir(), "labels-"));
    expect(() => readLabels(join(dir, "missing.txt"))).toThrow(`Cannot read the labels file ${join(dir, "missing.txt")} (labels-file): ENOENT`);
    writeFileSync(join(dir, "empty.txt"), "\n");
    expect(() => readLabels(join(dir, "empty.txt"))).toThrow(
      `Expected one label per line in the labels file ${join(dir, "empty.txt")} (labels-file) but received an empty file`,
    );
  });
});
