// Every way user code can fail ends in a pipeline ERROR that names the element
// and shows the user's file:line — never a crash, never a hang of the host process.
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, readFileSync, rmSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { inspect, launch, repoRoot, scratchDir, type GstRun } from "./helpers/gst";
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

describe("a value out of a property's range on the command line", () => {
  // GObject refuses it before the element exists as far as JavaScript knows: GLib warns, the
  // property keeps its default, the pipeline runs and exits 0. `ds-element run` names the
  // element, the range and the value it runs with.
  it("ds-element run: the plugin adds a note naming the refused value, the element, its range and the default used", () => {
    const run = spawnSync(
      process.execPath,
      [join(repoRoot, "sdk", "bin", "ds-element.js"), "run", "--dist", fixturesDist, "--", "gst-launch-1.0", "-q", ...`${source} ! framemark every=-5 ! fakesink`.split(" ")],
      { encoding: "utf8", timeout: 60_000 },
    );
    expect(run.status, run.stderr).toBe(0);
    const lines = run.stderr.split("\n");
    const glib = lines.findIndex((line) => line.includes(`value "-5" of type 'gint' is invalid or out of range for property 'every' of type 'gint'`));
    expect(glib, run.stderr).toBeGreaterThanOrEqual(0);
    expect(lines[glib + 1]).toBe(
      "ds-element: framemark refused every=-5 (it takes 1 to 2147483647): GObject kept every's previous value; on a gst-launch line that is its default, 3",
    );
  });

  it("a double: its range and default as gst-launch spells them", () => {
    const run = launch(`${source} ! badvalue confidence=1e400 ! fakesink`, { dists: [fixturesDist], env: { DS_ELEMENT_PROPERTY_NOTES: "1" } });
    expect(run.stderr).toContain(
      "ds-element: badvalue refused confidence=inf (it takes a finite number): GObject kept confidence's previous value; on a gst-launch line that is its default, 0.5",
    );
  });

  it("without DS_ELEMENT_PROPERTY_NOTES=1, GLib's warning alone (the plugin leaves GLib's log handlers alone)", () => {
    const run = launch(`${source} ! framemark every=-5 ! fakesink`, { dists: [fixturesDist], env: { DS_ELEMENT_PROPERTY_NOTES: undefined } });
    expect(run.code, run.output).toBe(0);
    expect(run.stderr).toContain(`value "-5" of type 'gint' is invalid or out of range for property 'every'`);
    expect(run.stderr).not.toContain("ds-element: framemark refused");
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

/** A RegExp matching `text` literally. */
const literally = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");

describe("element.json files the plugin cannot use", () => {
  // One folder, one gst-inspect: rejects' element.json is a 4 GiB sparse file, exits' a link
  // to nothing; every other element registers.
  const dist = join(scratchDir("unusable-manifests"), "dist");
  cpSync(fixturesDist, dist, { recursive: true });
  const huge = join(dist, "ds-elements", "rejects", "element.json");
  truncateSync(huge, 4 * 2 ** 30);
  const dangling = join(dist, "ds-elements", "exits", "element.json");
  rmSync(dangling);
  symlinkSync(join(dist, "nowhere", "element.json"), dangling);
  const options = { dists: [dist], registry: join(dist, "..", "registry.bin"), env: { GST_DEBUG: "dsnode:2" } };
  const started = Date.now();
  const plugin = inspect(["dsnode"], options);
  const seconds = (Date.now() - started) / 1000;

  it("a 4 GiB element.json is refused unread, naming the file, its size and the 4 MiB cap", () => {
    expect(plugin.code, plugin.output).toBe(0);
    expect(plugin.stderr).toMatch(
      new RegExp(`WARN .*dsnode .*skipping ${literally(huge)}: it is 4294967296 bytes, more than a manifest may be \\(4194304 bytes, 4 MiB\\)`),
    );
    expect(plugin.stdout).not.toMatch(/^\s*rejects: /m);
    // It took 72 s and 8.4 GB before "not valid JSON".
    expect(seconds).toBeLessThan(20);
  });

  it("an element.json that is a link to nothing is skipped with a warning naming it", () => {
    expect(plugin.stderr).toMatch(
      new RegExp(`WARN .*dsnode .*skipping ${literally(dangling)}: ${literally(dangling)} is a symbolic link to ${literally(join(dist, "nowhere", "element.json"))}, which does not exist`),
    );
    expect(plugin.stdout).not.toMatch(/^\s*exits: /m);
    for (const element of ["throwsync", "timerthrow", "startthrows", "strictprop"]) {
      expect(plugin.stdout).toMatch(new RegExp(`^\\s*${element}: `, "m"));
    }
  });
});

describe("an element.json that disagrees with its bundle", () => {
  /** A copy of the fixtures whose `element` element.json has `edit` applied to its one property. */
  function staleManifest(element: string, edit: (property: Record<string, unknown>) => void): { dist: string; manifest: string; bundle: string } {
    const dist = join(scratchDir(`stale-${element}`), "dist");
    cpSync(fixturesDist, dist, { recursive: true });
    const manifest = join(dist, "ds-elements", element, "element.json");
    const json = JSON.parse(readFileSync(manifest, "utf8")) as { properties: Record<string, unknown>[] };
    edit(json.properties[0]!);
    writeFileSync(manifest, JSON.stringify(json, null, 2));
    return { dist, manifest, bundle: join(dist, "ds-elements", element, "index.js") };
  }

  // On main: framemark ran with every=3 (its default), count=7 lost, exit 0.
  it("another property name: refused, naming both files and `ds-element build`, instead of running with the default", () => {
    const { dist, manifest, bundle } = staleManifest("framemark", (property) => Object.assign(property, { name: "count", jsName: "count" }));
    const run = launch(`${source} ! framemark count=7 ! fakesink`, { dists: [dist], registry: join(dist, "..", "registry.bin") });
    expectElementError(
      run,
      "framemark",
      `Expected the properties of ${manifest} in ${bundle} but received other ones: count (int) is only in element.json; every (int) is only in the bundle. ` +
        "The two files are from different builds (a property set under a name the bundle does not have would be lost): run `ds-element build` again",
    );
  });

  it("another property type: refused, naming the property and both types", () => {
    const { dist } = staleManifest("throwsync", (property) => Object.assign(property, { type: "double", maximum: 1e9 }));
    const run = launch(`${source} ! throwsync after=10 ! fakesink`, { dists: [dist], registry: join(dist, "..", "registry.bin") });
    expectElementError(run, "throwsync", "but received other ones: after is double in element.json, int in the bundle.");
  });
});
