import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { SDK_VERSION } from "./version.js";

it("SDK_VERSION matches package.json", () => {
  const pkg = JSON.parse(readFileSync(join(__dirname, "..", "package.json"), "utf8")) as { version: string };
  expect(SDK_VERSION).toBe(pkg.version);
});
