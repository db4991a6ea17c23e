// The element folders the integration tests run: the example and the failing fixtures.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { outRoot, repoRoot } from "./gst";

const cli = join(repoRoot, "sdk", "bin", "ds-element.js");
const native = require(join(repoRoot, "native-host", "index.js")) as { buildDir: string; pluginPath: string };

/**
 * Another native build than native-host/build/Release (DS_ELEMENT_NATIVE_DIR, set by
 * `npm run test:deepstream`): the examples' and the SDK's element folders, which carry the
 * native code, are then built under outRoot instead of their own dist/, which stay portable.
 */
const ownDists = process.env.DS_ELEMENT_NATIVE_DIR !== undefined;
const distOf = (project: string, name: string): string => (ownDists ? join(outRoot, "dists", name) : join(repoRoot, project, "dist"));

export const exampleDist = distOf("examples/frame-counter", "frame-counter");
export const fixturesDist = join(outRoot, "fixture-elements");
/** The ball detector example (its build also writes its test models into model/). */
export const ballDetectorDist = distOf("examples/ball-detector", "ball-detector");
/** The SDK's built-in elements (dsmetadump), built by the SDK's own build. */
export const builtinDist = distOf("sdk/builtin", "builtin");

/**
 * The metadata backend of the native build under test: "deepstream" when its plugin opens
 * NVIDIA's libnvds_meta.so (`npm run test:deepstream`; the name is in the binary), else "portable".
 */
export const nativeBackend: "deepstream" | "portable" =
  existsSync(native.pluginPath) && readFileSync(native.pluginPath).includes("libnvds_meta.so") ? "deepstream" : "portable";
/** The GstMeta API a batch travels under on this build. */
export const batchMetaApi = nativeBackend === "deepstream" ? "NvDsMetaAPI" : "DsNodePortableBatchMetaAPI";

/** Builds a ds-element project into `out` with the real CLI. */
export function buildProject(project: string, out: string): void {
  execFileSync(process.execPath, [cli, "build", "--project", project, "--out", out], { stdio: "pipe" });
}

/** Builds what the integration tests need (vitest globalSetup for the integration project). */
export default function setup(): void {
  if (!existsSync(native.pluginPath)) {
    throw new Error(`the native host is not built (no ${native.pluginPath}): run the tests with \`npm test\` (it builds everything first)`);
  }
  if (ownDists) {
    // Every run: the native build they carry may have changed since the last one.
    buildProject(join(repoRoot, "examples", "frame-counter"), exampleDist);
    buildProject(join(repoRoot, "examples", "ball-detector"), ballDetectorDist);
    buildProject(join(repoRoot, "sdk", "builtin"), builtinDist);
  } else if (!existsSync(join(exampleDist, "ds-elements", "framecounter", "element.json"))) {
    buildProject(join(repoRoot, "examples", "frame-counter"), exampleDist);
  }
  if (!existsSync(join(ballDetectorDist, "ds-elements", "balldetector", "element.json"))) {
    throw new Error("the ball detector example is not built: run the tests with `npm test` (its build writes the model too)");
  }
  buildProject(join(repoRoot, "test", "fixtures", "elements"), fixturesDist);
}
