// gst-inspect cost: a TypeScript element must cost about what a C element costs to inspect,
// because the plugin registers it from element.json and loads libnode only when an element
// starts. Measured with a warm registry, as wall time of the whole command.
import { commandFailure, runCommand } from "./command.mjs";
import { interleaved, summary } from "./statistics.mjs";

const LIBNODE_LINE = /loading libnode/;

export async function measureInspect({ env, elements, runs, onProgress }) {
  const times = new Map(elements.map((element) => [element, []]));
  for (const element of elements) await inspect(env, element); // warm: registry and page cache
  const order = interleaved(elements, runs);
  for (const [index, { configuration: element }] of order.entries()) {
    times.get(element).push(await inspect(env, element));
    onProgress?.(index + 1, order.length);
  }
  return elements.map((element) => ({ element, seconds: summary(times.get(element)), runs: times.get(element) }));
}

async function inspect(env, element) {
  const argv = ["gst-inspect-1.0", element];
  const result = await runCommand(argv, { env });
  if (result.code !== 0) throw commandFailure(`inspecting ${element}`, argv, result);
  return result.wallS;
}

/**
 * Whether gst-inspect of the TypeScript element loaded libnode, read from the plugin's own
 * GST_DEBUG line. A pipeline that starts the element must print that line, which proves the
 * check can see it at all.
 */
export async function checkLazyLibnode({ env, element }) {
  const debugEnv = { ...env, GST_DEBUG: "dsnode:5", GST_DEBUG_NO_COLOR: "1" };
  const inspectArgv = ["gst-inspect-1.0", element];
  const inspected = await runCommand(inspectArgv, { env: debugEnv });
  if (inspected.code !== 0) throw commandFailure(`inspecting ${element} with GST_DEBUG`, inspectArgv, inspected);
  const controlArgv = ["gst-launch-1.0", "videotestsrc", "num-buffers=1", "!", element, "!", "fakesink"];
  const control = await runCommand(controlArgv, { env: debugEnv });
  if (control.code !== 0) throw commandFailure(`running ${element} with GST_DEBUG`, controlArgv, control);
  return {
    command: `GST_DEBUG=dsnode:5 ${inspectArgv.join(" ")}`,
    inspectLoadedLibnode: LIBNODE_LINE.test(inspected.output),
    inspectLibnodeLines: inspected.output.split("\n").filter((line) => LIBNODE_LINE.test(line)),
    pipelineLoadedLibnode: LIBNODE_LINE.test(control.output),
  };
}
