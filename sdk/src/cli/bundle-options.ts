/**
 * The esbuild options every bundle that runs inside the host shares: one CommonJS file for
 * the Node that libnode embeds, with a linked source map (the host runs Node with
 * --enable-source-maps, so stacks point at the user's .ts lines). The target is Node 18, the
 * oldest libnode the host runs on; `ds-element build` raises it for an element's bundle to the
 * libnode the host was built against (native-artefacts.ts, hostBundleTarget).
 */
import type { BuildOptions } from "esbuild";

export const HOST_BUNDLE_OPTIONS = {
  bundle: true,
  platform: "node",
  target: "node18",
  format: "cjs",
  sourcemap: "linked",
  sourcesContent: true,
  logLevel: "silent",
} as const satisfies BuildOptions;
