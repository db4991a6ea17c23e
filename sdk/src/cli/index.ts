/**
 * Programmatic access to the `ds-element` CLI (`require("ds-element/cli")`): build projects
 * and run commands with built dist/ folders on the plugin path.
 *
 * @example
 * ```ts
 * import { buildProject, runWithPlugins } from "ds-element/cli";
 * await buildProject({ projectDir: "." });
 * process.exitCode = await runWithPlugins({ command: ["gst-inspect-1.0", "framecounter"] });
 * ```
 * @packageDocumentation
 */
export { buildProject, type BuildOptions, type BuildResult, type BuiltElement } from "./build.js";
export { buildHost } from "./build-host.js";
export { runDev, type DevOptions } from "./dev.js";
export { BuildError } from "./build-error.js";
export { runWithPlugins, spawnWithPlugins, pluginEnvironment, builtinDists, exitCodeOf, DEFAULT_LIBNODE, type RunOptions, type RunOutcome } from "./run.js";
export { main, type CliOutput } from "./main.js";
