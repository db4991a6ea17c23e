import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { BuildError } from "./build-error.js";

/** The two native files of a dist/ folder, from package ds-element-native. */
export interface NativeArtefacts {
  pluginPath: string;
  runtimePath: string;
}

const FIX = "run `npm run build -w ds-element-native` (in the ds-element repository), or `npm rebuild ds-element-native`";

/**
 * Finds ds-element-native (from the project, else next to the SDK) and checks its files exist.
 * Missing package or files are a BuildError naming the paths tried and the fixing command.
 */
export function findNativeArtefacts(projectDir: string): NativeArtefacts {
  let artefacts: Partial<NativeArtefacts> | undefined;
  const tried: string[] = [];
  for (const from of [join(projectDir, "package.json"), __filename]) {
    try {
      artefacts = createRequire(from)("ds-element-native") as Partial<NativeArtefacts>;
      break;
    } catch (error) {
      tried.push(`${from}: ${(error as Error).message.split("\n")[0]}`);
    }
  }
  if (!artefacts) {
    throw new BuildError(`Cannot find package ds-element-native (${process.platform}-${process.arch}); tried:\n  ${tried.join("\n  ")}\n${FIX}`);
  }
  const missing = [artefacts.pluginPath, artefacts.runtimePath].filter((file) => typeof file !== "string" || !existsSync(file));
  if (missing.length > 0) {
    throw new BuildError(
      `ds-element-native is not built (${process.platform}-${process.arch}): missing ${missing.map(String).join(", ")}\n${FIX}`,
    );
  }
  return artefacts as NativeArtefacts;
}

/**
 * The libnode ds-element-native was built against, as its build recorded it (libnode.json
 * beside the runtime, written by native-host/CMakeLists.txt): the Node that elements run on.
 */
export interface BuiltLibnode {
  /** Node's version, e.g. "20.19.2". */
  version: string;
  /** The shared library's soname, which the plugin loads, e.g. "libnode.so.115". */
  soname: string;
  /** Where the build found it, e.g. "/usr/lib/x86_64-linux-gnu/libnode.so.115". */
  path: string;
}

/** What libnode.json beside `runtimePath` says; undefined when it is missing or unreadable. */
export function builtLibnode(runtimePath: string): BuiltLibnode | undefined {
  try {
    const recorded = JSON.parse(readFileSync(join(dirname(runtimePath), "libnode.json"), "utf8")) as Partial<BuiltLibnode>;
    const { version, soname, path } = recorded;
    return typeof version === "string" && typeof soname === "string" && typeof path === "string" ? { version, soname, path } : undefined;
  } catch {
    return undefined;
  }
}

/** The libnode of the ds-element-native that `projectDir` (else this SDK) finds; undefined when unknown. */
export function projectLibnode(projectDir: string): BuiltLibnode | undefined {
  try {
    return builtLibnode(findNativeArtefacts(projectDir).runtimePath);
  } catch {
    return undefined;
  }
}

/**
 * The esbuild target of an element's bundle: the Node the host embeds (`node20` for Node 20),
 * `node18` (the oldest libnode the host runs on) when that is unknown.
 */
export function hostBundleTarget(libnode: BuiltLibnode | undefined): string {
  const major = libnode ? Number.parseInt(libnode.version, 10) : Number.NaN;
  return Number.isInteger(major) && major > 18 ? `node${major}` : "node18";
}
