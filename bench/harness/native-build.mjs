// The native build the benchmark's C++ programs come from: DS_BENCH_NATIVE_DIR (a CMake build
// folder of native-host) or native-host/build, and building one of its targets outside ALL.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { commandFailure, runCommand } from "./command.mjs";

export function nativeBuildDir(root) {
  return process.env.DS_BENCH_NATIVE_DIR ?? join(root, "native-host", "build");
}

/** `cmake --build <buildDir> --target <target>`; the folder must have been configured. */
export async function buildNativeTarget(buildDir, target, what) {
  if (!existsSync(join(buildDir, "CMakeCache.txt"))) {
    throw new Error(`Expected a configured native build in ${buildDir}: run \`npm run setup\` (or \`npm run build\`) first`);
  }
  const argv = ["cmake", "--build", buildDir, "--target", target];
  const result = await runCommand(argv, { timeoutMs: 600_000 });
  if (result.code !== 0) throw commandFailure(`building ${what}`, argv, result);
}
