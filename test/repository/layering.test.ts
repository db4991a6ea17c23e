// The layering rules of docs/internals/layering.md, checked on the sources as they are: which
// native folder includes which, where Node's and Node-API's headers may appear, which
// TypeScript loads native code, and what templates, examples and the scaffolder import.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const repoRoot = join(__dirname, "..", "..");

/** Tracked files under `folder` whose names match `pattern`, relative to the repository. */
function files(folder: string, pattern: RegExp): string[] {
  return execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard", folder], { cwd: repoRoot, encoding: "utf8" })
    .split("\n")
    .filter((file) => pattern.test(file));
}
const read = (file: string): string => readFileSync(join(repoRoot, file), "utf8");

// ---------------------------------------------------------------- native

const NATIVE = "native-host/src";
const SOURCES = /\.(cpp|cu|h)$/;
/** Project folders each native folder may include (besides itself). */
const MAY_INCLUDE: Record<string, readonly string[]> = {
  common: [],
  meta: ["common"],
  tensor: ["common", "ops"],
  ops: [],
  postprocess: [],
  runners: ["common"],
  protocol: ["common", "meta"],
  osd: ["common", "meta"],
  gst: ["common", "meta"],
  runtime: ["common", "meta"],
  embed: ["runtime", "common", "meta"],
  binding: ["common", "meta", "tensor", "ops", "postprocess", "runners", "runtime", "protocol", "osd"],
};
/** Includes outside these rules, each with its reason in docs/internals/layering.md. */
const EXCEPTIONS = new Set(["binding/binding.cpp -> <node.h>", "binding/binding.cpp -> <v8.h>"]);
const NODE_API = new Set(["napi.h", "node_api.h", "js_native_api.h"]);
const NODE = new Set(["node.h", "v8.h"]);

interface Include {
  /** The including file, relative to native-host/src. */
  file: string;
  /** What it includes: "embed/node_embed.h" or "<node.h>". */
  target: string;
}

function nativeIncludes(): Include[] {
  const includes: Include[] = [];
  for (const path of files(NATIVE, SOURCES)) {
    const file = relative(NATIVE, path);
    for (const match of read(path).matchAll(/^\s*#\s*include\s+([<"])([^>"]+)[>"]/gm)) {
      includes.push({ file, target: match[1] === "<" ? `<${match[2]}>` : (match[2] as string) });
    }
  }
  return includes;
}

describe("native-host/src", () => {
  const includes = nativeIncludes();
  const folderOf = (file: string): string => file.split("/")[0] as string;

  it("has a rule for every folder", () => {
    const folders = new Set(includes.map((include) => folderOf(include.file)));
    expect([...folders].filter((folder) => !(folder in MAY_INCLUDE))).toEqual([]);
  });

  it("includes across folders only downwards (docs/internals/layering.md)", () => {
    const wrong = includes
      .filter(({ file, target }) => !target.startsWith("<") && target.includes("/"))
      .filter(({ file, target }) => {
        const from = folderOf(file);
        const to = folderOf(target);
        return to in MAY_INCLUDE && to !== from && !(MAY_INCLUDE[from] ?? []).includes(to);
      })
      .map(({ file, target }) => `${file} -> ${target}`)
      .filter((line) => !EXCEPTIONS.has(line));
    expect(wrong).toEqual([]);
  });

  it("includes Node-API headers only under binding/", () => {
    const wrong = includes
      .filter(({ target }) => NODE_API.has(target.replace(/^<|>$/g, "")))
      .filter(({ file }) => folderOf(file) !== "binding")
      .map(({ file, target }) => `${file} -> ${target}`);
    expect(wrong).toEqual([]);
  });

  it("includes node.h and v8.h only under embed/", () => {
    const wrong = includes
      .filter(({ target }) => NODE.has(target.replace(/^<|>$/g, "")))
      .filter(({ file }) => folderOf(file) !== "embed")
      .map(({ file, target }) => `${file} -> ${target}`)
      .filter((line) => !EXCEPTIONS.has(line));
    expect(wrong).toEqual([]);
  });

  it("keeps the exceptions exactly where docs/internals/layering.md says", () => {
    const present = new Set(includes.map(({ file, target }) => `${file} -> ${target}`));
    expect([...EXCEPTIONS].filter((line) => !present.has(line))).toEqual([]);
    const doc = read("docs/internals/layering.md");
    for (const line of EXCEPTIONS) expect(doc).toContain(`\`${line.split(" -> ")[0]}\``);
  });

  it("keeps Node, V8, libuv and Node-API out of the GStreamer shell and the cores", () => {
    const runtimeHeaders = new Set([...NODE_API, ...NODE, "uv.h"]);
    const wrong = includes
      .filter(({ file }) => ["gst", "meta", "tensor", "ops", "postprocess", "runners", "protocol", "osd", "common"].includes(folderOf(file)))
      .filter(({ target }) => runtimeHeaders.has(target.replace(/^<|>$/g, "")))
      .map(({ file, target }) => `${file} -> ${target}`);
    expect(wrong).toEqual([]);
  });
});

// ---------------------------------------------------------------- TypeScript

/** The SDK's production TypeScript (not tests, test support or fixtures). */
function sdkSources(): string[] {
  return files("sdk/src", /\.ts$/).filter((file) => !/\.test\.ts$|\/test-support\/|\/__fixtures__\//.test(file));
}

/** The one module that loads native binaries (docs/internals/layering.md). */
const NATIVE_LOADER = "sdk/src/native/loader.ts";
/** Ways TypeScript loads a native binary: dlopen, a require of a .node file, a require made for one, ds-element-native's paths. */
const LOADS_NATIVE = /process\.dlopen\s*\(|\brequire\s*\(\s*["'`][^"'`]*\.node["'`]|createRequire\s*\([^)]*\)\s*\(\s*["'`][^"'`]*\.node|standaloneBindingPath\s*\?\?|["']ds-element-native["']\s*\)\s*as\s*\{\s*standaloneBindingPath/;
/** What only tests may use: the standalone binding's harness (buffers made up in JS) and the SDK's test support. */
const TEST_ONLY_NATIVE = /\bStandaloneHarness\b|\bloadStandaloneBinding\b|\.harness\.|test-support\//;
/** Where they are defined, and ds-element/testing, whose harness is for users' tests. */
const MAY_USE_TEST_ONLY = new Set([NATIVE_LOADER, "sdk/src/native/meta-binding.ts"]);

describe("test/, bench/ and scripts/", () => {
  const sources = () =>
    [...files("test", /\.(ts|mjs|js|cjs)$/), ...files("bench", /\.(ts|mjs|js|cjs)$/), ...files("scripts", /\.(ts|mjs|js|cjs)$/)].filter(
      (file) => file !== "test/repository/layering.test.ts",
    );

  it(`load the shipped binaries only through ${NATIVE_LOADER}`, () => {
    expect(sources().filter((file) => LOADS_NATIVE.test(read(file)))).toEqual([]);
  });

  it("name the test-only dsnode_cuda_testing.node in one place, the GPU tests' helper, which loads it through the loader too", () => {
    expect(sources().filter((file) => /_testing\.node\b/.test(read(file)))).toEqual(["test/helpers/tensorrt.ts"]);
    expect(read("test/helpers/tensorrt.ts")).toMatch(/\bdlopen\(\s*"the test module dsnode_cuda_testing\.node"/);
    expect(read("test/helpers/tensorrt.ts")).not.toMatch(/\brequire\s*\(/);
  });
});

describe("sdk/src", () => {
  it(`loads native binaries only in ${NATIVE_LOADER}`, () => {
    // Tests included: they take the loader's bindings (test-support) instead of loading their own.
    const loaders = files("sdk/src", /\.ts$/).filter((file) => LOADS_NATIVE.test(read(file)));
    expect(loaders).toEqual([NATIVE_LOADER]);
  });

  it("recognises every way of loading a binary (the check reads what it should)", () => {
    for (const text of [
      "process.dlopen(module, path)",
      'require("../build/Release/dsnode_standalone.node")',
      'createRequire(__filename)("./x.node")',
      'const native = require("ds-element-native") as { standaloneBindingPath: string }',
    ]) {
      expect(LOADS_NATIVE.test(text), text).toBe(true);
    }
    expect(LOADS_NATIVE.test('createRequire(join(projectDir, "package.json")).resolve("ds-element/package.json")')).toBe(false);
  });

  it("keeps test-only native code out of production files (only ds-element/testing and tests use the harness)", () => {
    const wrong = sdkSources()
      .filter((file) => !MAY_USE_TEST_ONLY.has(file) && !file.startsWith("sdk/src/testing/"))
      .filter((file) => TEST_ONLY_NATIVE.test(read(file).replace(/^\s*(\/\/|\*).*$/gm, "")));
    expect(wrong).toEqual([]);
  });

  it("compiles test-only native code only into test targets", () => {
    const cmake = read("native-host/CMakeLists.txt");
    // cuda_testing_binding.cpp exists for the GPU tests; no shipped library may hold it.
    for (const target of ["gstdsnode", "dsnode-runtime", "dsnode-standalone-binding"]) {
      const block = new RegExp(`add_library\\(${target}\\b[^)]*\\)`).exec(cmake)?.[0] ?? "";
      expect(block, target).not.toBe("");
      expect(block, target).not.toContain("testing");
    }
  });

  it("runs no code from strings (eval, new Function, vm, eval workers)", () => {
    const runners = /\beval\s*\(|new Function\s*\(|\bvm\.(runIn|compileFunction)|eval:\s*true/;
    expect(sdkSources().filter((file) => runners.test(read(file)))).toEqual([]);
  });
});

// ---------------------------------------------------------------- code in strings

/** Text of three or more lines that reads as JavaScript (a function, an arrow, a require, a declaration). */
function looksLikeCode(text: string): boolean {
  return text.split("\n").length >= 3 && /\bfunction\b\s*\w*\s*\(|=>\s*[{(]|\brequire\s*\(|\b(const|let|var)\s+\w+\s*=/.test(text);
}

/** Every string and template literal of a TypeScript file, with its line. */
function tsLiterals(file: string): { line: number; text: string }[] {
  const source = ts.createSourceFile(file, read(file), ts.ScriptTarget.Latest, true);
  const found: { line: number; text: string }[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) {
      found.push({ line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1, text: node.text });
    } else if (ts.isTemplateExpression(node)) {
      const text = [node.head.text, ...node.templateSpans.map((span) => span.literal.text)].join("${}");
      found.push({ line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1, text });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** C++ raw string literals (`R"delimiter(...)delimiter"`), where multi-line text lives. */
function rawStrings(file: string): { name: string; text: string }[] {
  return [...read(file).matchAll(/(\w+)\s*(?:\[\])?\s*=\s*R"([^(]*)\(([\s\S]*?)\)\2"/g)].map((match) => ({ name: match[1] as string, text: match[3] as string }));
}


describe("no JavaScript inside string literals", () => {
  it("in the SDK's TypeScript", () => {
    const wrong = sdkSources().flatMap((file) => tsLiterals(file).filter(({ text }) => looksLikeCode(text)).map(({ line }) => `${file}:${line}`));
    expect(wrong).toEqual([]);
  });

  it("in the native host's C++", () => {
    const found = files(NATIVE, SOURCES).flatMap((file) =>
      rawStrings(file)
        .filter(({ text }) => looksLikeCode(text))
        .map(({ name }) => `${file}: ${name}`),
    );
    expect(found).toEqual([]);
  });

  it("is found where it is (the check reads what it should)", () => {
    expect(looksLikeCode('"use strict";\nconst { parentPort } = require("node:worker_threads");\nparentPort.on("message", () => {});')).toBe(true);
    expect(looksLikeCode("Expected a number for x\nbut received y\n(see the docs)")).toBe(false);
  });
});

// ---------------------------------------------------------------- projects

/** Module specifiers imported or required by `text`. */
function specifiers(text: string): string[] {
  return [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|^\s*import\s+)["']([^"']+)["']/gm)].map((match) => match[1] as string);
}

describe("templates/, examples/ and create-ds-element", () => {
  it("use ds-element only through its public entry points", () => {
    const wrong: string[] = [];
    for (const file of [...files("templates", /\.(ts|mts|js|mjs)$/), ...files("examples", /\.(ts|mts|js|mjs)$/)]) {
      for (const specifier of specifiers(read(file))) {
        const sdkFile = specifier.startsWith("ds-element/") && !["ds-element/testing", "ds-element/cli"].includes(specifier);
        // A relative import stays inside its own project (templates/<name>/, examples/<name>/).
        const project = file.split("/").slice(0, 2).join("/");
        const intoRepo = specifier.startsWith(".") && relative(project, join(dirname(file), specifier)).startsWith("..");
        if (sdkFile || intoRepo) wrong.push(`${file}: ${specifier}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it("keeps the scaffolder free of the SDK", () => {
    const wrong = files("create-ds-element", /\.(js|mjs|ts)$/)
      .flatMap((file) => specifiers(read(file)).map((specifier) => `${file}: ${specifier}`))
      .filter((line) => /: (ds-element(\/|$)|\.\.\/sdk)/.test(line));
    expect(wrong).toEqual([]);
  });
});
