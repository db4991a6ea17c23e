// Prints the results as tables with the ratios the targets are about (TS / gst-python per
// buffer, TS / C for gst-inspect).

const fixed = (value, digits) => (value === null || value === undefined || Number.isNaN(value) ? "-" : value.toFixed(digits));

function table(header, rows) {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => String(row[column]).length)));
  const line = (cells) => "  " + cells.map((cell, column) => (column === 0 ? String(cell).padEnd(widths[column]) : String(cell).padStart(widths[column]))).join("  ");
  return [line(header), "  " + widths.map((width) => "-".repeat(width)).join("  "), ...rows.map(line)].join("\n");
}

const verdict = (value, target) => (value === null ? "n/a" : value <= target ? `meets target <= ${target}` : `MISSES target <= ${target}`);

export function printHeader({ machine, versions, native, settings }) {
  console.log(`\nds-element benchmark  ${machine.date}`);
  console.log(`  machine   ${machine.cpu}, ${machine.cores} cores, ${machine.memory}, ${machine.kernel}, virtualization: ${machine.virtualization}, loadavg ${machine.load}`);
  console.log(`  versions  GStreamer ${versions.gstreamer}, tooling node ${versions.node}, libnode ${versions.libnode}, gst-python ${versions.gstPython} (Python ${versions.python}), commit ${versions.commit}`);
  // Sections 1 and 2 only (the metadata section builds its own peers).
  if (native) console.log(`  native    ${native.source} (plugin ${native.pluginSha256}, runtime ${native.runtimeSha256}); tunables read: ${native.tunables.join(", ") || "none"}`);
  const quiet = machine.idleBusyCores < 0.1 ? "quiet" : "NOT quiet: figures will be noisy, the TypeScript ones most";
  console.log(`  idle load ${machine.idleBusyCores.toFixed(2)} of ${machine.cores} cores busy before starting (${quiet})`);
  const parts = [];
  if (settings.sections.includes("per-buffer")) parts.push(`${settings.buffers} buffers x ${settings.rounds} interleaved rounds (+1 warm-up)`);
  if (settings.sections.includes("inspect")) parts.push(`${settings.inspectRuns} gst-inspect runs per element`);
  if (settings.sections.includes("meta")) parts.push(`${settings.metaObjects} objects x ${settings.metaRounds} rounds x ${settings.metaTrials} trials per metadata peer`);
  console.log(`  settings  ${parts.join(", ")}`);
}

export function printPerBuffer(results, ratios, buffers, load, cores, steady) {
  console.log(`\n1. Per-buffer overhead over identity (gst-launch PLAYING->EOS, median of the rounds)`);
  console.log(`   videotestsrc num-buffers=${buffers} ! video/x-raw,format=GRAY8,width=16,height=16 ! <element> ! fakesink\n`);
  const rows = results.map((result) => [
    result.label,
    fixed(result.seconds.median * 1000, 1),
    `${fixed(result.seconds.min * 1000, 1)}-${fixed(result.seconds.max * 1000, 1)}`,
    result.peer === "baseline" ? "0 (baseline)" : fixed(result.overheadUs, 2),
    result.peer === "ts" && ratios.python ? fixed(result.overheadUs / ratios.python, 3) : "",
    result.peer === "baseline" ? "" : fixed(result.bestRunOverheadUs, 2),
    fixed(result.processCpuS, 2),
    result.handoff ? `${result.handoff["caller-spin-hits"] ?? "?"}/${result.handoff["caller-sleeps"] ?? "?"}/${result.handoff["JS-spin-hits"] ?? "?"}/${result.handoff["JS-wakes"] ?? "?"}` : "",
  ]);
  console.log(table(["configuration", "median ms", "min-max ms", "overhead us/buf", "x gst-python", "best-run us/buf", "process CPU s", "hand-off spin-hit/sleep/JS-hit/JS-wake"], rows));
  console.log(`\n   At ${buffers} buffers (a run's one-off costs included):`);
  console.log(`   TS (default) overhead     ${fixed(ratios.ts, 2)} us/buffer`);
  console.log(`   gst-python overhead       ${fixed(ratios.python, 2)} us/buffer`);
  console.log(`   ratio TS / gst-python     ${fixed(ratios.tsToPython, 3)}   (${verdict(ratios.tsToPython, 0.1)})`);
  console.log(`   best-run ratio            ${fixed(ratios.bestRunTsToPython, 3)}   (fastest run of each against the fastest identity run)`);
  if (steady) {
    console.log(`\n   Steady state: the cost of one more buffer, the slope between ${steady.buffers} and ${steady.longBuffers} buffers (medians of each):\n`);
    const steadyRows = steady.results.map((result) => [
      result.label,
      fixed(result.longMedianS * 1000, 1),
      fixed(result.usPerBuffer, 2),
      result.peer === "baseline" ? "0 (baseline)" : fixed(result.overheadUs, 2),
      result.peer === "baseline" ? "" : fixed(result.oneOffMs, 1),
    ]);
    console.log(table(["configuration", `median ms @${steady.longBuffers}`, "us per buffer", "overhead us/buf", `one-off ms over identity`], steadyRows));
    console.log(`\n   steady-state ratio TS / gst-python   ${fixed(steady.tsToPython, 3)}   (${verdict(steady.tsToPython, 0.1)})`);
    console.log(`   one-off: what a run costs beyond its buffers (the TypeScript element's JIT warm-up, mostly), over identity's`);
  }
  console.log(`   process CPU s: whole gst-launch process incl. start-up (Node/Python), user+sys; spinning shows up here.`);
  console.log(`   hand-off counters (DS_ELEMENT_HANDOFF_STATS=1) are from the median run.`);
  const warning = load.backgroundCores >= 0.1 ? "  WARNING: other work competed for the cores; the spin hand-off needs a spare core" : "";
  console.log(`   background load during these runs: ${load.backgroundCores.toFixed(2)} of ${cores} cores${warning}`);
}

export function printInspect(results, ratio, lazy) {
  console.log(`\n2. gst-inspect-1.0 <element>, warm private registry (wall time of the command, median)\n`);
  const identity = results.find((result) => result.element === "identity");
  const rows = results.map((result) => [
    result.element,
    fixed(result.seconds.median * 1000, 1),
    `${fixed(result.seconds.min * 1000, 1)}-${fixed(result.seconds.max * 1000, 1)}`,
    fixed(result.seconds.median / identity.seconds.median, 2),
  ]);
  console.log(table(["element", "median ms", "min-max ms", "x identity"], rows));
  console.log(`\n   ratio noopts / identity   ${fixed(ratio, 2)}   (${verdict(ratio, 1.3)})`);
  const seen = lazy.inspectLoadedLibnode ? `LOADED libnode: ${lazy.inspectLibnodeLines[0]}` : `no "loading libnode" line`;
  const control = lazy.pipelineLoadedLibnode ? "a pipeline running noopts does print it" : "WARNING: a pipeline running noopts did not print it either, so this check sees nothing";
  console.log(`   ${lazy.command}: ${seen} (${control})`);
}

export function printMeta(meta, cores) {
  console.log(`\n3. Metadata writes: ns per object, TypeScript API vs C++ Batch interface (portable backend)`);
  console.log(`   ${meta.objects} objects per call into one frame, median of ${meta.rounds} rounds (+${meta.warmup} warm-up) per program, median of ${meta.trials} trials\n`);
  const names = { oneByOne: "one by one (acquire, set 6 members, add)", bulk: "bulk (frame.addObjects / add_objects)" };
  const rows = meta.results.map((result) => [
    names[result.mode],
    fixed(result.cpp.nsPerObject, 1),
    fixed(result.ts.nsPerObject, 1),
    fixed(result.ratio, 2),
    `<= ${result.target}`,
    fixed(result.meanRatio, 2),
    fixed(result.bestRatio, 2),
    result.trialRatios.map((ratio) => fixed(ratio, 2)).join(" "),
  ]);
  console.log(table(["path", "C++ ns/obj", "TS ns/obj", "x C++", "target", "mean x C++", "best x C++", "x C++ per trial"], rows));
  console.log("");
  for (const result of meta.results) {
    console.log(`   ratio ${result.mode.padEnd(8)} TS / C++   ${fixed(result.ratio, 2)}   (${verdict(result.ratio, result.target)})`);
  }
  console.log(`   "mean" counts every round (garbage collections included); "best" is the fastest round of each.`);
  const warning = meta.backgroundCores >= 0.1 ? "  WARNING: other work competed for the cores" : "";
  console.log(`   background load during these runs: ${meta.backgroundCores.toFixed(2)} of ${cores} cores${warning}`);
}
