import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { temporaryDir } from "../test-support/bundle.js";
import { BuildError } from "./build-error.js";
import { buildProject, type BuildOptions } from "./build.js";
import { sdkRoot } from "./sdk-root.js";

const fixture = join(__dirname, "__fixtures__", "project");
const requireHere = createRequire(__filename);

function typescriptVersion(name: string): string {
  return (JSON.parse(readFileSync(requireHere.resolve(`${name}/package.json`), "utf8")) as { version: string }).version;
}
const sdkEntry = join(sdkRoot(), "src", "index.ts");

/** A copy of the fixture project in a temporary folder, with extra files. */
function project(files: Record<string, string> = {}): string {
  const dir = temporaryDir("project");
  cpSync(fixture, dir, { recursive: true });
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(dir, path, ".."), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  return dir;
}

function setEntries(dir: string, elements: string[]): void {
  const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as Record<string, unknown>;
  writeFileSync(join(dir, "package.json"), JSON.stringify({ ...pkg, "ds-element": { elements } }));
}

function build(dir: string, options: Partial<BuildOptions> = {}) {
  return buildProject({ projectDir: dir, skipNative: true, typecheck: false, alias: { "ds-element": sdkEntry }, ...options });
}

async function buildError(dir: string, options: Partial<BuildOptions> = {}): Promise<string> {
  try {
    await build(dir, options);
  } catch (error) {
    expect(error).toBeInstanceOf(BuildError);
    return (error as Error).message;
  }
  throw new Error("expected the build to fail");
}

function filesUnder(dir: string): string[] {
  const walk = (current: string): string[] =>
    readdirSync(current).flatMap((name) => {
      const path = join(current, name);
      return statSync(path).isDirectory() ? walk(path) : [relative(dir, path)];
    });
  return walk(dir).sort();
}

describe("ds-element build", () => {
  it("lays out dist/ with one folder per element, host.js and the session worker", async () => {
    const dir = project();
    const result = await build(dir);
    expect(result.elements.map((element) => element.name)).toEqual(["counter", "marker"]);
    expect(result.nativeCopied).toBe(false);
    expect(filesUnder(join(dir, "dist"))).toEqual([
      "ds-elements/counter/element.json",
      "ds-elements/counter/index.js",
      "ds-elements/counter/index.js.map",
      "ds-elements/marker/element.json",
      "ds-elements/marker/index.js",
      "ds-elements/marker/index.js.map",
      "dsnode/host.js",
      "dsnode/host.js.map",
      "dsnode/onnx-session-worker.js",
      "dsnode/onnx-session-worker.js.map",
    ]);
  });

  it("writes element.json (manifest v1) derived from the class", async () => {
    const dir = project();
    await build(dir);
    const manifest = JSON.parse(readFileSync(join(dir, "dist/ds-elements/counter/element.json"), "utf8")) as unknown;
    expect(manifest).toEqual({
      manifestVersion: 1,
      name: "counter",
      longName: "Counter",
      klass: "Filter/Analyzer/Video",
      description: "Counts frames",
      author: "Jane Doe <jane@example.com>",
      sinkCaps: "video/x-raw, format={ RGB, RGBA }",
      srcCaps: "video/x-raw, format={ RGB, RGBA }",
      entry: "index.js",
      sdkVersion: "0.1.0",
      properties: [
        { name: "location", jsName: "location", type: "string", nick: "Location", blurb: "Where to write the count" },
        { name: "every-n", jsName: "everyN", type: "int", nick: "Every N", blurb: "Log every N frames", minimum: 1, maximum: 2147483647, default: 1 },
        { name: "scale", jsName: "scale", type: "double", nick: "Scale", blurb: "Scale", minimum: 0, maximum: 10, default: 1 },
        {
          name: "mode",
          jsName: "mode",
          type: "enum",
          nick: "Mode",
          blurb: "Mode",
          default: "fast",
          values: [
            { value: 0, nick: "fast", name: "fast" },
            { value: 1, nick: "accurate", name: "accurate" },
          ],
        },
        { name: "thresholds", jsName: "thresholds", type: "double-array", nick: "Thresholds", blurb: "Thresholds", default: [] },
        { name: "verbose", jsName: "verbose", type: "boolean", nick: "Verbose", blurb: "Verbose", default: false },
      ],
    });
  });

  it("bundles self-contained CommonJS with a source map holding the TypeScript", async () => {
    const dir = project();
    await build(dir);
    const bundle = join(dir, "dist/ds-elements/counter/index.js");
    expect(readFileSync(bundle, "utf8")).toMatch(/\/\/# sourceMappingURL=index\.js\.map\s*$/);
    const map = JSON.parse(readFileSync(`${bundle}.map`, "utf8")) as { sources: string[]; sourcesContent: string[] };
    const index = map.sources.findIndex((source) => source.endsWith("src/counter.ts"));
    expect(map.sourcesContent[index]).toContain("export default class Counter");
    // The SDK's sources are named by URL (stack frames the host leaves out), the user's by path.
    expect(map.sources[index]).toBe("../../../src/counter.ts");
    expect(map.sources).toContain("ds-element:/src/element/element.ts");
    expect(map.sources.filter((source) => source.includes("sdk/src"))).toEqual([]);
    const exports = createRequire(bundle)(bundle) as { default: Record<symbol, unknown> };
    expect(typeof exports.default[Symbol.for("ds-element.host.v1")]).toBe("function");
  });

  it("removes what an earlier build wrote", async () => {
    const dir = project();
    await build(dir);
    setEntries(dir, ["src/marker.ts"]);
    await build(dir);
    expect(readdirSync(join(dir, "dist/ds-elements"))).toEqual(["marker"]);
  });

  it("copies the native files when asked, and fails clearly when they are missing", async () => {
    const dir = project();
    const native = temporaryDir("native");
    writeFileSync(join(native, "libgstdsnode.so"), "plugin");
    writeFileSync(join(native, "libdsnode-runtime.so.0"), "runtime");
    const result = await build(dir, {
      skipNative: false,
      nativeArtefacts: { pluginPath: join(native, "libgstdsnode.so"), runtimePath: join(native, "libdsnode-runtime.so.0") },
    });
    expect(result.nativeCopied).toBe(true);
    expect(readFileSync(join(dir, "dist/libgstdsnode.so"), "utf8")).toBe("plugin");
    expect(readFileSync(join(dir, "dist/dsnode/libdsnode-runtime.so.0"), "utf8")).toBe("runtime");

    const missing = join(native, "missing.so");
    expect(await buildError(dir, { skipNative: false, nativeArtefacts: { pluginPath: missing, runtimePath: join(native, "libdsnode-runtime.so.0") } })).toBe(
      `Expected the native files of ds-element but received missing files: ${missing}`,
    );
    expect(existsSync(join(dir, "dist/ds-elements/counter/element.json"))).toBe(true);
  });

  it("reports bundling errors as file:line:column", async () => {
    const dir = project({ "src/broken.ts": 'import { Element } from "ds-element";\nexport default class extends Element {\n  x = ;\n}\n' });
    setEntries(dir, ["src/broken.ts"]);
    const message = await buildError(dir);
    expect(message.split("\n")[0]).toMatch(/src\/broken\.ts:3:7: error: Unexpected ";"$/);
    expect(existsSync(join(dir, "dist/ds-elements/.staging-0"))).toBe(false);
  });

  it("reports an invalid declaration at the user's line", async () => {
    const source = readFileSync(join(fixture, "src/marker.ts"), "utf8").replace('name: "marker"', 'name: "Marker"');
    const dir = project({ "src/marker.ts": source });
    const message = await buildError(dir);
    expect(message.split("\n")[0]).toMatch(
      /src\/marker\.ts:3:\d+: error: Expected a name matching \/\^\[a-z\]\[a-z0-9-\]\*\$\/ for name in Element\.define\(\) but received "Marker"$/,
    );
  });

  it("reports an unsupported property schema naming the property", async () => {
    const source = readFileSync(join(fixture, "src/marker.ts"), "utf8").replace(
      "labels: z.array(z.string())",
      "labels: z.array(z.boolean())",
    );
    const dir = project({ "src/marker.ts": source });
    expect((await buildError(dir)).split("\n")[0]).toMatch(
      /src\/marker\.ts:3:\d+: error: Expected z\.array\(z\.number\(\)\), z\.array\(z\.number\(\)\.int\(\)\) or z\.array\(z\.string\(\)\) for property labels but received z\.array\(z\.boolean\(\)\);/,
    );
  });

  it("rejects caps GStreamer cannot parse, naming the pad and the parser's complaint", async () => {
    const source = readFileSync(join(fixture, "src/marker.ts"), "utf8").replace(
      'src: "video/x-raw" }',
      'src: "video/x-raw, format={ RGB, RGBA" }',
    );
    const dir = project({ "src/marker.ts": source });
    expect((await buildError(dir)).split("\n")[0]).toMatch(
      /src\/marker\.ts: error: Expected GStreamer caps for the src pad of marker but received "video\/x-raw, format=\{ RGB, RGBA" \(GStreamer's parser: could not set property "caps" in element "capsfilter" to "video\/x-raw, format=\{ RGB, RGBA"\)$/,
    );
  });

  it("rejects a default export that is not an element class", async () => {
    const dir = project({ "src/plain.ts": "export default class Plain {}\n" });
    setEntries(dir, ["src/plain.ts"]);
    expect(await buildError(dir)).toMatch(
      /src\/plain\.ts: error: Expected an element class \(export default class \.\.\. extends Element\.define\(\{\.\.\.\}\)\) for the default export of .*src\/plain\.ts but received class Plain, which does not extend Element\.define\(\.\.\.\)$/,
    );
  });

  it("rejects two entries declaring the same element name", async () => {
    const dir = project({ "src/counter2.ts": readFileSync(join(fixture, "src/counter.ts"), "utf8") });
    setEntries(dir, ["src/counter.ts", "src/counter2.ts"]);
    expect(await buildError(dir)).toMatch(/src\/counter2\.ts: error: Expected a unique element name for .*src\/counter2\.ts but received "counter", already declared by .*src\/counter\.ts$/);
  });

  it("rejects a missing entry and a bad elements field", async () => {
    const dir = project();
    setEntries(dir, ["src/nope.ts"]);
    expect(await buildError(dir)).toMatch(/package\.json: error: Expected an existing file for the element entry src\/nope\.ts but received a missing file/);
    setEntries(dir, []);
    expect(await buildError(dir)).toMatch(/package\.json: error: Expected a non-empty array of entry files for "ds-element"\.elements but received \[\]$/);
  });

  it("reports type errors as file:line:column when the project has a tsconfig", async () => {
    const source = readFileSync(join(fixture, "src/counter.ts"), "utf8").replace("this.count += batch.numFrames;", 'this.count = "many";');
    const dir = project({
      "src/counter.ts": source,
      "tsconfig.json": JSON.stringify({
        compilerOptions: {
          strict: true,
          target: "ES2022",
          module: "NodeNext",
          moduleResolution: "NodeNext",
          skipLibCheck: true,
          noEmit: true,
          types: [],
          paths: { "ds-element": [sdkEntry] },
        },
        include: ["src"],
      }),
    });
    const message = await buildError(dir, { typecheck: true });
    expect(message).toMatch(/src\/counter\.ts:21:5: error TS2322: Type 'string' is not assignable to type 'number'\./);
    expect(message.split("\n").at(-1)).toBe(`ds-element build: type errors (TypeScript ${typescriptVersion("typescript")}: tsc --noEmit -p ${dir})`);
  }, 60_000);

  it("type-checks with the project's own TypeScript, 7 as well as 6", async () => {
    const tsconfig = JSON.stringify({
      compilerOptions: { strict: true, target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", skipLibCheck: true, noEmit: true, types: [] },
      include: ["src/plain.ts", "src/wrong.ts"],
    });
    // Checked on its own: no import of ds-element, which TypeScript 7 would have to check too.
    const plain = 'const count: number = 1;\nexport default count;\n';
    const dir = project({ "tsconfig.json": tsconfig, "src/plain.ts": plain, "src/wrong.ts": 'export const count: number = "many";\n' });
    mkdirSync(join(dir, "node_modules"), { recursive: true });
    // TypeScript 7 as the project's `typescript` (the repository has it as typescript-7).
    symlinkSync(dirname(requireHere.resolve("typescript-7/package.json")), join(dir, "node_modules", "typescript"));
    const message = await buildError(dir, { typecheck: true });
    expect(message).toMatch(/src\/wrong\.ts:1:14: error TS2322: Type 'string' is not assignable to type 'number'\./);
    expect(message.split("\n").at(-1)).toBe(`ds-element build: type errors (TypeScript ${typescriptVersion("typescript-7")}: tsc --noEmit -p ${dir})`);
    expect(typescriptVersion("typescript-7")).toMatch(/^7\./);

    rmSync(join(dir, "src/wrong.ts"));
    const lines: string[] = [];
    await build(dir, { typecheck: true, log: (line) => lines.push(line) });
    expect(lines).toContain(`ds-element build: types OK (TypeScript ${typescriptVersion("typescript-7")})`);
  }, 60_000);

  it("removes the previous build before it type-checks, so a failed build leaves no old element to run", async () => {
    const dir = project({ "tsconfig.json": JSON.stringify({ compilerOptions: { strict: true, noEmit: true, types: [], skipLibCheck: true }, include: ["src/extra.ts"] }) });
    writeFileSync(join(dir, "src/extra.ts"), "export const ok: number = 1;\n");
    await build(dir, { typecheck: true });
    expect(readdirSync(join(dir, "dist/ds-elements")).sort()).toEqual(["counter", "marker"]);
    writeFileSync(join(dir, "src/extra.ts"), 'export const ok: number = "no";\n');
    const lines: string[] = [];
    await expect(build(dir, { typecheck: true, log: (line) => lines.push(line) })).rejects.toThrow(BuildError);
    expect(lines).toEqual([`ds-element build: removed the previous build from ${join(dir, "dist")}`]);
    expect(existsSync(join(dir, "dist/ds-elements"))).toBe(false);
    expect(existsSync(join(dir, "dist/dsnode"))).toBe(false);
  }, 60_000);

  it("builds the entries it is given instead of package.json's", async () => {
    const dir = project();
    const result = await build(dir, { entries: ["src/marker.ts"] });
    expect(result.elements.map((element) => element.name)).toEqual(["marker"]);
  });

  it.each([
    ["identity", 'the installed GStreamer plugin "coreelements" provides it'],
    ["videotestsrc", 'the installed GStreamer plugin "videotestsrc" provides it'],
    ["nvinfer", "it is reserved for DeepStream"],
    ["dsmetadump", "it is reserved for ds-element's built-in elements"],
    ["dstracker", "it is reserved for ds-element's built-in elements"],
  ])("refuses the name %s, which another element has", async (name, why) => {
    const source = readFileSync(join(fixture, "src/marker.ts"), "utf8").replace('name: "marker"', `name: "${name}"`);
    const dir = project({ "src/marker.ts": source });
    const message = await buildError(dir);
    expect(message).toMatch(/^src\/marker\.ts|marker\.ts: error: /);
    expect(message.endsWith(`: error: Expected an element name no other GStreamer element has for ${name} but received "${name}": ${why}; rename it in Element.define({ name })`)).toBe(true);
    expect(existsSync(join(dir, "dist/ds-elements", name))).toBe(false);
  });

  it("keeps Node-API packages external, copies them beside the bundle, and refuses *.so files in dist/", async () => {
    const addon = {
      "node_modules/fake-addon/package.json": JSON.stringify({ name: "fake-addon", version: "1.0.0", main: "index.js", gypfile: true }),
      "node_modules/fake-addon/index.js": "module.exports = { native: true };\n",
      "src/uses-addon.ts": [
        'import { Element } from "ds-element";',
        'import addon from "fake-addon";',
        "export const native = addon;",
        "export default class UsesAddon extends Element.define({",
        '  name: "usesaddon", longName: "Uses addon", klass: "Filter", description: "d", author: "a", caps: "ANY",',
        "}) {}",
        "",
      ].join("\n"),
      "src/fake-addon.d.ts": 'declare module "fake-addon" { const addon: { native: boolean }; export default addon; }\n',
    };
    const dir = project(addon);
    setEntries(dir, ["src/uses-addon.ts"]);
    const result = await build(dir);
    expect(result.elements[0]?.nativePackages).toEqual(["fake-addon"]);
    const elementDir = join(dir, "dist/ds-elements/usesaddon");
    expect(readFileSync(join(elementDir, "index.js"), "utf8")).toContain('require("fake-addon")');
    expect(existsSync(join(dir, "dist/node_modules/fake-addon/index.js"))).toBe(true);
    expect(createRequire(join(elementDir, "index.js")).resolve("fake-addon")).toBe(join(dir, "dist/node_modules/fake-addon/index.js"));

    writeFileSync(join(dir, "node_modules/fake-addon/libhelper.so"), "");
    expect(await buildError(dir)).toBe(
      `Expected no *.so file but libgstdsnode.so in ${join(dir, "dist")} but received node_modules/fake-addon/libhelper.so; ` +
        "GStreamer would try to load each as a plugin: rename them (e.g. libfoo.so.1) or load them from outside dist/",
    );
  });

  it("copies a Node-API package once for all the elements that use it, and a different copy beside the element that needs it", async () => {
    const addon = (version: string) => ({
      [`package.json`]: JSON.stringify({ name: "fake-addon", version, main: "index.js", gypfile: true }),
      [`index.js`]: `module.exports = { version: "${version}" };\n`,
    });
    const element = (name: string) =>
      [
        'import { Element } from "ds-element";',
        'import addon from "fake-addon";',
        "export const native = addon;",
        `export default class E extends Element.define({ name: "${name}", longName: "E", klass: "Filter", description: "d", author: "a", caps: "ANY" }) {}`,
        "",
      ].join("\n");
    const files: Record<string, string> = { "src/one.ts": element("usesone"), "src/two.ts": element("usestwo"), "src/old/three.ts": element("usesold") };
    for (const [name, content] of Object.entries(addon("1.0.0"))) files[`node_modules/fake-addon/${name}`] = content;
    // src/old/ resolves another copy of the package first (as a nested node_modules would).
    for (const [name, content] of Object.entries(addon("0.9.0"))) files[`src/old/node_modules/fake-addon/${name}`] = content;
    const dir = project(files);
    setEntries(dir, ["src/one.ts", "src/two.ts", "src/old/three.ts"]);
    const result = await build(dir);
    expect(result.elements.map((built) => built.nativePackages)).toEqual([["fake-addon"], ["fake-addon"], ["fake-addon"]]);
    const loaded = (name: string) => (createRequire(join(dir, "dist/ds-elements", name, "index.js"))("fake-addon") as { version: string }).version;
    expect([loaded("usesone"), loaded("usestwo"), loaded("usesold")]).toEqual(["1.0.0", "1.0.0", "0.9.0"]);
    expect(filesUnder(join(dir, "dist")).filter((file) => file.includes("fake-addon/index.js"))).toEqual([
      "ds-elements/usesold/node_modules/fake-addon/index.js",
      "node_modules/fake-addon/index.js",
    ]);
  });

  it("keeps one ONNX Runtime for any number of inference elements: two elements' dist/ is within 1.2x of one's (du -s)", async () => {
    const inference = (name: string) =>
      [
        'import { InferenceElement } from "ds-element";',
        `export default class E extends InferenceElement.define({ name: "${name}", longName: "E", klass: "Filter", description: "d", author: "a", caps: "video/x-raw" }) {`,
        "  postprocess() {}",
        "}",
        "",
      ].join("\n");
    const withOnnxRuntime = (entries: string[]) => {
      const dir = project({ "src/first.ts": inference("detectorone"), "src/second.ts": inference("detectortwo") });
      const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as Record<string, unknown>;
      writeFileSync(join(dir, "package.json"), JSON.stringify({ ...pkg, dependencies: { "onnxruntime-node": "1.30.0" }, "ds-element": { elements: entries } }));
      mkdirSync(join(dir, "node_modules"), { recursive: true });
      symlinkSync(dirname(requireHere.resolve("onnxruntime-node/package.json")), join(dir, "node_modules", "onnxruntime-node"));
      return dir;
    };
    const one = withOnnxRuntime(["src/first.ts"]);
    const two = withOnnxRuntime(["src/first.ts", "src/second.ts"]);
    await build(one, { skipNative: false });
    await build(two, { skipNative: false });
    const du = (dir: string) => Number(execFileSync("du", ["-sk", join(dir, "dist")], { encoding: "utf8" }).split("\t")[0]);
    expect(du(one)).toBeGreaterThan(20_000); // ONNX Runtime is there: tens of MB
    expect(du(two) / du(one)).toBeLessThanOrEqual(1.2);
    expect(filesUnder(join(two, "dist")).filter((file) => file.endsWith("onnxruntime_binding.node"))).toHaveLength(1);
  }, 120_000);
});
