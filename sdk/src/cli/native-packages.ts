/**
 * Node-API addons cannot be bundled: they stay `require`s, and their packages are copied into
 * dist/node_modules/, so a dist/ folder still works when copied to another machine of the same
 * platform. One copy serves every element of the dist (Node looks up from
 * dist/ds-elements/<name>/index.js to dist/node_modules): a project of two inference elements
 * carries one ONNX Runtime. Only when two elements need different copies of one package does
 * the second go beside its own bundle (dist/ds-elements/<name>/node_modules/).
 */
import { cpSync, existsSync, readFileSync, realpathSync } from "node:fs";
import { builtinModules, createRequire } from "node:module";
import { join, relative, sep } from "node:path";
import type { Plugin } from "esbuild";

const NATIVE_LOADERS = ["node-gyp-build", "bindings", "prebuild-install", "@mapbox/node-pre-gyp", "node-pre-gyp", "cmake-js"];
const BUILTINS = new Set(builtinModules);

interface PackageJson {
  name?: string;
  gypfile?: boolean;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}

function readPackage(dir: string): PackageJson {
  return JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as PackageJson;
}

/** The folder of the installed package a resolved file belongs to (…/node_modules/[@scope/]name). */
function packageDirOf(file: string): string | undefined {
  const parts = file.split(sep);
  const index = parts.lastIndexOf("node_modules");
  if (index < 0 || index + 1 >= parts.length - 1) return undefined;
  const length = parts[index + 1]?.startsWith("@") ? index + 3 : index + 2;
  return parts.slice(0, length).join(sep);
}

/** Whether a package ships or builds a Node-API addon. */
export function isNativePackage(dir: string): boolean {
  if (existsSync(join(dir, "binding.gyp"))) return true;
  const pkg = readPackage(dir);
  if (pkg.gypfile) return true;
  const deps = { ...pkg.dependencies, ...pkg.optionalDependencies };
  return NATIVE_LOADERS.some((loader) => loader in deps);
}

function packageName(specifier: string): string {
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : (parts[0] ?? specifier);
}

/**
 * esbuild plugin: marks `*.node` files and native packages external, collecting the package
 * folders in `found` (name → folder).
 */
export function nativeExternalsPlugin(found: Map<string, string>): Plugin {
  return {
    name: "ds-element-native-externals",
    setup(build) {
      build.onResolve({ filter: /\.node$/ }, (args) => ({ path: args.path, external: true }));
      build.onResolve({ filter: /^[^./]/ }, async (args) => {
        if (args.pluginData === "ds-element-native-externals" || args.path.startsWith("node:") || BUILTINS.has(args.path)) {
          return undefined;
        }
        const resolved = await build.resolve(args.path, {
          kind: args.kind,
          resolveDir: args.resolveDir,
          importer: args.importer,
          pluginData: "ds-element-native-externals",
        });
        if (resolved.errors.length > 0 || !resolved.path) return undefined;
        const dir = packageDirOf(resolved.path);
        if (!dir || !isNativePackage(dir)) return undefined;
        found.set(packageName(args.path), dir);
        return { path: args.path, external: true };
      });
    },
  };
}

/**
 * Native packages the SDK itself loads at run time, by a require that bundlers cannot see
 * (the ONNX Runtime backend of loadRunner). A project that depends on one gets it copied next
 * to each of its bundles, as if the element's code required it.
 */
const SDK_RUNTIME_PACKAGES = ["onnxruntime-node"];

/** The SDK_RUNTIME_PACKAGES the project at `projectDir` depends on, added to `found`. */
export function addSdkRuntimePackages(found: Map<string, string>, projectDir: string): void {
  const pkg = readPackage(projectDir);
  const declared = { ...pkg.dependencies, ...pkg.optionalDependencies };
  const requireFromProject = createRequire(join(projectDir, "package.json"));
  for (const name of SDK_RUNTIME_PACKAGES) {
    if (!(name in declared) || found.has(name)) continue;
    try {
      const dir = packageDirOf(requireFromProject.resolve(`${name}/package.json`));
      if (dir) found.set(name, dir);
    } catch {
      // declared but not installed: loadRunner says what to install when a model needs it
    }
  }
}

const PLATFORMS = new Set(["linux", "darwin", "win32", "freebsd", "openbsd", "android", "aix", "sunos"]);
const ARCHS = new Set(["x64", "arm64", "arm", "ia32", "ppc64", "s390x", "riscv64", "loong64"]);

/**
 * Whether a path inside a package holds prebuilt binaries of another platform: `<os>/<arch>/`
 * (onnxruntime-node's bin/napi-v6/linux/x64) or `prebuilds/<os>-<arch>/` (node-gyp-build).
 * dist/ is for this platform, and such binaries can be hundreds of MB.
 */
function forAnotherPlatform(parts: readonly string[]): boolean {
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    if (PLATFORMS.has(part) && i + 1 < parts.length && ARCHS.has(parts[i + 1]!)) {
      return part !== process.platform || parts[i + 1] !== process.arch;
    }
    const dashed = /^([a-z0-9]+)-([a-z0-9]+)$/.exec(part);
    if (parts[i - 1] === "prebuilds" && dashed && PLATFORMS.has(dashed[1]!)) {
      return dashed[1] !== process.platform || dashed[2] !== process.arch;
    }
  }
  return false;
}

/**
 * The folder of package `name` as Node would find it from the package at `fromDir`: the first
 * node_modules/<name> up the tree with a package.json. Not `require.resolve("<name>/package.json")`:
 * a package whose "exports" leave package.json out (onnxruntime-common) cannot be resolved that way.
 */
function installedPackageDir(fromDir: string, name: string): string | undefined {
  const lookup = createRequire(join(fromDir, "package.json")).resolve.paths(name) ?? [];
  return lookup.map((modules) => join(modules, name)).find((candidate) => existsSync(join(candidate, "package.json")));
}

/**
 * The packages already in dist/node_modules, by name, with the folder each was copied from:
 * what every element of the dist shares.
 */
export class SharedPackages {
  readonly #copied = new Map<string, string>();

  /** `outDir`: the dist/ folder. */
  constructor(readonly outDir: string) {}

  /**
   * Where `name` from `dir` goes for an element: dist/node_modules (copied, the first time), or
   * undefined when the shared copy comes from another folder (the element then needs its own).
   */
  place(name: string, dir: string): "shared" | "copy" | undefined {
    const source = realpathSync(dir);
    const copied = this.#copied.get(name);
    if (copied === undefined) {
      this.#copied.set(name, source);
      return "copy";
    }
    return copied === source ? "shared" : undefined;
  }
}

function copyPackage(dir: string, target: string): void {
  cpSync(dir, target, {
    recursive: true,
    dereference: true,
    filter: (source) => {
      const parts = relative(dir, source).split(sep);
      return !parts.includes(".git") && !forAnotherPlatform(parts);
    },
  });
}

/**
 * Copies each native package and its runtime dependencies into dist/node_modules (once for all
 * elements, `shared`), or into `<elementDir>/node_modules` when dist/node_modules already holds
 * another copy of it. Returns the package names the element uses.
 */
export function copyNativePackages(found: Map<string, string>, elementDir: string, shared: SharedPackages): string[] {
  const used = new Map<string, string>();
  const queue = [...found.entries()];
  while (queue.length > 0) {
    const [name, dir] = queue.shift()!;
    if (used.has(name)) continue;
    used.set(name, dir);
    const place = shared.place(name, dir);
    if (place === "copy") copyPackage(dir, join(shared.outDir, "node_modules", name));
    else if (place === undefined) copyPackage(dir, join(elementDir, "node_modules", name));
    const pkg = readPackage(dir);
    for (const dependency of Object.keys({ ...pkg.dependencies, ...pkg.optionalDependencies })) {
      const dependencyDir = installedPackageDir(dir, dependency);
      // Not installed (an optional one, say): the package itself decides at run time.
      if (dependencyDir) queue.push([dependency, dependencyDir]);
    }
  }
  return [...used.keys()];
}
