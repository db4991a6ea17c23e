// `prepack`: copies the repository's ../templates into ./templates, so the published package
// carries them (index.js looks in ./templates first). `postpack` removes the copy again.
import { cpSync, rmSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const copy = join(here, "templates");
rmSync(copy, { recursive: true, force: true });
// Build outputs and installed packages of templates developed in place stay out.
cpSync(join(here, "..", "templates"), copy, {
  recursive: true,
  filter: (source) => !["node_modules", "dist"].includes(basename(source)),
});
