import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
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
