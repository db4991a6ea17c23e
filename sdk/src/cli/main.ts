/**
 * The `ds-element` command line: build, build-host, run, dev, inspect.
 */
import { parseArgs } from "node:util";
import { SDK_VERSION } from "../version.js";
import { BuildError } from "./build-error.js";
import { buildHost } from "./build-host.js";
import { buildProject } from "./build.js";
import { runDev } from "./dev.js";
import { spawnWithPlugins, exitCodeOf, type RunOutcome } from "./run.js";

const USAGE = `Usage: ds-element <command> [options]

Commands:
  build [--project DIR] [--out DIR] [--skip-native] [--no-typecheck]
        Type-check and bundle the project's elements into DIR (default: <project>/dist),
        a folder to put on GST_PLUGIN_PATH.
  run [--dist DIR]... [--] <command...>
        Run a command with the dist folders (default: ./dist) on GST_PLUGIN_PATH.
  dev [--project DIR] [--out DIR] [--no-typecheck] -- <command...>
        Build, run the command (e.g. gst-launch-1.0 ...) in dev mode, rebuild on save: the
        running pipeline switches to the new code at its next buffer (never in production).
  inspect [--dist DIR]... [element]
        gst-inspect-1.0 with the dist folders on GST_PLUGIN_PATH.
  build-host [--out FILE]
        Bundle the SDK's host.js (used by the SDK's own build).

Options:
  -h, --help     Show this help
  -v, --version  Show the version
`;

/**
 * Where the CLI writes; a seam for tests.
 *
 * @example
 * ```ts
 * const lines: string[] = [];
 * await main(["--version"], { out: (line) => lines.push(line), err: (line) => lines.push(line) });
 * ```
 */
export interface CliOutput {
  /** Writes a line of regular output (stdout). */
  out(line: string): void;
  /** Writes a line of progress or error output (stderr). */
  err(line: string): void;
}

const STDIO: CliOutput = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
};

/** `--dist A --dist=B -- cmd args` → dists [A, B], rest [cmd, args]. Options end at the first other word. */
export function splitRunArguments(argv: string[]): { dists: string[]; rest: string[] } {
  const dists: string[] = [];
  let index = 0;
  while (index < argv.length) {
    const arg = argv[index]!;
    if (arg === "--") {
      index++;
      break;
    }
    if (arg === "--dist") {
      const value = argv[index + 1];
      if (value === undefined) throw new BuildError("Expected a folder after --dist but received nothing");
      dists.push(value);
      index += 2;
    } else if (arg.startsWith("--dist=")) {
      dists.push(arg.slice("--dist=".length));
      index++;
    } else {
      break;
    }
  }
  return { dists, rest: argv.slice(index) };
}

async function runBuild(argv: string[], output: CliOutput): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      project: { type: "string" },
      out: { type: "string" },
      "skip-native": { type: "boolean", default: false },
      "no-typecheck": { type: "boolean", default: false },
    },
    strict: true,
    allowPositionals: false,
  });
  const result = await buildProject({
    projectDir: values.project ?? process.cwd(),
    ...(values.out !== undefined ? { outDir: values.out } : {}),
    skipNative: values["skip-native"],
    typecheck: !values["no-typecheck"],
    log: output.err,
  });
  const native = result.nativeCopied ? "" : " (JavaScript only: --skip-native)";
  output.err(`ds-element build: ${result.elements.length} element(s) in ${result.outDir}${native}`);
  return 0;
}

/** `dev [options] -- <command...>`: the options before `--`, the command after it. */
async function runDevCommand(argv: string[], output: CliOutput): Promise<number> {
  const split = argv.indexOf("--");
  if (split < 0) throw new BuildError("Expected -- before the command of ds-element dev (usage: ds-element dev [--project DIR] -- gst-launch-1.0 ...)");
  const { values } = parseArgs({
    args: argv.slice(0, split),
    options: { project: { type: "string" }, out: { type: "string" }, "no-typecheck": { type: "boolean", default: false } },
    strict: true,
    allowPositionals: false,
  });
  return reraise(
    await runDev({
      projectDir: values.project ?? process.cwd(),
      ...(values.out !== undefined ? { outDir: values.out } : {}),
      typecheck: !values["no-typecheck"],
      command: argv.slice(split + 1),
      log: output.err,
    }),
  );
}

function reraise(outcome: RunOutcome): number {
  if (outcome.signal) {
    // Die of the same signal, so a caller (shell, CI) sees what the child saw.
    process.kill(process.pid, outcome.signal);
  }
  return exitCodeOf(outcome);
}

/**
 * Runs the CLI with `argv` (without node and script) and resolves to the exit code.
 *
 * @example
 * ```ts
 * process.exitCode = await main(["build", "--project", "examples/frame-counter"]);
 * ```
 */
export async function main(argv: string[], output: CliOutput = STDIO): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case "build":
        return await runBuild(rest, output);
      case "build-host": {
        const { values } = parseArgs({ args: rest, options: { out: { type: "string" } }, strict: true });
        const file = await buildHost(values.out !== undefined ? { outFile: values.out } : {});
        output.err(`ds-element build-host: ${file}`);
        return 0;
      }
      case "run": {
        const { dists, rest: commandLine } = splitRunArguments(rest);
        return reraise(await spawnWithPlugins({ dists, command: commandLine }));
      }
      case "dev":
        return await runDevCommand(rest, output);
      case "inspect": {
        const { dists, rest: args } = splitRunArguments(rest);
        return reraise(await spawnWithPlugins({ dists, command: ["gst-inspect-1.0", ...args] }));
      }
      case "-v":
      case "--version":
        output.out(SDK_VERSION);
        return 0;
      case undefined:
      case "-h":
      case "--help":
      case "help":
        output.out(USAGE);
        return command === undefined ? 2 : 0;
      default:
        output.err(`ds-element: unknown command "${command}"\n\n${USAGE}`);
        return 2;
    }
  } catch (error) {
    if (error instanceof BuildError) output.err(error.message);
    else if (error instanceof Error && (error as NodeJS.ErrnoException).code?.startsWith("ERR_PARSE_ARGS")) {
      output.err(`ds-element ${command}: ${error.message}\n\n${USAGE}`);
      return 2;
    } else output.err(`ds-element ${command}: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
}

// `node dist/cli/main.js <command>` (the SDK's own build script) runs the CLI directly.
if (typeof require !== "undefined" && typeof module !== "undefined" && require.main === module) {
  void main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
