// The README's first command: `npm run demo` runs the ball detector on 300 frames and reports
// what it found (here without its setup step, which `npm test` has just run).
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { expect, it } from "vitest";
import { repoRoot } from "./helpers/gst";
import { ballDetectorDist, builtinDist } from "./helpers/projects";

it("npm run demo: the ball detector finds the ball on all 300 frames and prints the frame rate", () => {
  const run = spawnSync(process.execPath, [join(repoRoot, "scripts", "demo.mjs")], {
    encoding: "utf8",
    timeout: 170_000,
    // The example and dsmetadump as this run built them (their own dist/ on `npm test`).
    env: { ...process.env, DS_ELEMENT_DEMO_DIST: ballDetectorDist, DS_ELEMENT_BUILTIN_DIST: builtinDist },
  });
  const output = `${run.stdout}\n${run.stderr}`;
  expect(run.signal, output).toBeNull();
  expect(run.status, output).toBe(0);
  expect(run.stdout).toContain("the ball was found on 300 of 300 frames");
  expect(run.stdout).toMatch(/300 frames of 1280x720 RGB in [\d.]+ s including Node and model start-up \(\d+ fps end to end\)/);
});
