// The element folders the integration tests run: the example and the failing fixtures.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { outRoot, repoRoot } from "./gst";

const cli = join(repoRoot, "sdk", "bin", "ds-element.js");

export const exampleDist = join(repoRoot, "examples", "frame-counter", "dist");
export const fixturesDist = join(outRoot, "fixture-elements");
/** The ball detector example (its build also writes its test models into model/). */
export const ballDetectorDist = join(repoRoot, "examples", "ball-detector", "dist");

/** Builds a ds-element project into `out` with the real CLI. */
export function buildProject(project: string, out: string): void {
  execFileSync(process.execPath, [cli, "build", "--project", project, "--out", out], { stdio: "pipe" });
}

/** Builds what the integration tests need (vitest globalSetup for the integration project). */
export default function setup(): void {
  if (!existsSync(join(repoRoot, "native-host", "build", "Release", "libgstdsnode.so"))) {
    throw new Error("the native host is not built: run the tests with `npm test` (it builds everything first)");
  }
  if (!existsSync(join(exampleDist, "ds-elements", "framecounter", "element.json"))) {
    buildProject(join(repoRoot, "examples", "frame-counter"), exampleDist);
  }
  if (!existsSync(join(ballDetectorDist, "ds-elements", "balldetector", "element.json"))) {
    throw new Error("the ball detector example is not built: run the tests with `npm test` (its build writes the model too)");
  }
  buildProject(join(repoRoot, "test", "fixtures", "elements"), fixturesDist);
}

/** The SDK's built-in elements (dsmetadump), built by the SDK's own build. */
export const builtinDist = join(repoRoot, "sdk", "builtin", "dist");
