// Runs real GStreamer command-line tools against built ds-element folders.
import { spawnSync, type SpawnSyncReturns } from "node:child_process";
import { mkdirSync, mkdtempSync } from "node:fs";
import { join, resolve } from "node:path";

export const repoRoot = resolve(__dirname, "..", "..");
/**
 * Where tests write: test/out, or DS_ELEMENT_TEST_OUT (`npm run test:deepstream` uses
 * test/out-deepstream, so its element folders never mix with the portable build's).
 */
export const outRoot = process.env.DS_ELEMENT_TEST_OUT ? resolve(process.env.DS_ELEMENT_TEST_OUT) : join(repoRoot, "test", "out");

/** What a finished GStreamer command left behind. */
export interface GstRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** stdout + stderr, for assertions that don't care which stream. */
  output: string;
}

export interface GstOptions {
  /** dist/ folders put on GST_PLUGIN_PATH. */
  dists: string[];
  env?: Record<string, string | undefined>;
  timeoutMs?: number;
  /** A registry of its own (default: one per test file, shared by its runs). */
  registry?: string;
}

let defaultRegistry: string | undefined;
const scratchDirsMade: string[] = [];

/**
 * A fresh folder under test/out for one test's files. It goes when its test file has passed
 * (test/helpers/scratch-cleanup.ts), and stays when any test of that file failed.
 */
export function scratchDir(prefix: string): string {
  mkdirSync(outRoot, { recursive: true });
  const dir = mkdtempSync(join(outRoot, `${prefix}-`));
  scratchDirsMade.push(dir);
  return dir;
}

/** The folders scratchDir() made in this test file so far, forgotten as they are handed over. */
export function takeScratchDirs(): string[] {
  return scratchDirsMade.splice(0);
}

function registryPath(): string {
  defaultRegistry ??= join(scratchDir("registry"), "registry.bin");
  return defaultRegistry;
}

/** Runs `tool args…` with the given dist folders on the plugin path. Never throws on failure. */
export function runGst(tool: string, args: string[], options: GstOptions): GstRun {
  const env: Record<string, string | undefined> = {
    ...process.env,
    GST_PLUGIN_PATH: options.dists.join(":"),
    GST_PLUGIN_PATH_1_0: undefined,
    GST_REGISTRY_1_0: options.registry ?? registryPath(),
    GST_DEBUG_NO_COLOR: "1",
    ...options.env,
  };
  for (const key of Object.keys(env)) if (env[key] === undefined) delete env[key];
  const result: SpawnSyncReturns<string> = spawnSync(tool, args, {
    env: env as NodeJS.ProcessEnv,
    encoding: "utf8",
    timeout: options.timeoutMs ?? 60_000,
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.error) throw result.error;
  return {
    code: result.status,
    signal: result.signal,
    stdout: result.stdout,
    stderr: result.stderr,
    output: `${result.stdout}\n${result.stderr}`,
  };
}

/** gst-launch-1.0 with a pipeline description given as one string (split on spaces). */
export function launch(pipeline: string, options: GstOptions): GstRun {
  return runGst("gst-launch-1.0", ["-q", ...pipeline.split(/\s+/).filter(Boolean)], options);
}

export function inspect(args: string[], options: GstOptions): GstRun {
  return runGst("gst-inspect-1.0", args, options);
}

/**
 * A python3-gi program of test/stress/ as the GStreamer host. Debian's Python: python3-gi is
 * installed for it, not for any other python3 on PATH.
 */
export function pythonHost(script: string, args: string[], options: GstOptions): GstRun {
  return runGst("/usr/bin/python3", [join(repoRoot, "test", "stress", script), ...args], options);
}
