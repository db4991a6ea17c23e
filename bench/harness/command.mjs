// Runs one command to completion and keeps what the benchmark reads from it: its output (both
// streams, in arrival order), exit status, wall time, and the CPU time it used.
import { spawn } from "node:child_process";

/** A command's wall time includes process start and exit; the caller decides whether that counts. */
export async function runCommand(argv, { env, timeoutMs = 120_000, cpu = false } = {}) {
  // bash's `times` prints the children's user and system CPU after the command exits: the only
  // portable way to get a child's rusage from Node without a native module or GNU time.
  const [file, ...args] = cpu ? ["bash", "-c", '"$@"; status=$?; times; exit $status', "bench", ...argv] : argv;
  const started = process.hrtime.bigint();
  const child = spawn(file, args, { env, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.setEncoding("utf8").on("data", (chunk) => (output += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk) => (output += chunk));
  const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
  const { code, signal } = await new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code, signal) => resolve({ code, signal }));
  });
  clearTimeout(timer);
  const wallS = Number(process.hrtime.bigint() - started) / 1e9;
  let cpuS = null;
  if (cpu) {
    const times = [...output.matchAll(/^(\d+)m([\d.]+)s (\d+)m([\d.]+)s$/gm)].at(-1);
    if (times) cpuS = Number(times[1]) * 60 + Number(times[2]) + Number(times[3]) * 60 + Number(times[4]);
  }
  return { code, signal, output, wallS, cpuS };
}

/** An Error that shows the command and the end of its output. */
export function commandFailure(what, argv, result) {
  const status = result.signal ? `signal ${result.signal}` : `exit code ${result.code}`;
  const tail = result.output.trim().split("\n").slice(-15).join("\n  ");
  return new Error(`${what} failed (${status}): ${argv.join(" ")}\n  ${tail}`);
}
