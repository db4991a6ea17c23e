/**
 * Caps strings are checked at build time with GStreamer's own parser (the caps property of a
 * capsfilter in a `gst-launch-1.0` pipeline that never runs; an inline caps filter would not
 * do: the launch syntax gives `{ }` a meaning of its own), because the plugin can only skip an element whose caps do not
 * parse, and the user would then see "no element" with the reason buried in GST_DEBUG.
 * Where gst-launch-1.0 is not installed the check is skipped: the plugin still refuses them.
 */
import { spawnSync } from "node:child_process";

/** The parser's complaint about `caps`, or undefined when it parses (or cannot be checked). */
export function capsProblem(caps: string): string | undefined {
  const result = spawnSync("gst-launch-1.0", ["-q", "fakesrc", "num-buffers=0", "!", "capsfilter", `caps=${caps}`, "!", "fakesink"], {
    encoding: "utf8",
    timeout: 10_000,
    env: { ...process.env, GST_DEBUG: "" },
  });
  if (result.error || result.status === 0) return undefined;
  const complaint = /could not set property "caps"[^\n]*/.exec(`${result.stdout}\n${result.stderr}`);
  return complaint ? `GStreamer's parser: ${complaint[0]}` : undefined;
}
