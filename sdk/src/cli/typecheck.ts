import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { BuildError } from "./build-error.js";

/** tsc of the project (its own typescript first, else the one next to the SDK). */
function findTsc(projectDir: string): string | undefined {
  for (const from of [join(projectDir, "package.json"), __filename]) {
    try {
      return createRequire(from).resolve("typescript/bin/tsc");
    } catch {
      // next candidate
    }
  }
  return undefined;
}

const TSC_DIAGNOSTIC = /^(.+?)\((\d+),(\d+)\): (error|warning) (TS\d+): (.*)$/;

/** `src/a.ts(3,7): error TS2322: …` → `src/a.ts:3:7: error TS2322: …` (continuation lines kept). */
export function formatTscOutput(output: string): string {
  return output
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => {
      const match = TSC_DIAGNOSTIC.exec(line);
      return match ? `${match[1]}:${match[2]}:${match[3]}: ${match[4]} ${match[5]}: ${match[6]}` : line;
    })
    .join("\n");
}

/**
 * Runs `tsc --noEmit -p <projectDir>` when the project has a tsconfig.json. Type errors are a
 * BuildError listing each as file:line:col. Returns false when skipped (no tsconfig, no tsc).
 * `buildInfoFile`: check incrementally, keeping tsc's state there (`ds-element dev` rebuilds).
 */
export function typecheckProject(projectDir: string, log: (line: string) => void, buildInfoFile?: string): boolean {
  if (!existsSync(join(projectDir, "tsconfig.json"))) return false;
  const tsc = findTsc(projectDir);
  if (!tsc) {
    log("ds-element build: typescript is not installed; skipping the type check (npm install -D typescript)");
    return false;
  }
  const incremental = buildInfoFile === undefined ? [] : ["--incremental", "--tsBuildInfoFile", buildInfoFile];
  const result = spawnSync(process.execPath, [tsc, "--noEmit", "--pretty", "false", ...incremental, "-p", projectDir], {
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.error) throw new BuildError(`Cannot run tsc (${tsc}): ${result.error.message}`, { cause: result.error });
  if (result.status !== 0) {
    const output = formatTscOutput(`${result.stdout}${result.stderr}`);
    throw new BuildError(`${output}\nds-element build: type errors (tsc --noEmit -p ${projectDir})`);
  }
  return true;
}
