/**
 * `ds-element dev [--project DIR] [--out DIR] [--no-typecheck] -- <command...>`: builds the
 * project, runs the command (a `gst-launch-1.0` pipeline) with the build on the plugin path and
 * dev mode on (DS_ELEMENT_DEV), watches the sources the bundles were made from, and rebuilds on
 * save. A successful rebuild replaces the bundles in dist/ and rewrites the marker file; the
 * pipeline's host.js sees it and switches every instance of the rebuilt elements to the new
 * code at its next buffer (sdk/src/host-runtime/dev-reload.ts). A failed build changes nothing: the
 * error is printed and the pipeline keeps running the last good build. docs/dev-mode.md.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, watch, writeFileSync, type FSWatcher } from "node:fs";
import { basename, dirname, join, relative, resolve } from "node:path";
import { BuildError } from "./build-error.js";
import { buildProject, type BuildResult } from "./build.js";
import { spawnWithPlugins, type RunOutcome } from "./run.js";

/**
 * Options of {@link runDev}.
 *
 * @example
 * ```ts
 * const options: DevOptions = { projectDir: ".", command: ["gst-launch-1.0", "videotestsrc", "!", "myfilter", "!", "fakesink"] };
 * ```
 */
export interface DevOptions {
  /** The element project (folder of its package.json). */
  projectDir: string;
  /** Where the build goes (the folder put on the plugin path). Default: `<projectDir>/dist`. */
  outDir?: string;
  /** Type-check each build as `ds-element build` does (incrementally after the first). Default: true. */
  typecheck?: boolean;
  /** The command to run, e.g. `["gst-launch-1.0", "videotestsrc", "!", ...]`. */
  command: string[];
  /** Base environment of the command. Default: process.env. */
  env?: NodeJS.ProcessEnv;
  /** Quiet time after a save before rebuilding, in ms. Default: 150. */
  debounceMs?: number;
  /** Progress and error lines. Default: stderr. */
  log?: (line: string) => void;
}

const PREFIX = "ds-element dev:";

/** What host.js reads (sdk/src/host-runtime/dev-reload.ts's DevMarker): written whole, then renamed. */
function writeMarker(marker: string, generation: number, elements: string[]): void {
  const temporary = `${marker}.tmp`;
  writeFileSync(temporary, `${JSON.stringify({ generation, elements })}\n`);
  renameSync(temporary, marker);
}

/** Watches a set of files through their folders (editors often replace a file rather than write it). */
class SourceWatcher {
  readonly #watchers = new Map<string, FSWatcher>();
  #files = new Set<string>();

  constructor(private readonly changed: (file: string) => void) {}

  watch(files: Iterable<string>): void {
    this.#files = new Set(files);
    const folders = new Set([...this.#files].map((file) => dirname(file)));
    for (const [folder, watcher] of this.#watchers) {
      if (folders.has(folder)) continue;
      watcher.close();
      this.#watchers.delete(folder);
    }
    for (const folder of folders) {
      if (this.#watchers.has(folder) || !existsSync(folder)) continue;
      const watcher = watch(folder, (_event, name) => {
        const file = name === null ? undefined : join(folder, name.toString());
        if (file !== undefined && this.#files.has(file)) this.changed(file);
      });
      watcher.on("error", () => undefined); // a folder that went away: the next build watches again
      this.#watchers.set(folder, watcher);
    }
  }

  close(): void {
    for (const watcher of this.#watchers.values()) watcher.close();
    this.#watchers.clear();
  }
}

/** Every file a build depends on: its bundles' sources and the project's own settings. */
function watchedFiles(projectDir: string, result: BuildResult): string[] {
  const settings = ["package.json", "tsconfig.json"].map((name) => join(projectDir, name)).filter((file) => existsSync(file));
  return [...new Set([...result.elements.flatMap((element) => element.inputs), ...settings])];
}

/**
 * Builds, runs `options.command` in dev mode, rebuilds on save until the command exits, and
 * resolves to how it ended. A failure of the first build rejects (there is nothing to run).
 *
 * @example
 * ```ts
 * import { runDev } from "ds-element/cli";
 * const { code } = await runDev({ projectDir: ".", command: ["gst-launch-1.0", "videotestsrc", "is-live=true", "!", "myfilter", "!", "fakesink"] });
 * ```
 */
export async function runDev(options: DevOptions): Promise<RunOutcome> {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const projectDir = resolve(options.projectDir);
  const outDir = resolve(options.outDir ?? join(projectDir, "dist"));
  const typecheck = options.typecheck !== false;
  if (options.command.length === 0) {
    throw new BuildError("Expected a command after -- for ds-element dev but received nothing (usage: ds-element dev [--project DIR] -- gst-launch-1.0 ...)");
  }
  const devDir = join(outDir, ".ds-element-dev");
  const marker = join(devDir, "reload.json");
  const staging = join(devDir, "staging");
  const buildInfo = join(devDir, "tsbuildinfo");

  // The first type check fills tsc's incremental state for the rebuilds (tsc makes the folder).
  rmSync(devDir, { recursive: true, force: true });
  let first: BuildResult;
  try {
    first = await buildProject({ projectDir, outDir, typecheck, typecheckBuildInfo: buildInfo, log });
  } catch (error) {
    rmSync(devDir, { recursive: true, force: true });
    throw error;
  }
  mkdirSync(devDir, { recursive: true });
  let generation = 1;
  writeMarker(marker, generation, first.elements.map((element) => element.name));
  log(`${PREFIX} built ${first.elements.map((element) => element.name).join(", ")} (build 1); watching ${relative(process.cwd(), projectDir) || "."} for changes`);

  let building = false;
  let again = false;
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  const watcher = new SourceWatcher((file) => {
    if (closed) return;
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      log(`${PREFIX} ${relative(projectDir, file)} changed: rebuilding`);
      void rebuild();
    }, options.debounceMs ?? 150);
  });
  watcher.watch(watchedFiles(projectDir, first));

  const rebuild = async (): Promise<void> => {
    if (building) {
      again = true;
      return;
    }
    building = true;
    const started = Date.now();
    try {
      const result = await buildProject({ projectDir, outDir: staging, skipNative: true, typecheck, typecheckBuildInfo: buildInfo, log: () => undefined });
      watcher.watch(watchedFiles(projectDir, result));
      const promoted = promote(result, outDir, log);
      if (promoted.length > 0) {
        generation += 1;
        writeMarker(marker, generation, promoted);
        log(`${PREFIX} build ${generation} of ${promoted.join(", ")} ready in ${((Date.now() - started) / 1000).toFixed(1)} s; the pipeline switches at its next buffer`);
      }
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      log(`${message}\n${PREFIX} the build failed; the pipeline keeps running build ${generation}`);
    } finally {
      building = false;
      if (again && !closed) {
        again = false;
        void rebuild();
      }
    }
  };

  try {
    return await spawnWithPlugins({
      dists: [outDir],
      command: options.command,
      env: { ...(options.env ?? process.env), DS_ELEMENT_DEV: marker },
    });
  } finally {
    closed = true;
    if (timer !== undefined) clearTimeout(timer);
    watcher.close();
    rmSync(devDir, { recursive: true, force: true });
  }
}

/**
 * Moves each rebuilt element's bundle from the staging build into dist/ (a rename: a pipeline
 * that loads it then sees the old file or the new one, never half of one) and returns the
 * elements moved. What a running pipeline cannot take on (a new element, changed properties,
 * caps or native packages) is said, and needs a restart.
 */
function promote(result: BuildResult, outDir: string, log: (line: string) => void): string[] {
  const moved: string[] = [];
  for (const element of result.elements) {
    const target = join(outDir, "ds-elements", element.name);
    if (!existsSync(join(target, "element.json"))) {
      log(`${PREFIX} ${element.name} is a new element: restart the pipeline to use it`);
      continue;
    }
    const manifest = `${JSON.stringify(element.manifest, null, 2)}\n`;
    if (readFileSync(join(target, "element.json"), "utf8") !== manifest) {
      log(
        `${PREFIX} ${element.name}: its declaration changed (properties, caps or metadata): the running pipeline keeps the ` +
          "GStreamer side it started with (restart it to see the change); the new code gets the current property values",
      );
      writeFileSync(join(target, "element.json"), manifest);
    }
    // Native packages sit in dist/node_modules (shared by the elements) or beside the bundle.
    const running = new Set([join(outDir, "node_modules"), join(target, "node_modules")].flatMap((dir) => (existsSync(dir) ? listPackages(dir) : [])));
    const added = element.nativePackages.filter((name) => !running.has(name));
    if (added.length > 0) log(`${PREFIX} ${element.name} now needs ${added.join(", ")}: restart the pipeline to load them`);
    for (const file of ["index.js.map", "index.js"]) {
      const source = join(element.directory, file);
      if (existsSync(source)) renameSync(source, join(target, basename(source)));
    }
    moved.push(element.name);
  }
  return moved;
}

/** The packages of a node_modules folder, scoped ones as "@scope/name". */
function listPackages(nodeModules: string): string[] {
  return readdirSync(nodeModules).flatMap((entry) =>
    entry.startsWith("@") ? readdirSync(join(nodeModules, entry)).map((scoped) => `${entry}/${scoped}`) : [entry],
  );
}
