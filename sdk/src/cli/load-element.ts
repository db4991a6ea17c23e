/**
 * Reads an element's declaration by loading its freshly built bundle, the way the host will:
 * through host protocol v1, so the bundle's own SDK copy derives the manifest.
 */
import { readFileSync } from "node:fs";
import { createRequire, SourceMap, type SourceMapPayload } from "node:module";
import { isAbsolute, relative, resolve, dirname } from "node:path";
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
 * bundle's source map (Node's own source-map support is off in the build process).
 * Returns the rewritten stack and the first user location.
 */
export function mapStack(
  stack: string,
  bundleFile: string,
  cwd: string,
  projectDir: string,
): { stack: string; first?: string } {
  let map: SourceMap;
  try {
    map = new SourceMap(JSON.parse(readFileSync(`${bundleFile}.map`, "utf8")) as SourceMapPayload);
  } catch {
    return { stack };
  }
  let first: string | undefined;
  const pattern = new RegExp(`${escapeRegExp(bundleFile)}:(\\d+):(\\d+)`, "g");
  const mapped = stack.replace(pattern, (whole, line: string, column: string) => {
    const entry = map.findEntry(Number(line) - 1, Number(column) - 1) as {
      originalSource?: string;
      originalLine?: number;
      originalColumn?: number;
    };
    if (!entry.originalSource || entry.originalLine === undefined) return whole;
    const source = entry.originalSource.startsWith("file://") ? new URL(entry.originalSource).pathname : entry.originalSource;
    const absolute = isAbsolute(source) ? source : resolve(dirname(bundleFile), source);
    const location = `${relative(cwd, absolute)}:${entry.originalLine + 1}:${(entry.originalColumn ?? 0) + 1}`;
    const inProject = !relative(projectDir, absolute).startsWith("..") && !absolute.includes("node_modules");
    if (!first && inProject) first = location;
    return location;
  });
  return first === undefined ? { stack: mapped } : { stack: mapped, first };
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
    const { stack, first } = mapStack(err.stack ?? `${err.name}: ${err.message}`, bundleFile, cwd, projectDir);
    const where = first ?? relative(cwd, entry);
    const detail = stack.split("\n").slice(1).filter((line) => line.trim().startsWith("at ")).slice(0, 8).join("\n");
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
