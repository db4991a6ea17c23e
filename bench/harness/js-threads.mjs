// Section 9: JavaScript on every core (issue 28). 1, 2, 4 and 8 independent streams in one
// process, each through an element that spends `busyUs` of synchronous work per buffer
// (bench/elements/src/busy.ts; its gst-python peer busypy holds the GIL the same way). With one
// JS thread per process the elements take turns, so the process's buffers per second stay at
// about 1e6 / busyUs whatever the number of elements; elements on cores of their own would
// multiply it by min(elements, cores). The figure: buffers per second of wall time from PLAYING
// to EOS (streams-bench), and its ratio to one element's.
import { playCells } from "./streams.mjs";
import { median } from "./statistics.mjs";

const CAPS = "video/x-raw,format=GRAY8,width=16,height=16";
export const ELEMENT_COUNTS = [1, 2, 4, 8];
// `own`: each busyts in a Node environment of its own (the isolate property, docs/elements.md),
// so the elements run on as many cores as there are.
export const BUSY_CONFIGURATIONS = [
  { name: "TS (one JS thread)", element: "busyts", properties: "", env: {} },
  { name: "TS (own isolates)", element: "busyts", properties: "isolate=own", env: {} },
  { name: "gst-python (GIL)", element: "busypy", properties: "", env: {} },
];

/** `elements` streams, each `videotestsrc ! <element busy-us=… properties> ! fakesink`, `perStream` buffers each. */
export function busyPipeline(element, elements, perStream, busyUs, properties = "") {
  const stream = `videotestsrc num-buffers=${perStream} ! ${CAPS} ! ${element} busy-us=${busyUs} ${properties} ! fakesink`;
  return Array.from({ length: elements }, () => stream).join(" ");
}

/**
 * Every count × configuration in a process of its own, `rounds` rounds each (the first, the
 * warm-up, not counted), `trials` passes in alternating order. Each element handles
 * `perStream` buffers, so a run takes about elements × perStream × busyUs on one thread.
 */
export async function measureJsThreads({ executable, env, perStream, busyUs, rounds, trials, cores, onProgress }) {
  const cells = BUSY_CONFIGURATIONS.flatMap((configuration) => ELEMENT_COUNTS.map((elements) => ({ configuration, elements, rounds: [] })));
  await playCells({ executable, env, rounds, trials, onProgress, cells, describe: (cell) => ({
    pipeline: busyPipeline(cell.configuration.element, cell.elements, perStream, busyUs, cell.configuration.properties),
    name: `${cell.elements} × ${cell.configuration.element}${cell.configuration.properties ? ` ${cell.configuration.properties}` : ""}`,
  }) });
  const results = cells.map((cell) => {
    const buffers = cell.elements * perStream;
    const wallS = median(cell.rounds.map((round) => round.wall_s));
    const cpuS = median(cell.rounds.map((round) => round.cpu_s));
    return { configuration: cell.configuration.name, elements: cell.elements, buffers, buffersPerS: buffers / wallS, coresBusy: cpuS / wallS, rounds: cell.rounds };
  });
  for (const result of results) {
    const one = results.find((other) => other.configuration === result.configuration && other.elements === 1);
    result.toOneElement = result.buffersPerS / one.buffersPerS;
    result.ideal = Math.min(result.elements, cores);
  }
  return { busyUs, perStream, results };
}

export function printJsThreads({ busyUs, perStream, results }, cores) {
  console.log(`\n9. JavaScript on every core: N streams, each through an element with ${busyUs} µs of synchronous work per buffer (${perStream} buffers each), ${cores} cores`);
  console.log("   configuration          elements  buffers/s  × one element  ideal  cores busy");
  for (const result of results) {
    console.log(
      `   ${result.configuration.padEnd(22)} ${String(result.elements).padStart(8)}  ${result.buffersPerS.toFixed(0).padStart(9)}  ${result.toOneElement.toFixed(2).padStart(13)}  ${String(result.ideal).padStart(5)}  ${result.coresBusy.toFixed(2).padStart(10)}`,
    );
  }
}
