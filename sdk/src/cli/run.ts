/**
 * `ds-element run` / `inspect`: runs a command with built dist/ folders on GStreamer's plugin
 * path, the way a user would after copying dist/ somewhere.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { constants } from "node:os";
import { delimiter, join, resolve } from "node:path";
import { projectLibnode } from "./native-artefacts.js";
import { sdkRoot } from "./sdk-root.js";

/**
 * The shared library of the Node the host embeds: the libnode ds-element-native was built
 * against (its build records it), else Debian 12's Node 18 (`libnode.so.108`) for this
 * architecture; `run` points DS_ELEMENT_LIBNODE at it when it exists.
 *
 * @example
 * ```ts
 * if (existsSync(DEFAULT_LIBNODE)) console.log("the host can start Node");
 * ```
 */
export const DEFAULT_LIBNODE: string =
  projectLibnode(sdkRoot())?.path ?? `/usr/lib/${process.arch === "arm64" ? "aarch64" : "x86_64"}-linux-gnu/libnode.so.108`;

/**
 * Options of {@link runWithPlugins}.
 *
 * @example
 * ```ts
 * const options: RunOptions = { dists: ["examples/frame-counter/dist"], command: ["gst-inspect-1.0", "framecounter"] };
 * ```
 */
export interface RunOptions {
  /** dist/ folders to put on the plugin path. Default: `["./dist"]`. */
  dists?: string[];
  /** The command and its arguments. */
  command: string[];
  /** Base environment. Default: process.env. */
  env?: NodeJS.ProcessEnv;
  /** Working folder of the command (and base of relative `dists`). Default: process.cwd(). */
  cwd?: string;
}

/**
 * How the command ended.
 *
 * @example
 * ```ts
 * const { code, signal } = await spawnWithPlugins({ command: ["gst-inspect-1.0"] });
 * ```
 */
export interface RunOutcome {
  /** The exit status, or null when a signal ended the command. */
  code: number | null;
  /** The signal that ended the command, or null when it exited. */
  signal: NodeJS.Signals | null;
}

function prepend(paths: string[], existing: string | undefined): string {
  return [...paths, ...(existing ? existing.split(delimiter).filter(Boolean) : [])].join(delimiter);
}

/**
 * The environment for a command that should see `dists`: GST_PLUGIN_PATH (and
 * GST_PLUGIN_PATH_1_0 when set, since it takes precedence) with the dists first,
 * DS_ELEMENT_LIBNODE pointing at the host's libnode ({@link DEFAULT_LIBNODE}) when it exists and
 * is not set already, and
 * DS_ELEMENT_PROPERTY_NOTES=1 unless set (a note after GLib's warning when it refuses a value
 * of an element's property).
 *
 * @example
 * ```ts
 * const env = pluginEnvironment(["/abs/dist"], process.env);
 * // env.GST_PLUGIN_PATH === "/abs/dist:<previous GST_PLUGIN_PATH>"
 * ```
 */
export function pluginEnvironment(
  dists: string[],
  base: NodeJS.ProcessEnv = process.env,
  libnode: string = DEFAULT_LIBNODE,
): NodeJS.ProcessEnv {
  // The plugin names what GLib's refusal of an out-of-range property value means for the
  // element (native-host/src/gst/property_notes.h).
  const env: NodeJS.ProcessEnv = { DS_ELEMENT_PROPERTY_NOTES: "1", ...base, GST_PLUGIN_PATH: prepend(dists, base.GST_PLUGIN_PATH) };
  if (base.GST_PLUGIN_PATH_1_0) env.GST_PLUGIN_PATH_1_0 = prepend(dists, base.GST_PLUGIN_PATH_1_0);
  if (!base.DS_ELEMENT_LIBNODE && existsSync(libnode)) env.DS_ELEMENT_LIBNODE = libnode;
  return env;
}

/**
 * The SDK's own built elements (`dsmetadump`, in the package's builtin/dist), when built:
 * `ds-element run` and `inspect` put them on the plugin path after the user's dists.
 * `DS_ELEMENT_BUILTIN_DIST` names another build of them (`npm run test:deepstream` builds
 * them against DeepStream outside the package).
 *
 * @example
 * ```ts
 * builtinDists(); // ["/…/node_modules/ds-element/builtin/dist"]
 * ```
 */
export function builtinDists(): string[] {
  const dist = process.env.DS_ELEMENT_BUILTIN_DIST || join(sdkRoot(), "builtin", "dist");
  return existsSync(join(dist, "ds-elements")) ? [dist] : [];
}

/**
 * The dist folders, absolute (default `./dist`); a missing one is an Error naming it.
 *
 * @example
 * ```ts
 * resolveDists(["examples/frame-counter/dist"]); // ["/abs/examples/frame-counter/dist"]
 * ```
 */
export function resolveDists(dists: string[] | undefined, cwd: string = process.cwd()): string[] {
  return (dists && dists.length > 0 ? dists : ["./dist"]).map((dist) => {
    const absolute = resolve(cwd, dist);
    if (!existsSync(absolute)) {
      throw new Error(`Expected a built dist/ folder for --dist but received ${dist}, which does not exist; run \`ds-element build\` first`);
    }
    return absolute;
  });
}

/**
 * Runs the command with inherited stdio. SIGTERM and SIGHUP sent to this process are passed
 * on; SIGINT and SIGQUIT come from the terminal, which already sent them to the child.
 *
 * @example
 * ```ts
 * const { code } = await spawnWithPlugins({ dists: ["dist"], command: ["gst-inspect-1.0", "framecounter"] });
 * ```
 */
export function spawnWithPlugins(options: RunOptions): Promise<RunOutcome> {
  const cwd = options.cwd ?? process.cwd();
  const dists = resolveDists(options.dists, cwd);
  const [command, ...args] = options.command;
  if (!command) return Promise.reject(new Error("Expected a command for ds-element run but received nothing (usage: ds-element run [--dist DIR]... -- <command...>)"));
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, { cwd, env: pluginEnvironment([...dists, ...builtinDists()], options.env ?? process.env), stdio: "inherit" });
    const forward = (signal: NodeJS.Signals): void => {
      child.kill(signal);
    };
    const ignore = (): void => undefined;
    const handlers: [NodeJS.Signals, (signal: NodeJS.Signals) => void][] = [
      ["SIGTERM", forward],
      ["SIGHUP", forward],
      ["SIGINT", ignore],
      ["SIGQUIT", ignore],
    ];
    for (const [signal, handler] of handlers) process.on(signal, handler);
    const cleanUp = (): void => {
      for (const [signal, handler] of handlers) process.off(signal, handler);
    };
    child.once("error", (error: NodeJS.ErrnoException) => {
      cleanUp();
      reject(
        error.code === "ENOENT"
          ? new Error(`Expected a command on PATH for ds-element run but received ${command}, which was not found`)
          : error,
      );
    });
    child.once("exit", (code, signal) => {
      cleanUp();
      resolvePromise({ code, signal });
    });
  });
}

/**
 * The shell convention for an outcome: the exit code, or 128 + signal number.
 *
 * @example
 * ```ts
 * exitCodeOf({ code: null, signal: "SIGTERM" }); // 143
 * ```
 */
export function exitCodeOf(outcome: RunOutcome): number {
  if (outcome.signal) return 128 + (constants.signals[outcome.signal] ?? 0);
  return outcome.code ?? 1;
}

/**
 * Runs a command with the dist folders on the plugin path and resolves to its exit code
 * (128 + signal number when a signal ended it). Used by `ds-element run` and scripts/gst.mjs.
 *
 * @example
 * ```ts
 * import { runWithPlugins } from "ds-element/cli";
 * process.exitCode = await runWithPlugins({
 *   dists: ["examples/frame-counter/dist"],
 *   command: ["gst-launch-1.0", "videotestsrc", "num-buffers=10", "!", "framecounter", "location=/tmp/fc.jsonl", "!", "fakesink"],
 * });
 * ```
 */
export async function runWithPlugins(options: RunOptions): Promise<number> {
  return exitCodeOf(await spawnWithPlugins(options));
}
