// Every way user code can fail ends in a pipeline ERROR that names the element
// and shows the user's file:line — never a crash, never a hang of the host process.
import { execFileSync } from "node:child_process";
import { cpSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { inspect, launch, scratchDir, type GstRun } from "./helpers/gst";
import { exampleDist, fixturesDist } from "./helpers/projects";

const source = "videotestsrc num-buffers=5 ! video/x-raw,format=RGB,width=64,height=48";

/** The run ended by itself (no signal) with a non-zero status and an ERROR from `element`. */
function expectElementError(run: GstRun, element: string, message: string | RegExp) {
  expect(run.signal, run.output).toBeNull();
  expect(run.code, run.output).not.toBe(0);
  expect(run.output).not.toMatch(/Segmentation fault|Aborted|core dumped/);
  expect(run.stderr).toContain(`ERROR: from element /GstPipeline:pipeline0/DsNode_${element}:${element}0:`);
  if (typeof message === "string") expect(run.stderr).toContain(message);
  else expect(run.stderr).toMatch(message);
}

describe("errors in user code", () => {
  it("a synchronous throw in transform()", () => {
    const run = launch(`${source} ! throwsync ! fakesink`, { dists: [fixturesDist] });
    expectElementError(run, "throwsync", "throwsync: transform failed on frame 0");
    expect(run.stderr).toMatch(/at ThrowSync\.transform \(.*test\/fixtures\/elements\/src\/throwsync\.ts:14:\d+\)/);
  });

  it("a value the SDK refuses: the stack starts at the user's line, without the SDK's frames", () => {
    const run = launch(`${source} ! badvalue confidence=2 ! fakesink`, { dists: [fixturesDist] });
    expectElementError(run, "badvalue", "Expected a number from 0 to 1 (or -0.1 for none) for ObjectMeta.confidence but received 2");
    const frames = run.stderr.split("\n").filter((line) => /^\s+at /.test(line));
    expect(frames[0], run.stderr).toMatch(/^\s+at BadValue\.transform \(.*test\/fixtures\/elements\/src\/badvalue\.ts:14:\d+\)$/);
    expect(run.stderr).not.toContain("ds-element:/");
    expect(run.stderr).not.toMatch(/sdk\/src\/|node_modules\/ds-element\//);
  });

  it("a throw after some buffers went through", () => {
    const run = launch(`${source} ! throwsync after=3 ! fakesink`, { dists: [fixturesDist] });
    expectElementError(run, "throwsync", "throwsync: transform failed on frame 3");
  });

  it("a rejected Promise from an async transform()", () => {
    const run = launch(`${source} ! rejects ! fakesink`, { dists: [fixturesDist] });
    expectElementError(run, "rejects", "rejects: async transform failed on frame 0");
    expect(run.stderr).toMatch(/src\/rejects\.ts:16:\d+/);
  });

  it("process.exit() in user code does not exit the host", () => {
    const run = launch(`${source} ! exits ! fakesink`, { dists: [fixturesDist] });
    expectElementError(run, "exits", "process.exit(3) called by element code; an element cannot exit the host process");
    expect(run.stderr).toMatch(/src\/exits\.ts:12:\d+/);
    // gst-launch itself decided the exit status (1: error while running), not the element's 3.
    expect(run.code).toBe(1);
  });

  it("an uncaught error in a timer is posted on the element that started the timer", () => {
    const run = launch(
      `videotestsrc is-live=true num-buffers=100 ! video/x-raw,format=RGB,width=64,height=48 ! ` +
        `timerthrow delay-ms=0 ! fakesink`,
      { dists: [fixturesDist] },
    );
    expectElementError(run, "timerthrow", "timerthrow: timer callback failed");
    expect(run.stderr).toMatch(/src\/timerthrow\.ts:27:\d+/);
  });

  it("an uncaught error in a timer that a transform() started names that element, not the one before it", () => {
    // Both elements run on the per-buffer fast path, one after the other on one thread; the
    // second starts the timer on its 10th buffer. The first's timer would fire after the run.
    const run = launch(
      `videotestsrc is-live=true num-buffers=100 ! video/x-raw,format=RGB,width=64,height=48 ! ` +
        `timerthrow delay-ms=600000 ! timerthrow from=transform delay-ms=0 ! fakesink`,
      { dists: [fixturesDist] },
    );
    expect(run.signal, run.output).toBeNull();
    expect(run.code, run.output).not.toBe(0);
    expect(run.stderr).toContain("ERROR: from element /GstPipeline:pipeline0/DsNode_timerthrow:timerthrow1:");
    expect(run.stderr).not.toContain("DsNode_timerthrow:timerthrow0:");
    expect(run.stderr).toContain("timerthrow: timer callback failed");
    expect(run.stderr).toMatch(/src\/timerthrow\.ts:27:\d+/);
  });

  it("a nextTick callback that a transform() queued and that throws", () => {
    const location = join(scratchDir("queuework-throws"), "counts.json");
    const run = launch(`videotestsrc num-buffers=50 ! video/x-raw,format=RGB,width=64,height=48 ! queuework location=${location} mode=tick-throws ! fakesink`, { dists: [fixturesDist] });
    expectElementError(run, "queuework", "queuework: nextTick callback failed");
    expect(run.stderr).toMatch(/src\/queuework\.ts:\d+:\d+/);
  });

  it("a Promise a transform() rejected and left unhandled", () => {
    const location = join(scratchDir("queuework-rejects"), "counts.json");
    const run = launch(`videotestsrc num-buffers=50 ! video/x-raw,format=RGB,width=64,height=48 ! queuework location=${location} mode=unhandled-rejection ! fakesink`, { dists: [fixturesDist] });
    expectElementError(run, "queuework", "Unhandled promise rejection in element code: queuework: a rejection nobody handled");
    expect(run.stderr).toMatch(/src\/queuework\.ts:\d+:\d+/);
  });

  it("start() that throws", () => {
    const run = launch(`${source} ! startthrows ! fakesink`, { dists: [fixturesDist] });
    expectElementError(run, "startthrows", "startthrows: start failed");
    expect(run.stderr).toMatch(/src\/startthrows\.ts:12:\d+/);
  });
});

describe("property values the schema rejects", () => {
  it("names the property, the value and the rule", () => {
    const run = launch(`${source} ! strictprop word=ABC ! fakesink`, { dists: [fixturesDist] });
    expectElementError(run, "strictprop", 'Expected a string matching /^[a-z]+$/ for word but received "ABC"');
  });

  it("a required property that was not set", () => {
    const run = launch(`${source} ! framecounter ! fakesink`, { dists: [exampleDist] });
    expectElementError(run, "framecounter", "Expected a string for location but received nothing (the property is required)");
  });
});

describe("broken bundles", () => {
  function copyOfFixtures(): string {
    const dist = join(scratchDir("broken-bundle"), "dist");
    cpSync(fixturesDist, dist, { recursive: true });
    return dist;
  }

  it("a bundle with a syntax error names the bundle and the line", () => {
    const dist = copyOfFixtures();
    const bundle = join(dist, "ds-elements", "throwsync", "index.js");
    writeFileSync(bundle, "'use strict';\nmodule.exports = {\n  default: class {\n};\n");
    const run = launch(`${source} ! throwsync ! fakesink`, { dists: [dist], registry: join(dist, "..", "registry.bin") });
    expectElementError(run, "throwsync", bundle);
    expect(run.stderr).toMatch(/SyntaxError/);
  });

  it("a missing bundle names the path it looked for", () => {
    const dist = copyOfFixtures();
    const bundle = join(dist, "ds-elements", "throwsync", "index.js");
    rmSync(bundle);
    const run = launch(`${source} ! throwsync ! fakesink`, { dists: [dist], registry: join(dist, "..", "registry.bin") });
    expectElementError(run, "throwsync", bundle);
  });

  it("an index.js that is not a regular file (a FIFO) is refused at once, not read (issue 29)", () => {
    const dist = copyOfFixtures();
    const bundle = join(dist, "ds-elements", "throwsync", "index.js");
    rmSync(bundle);
    execFileSync("mkfifo", [bundle]);
    // Reading a FIFO nobody writes to blocks in the kernel, where no deadline reaches.
    const run = launch(`${source} ! throwsync ! fakesink`, { dists: [dist], registry: join(dist, "..", "registry.bin"), timeoutMs: 30_000 });
    rmSync(bundle);
    expectElementError(run, "throwsync", `Expected the bundle of element throwsync at ${bundle} but received a FIFO (named pipe), not a regular file; run \`ds-element build\` again`);
  });
});

describe("a broken element.json", () => {
  it("skips that element only, with a GST_DEBUG warning naming the file and the reason", () => {
    const dist = join(scratchDir("broken-manifest"), "dist");
    cpSync(fixturesDist, dist, { recursive: true });
    const manifest = join(dist, "ds-elements", "rejects", "element.json");
    writeFileSync(manifest, '{ "manifestVersion": 1, "name": "rejects", ');
    const options = { dists: [dist], registry: join(dist, "..", "registry.bin"), env: { GST_DEBUG: "dsnode:2" } };

    const plugin = inspect(["dsnode"], options);
    expect(plugin.code, plugin.output).toBe(0);
    expect(plugin.stderr).toMatch(new RegExp(`WARN .*dsnode .*${manifest.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}.*not valid JSON`));
    expect(plugin.stdout).not.toMatch(/^\s*rejects: /m);
    for (const element of ["throwsync", "exits", "timerthrow", "startthrows", "strictprop"]) {
      expect(plugin.stdout).toMatch(new RegExp(`^\\s*${element}: `, "m"));
    }
    // The other elements of that folder still run.
    const run = launch(`${source} ! throwsync after=10 ! fakesink`, options);
    expect(run.code, run.output).toBe(0);
  });
});
