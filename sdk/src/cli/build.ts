/**
 * `ds-element build`: type-checks a project, bundles each element entry, derives its
 * element.json from the class and lays out a dist/ folder GStreamer can load:
 *
 *   dist/libgstdsnode.so                      (the only *.so: GStreamer loads every *.so it finds)
 *   dist/dsnode/libdsnode-runtime.so.0, host.js, onnx-session-worker.js
 *   dist/ds-elements/<name>/element.json, index.js, index.js.map
 *   dist/node_modules/                        (Node-API packages, one copy for every element)
 *
 * A build starts by removing what the previous one wrote, so a failed build leaves no old
 * element behind to run unnoticed.
 */
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, dirname, join, relative, resolve } from "node:path";
import * as esbuild from "esbuild";
import { HOST_BUNDLE_OPTIONS } from "./bundle-options.js";
import { capsProblem } from "./caps-check.js";
import { installedFeatures, nameClash } from "./element-names.js";
import type { ManifestV1 } from "../protocol/manifest.js";
import { BuildError } from "./build-error.js";
import { buildHost, HOST_BUNDLES, rewriteSdkSources } from "./build-host.js";
import { formatEsbuildMessage, formatEsbuildMessages } from "./esbuild-messages.js";
import { loadElementManifest } from "./load-element.js";
import { builtLibnode, findNativeArtefacts, hostBundleTarget, projectLibnode, type NativeArtefacts } from "./native-artefacts.js";
import { addSdkRuntimePackages, copyNativePackages, nativeExternalsPlugin, SharedPackages } from "./native-packages.js";
import { sdkRoot } from "./sdk-root.js";
import { typecheckProject } from "./typecheck.js";

/**
 * Options of {@link buildProject}.
 *
 * @example
 * ```ts
 * const options: BuildOptions = { projectDir: "examples/frame-counter", skipNative: true };
 * ```
 */
export interface BuildOptions {
  /** The element project (folder of its package.json). */
  projectDir: string;
  /** Output folder. Default: `<projectDir>/dist`. */
  outDir?: string;
  /**
   * Element entry files (relative to `projectDir`) to build instead of package.json's
   * `"ds-element".elements`: e.g. a test's own fixture elements beside the project's.
   */
  entries?: string[];
  /** Write only the JavaScript parts (no libgstdsnode.so / runtime): for tests without native builds. */
  skipNative?: boolean;
  /** Run `tsc --noEmit` when the project has a tsconfig.json. Default: true. */
  typecheck?: boolean;
  /** Type-check incrementally, keeping tsc's state in this file (`ds-element dev`). */
  typecheckBuildInfo?: string;
  /** The native files to copy. Default: those of package ds-element-native. */
  nativeArtefacts?: NativeArtefacts;
  /** esbuild aliases (package → path), e.g. to build against the SDK's sources. */
  alias?: Record<string, string>;
  /** Progress lines. Default: none. */
  log?: (line: string) => void;
}

/**
 * One element written by {@link buildProject}.
 *
 * @example
 * ```ts
 * for (const element of result.elements) console.log(element.name, element.directory);
 * ```
 */
export interface BuiltElement {
  /** The element (factory) name, e.g. `framecounter`. */
  name: string;
  /** The entry it was built from (absolute). */
  entry: string;
  /** dist/ds-elements/<name> (absolute). */
  directory: string;
  /** The element.json written for it. */
  manifest: ManifestV1;
  /** Node-API packages it loads, copied into dist/node_modules (or, when two elements need different copies of one, beside its bundle). */
  nativePackages: string[];
  /** The project's source files the bundle was made from (absolute; none under node_modules): what `ds-element dev` watches. */
  inputs: string[];
}

/**
 * What {@link buildProject} produced.
 *
 * @example
 * ```ts
 * const { outDir, elements, nativeCopied } = await buildProject({ projectDir: "." });
 * ```
 */
export interface BuildResult {
  /** The dist/ folder written (absolute). */
  outDir: string;
  /** The elements built, in `"ds-element".elements` order. */
  elements: BuiltElement[];
  /** False with `skipNative`. */
  nativeCopied: boolean;
}

interface ProjectPackage {
  name?: string;
  "ds-element"?: { elements?: unknown };
}

function readPackageJson(projectDir: string): ProjectPackage {
  const manifestPath = join(projectDir, "package.json");
  if (!existsSync(manifestPath)) {
    throw new BuildError(`Expected a package.json in the project folder ${projectDir} for ds-element build but received none; pass --project <dir>`);
  }
  try {
    return JSON.parse(readFileSync(manifestPath, "utf8")) as ProjectPackage;
  } catch (error) {
    throw new BuildError(`${manifestPath}: error: ${(error as Error).message}`, { cause: error });
  }
}

function readEntries(projectDir: string, pkg: ProjectPackage, entries: readonly string[] | undefined): string[] {
  const manifestPath = join(projectDir, "package.json");
  const declared = entries ?? pkg["ds-element"]?.elements ?? ["src/index.ts"];
  if (!Array.isArray(declared) || declared.length === 0 || declared.some((entry) => typeof entry !== "string" || entry === "")) {
    throw new BuildError(
      `${manifestPath}: error: Expected a non-empty array of entry files for "ds-element".elements but received ${JSON.stringify(declared)}`,
    );
  }
  return declared.map((entry: string) => {
    const absolute = resolve(projectDir, entry);
    if (!existsSync(absolute)) {
      throw new BuildError(`${manifestPath}: error: Expected an existing file for the element entry ${entry} but received a missing file (${absolute})`);
    }
    return absolute;
  });
}

const GENERATED = ["ds-elements", "dsnode", "libgstdsnode.so", "node_modules"];

/**
 * Removes what an earlier build wrote (and only that: --out may be a shared folder), so that
 * nothing of it can run after this build fails. Says so when there was something.
 */
function cleanOutDir(outDir: string, log: (line: string) => void): void {
  if (existsSync(join(outDir, "ds-elements"))) log(`ds-element build: removed the previous build from ${outDir}`);
  for (const generated of GENERATED) {
    rmSync(join(outDir, generated), { recursive: true, force: true });
  }
}

async function bundleEntry(entry: string, stagingDir: string, options: BuildOptions, cwd: string): Promise<{ nativePackages: Map<string, string>; inputs: string[] }> {
  const nativePackages = new Map<string, string>();
  const projectDir = resolve(options.projectDir);
  let inputs: string[] = [];
  try {
    const result = await esbuild.build({
      metafile: true,
      entryPoints: [entry],
      outfile: join(stagingDir, "index.js"),
      absWorkingDir: resolve(options.projectDir),
      ...HOST_BUNDLE_OPTIONS,
      // The Node the host embeds; host.js itself stays at Node 18, the oldest (it ships prebuilt).
      target: hostBundleTarget(options.nativeArtefacts ? builtLibnode(options.nativeArtefacts.runtimePath) : projectLibnode(projectDir)),
      keepNames: true,
      alias: options.alias ?? {},
      plugins: [nativeExternalsPlugin(nativePackages)],
    });
    for (const warning of result.warnings) options.log?.(formatEsbuildMessage(warning, "warning", cwd));
    inputs = Object.keys(result.metafile.inputs)
      .map((input) => resolve(projectDir, input))
      .filter((input) => !relative(projectDir, input).startsWith("..") && !input.includes("/node_modules/"));
  } catch (error) {
    const messages = formatEsbuildMessages(error, cwd);
    throw new BuildError(messages ? `${messages}\nds-element build: bundling ${relative(cwd, entry)} failed` : String(error), { cause: error });
  }
  rewriteSdkSources(join(stagingDir, "index.js.map"), sdkRoots(options.projectDir));
  return { nativePackages, inputs };
}

/** The folders of the SDK a bundle may hold: this CLI's package, and the one the project resolves. */
function sdkRoots(projectDir: string): string[] {
  const roots = [realpathSync(sdkRoot())];
  try {
    roots.push(realpathSync(dirname(createRequire(join(projectDir, "package.json")).resolve("ds-element/package.json"))));
  } catch {
    // built against an alias (the SDK's own tests) or not installed: this CLI's package only
  }
  return roots;
}

/** Every file under `dir` whose name ends in .so, relative to `dir`. */
function sharedObjects(dir: string): string[] {
  const found: string[] = [];
  const walk = (current: string): void => {
    for (const name of readdirSync(current)) {
      const path = join(current, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith(".so")) found.push(relative(dir, path));
    }
  };
  walk(dir);
  return found;
}

function installHostJs(outDir: string): Promise<void> | void {
  const target = join(outDir, "dsnode", "host.js");
  const prebuilt = HOST_BUNDLES.map((bundle) => join(sdkRoot(), "dist", bundle.file));
  if (prebuilt.every((file) => existsSync(file))) {
    for (const file of prebuilt) {
      copyFileSync(file, join(outDir, "dsnode", basename(file)));
      if (existsSync(`${file}.map`)) copyFileSync(`${file}.map`, join(outDir, "dsnode", `${basename(file)}.map`));
    }
    return;
  }
  // Running from the SDK's sources (its own tests): bundle host.js and the workers on the spot.
  return buildHost({ outFile: target }).then(() => undefined);
}

/** What a manifest must satisfy beyond its own checks: caps GStreamer parses, a name of its own. */
function checkManifest(manifest: ManifestV1, entry: string, built: readonly BuiltElement[], projectName: string | undefined, cwd: string): void {
  const where = relative(cwd, entry);
  // Most elements declare one caps string for both pads: parse it once (each check starts a process).
  const pads = manifest.srcCaps === manifest.sinkCaps
    ? ([["sink", manifest.sinkCaps]] as const)
    : ([["sink", manifest.sinkCaps], ["src", manifest.srcCaps]] as const);
  for (const [pad, caps] of pads) {
    const problem = capsProblem(caps);
    if (problem) {
      throw new BuildError(
        `${where}: error: Expected GStreamer caps for the ${pad} pad of ${manifest.name} but received ${JSON.stringify(caps)} (${problem})`,
      );
    }
  }
  const clash = built.find((element) => element.name === manifest.name);
  if (clash) {
    throw new BuildError(
      `${where}: error: Expected a unique element name for ${where} but received "${manifest.name}", already declared by ${relative(cwd, clash.entry)}`,
    );
  }
  const taken = nameClash(manifest.name, installedFeatures(), projectName);
  if (taken) {
    throw new BuildError(
      `${where}: error: Expected an element name no other GStreamer element has for ${manifest.name} but received "${manifest.name}": ` +
        `${taken}; rename it in Element.define({ name })`,
    );
  }
}

/**
 * Builds an element project into a dist/ folder (see the module comment for the layout).
 * Failures are a {@link BuildError} whose message starts with file:line where there is one;
 * with missing native files the JavaScript parts are written first, then the error is thrown.
 *
 * @example
 * ```ts
 * import { buildProject } from "ds-element/cli";
 * const result = await buildProject({ projectDir: "examples/frame-counter", log: console.log });
 * console.log(result.elements.map((element) => element.name)); // ["framecounter"]
 * ```
 */
export async function buildProject(options: BuildOptions): Promise<BuildResult> {
  const cwd = process.cwd();
  const projectDir = resolve(options.projectDir);
  const outDir = resolve(options.outDir ?? join(projectDir, "dist"));
  const log = options.log ?? (() => undefined);
  const pkg = readPackageJson(projectDir);
  const entries = readEntries(projectDir, pkg, options.entries);

  cleanOutDir(outDir, log);
  const typescript = options.typecheck === false ? undefined : typecheckProject(projectDir, log, options.typecheckBuildInfo);
  if (typescript !== undefined) log(`ds-element build: types OK (TypeScript ${typescript})`);
  mkdirSync(join(outDir, "ds-elements"), { recursive: true });
  mkdirSync(join(outDir, "dsnode"), { recursive: true });

  const elements: BuiltElement[] = [];
  const shared = new SharedPackages(outDir);
  for (const [index, entry] of entries.entries()) {
    // Staged at the same depth as the final folder, so the map's relative source paths stay right.
    const stagingDir = join(outDir, "ds-elements", `.staging-${index}`);
    let found: Map<string, string>;
    let inputs: string[];
    let manifest: ManifestV1;
    try {
      ({ nativePackages: found, inputs } = await bundleEntry(entry, stagingDir, { ...options, projectDir }, cwd));
      addSdkRuntimePackages(found, projectDir);
      manifest = loadElementManifest(join(stagingDir, "index.js"), entry, projectDir, cwd).manifest;
      checkManifest(manifest, entry, elements, pkg.name, cwd);
    } catch (error) {
      rmSync(stagingDir, { recursive: true, force: true });
      throw error;
    }
    const directory = join(outDir, "ds-elements", manifest.name);
    renameSync(stagingDir, directory);
    writeFileSync(join(directory, "element.json"), `${JSON.stringify(manifest, null, 2)}\n`);
    const nativePackages = copyNativePackages(found, directory, shared);
    elements.push({ name: manifest.name, entry, directory, manifest, nativePackages, inputs });
    log(`ds-element build: ${manifest.name} -> ${relative(cwd, directory) || directory}`);
  }

  await installHostJs(outDir);

  let nativeCopied = false;
  if (!options.skipNative) {
    const native = options.nativeArtefacts ?? findNativeArtefacts(projectDir);
    const missing = [native.pluginPath, native.runtimePath].filter((file) => !existsSync(file));
    if (missing.length > 0) {
      throw new BuildError(`Expected the native files of ds-element but received missing files: ${missing.join(", ")}`);
    }
    copyFileSync(native.pluginPath, join(outDir, "libgstdsnode.so"));
    copyFileSync(native.runtimePath, join(outDir, "dsnode", "libdsnode-runtime.so.0"));
    nativeCopied = true;
  }

  const plugins = sharedObjects(outDir).filter((file) => file !== "libgstdsnode.so");
  if (plugins.length > 0) {
    throw new BuildError(
      `Expected no *.so file but libgstdsnode.so in ${outDir} but received ${plugins.join(", ")}; ` +
        "GStreamer would try to load each as a plugin: rename them (e.g. libfoo.so.1) or load them from outside dist/",
    );
  }
  return { outDir, elements, nativeCopied };
}
