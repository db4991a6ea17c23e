/**
 * Pipeline tests: a real `gst-launch-1.0` with built dist/ folders on the plugin path, as a
 * user's pipeline runs them, from vitest.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { builtinDists, pluginEnvironment } from "../cli/run.js";

/**
 * Options of {@link launchPipeline}.
 *
 * @example
 * ```ts
 * const options: LaunchOptions = { dists: [result.outDir], env: { GST_DEBUG: "mydetector:4" } };
 * ```
 */
export interface LaunchOptions {
  /** Built dist/ folders to put on the plugin path (the SDK's built-in elements, such as dsmetadump, come too). */
  dists: readonly string[];
  /** Variables to set (or, as undefined, unset) for gst-launch-1.0, over this process's environment. */
  env?: Record<string, string | undefined>;
  /** Kills the pipeline (SIGKILL) after this many ms: `timedOut` tells. Default 60 000. */
  timeoutMs?: number;
}

/**
 * How a {@link launchPipeline} run ended and what it printed.
 *
 * @example
 * ```ts
 * expect(run.code, run.stderr).toBe(0);
 * ```
 */
export interface PipelineRun {
  /** gst-launch-1.0's exit status (0: the pipeline reached EOS), or null when a signal ended it. */
  code: number | null;
  /** The signal that ended it, or null. */
  signal: NodeJS.Signals | null;
  /** True when it ran past `timeoutMs` and was killed. */
  timedOut: boolean;
  /** What it printed on standard output: gst-launch-1.0's progress lines (a description starting with `-q` leaves them out) and what elements write there (dsmetadump without a location). */
  stdout: string;
  /** Errors, warnings and GST_DEBUG output. */
  stderr: string;
}

/**
 * Runs `gst-launch-1.0 <description>` with `dists` on the plugin path and resolves when it ends.
 * The pipeline description is split on whitespace as a shell would split it unquoted (quote
 * nothing). It runs with a GStreamer registry of its own, removed afterwards, so a test never
 * changes the user's registry cache. Needs GStreamer's command-line tools
 * (`gstreamer1.0-tools`).
 *
 * @example
 * ```ts
 * import { buildProject } from "ds-element/cli";
 * import { launchPipeline } from "ds-element/testing";
 *
 * const { outDir } = await buildProject({ projectDir: ".", outDir: "/tmp/my-dist", typecheck: false });
 * const run = await launchPipeline(`videotestsrc num-buffers=30 ! video/x-raw,format=RGB ! myfilter ! fakesink`, { dists: [outDir] });
 * expect(run.code, run.stderr).toBe(0);
 * ```
 */
export function launchPipeline(description: string, options: LaunchOptions): Promise<PipelineRun> {
  const registryDir = mkdtempSync(join(tmpdir(), "ds-element-gst-registry-"));
  const env = pluginEnvironment([...options.dists.map((dist) => resolve(dist)), ...builtinDists()], {
    ...process.env,
    GST_REGISTRY_1_0: join(registryDir, "registry.bin"),
    GST_DEBUG_NO_COLOR: "1",
  });
  for (const [name, value] of Object.entries(options.env ?? {})) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  const args = description.split(/\s+/).filter((word) => word !== "");
  return new Promise((done, fail) => {
    const child = spawn("gst-launch-1.0", args, { env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    let timedOut = false;
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill("SIGKILL");
    }, options.timeoutMs ?? 60_000);
    const cleanUp = (): void => {
      clearTimeout(timer);
      rmSync(registryDir, { recursive: true, force: true });
    };
    child.once("error", (error: NodeJS.ErrnoException) => {
      cleanUp();
      fail(
        error.code === "ENOENT"
          ? new Error("Expected gst-launch-1.0 on PATH for launchPipeline() but received nothing; install GStreamer's tools (gstreamer1.0-tools)")
          : error,
      );
    });
    child.once("close", (code, signal) => {
      cleanUp();
      done({ code, signal, timedOut, stdout, stderr });
    });
  });
}
