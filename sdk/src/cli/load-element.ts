/**
 * Reads an element's declaration by loading its freshly built bundle, the way the host will:
 * through host protocol v1, so the bundle's own SDK copy derives the manifest.
 */
import { readFileSync } from "node:fs";
import { createRequire, SourceMap, type SourceMapPayload } from "node:module";
import { dirname, isAbsolute, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { SDK_SOURCE_SCHEME } from "../host-runtime/user-stack.js";
import { HOST_PROTOCOL_V1, type ElementAdapterV1, type HostServicesV1 } from "../protocol/host-protocol-v1.js";
import type { ManifestV1 } from "../protocol/manifest.js";
import { BuildError } from "./build-error.js";

const BUILD_SERVICES: HostServicesV1 = {
  log: () => undefined,
  postError: () => undefined,
};

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * Rewrites `bundle.js:line:col` positions in a stack to the TypeScript sources, using the
 * bundle's source map (Node's own source-map support stays off in the build process).
 * Returns the rewritten stack, the frames in the user's project and the first such location.
 */
export function mapStack(
  stack: string,
  bundleFile: string,
  cwd: string,
  projectDir: string,
): { stack: string; ownFrames: string[]; first?: string } {
  let map: SourceMap | undefined;
  try {
    map = new SourceMap(JSON.parse(readFileSync(`${bundleFile}.map`, "utf8")) as SourceMapPayload);
  } catch {
    map = undefined;
  }
  const pattern = new RegExp(`${escapeRegExp(bundleFile)}:(\\d+):(\\d+)`);
  const ownFrames: string[] = [];
  let first: string | undefined;
  const lines = stack.split("\n").map((line) => {
    const match = map ? pattern.exec(line) : null;
    if (!map || !match) return line;
    const entry = map.findEntry(Number(match[1]) - 1, Number(match[2]) - 1) as {
      originalSource?: string;
      originalLine?: number;
      originalColumn?: number;
    };
    if (!entry.originalSource || entry.originalLine === undefined) return line;
    // The SDK's own frames (named by URL in the map, see rewriteSdkSources) are never the user's.
    if (entry.originalSource.startsWith(SDK_SOURCE_SCHEME)) {
      return line.replace(match[0], `${entry.originalSource}:${entry.originalLine + 1}:${(entry.originalColumn ?? 0) + 1}`);
    }
    const source = entry.originalSource.startsWith("file://") ? fileURLToPath(entry.originalSource) : entry.originalSource;
    const absolute = isAbsolute(source) ? source : resolve(dirname(bundleFile), source);
    const location = `${relative(cwd, absolute)}:${entry.originalLine + 1}:${(entry.originalColumn ?? 0) + 1}`;
    const mapped = line.replace(match[0], location);
    if (!relative(projectDir, absolute).startsWith("..") && !absolute.includes("node_modules")) {
      first ??= location;
      ownFrames.push(mapped);
    }
    return mapped;
  });
  const result = { stack: lines.join("\n"), ownFrames };
  return first === undefined ? result : { ...result, first };
}

function describeExport(value: unknown): string {
  if (value === undefined) return "no default export";
  if (typeof value === "function") return `${value.name ? `class ${value.name}` : "a function"}, which does not extend Element.define(...)`;
  return typeof value;
}

/** Loads `bundleFile` (built from `entry`) and returns its manifest. Errors point at the user's source. */
export function loadElementManifest(
  bundleFile: string,
  entry: string,
  projectDir: string,
  cwd: string,
): { adapter: ElementAdapterV1; manifest: ManifestV1 } {
  const require = createRequire(bundleFile);
  const fail = (error: unknown): never => {
    const err = error instanceof Error ? error : new Error(String(error));
    const { stack, first, ownFrames } = mapStack(err.stack ?? `${err.name}: ${err.message}`, bundleFile, cwd, projectDir);
    const where = first ?? relative(cwd, entry);
    const frames = ownFrames.length > 0 ? ownFrames : stack.split("\n").filter((line) => line.trim().startsWith("at "));
    const detail = frames.slice(0, 6).join("\n");
    throw new BuildError(`${where}: error: ${err.message}${detail ? `\n${detail}` : ""}`, { cause: error });
  };
  try {
    const exports = require(bundleFile) as { default?: unknown } | undefined;
    const candidate = exports?.default ?? exports;
    const factory = (candidate as Record<symbol, unknown> | null | undefined)?.[HOST_PROTOCOL_V1];
    if (typeof factory !== "function") {
      throw new BuildError(
        `${relative(cwd, entry)}: error: Expected an element class (export default class ... extends Element.define({...})) ` +
          `for the default export of ${relative(cwd, entry)} but received ${describeExport(candidate)}`,
      );
    }
    const adapter = (factory as (services: HostServicesV1) => ElementAdapterV1).call(candidate, BUILD_SERVICES);
    if (adapter.protocolVersion !== 1) {
      throw new BuildError(`${relative(cwd, entry)}: error: Expected host protocol version 1 for the element class but received ${String(adapter.protocolVersion)}`);
    }
    return { adapter, manifest: adapter.manifest() };
  } catch (error) {
    if (error instanceof BuildError) throw error;
    return fail(error);
  } finally {
    delete require.cache[bundleFile];
  }
}
