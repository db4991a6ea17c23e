/** esbuild helpers for tests that need real bundles (CommonJS, Node 18, linked source maps). */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as esbuild from "esbuild";

/** A fresh temporary folder. */
export function temporaryDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), `ds-element-${prefix}-`));
}

/** Bundles `entry` to `outFile` as a build of an element would. */
export async function bundleForTest(entry: string, outFile: string): Promise<string> {
  await esbuild.build({
    entryPoints: [entry],
    outfile: outFile,
    bundle: true,
    platform: "node",
    target: "node18",
    format: "cjs",
    sourcemap: "linked",
    sourcesContent: true,
    logLevel: "silent",
  });
  return outFile;
}

/** The 1-based line of the first source line containing `marker`. */
export function lineOf(source: string, marker: string): number {
  const index = source.split("\n").findIndex((line) => line.includes(marker));
  if (index < 0) throw new Error(`marker ${marker} not found`);
  return index + 1;
}
