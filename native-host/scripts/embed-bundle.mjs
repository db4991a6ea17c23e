// Bundles a TypeScript entry of the SDK (sdk/src/host-runtime/bootstrap.ts) into one CommonJS
// script for Node 18 and writes it as a C++ header the runtime library compiles in: the code
// lives, is type-checked and linted as TypeScript, and the runtime needs no file beside it.
// Run by CMake (native-host/CMakeLists.txt) when the entry or what it imports changes.
//
//   node embed-bundle.mjs <entry.ts> <out.h> <C++ name> <depfile>
import { mkdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const [entry, outFile, name, depFile] = process.argv.slice(2);
if (!entry || !outFile || !name || !depFile) {
  console.error("usage: node embed-bundle.mjs <entry.ts> <out.h> <C++ name> <depfile>");
  process.exit(2);
}
// esbuild is the SDK's dependency (hoisted to the repository's node_modules).
const esbuild = createRequire(resolve(entry))("esbuild");
const result = esbuild.buildSync({
  entryPoints: [entry],
  bundle: true,
  platform: "node",
  target: "node18",
  format: "cjs",
  write: false,
  metafile: true,
  logLevel: "error",
});
const code = result.outputFiles[0].text;
const DELIMITER = "dsnode_bundle";
if (code.includes(`)${DELIMITER}"`)) {
  console.error(`${entry}: the bundle contains the raw-string delimiter )${DELIMITER}"`);
  process.exit(1);
}
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const source = relative(repoRoot, resolve(entry));
const header =
  `// Generated from ${source} by native-host/scripts/embed-bundle.mjs at build time; do not edit.\n` +
  `#pragma once\n\n` +
  `// A CommonJS module for Node 18: run it as function(exports, module) and read module.exports.\n` +
  `inline constexpr char ${name}[] = R"${DELIMITER}(${code})${DELIMITER}";\n`;
mkdirSync(dirname(outFile), { recursive: true });
writeFileSync(outFile, header);
// Make-style dependencies, so that CMake (DEPFILE) rebuilds when any bundled file changes.
const inputs = Object.keys(result.metafile.inputs).map((input) => resolve(input).replace(/ /g, "\\ "));
writeFileSync(depFile, `${outFile}: ${inputs.join(" ")}\n`);
