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
  if (settings.sections.includes("per-buffer")) {
    parts.push(`steady state ${settings.trials} processes x ${settings.segmentRounds} rounds x ${settings.segmentBuffers} buffers`);
    parts.push(`whole runs ${settings.buffers} buffers x ${settings.rounds} interleaved rounds (+1 warm-up)`);
  }
  if (settings.sections.includes("inspect")) parts.push(`${settings.inspectRuns} gst-inspect runs per element`);
  if (settings.sections.includes("streams")) parts.push(`many streams: ${settings.streamsTrials} passes x ${settings.streamsRounds} rounds (1 warm-up) x ${settings.streamsBuffers} buffers in all`);
  if (settings.sections.includes("element")) parts.push(`whole element: ${settings.elementTrials} trials per side x ${settings.elementFrames} frames of 1280x720 (after a warm-up round)`);
  if (settings.sections.includes("meta")) parts.push(`${settings.metaObjects} objects x ${settings.metaRounds} rounds x ${settings.metaTrials} trials per metadata peer`);
  console.log(`  settings  ${parts.join(", ")}`);
}

export function printInProcess(run, cores) {
  console.log(`\n1. Per-buffer overhead over identity, steady state: one process plays the three pipelines in turn`);
  console.log(`   videotestsrc num-buffers=${run.buffers} ! video/x-raw,format=GRAY8,width=16,height=16 ! <element> ! fakesink`);
  console.log(`   ${run.trials} processes (dsnode-pipeline-bench) x ${run.rounds} rounds; a round's overhead is its element segment minus its identity segment\n`);
  const rows = run.perTrial.map((trial, index) => [
    String(index + 1),
    fixed(trial.usPerBuffer.identity, 2),
    fixed(trial.overheadUs.noopy, 2),
    fixed(trial.overheadUs.noopts, 2),
    fixed(trial.ratio, 3),
    trial.roundRatioQuartiles.map((value) => fixed(value, 3)).join(" / "),
    `${fixed(trial.firstSegmentMs.identity, 0)} / ${fixed(trial.firstSegmentMs.noopy, 0)} / ${fixed(trial.firstSegmentMs.noopts, 0)}`,
  ]);
  console.log(table(["trial", "identity us/buf", "gst-python overhead us/buf", "TS overhead us/buf", "TS / gst-python", "per-round ratio q1 / median / q3", "first segment ms id / py / TS"], rows));
  console.log(`\n   TS overhead               ${fixed(run.tsOverheadUs, 2)} us/buffer   (median of the trials)`);
  console.log(`   gst-python overhead       ${fixed(run.gstPythonOverheadUs, 2)} us/buffer`);
  console.log(`   ratio TS / gst-python     ${fixed(run.ratioTsToGstPython, 3)}   (${verdict(run.ratioTsToGstPython, 0.1)})`);
  console.log(`   first segment: each element's first ${run.buffers} buffers in its process, start-up (Node, Python) and warm-up included; not counted above`);
  const warning = run.backgroundCores >= 0.1 ? "  WARNING: other work competed for the cores" : "";
  console.log(`   background load during these runs: ${run.backgroundCores.toFixed(2)} of ${cores} cores${warning}`);
}

export function printPerBuffer(results, ratios, buffers, load, cores) {
  console.log(`\n   Whole runs: one gst-launch process per run (PLAYING->EOS, median of the rounds; each run's warm-up included)`);
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
  console.log(`\n   At ${buffers} buffers a run (its warm-up included):`);
  console.log(`   TS (default) overhead     ${fixed(ratios.ts, 2)} us/buffer`);
  console.log(`   gst-python overhead       ${fixed(ratios.python, 2)} us/buffer`);
  console.log(`   ratio TS / gst-python     ${fixed(ratios.tsToPython, 3)}   (whole runs; the target is about the steady state above)`);
  console.log(`   best-run ratio            ${fixed(ratios.bestRunTsToPython, 3)}   (fastest run of each against the fastest identity run)`);
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

export function printOsd(osd, cores) {
  console.log(`\n6. Overlay: ${osd.objects} labelled boxes on a 1280x720 BGRx frame, dsosd against cairooverlay drawing the same (ms per frame)`);
  console.log(`   one process (dsnode-osd-bench), ${osd.rounds} rounds of ${osd.frames} frames per pipeline; median round, quartiles\n`);
  const row = (label, part) => [
    label,
    fixed(part.dsosd.msPerFrame, 3),
    part.dsosd.quartiles.map((value) => fixed(value, 3)).join(" / "),
    fixed(part.cairooverlay.msPerFrame, 3),
    part.cairooverlay.quartiles.map((value) => fixed(value, 3)).join(" / "),
    fixed(part.ratio, 2),
  ];
  console.log(table(["labels", "dsosd ms", "q1 / median / q3", "cairooverlay ms", "q1 / median / q3", "dsosd / cairooverlay"], [
    row("the same every frame", osd.stable),
    row("changing every frame", osd.changing),
  ]));
  const warning = osd.backgroundCores >= 0.1 ? "  WARNING: other work competed for the cores" : "";
  console.log(`\n   background load during these runs: ${osd.backgroundCores.toFixed(2)} of ${cores} cores${warning}`);
}

export function printStreams(streams, settings, cores) {
  console.log(`\n7. Many streams in one process: CPU time per buffer an element handles (whole process, PLAYING->EOS; median of ${settings.streamsTrials} x ${settings.streamsRounds - 1} rounds, each process's warm-up round left out)`);
  console.log(`   N x (videotestsrc num-buffers=${settings.streamsBuffers}/N ! video/x-raw,format=GRAY8,width=16,height=16 ! <element> ! fakesink), or one source ! tee ! 4 x (queue ! <element> ! fakesink)\n`);
  const rows = streams.table.map((row) => [
    row.layout,
    fixed(row.identityUs, 2),
    fixed(row.gstPythonUs, 2),
    fixed(row.tsUs, 2),
    fixed(row.tsToIdentity, 2),
    fixed(row.tsNoTurnsToIdentity, 2),
    fixed(row.tsGateNotSpinningToIdentity, 2),
    fixed(row.gstPythonToIdentity, 2),
    fixed(row.tsQueueSpinningUs, 2),
    fixed(row.tsQueueNotSpinningUs, 2),
    fixed(row.spinCostUs, 2),
  ]);
  console.log(table(["layout", "identity us", "gst-python us", "TS us", "TS / identity", "no turns / identity", "gate no-spin / identity", "gst-python / identity", "TS queue+spin us", "TS queue no-spin us", "spin cost us"], rows));
  const wallRows = streams.table.map((row) => [row.layout, fixed(row.identityWallUs, 2), fixed(row.tsWallUs, 2), fixed(row.tsNoTurnsWallUs, 2), fixed(row.tsWallUs / row.tsNoTurnsWallUs, 2)]);
  console.log("\n   Wall time per buffer (all streams together; lower is more throughput):");
  console.log(table(["layout", "identity us", "TS us", "TS no turns us", "TS / no turns"], wallRows));
  for (const layout of ["1 stream", "4 streams", "16 streams"]) {
    const row = streams.table.find((candidate) => candidate.layout === layout);
    console.log(`${layout === "1 stream" ? "\n" : ""}   TS / identity at ${layout}: ${fixed(row.tsToIdentity, 2)} (${verdict(row.tsToIdentity, 2)})`);
  }
  console.log("   TS: the default direct hand-off (each streaming thread runs its call under the isolate's lock, spinning for it before it sleeps,");
  console.log("   streaming threads taking the isolate in turns of DS_ELEMENT_GATE_TURN_US, 1 ms); no turns: DS_ELEMENT_GATE_TURN_US=0;");
  console.log("   gate no-spin: the same with DS_ELEMENT_SPIN_US=0, every waiter sleeps at once (the convoy); queue: the Node thread runs the calls,");
  console.log("   with or without the streaming threads and the Node thread spinning for each other (spin cost = the difference, per buffer;");
  console.log("   negative: spinning saves more futex sleeps and wake-ups than it burns).");
  const warning = streams.backgroundCores >= 0.1 ? "  WARNING: other work competed for the cores" : "";
  console.log(`   background load during these runs: ${streams.backgroundCores.toFixed(2)} of ${cores} cores${warning}`);
}

export function printElement(element) {
  console.log(`\n8. Whole element: the ball detector (TypeScript) against its gst-python peer (OpenCV resize + numpy, the same ONNX model in a numpy interpreter, numpy decode + NMS)`);
  console.log(`   videotestsrc pattern=ball num-buffers=${element.frames} ! video/x-raw,format=RGB,width=1280,height=720 ! <element> ! fakesink`);
  console.log(`   per frame after ${element.warmUpFrames} warm-up frames: time the element held the buffer, less the model's own time (median of the trials' means)\n`);
  const row = (name, side) => [name, side.heldMs.toFixed(2), side.modelMs.toFixed(2), side.elementMs.toFixed(2), side.runs.map((run) => run.elementMs.toFixed(2)).join(" ")];
  console.log(table(["element", "held ms", "model ms", "held - model ms", "per trial"], [row("TypeScript (balldetector)", element.ts), row("gst-python (ballpy)", element.python)]));
  console.log(`\n   ratio TS / gst-python, model time excluded: ${element.ratio.toFixed(3)} (${verdict(element.ratio, 0.3)}); per trial ${element.trialRatios.map((ratio) => ratio.toFixed(3)).join(" ")}`);
  console.log("   model time: TS, the runner's infer() from call to result (ONNX Runtime's run and the hop to its thread); Python, the interpreter's run.");
  console.log(`   same objects on both sides: ${element.framesCompared - element.disagreements.length} of ${element.framesCompared} frames (class and box within 1 px)`);
}
