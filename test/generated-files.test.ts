// The names both sides of the binding use are defined once (property types in
// sdk/src/protocol/property-types.mjs, error codes in sdk/src/errors/error-codes.mjs, user metas'
// payload kinds in sdk/src/native/payload-kinds.mjs) and
// generated into the TypeScript and C++ that use them (scripts/generate-shared-names.mjs).
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const root = join(__dirname, "..");
const generator = join(root, "scripts", "generate-shared-names.mjs");

type StaleSharedNames = (read?: (path: string) => string | null) => Map<string, string>;
const loadGenerator = async () => ((await import(generator)) as { staleSharedNames: StaleSharedNames }).staleSharedNames;
const repoFile = (path: string) => readFileSync(join(root, path), "utf8");

describe("names shared by TypeScript and C++ (npm run generate writes them)", () => {
  it("are what the tables give, in every file that holds them", () => {
    const run = spawnSync(process.execPath, [generator, "--check"], { encoding: "utf8" });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
  });

  it("finds a property type or an error code changed by hand on one side, by its path", async () => {
    const staleSharedNames = await loadGenerator();
    const edited: Record<string, (text: string) => string> = {
      "native-host/src/gst/manifest.cpp": (text) => text.replace('{"int64", PropertyType::Int64},', '{"integer64", PropertyType::Int64},'),
      "sdk/src/errors/errors.ts": (text) => text.replace('"ERR_DS_ELEMENT_TENSOR"', '"ERR_DS_ELEMENT_TENSORS"'),
      "native-host/src/meta/model.h": (text) => text.replace("kRoi = 14,", "kRoi = 15,"),
    };
    const read = (path: string) => {
      const text = repoFile(path);
      return edited[path]?.(text) ?? text;
    };
    for (const [path, edit] of Object.entries(edited)) expect(edit(repoFile(path))).not.toBe(repoFile(path));
    expect([...staleSharedNames(read).keys()]).toEqual(["native-host/src/gst/manifest.cpp", "sdk/src/errors/errors.ts", "native-host/src/meta/model.h"]);
  });

  it("gives the same property types and error codes on both sides", () => {
    const cppTypes = [...repoFile("native-host/src/gst/manifest.cpp").matchAll(/\{"([a-z0-9-]+)", PropertyType::/g)].map((m) => m[1]);
    const tsTypes = [...repoFile("sdk/src/protocol/manifest.ts").matchAll(/^ {2}\| "([a-z0-9-]+)"/gm)].map((m) => m[1]);
    expect(cppTypes).toEqual(tsTypes);
    expect(cppTypes).toContain("string-array");
    const cppCodes = [...repoFile("native-host/src/binding/js_values.h").matchAll(/Code = "(ERR_DS_ELEMENT_[A-Z_]+)"/g)].map((m) => m[1]);
    const tsCodes = [...repoFile("sdk/src/errors/errors.ts").matchAll(/_CODE = "(ERR_DS_ELEMENT_[A-Z_]+)"/g)].map((m) => m[1]);
    expect(cppCodes).toEqual(tsCodes);
    expect(cppCodes).toContain("ERR_DS_ELEMENT_TABLE_FULL");
  });

  it("numbers the user metas' payload kinds the same on both sides, one name per number", async () => {
    const binding = await import("../sdk/src/native/meta-binding.js");
    const cppKinds = [...repoFile("native-host/src/meta/model.h").matchAll(/^ {2}k([A-Za-z]+) = (\d+),/gm)].map((m) => [m[1]!.toLowerCase(), Number(m[2])]);
    const tsKinds = Object.entries(binding)
      .filter(([name]) => /^PAYLOAD_[A-Z_]+$/.test(name) && name !== "PAYLOAD_KIND_NAMES")
      .map(([name, value]) => [name.slice("PAYLOAD_".length).replaceAll("_", "").toLowerCase(), value]);
    expect(cppKinds).toEqual(tsKinds.sort((a, b) => Number(a[1]) - Number(b[1])));
    expect(tsKinds.map(([, value]) => value)).toEqual(binding.PAYLOAD_KIND_NAMES.map((_, i) => i));
    expect(binding.PAYLOAD_KIND_NAMES[binding.PAYLOAD_ROI]).toBe("roi");
    expect(binding.PAYLOAD_KIND_NAMES[binding.PAYLOAD_EVENT_MSG]).toBe("event-msg");
  });
});
