/** esbuild helpers for tests that need real bundles (CommonJS, Node 18, linked source maps). */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as esbuild from "esbuild";
import { HOST_BUNDLE_OPTIONS } from "../cli/bundle-options.js";

/** A fresh temporary folder. */
export function temporaryDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), `ds-element-${prefix}-`));
}

/** Bundles `entry` to `outFile` as a build of an element would. */
export async function bundleForTest(entry: string, outFile: string): Promise<string> {
  await esbuild.build({
    entryPoints: [entry],
    outfile: outFile,
    ...HOST_BUNDLE_OPTIONS,
  });
  return outFile;
}

/** The 1-based line of the first source line containing `marker`. */
export function lineOf(source: string, marker: string): number {
  const index = source.split("\n").findIndex((line) => line.includes(marker));
  if (index < 0) throw new Error(`marker ${marker} not found`);
  return index + 1;
}
