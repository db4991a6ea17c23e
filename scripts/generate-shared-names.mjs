#!/usr/bin/env node
// Writes the names both sides of the binding use, each defined once: the manifest's property
// types (sdk/src/protocol/property-types.mjs), the native error codes
// (sdk/src/errors/error-codes.mjs) and the user metas' payload kinds
// (sdk/src/native/payload-kinds.mjs), into generated regions of hand-written files (between
// `// generated: <id>` and `// end generated: <id>` lines). `npm run generate` writes them;
// `--check` writes nothing and exits 1 naming every file that differs (test/generated-files.test.ts).
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { ERROR_CODES } from "../sdk/src/errors/error-codes.mjs";
import { PAYLOAD_KINDS } from "../sdk/src/native/payload-kinds.mjs";
import { PROPERTY_TYPES } from "../sdk/src/protocol/property-types.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const NOTE = "scripts/generate-shared-names.mjs: do not edit";

const pascal = (words) => words.split(/[-_]/).map((w) => w.charAt(0).toUpperCase() + w.slice(1).toLowerCase()).join("");
const code = (row) => `ERR_DS_ELEMENT_${row.name}`;

const tsPropertyTypes = () =>
  ["export type ManifestPropertyType =", ...PROPERTY_TYPES.map((row, i) => `  | ${JSON.stringify(row.name)}${i === PROPERTY_TYPES.length - 1 ? ";" : ""} // ${row.zod}`)].join("\n");
const cppPropertyTypes = () => PROPERTY_TYPES.map((row) => `{${JSON.stringify(row.name)}, PropertyType::${pascal(row.name)}},`).join("\n");
const tsErrorCodes = () => ERROR_CODES.map((row) => `/** The \`code\` of ${row.doc}. */\nexport const ${row.name}_CODE = ${JSON.stringify(code(row))};`).join("\n");
const cppErrorCodes = () => ERROR_CODES.map((row) => `// The code of ${row.doc}.\ninline constexpr const char* k${pascal(row.name)}Code = ${JSON.stringify(code(row))};`).join("\n");
const tsPayloadKinds = () =>
  [
    ...PAYLOAD_KINDS.map((row, i) => `/** Payload kind ${i}: ${row.doc}. */\nexport const PAYLOAD_${row.name} = ${i};`),
    "/** Each payload kind's \`UserMeta.kind\`, indexed by its number. */",
    "export const PAYLOAD_KIND_NAMES = [",
    ...PAYLOAD_KINDS.map((row) => `  ${JSON.stringify(row.kind)},`),
    "] as const;",
    "/** The kinds of NVIDIA components' read-only metas (component_meta.h). */",
    `export type ComponentPayloadKind = ${PAYLOAD_KINDS.flatMap((row, i) => (row.component ? [i] : [])).join(" | ")};`,
  ].join("\n");
const cppPayloadKinds = () => PAYLOAD_KINDS.map((row, i) => `k${pascal(row.name)} = ${i},  // ${row.doc}`).join("\n");

/** Each file with its regions: id → content. */
export const outputs = [
  ["sdk/src/protocol/manifest.ts", { "property types": tsPropertyTypes() }],
  ["native-host/src/gst/manifest.cpp", { "property types": cppPropertyTypes() }],
  ["sdk/src/errors/errors.ts", { "error codes": tsErrorCodes() }],
  ["native-host/src/binding/js_values.h", { "error codes": cppErrorCodes() }],
  ["sdk/src/native/meta-binding.ts", { "payload kinds": tsPayloadKinds() }],
  ["native-host/src/meta/model.h", { "payload kinds": cppPayloadKinds() }],
];

const escaped = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** `text` with each region's lines replaced by its content, at the indentation of its marker. */
function withRegions(path, text, regions) {
  let result = text;
  for (const [id, content] of Object.entries(regions)) {
    const region = new RegExp(`^([ \\t]*)// generated: ${escaped(id)}(?: \\(.*\\))?\\n(?:.*\\n)*?[ \\t]*// end generated: ${escaped(id)}$`, "m");
    const found = region.exec(result);
    if (found === null) throw new Error(`${path}: no "// generated: ${id}" ... "// end generated: ${id}" region`);
    const indent = found[1];
    const body = content.split("\n").map((line) => indent + line).join("\n");
    result = result.slice(0, found.index) + `${indent}// generated: ${id} (${NOTE})\n${body}\n${indent}// end generated: ${id}` + result.slice(found.index + found[0].length);
  }
  return result;
}

function readRepoFile(path) {
  try {
    return readFileSync(join(root, path), "utf8");
  } catch {
    return null;
  }
}

/** The files whose regions are not what the tables give, each with what it should hold. */
export function staleSharedNames(read = readRepoFile) {
  const stale = new Map();
  for (const [path, regions] of outputs) {
    const have = read(path) ?? "";
    const want = withRegions(path, have, regions);
    if (have !== want) stale.set(path, want);
  }
  return stale;
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const check = process.argv.includes("--check");
  const stale = staleSharedNames();
  if (check && stale.size > 0) {
    console.error(`generate-shared-names: not what the tables give (run \`npm run generate\` and commit the result):\n  ${[...stale.keys()].join("\n  ")}`);
    process.exit(1);
  }
  if (!check) {
    for (const [path, content] of stale) writeFileSync(join(root, path), content);
    if (stale.size > 0) console.log(`generate-shared-names: wrote ${[...stale.keys()].join(", ")}`);
  }
}
