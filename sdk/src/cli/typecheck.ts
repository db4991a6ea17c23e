import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { BuildError } from "./build-error.js";

/**
 * The tsc of the project's own TypeScript (else the one next to the SDK): the `tsc` its
 * package.json declares as a bin. Found through "typescript/package.json", which every
 * TypeScript exports (TypeScript 7's "exports" leave bin/tsc out, so resolving the file itself
 * would fail).
 */
function findTsc(projectDir: string): { tsc: string; version: string } | undefined {
  for (const from of [join(projectDir, "package.json"), __filename]) {
    let manifest: string;
    try {
      manifest = createRequire(from).resolve("typescript/package.json");
    } catch {
      continue; // next candidate
    }
    const { bin, version } = JSON.parse(readFileSync(manifest, "utf8")) as { bin?: string | Record<string, string>; version?: string };
    const tsc = typeof bin === "string" ? bin : bin?.tsc;
    if (tsc !== undefined && existsSync(join(dirname(manifest), tsc))) return { tsc: join(dirname(manifest), tsc), version: version ?? "?" };
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
 * BuildError listing each as file:line:col. Returns the TypeScript version that checked, or
 * undefined when skipped (no tsconfig, no TypeScript).
 * `buildInfoFile`: check incrementally, keeping tsc's state there (`ds-element dev` rebuilds).
 */
export function typecheckProject(projectDir: string, log: (line: string) => void, buildInfoFile?: string): string | undefined {
  if (!existsSync(join(projectDir, "tsconfig.json"))) return undefined;
  const found = findTsc(projectDir);
  if (!found) {
    log("ds-element build: typescript is not installed; skipping the type check (npm install -D typescript)");
    return undefined;
  }
  const { tsc, version } = found;
  const incremental = buildInfoFile === undefined ? [] : ["--incremental", "--tsBuildInfoFile", buildInfoFile];
  const result = spawnSync(process.execPath, [tsc, "--noEmit", "--pretty", "false", ...incremental, "-p", projectDir], {
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.error) throw new BuildError(`Cannot run tsc (${tsc}): ${result.error.message}`, { cause: result.error });
  if (result.status !== 0) {
    const output = formatTscOutput(`${result.stdout}${result.stderr}`);
    throw new BuildError(`${output}\nds-element build: type errors (TypeScript ${version}: tsc --noEmit -p ${projectDir})`);
  }
  return version;
}
