#!/usr/bin/env node
// `npm run gst -- <command…>`: runs a command with every built example (and the SDK's built-in
// elements) on GST_PLUGIN_PATH, e.g. `npm run gst -- gst-inspect-1.0 dsnode`.
import { existsSync, readdirSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { createRequire } from "node:module";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const examples = join(root, "examples");
const dists = readdirSync(examples)
  .map((name) => join(examples, name, "dist"))
  .filter((dist) => existsSync(join(dist, "ds-elements")));
const command = process.argv.slice(2);
if (command.length === 0) {
  console.error("Usage: npm run gst -- <command…>   e.g. npm run gst -- gst-inspect-1.0 dsnode");
  process.exit(2);
}
if (dists.length === 0) {
  console.error("No built example found under examples/*/dist: run `npm run setup` first.");
  process.exit(1);
}
const require = createRequire(import.meta.url);
const { runWithPlugins } = require(join(root, "sdk", "dist", "cli", "run.js"));
process.exitCode = await runWithPlugins({ dists, command });
