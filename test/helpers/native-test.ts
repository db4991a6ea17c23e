// Builds and runs one of native-host's C++ test programs, which print "ok - …" lines and close
// with "N passed, M failed".
import { execFileSync, spawnSync, type SpawnSyncReturns } from "node:child_process";
import { join } from "node:path";

export interface NativeTestRun {
  run: SpawnSyncReturns<string>;
  /** stdout + stderr, for assertion messages. */
  output: string;
  /** The closing "N passed, M failed" line, or null when the program never printed it. */
  summary: RegExpExecArray | null;
}

export function runNativeTest(build: string, target: string, args: string[] = [], cwd?: string): NativeTestRun {
  execFileSync("cmake", ["--build", build, "--target", target], { stdio: "pipe" });
  const run = spawnSync(join(build, target), args, { encoding: "utf8", timeout: 120_000, cwd });
  return {
    run,
    output: `${run.stdout}\n${run.stderr}`,
    summary: /^(\d+) passed, (\d+) failed$/m.exec(run.stdout),
  };
}
