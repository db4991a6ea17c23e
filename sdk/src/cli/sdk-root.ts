import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";

let cached: string | undefined;

/** The ds-element package folder, found upwards from this file (works from src/ and dist/). */
export function sdkRoot(): string {
  if (cached) return cached;
  let dir = __dirname;
  for (;;) {
    const manifest = join(dir, "package.json");
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, "utf8")) as { name?: string }).name === "ds-element") {
      cached = dir;
      return dir;
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`Cannot find the ds-element package folder above ${__dirname}`);
    dir = parent;
  }
}
