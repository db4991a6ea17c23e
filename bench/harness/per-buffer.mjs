// Per-buffer overhead of whole runs: the same pipeline with identity, the gst-python peer and
// the TypeScript element (under each hand-off tunable), one gst-launch process per run, timed
// by gst-launch from PLAYING to EOS, so that starting Node or Python is not counted but each
// run's warm-up is. overhead = (T_element - T_identity) / buffers. The steady state is measured
// in one process (in-process.mjs).
import { commandFailure, runCommand } from "./command.mjs";
import { backgroundCores, machineBusySeconds } from "./cpu-load.mjs";
import { interleaved, summary } from "./statistics.mjs";

/**
 * The configurations of one run. The TypeScript element is measured under the hand-off
 * tunables the runtime reads (native-host/src/runtime/spin_policy.h): the caller's spin
 * DS_ELEMENT_SPIN_US and the JS thread's spin DS_ELEMENT_JS_SPIN_US; 0 means always block.
 * DS_ELEMENT_HANDOFF picks the hand-off itself: `queue` (the JS thread runs each call; the
 * spins above apply) or `direct` (the streaming thread runs it under the isolate's Locker).
 */
export function perBufferConfigurations(tunables) {
  const ts = (label, settings) => ({ label, element: "noopts", peer: "ts", env: settings });
  const configurations = [
    { label: "identity (C)", element: "identity", peer: "baseline", env: {} },
    { label: "noopy (gst-python)", element: "noopy", peer: "python", env: {} },
    ts("noopts (TS), default (direct hand-off)", {}),
  ];
  // The spin tunables shape the queue hand-off only (the default direct hand-off does not
  // spin), so they are measured with DS_ELEMENT_HANDOFF=queue.
  if (tunables.includes("DS_ELEMENT_HANDOFF")) {
    const queue = (label, settings = {}) => ts(`noopts, HANDOFF=queue${label}`, { DS_ELEMENT_HANDOFF: "queue", ...settings });
    configurations.push(queue(""));
    if (tunables.includes("DS_ELEMENT_SPIN_US")) {
      configurations.push(queue(", SPIN_US=0 (caller always blocks)", { DS_ELEMENT_SPIN_US: "0" }));
    }
    if (tunables.includes("DS_ELEMENT_JS_SPIN_US")) {
      configurations.push(queue(", JS_SPIN_US=0 (JS thread sleeps)", { DS_ELEMENT_JS_SPIN_US: "0" }));
      configurations.push(queue(", no spinning", { DS_ELEMENT_SPIN_US: "0", DS_ELEMENT_JS_SPIN_US: "0" }));
    }
  }
  return configurations;
}

export function pipelineCommand(element, buffers) {
  return [
    "gst-launch-1.0", "videotestsrc", `num-buffers=${buffers}`,
    "!", "video/x-raw,format=GRAY8,width=16,height=16",
    "!", element, "!", "fakesink",
  ];
}

/** gst-launch's "Execution ended after 0:00:01.234567890" in seconds. */
export function executionSeconds(output) {
  const match = output.match(/Execution ended after (\d+):(\d+):(\d+)\.(\d+)/);
  if (!match) return null;
  const [, hours, minutes, seconds, fraction] = match;
  return Number(hours) * 3600 + Number(minutes) * 60 + Number(seconds) + Number(`0.${fraction}`);
}

/** The runtime's counters (DS_ELEMENT_HANDOFF_STATS=1): how often each side spun, slept, woke. */
export function handoffStatistics(output) {
  const line = output.match(/^dsnode hand-off: (.*)$/m)?.[1];
  if (!line) return null;
  return Object.fromEntries([...line.matchAll(/([a-zA-Z -]+?) (\d+)(?:, |$)/g)].map(([, name, count]) => [name.trim().replaceAll(" ", "-"), Number(count)]));
}

export async function measurePerBuffer({ env, configurations, buffers, rounds, onProgress }) {
  const runs = new Map(configurations.map((configuration) => [configuration, []]));
  // Round -1 is a warm-up (page cache, registry, CPU frequency) and is not recorded.
  const order = [...interleaved(configurations, 1).map((step) => ({ ...step, round: -1 })), ...interleaved(configurations, rounds)];
  const busyBeforeS = machineBusySeconds();
  const startedAt = process.hrtime.bigint();
  let ownCpuS = 0;
  for (const [index, { round, configuration }] of order.entries()) {
    const argv = pipelineCommand(configuration.element, buffers);
    const runEnv = { ...env, ...configuration.env, ...(configuration.peer === "ts" ? { DS_ELEMENT_HANDOFF_STATS: "1" } : {}) };
    const result = await runCommand(argv, { env: runEnv, cpu: true });
    const seconds = executionSeconds(result.output);
    ownCpuS += result.cpuS ?? 0;
    if (result.code !== 0 || seconds === null || /ERROR/.test(result.output)) {
      throw commandFailure(`${configuration.label} pipeline`, argv, result);
    }
    if (round >= 0) runs.get(configuration).push({ seconds, cpuS: result.cpuS, handoff: handoffStatistics(result.output) });
    onProgress?.(index + 1, order.length);
  }

  const load = {
    backgroundCores: backgroundCores({
      busyBeforeS, busyAfterS: machineBusySeconds(), wallS: Number(process.hrtime.bigint() - startedAt) / 1e9, ownCpuS,
    }),
  };
  const baseline = configurations.find((configuration) => configuration.peer === "baseline");
  const baselineSeconds = summary(runs.get(baseline).map((run) => run.seconds));
  const results = configurations.map((configuration) => {
    const measured = runs.get(configuration);
    const seconds = summary(measured.map((run) => run.seconds));
    const cpuS = summary(measured.map((run) => run.cpuS));
    const medianRun = [...measured].sort((a, b) => a.seconds - b.seconds)[Math.floor(measured.length / 2)];
    return {
      label: configuration.label,
      element: configuration.element,
      peer: configuration.peer,
      env: configuration.env,
      seconds,
      runs: measured.map((run) => run.seconds),
      overheadUs: ((seconds.median - baselineSeconds.median) / buffers) * 1e6,
      // Fastest against fastest: what the element costs when nothing else got in the way.
      bestRunOverheadUs: ((seconds.min - baselineSeconds.min) / buffers) * 1e6,
      processCpuS: cpuS.median,
      handoff: medianRun?.handoff ?? null,
      command: pipelineCommand(configuration.element, buffers).join(" "),
    };
  });
  return { results, load };
}
