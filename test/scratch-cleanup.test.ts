// test/helpers/scratch-cleanup.ts: a passing file's scratch folders go, a failing file's stay.
// Two small test files run by a vitest of their own, with the integration project's setup file
// and their scratch folders in a folder of this test's.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot, scratchDir } from "./helpers/gst";

describe("scratch folders (test/helpers/scratch-cleanup.ts)", () => {
  const work = scratchDir("scratch-cleanup");
  const out = join(work, "out");
  const helpers = join(repoRoot, "test", "helpers");
  const testFile = (name: string, body: string) =>
    writeFileSync(
      join(work, `${name}.test.ts`),
      [
        `import { writeFileSync } from "node:fs";`,
        `import { join } from "node:path";`,
        `import { afterAll, beforeAll, expect, it } from "vitest";`,
        `import { scratchDir } from ${JSON.stringify(join(helpers, "gst"))};`,
        body,
      ].join("\n"),
    );
  testFile("passes", `it("a", () => { writeFileSync(join(scratchDir("passes-a"), "f"), "x"); });\nit("b", () => { scratchDir("passes-b"); });`);
  testFile("fails", `it("a", () => { scratchDir("fails-a"); });\nit("b", () => { scratchDir("fails-b"); expect(1).toBe(2); });`);
  testFile("hook-fails", `beforeAll(() => { scratchDir("hook-fails-a"); });\nit("a", () => {});\nafterAll(() => { throw new Error("teardown"); });`);
  writeFileSync(
    join(work, "vitest.config.mts"),
    `export default { test: { include: [${JSON.stringify(join(work, "*.test.ts"))}], setupFiles: [${JSON.stringify(join(helpers, "scratch-cleanup.ts"))}] } };\n`,
  );
  const run = (env: Record<string, string | undefined>) =>
    spawnSync(process.execPath, [join(repoRoot, "node_modules", "vitest", "vitest.mjs"), "run", "--root", work, "--config", join(work, "vitest.config.mts")], {
      cwd: work,
      encoding: "utf8",
      env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: undefined, DS_ELEMENT_TEST_OUT: out, ...env },
      timeout: 120_000,
    });
  const left = () => (existsSync(out) ? readdirSync(out).map((name) => name.replace(/-[^-]+$/, "")).sort() : []);

  it("removes a passing file's folders and keeps those of a file with a failed test or hook", () => {
    const result = run({ DS_ELEMENT_KEEP_TEST_OUT: undefined });
    expect(result.status, result.stdout + result.stderr).toBe(1);
    expect(result.stdout + result.stderr).toMatch(/Tests +1 failed \| 4 passed/);
    expect(left()).toEqual(["fails-a", "fails-b", "hook-fails-a"]);
  });

  it("keeps them all with DS_ELEMENT_KEEP_TEST_OUT=1", () => {
    const result = run({ DS_ELEMENT_KEEP_TEST_OUT: "1" });
    expect(result.status, result.stdout + result.stderr).toBe(1);
    expect(left()).toEqual(["fails-a", "fails-a", "fails-b", "fails-b", "hook-fails-a", "hook-fails-a", "passes-a", "passes-b"]);
  });
});
