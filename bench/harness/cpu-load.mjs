// How busy the machine was with work other than the benchmark. On a small shared machine a
// background job takes the spare core the hand-off spins on, which changes the TypeScript
// figures far more than the C or Python ones, so every result says how loaded the machine was.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";

const TICKS_PER_SECOND = (() => {
  try {
    return Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** Busy CPU seconds of the whole machine so far (every core, every process), from /proc/stat. */
export function machineBusySeconds() {
  const fields = readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(/\s+/).slice(1).map(Number);
  const [user, nice, system, idle, iowait, irq, softirq, steal] = fields;
  return (user + nice + system + irq + softirq + (steal ?? 0)) / TICKS_PER_SECOND;
}

/** Cores kept busy by others over a span in which the benchmark itself used ownCpuS. */
export function backgroundCores({ busyBeforeS, busyAfterS, wallS, ownCpuS }) {
  return Math.max(0, (busyAfterS - busyBeforeS - ownCpuS) / wallS);
}

/** Busy cores while the benchmark does nothing. */
export async function idleLoad(milliseconds = 2000) {
  const before = machineBusySeconds();
  await sleep(milliseconds);
  return (machineBusySeconds() - before) / (milliseconds / 1000);
}
