// On the DeepStream backend every distinct user meta type string lives until the process exits
// (nvds_get_user_meta_type makes a GQuark of it, nvdsmeta.c:457-463): an element that builds
// types from data grows without bound. Past a bound (4096, DS_ELEMENT_USER_META_TYPES_WARN
// here), the element warns once, naming itself. The portable backend keeps no such table.
import { describe, expect, it } from "vitest";
import { launch } from "./helpers/gst";
import { fixturesDist, nativeBackend } from "./helpers/projects";

describe.skipIf(nativeBackend !== "deepstream")("user meta types built from data (DeepStream build only)", () => {
  const run = (bound: string) =>
    launch("videotestsrc num-buffers=6 ! usertypes per-buffer=5 ! fakesink", {
      dists: [fixturesDist],
      env: { DS_ELEMENT_USER_META_TYPES_WARN: bound, GST_DEBUG: "usertypes:2" },
    });

  it("past the bound, the element warns once, naming itself and the docs", () => {
    const result = run("12");
    expect(result.code, result.output).toBe(0);
    const warnings = result.output.split("\n").filter((line) => line.includes("distinct user meta types"));
    expect(warnings, result.output).toHaveLength(1);
    expect(warnings[0]).toMatch(/WARN .*usertypes0: 15 distinct user meta types written in this process \(more than 12\): DeepStream keeps every type string until exit/);
    expect(warnings[0]).toContain('docs/metadata.md, "User meta types"');
  });

  it("within the bound, nothing is said", () => {
    const result = run("1000");
    expect(result.code, result.output).toBe(0);
    expect(result.output).not.toContain("distinct user meta types");
  });
});
