/**
 * Loads the standalone binding, ds-element-native's `dsnode_standalone.node`: the real metadata binding
 * over the portable backend plus a harness that makes GstBuffers, loadable by any Node (it
 * links GStreamer and the metadata core, not libnode). `ds-element/testing` and the SDK's own
 * tests run transforms over it; inside GStreamer the runtime library's binding is used instead
 * (binding.ts).
 */
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { META_LAYOUT_VERSION } from "../protocol/transform-state.js";
import type { StandaloneHarness, MetaBinding } from "./meta-binding.js";
import type { TensorBinding } from "./tensor-binding.js";

/** What `process.dlopen` of dsnode_standalone.node exports. */
export interface StandaloneBinding {
  readonly meta: MetaBinding;
  readonly harness: StandaloneHarness;
  /** Frame access and ops (Buffer.extract). */
  readonly tensor: TensorBinding;
}

/** What fixes a missing or broken addon, for the error messages. */
const FIX =
  "ds-element-native ships it in build/Release: reinstall it with `npm install ds-element` " +
  "(in the ds-element repository: `npm run build -w ds-element-native`)";

let loaded: { path: string; addon: StandaloneBinding } | undefined;

function platform(): string {
  return `${process.platform}-${process.arch}, Node ${process.versions.node}`;
}

/**
 * Where the addon is: `DSNODE_STANDALONE_BINDING` when set (another build, e.g. with sanitizers, or a
 * bundled test driver that cannot resolve packages from its folder), else ds-element-native's
 * `standaloneBindingPath`. An Error (not thrown) when ds-element-native cannot be resolved.
 */
export function standaloneBindingPath(): string | Error {
  const override = process.env.DSNODE_STANDALONE_BINDING;
  if (override) return override;
  const require = createRequire(__filename);
  try {
    const native = require("ds-element-native") as { standaloneBindingPath?: string; buildDir?: string };
    return native.standaloneBindingPath ?? join(native.buildDir ?? dirname(require.resolve("ds-element-native")), "dsnode_standalone.node");
  } catch (error) {
    return new Error(
      `Cannot find the package ds-element-native (${platform()}), which ds-element depends on: ${(error as Error).message}; ` +
        `install it with \`npm install ds-element\``,
      { cause: error },
    );
  }
}

/**
 * The addon, loaded once per process. Throws an Error naming the path it tried, the platform
 * and the command that fixes it when the addon is missing, does not load, or comes from
 * another release of ds-element.
 */
export function loadStandaloneBinding(): StandaloneBinding {
  const path = standaloneBindingPath();
  if (path instanceof Error) throw path;
  if (loaded?.path === path) return loaded.addon;
  if (!existsSync(path)) {
    throw new Error(`Expected ds-element's standalone binding at ${path} but received no such file (${platform()}); ${FIX}`);
  }
  const module = { exports: {} as Partial<StandaloneBinding> };
  try {
    process.dlopen(module, path);
  } catch (error) {
    throw new Error(`Cannot load ds-element's standalone binding from ${path} (${platform()}): ${(error as Error).message}; ${FIX}`, {
      cause: error,
    });
  }
  const addon = module.exports;
  if (addon.meta?.layoutVersion !== META_LAYOUT_VERSION || typeof addon.harness?.openCall !== "function") {
    throw new Error(
      `Expected metadata layout version ${META_LAYOUT_VERSION} for ${path} but received ${String(addon.meta?.layoutVersion)}: ` +
        "ds-element and ds-element-native are from different releases (reinstall them together)",
    );
  }
  loaded = { path, addon: addon as StandaloneBinding };
  return loaded.addon;
}
