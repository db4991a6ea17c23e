// gst-inspect-1.0 shows everything from the manifest, without starting Node.
import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { inspect, repoRoot, scratchDir } from "./helpers/gst";
import { exampleDist } from "./helpers/projects";
import { join } from "node:path";
import { readdirSync, readFileSync } from "node:fs";

describe("gst-inspect-1.0 framecounter", () => {
  // A fresh registry, so the plugin is really scanned (plugin_init runs) in this test.
  const registry = join(scratchDir("inspect"), "registry.bin");
  const loaderLogs = scratchDir("ld-debug");
  const run = inspect(["framecounter"], {
    dists: [exampleDist],
    registry,
    // The dynamic loader logs every library each process opens (gst-inspect and the plugin scanner).
    // DS_ELEMENT_ISOLATE unset: the snapshot shows the isolate property's own default.
    env: { GST_DEBUG: "dsnode:5", LD_DEBUG: "files", LD_DEBUG_OUTPUT: join(loaderLogs, "ld"), DS_ELEMENT_ISOLATE: undefined },
  });
  const librariesOpened = readdirSync(loaderLogs)
    .map((file) => readFileSync(join(loaderLogs, file), "utf8"))
    .join("\n");

  it("exits 0 and shows the element metadata", () => {
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/Long-name\s+Frame counter/);
    expect(run.stdout).toMatch(/Klass\s+Filter\/Analyzer\/Video/);
    expect(run.stdout).toMatch(/Description\s+Counts frames and writes one JSON line per frame/);
    expect(run.stdout).toMatch(/Author\s+ds-element authors <ds-element@example.com>/);
    expect(run.stdout).toMatch(/Name\s+dsnode/);
  });

  it("shows both pad templates with their caps", () => {
    for (const direction of ["SINK", "SRC"]) {
      const template = new RegExp(
        `${direction} template: '${direction.toLowerCase()}'\\s+Availability: Always\\s+Capabilities:\\s+video/x-raw\\s+format: \\{ \\(string\\)RGB, \\(string\\)RGBA \\}`,
      );
      expect(run.stdout).toMatch(template);
    }
  });

  it("shows every property with its type, range, default and description", () => {
    const property = (name: string, blurb: string, detail: string) =>
      expect(run.stdout).toMatch(
        new RegExp(`  ${name}\\s+: ${blurb}\\s+flags: readable, writable, changeable in NULL, READY, PAUSED or PLAYING state\\s+${detail}`),
      );
    property("every-n", "Log a progress line every N frames", "Integer\\. Range: 1 - 2147483647 Default: 1");
    property("rate-window", "Seconds of stream time the frame rate is measured over", "Double\\. Range:\\s+0\\.1 -\\s+60 Default:\\s+1");
    property("label", "Label written into every line", 'String\\. Default: "frames"');
    property("location", "File the JSON lines are written to \\(truncated at start\\) \\(required: no default\\)", "String\\. Default: null");
    property("mode", "fast: write lines in batches; accurate: write each line at once", 'Enum "FramecounterMode" Default: 0, "fast"');
    property("verbose", "Log every frame at DEBUG level", "Boolean\\. Default: false");
    property("tags", "Tags written into every line", 'Default: "<  >"\\s+GstValueArray of GValues of type "gchararray"');
    property("mark-frames", "Frame numbers to log at INFO level", 'Default: "<  >"\\s+GstValueArray of GValues of type "gint"');
    expect(run.stdout).toMatch(/\(1\): accurate\s+- accurate/);
  });

  it("shows what the checked-in surface shows (test/snapshots/framecounter.gst-inspect.txt)", async () => {
    // The element's whole public surface as users see it: a change to a property, a pad
    // template or the element metadata fails here until the snapshot is updated on purpose
    // (`npx vitest run -u test/inspect.test.ts`). Where the plugin lies and trailing blanks
    // are not part of it, nor gst-inspect's own layout of GStreamer 1.26 (Debian 13, sid): an
    // "Element Flags:" heading with no flag under it, and a blank line around each property;
    // 1.28 (sid) also names a list's type after it ("{ (string)RGB, (string)RGBA } (GstValueList)").
    const surface = run.stdout
      .replace(/^(\s+Filename\s+).*\/(libgstdsnode\.so)$/m, "$1<dist>/$2")
      .replace(/[ \t]+$/gm, "")
      .replace(/^Element Flags:\n\n/m, "")
      .replace(/\n\n(?= {2}[a-z][a-z0-9-]*\s+: )/g, "\n")
      .replace(/\n+$/, "\n")
      .replace(/ \(GstValueList\)$/gm, "");
    await expect(surface).toMatchFileSnapshot("snapshots/framecounter.gst-inspect.txt");
  });

  it("registers the element from its manifest without loading libnode", () => {
    // The plugin was scanned in this run: it read the manifest and was opened by the loader…
    expect(run.stderr).toMatch(/registered framecounter from .*element\.json/);
    expect(librariesOpened).toMatch(/libgstdsnode\.so/);
    // …and no process of the run ever opened libnode or the runtime that embeds it.
    expect(run.stderr).not.toMatch(/loading libnode/);
    expect(librariesOpened).not.toMatch(/libnode\.so/);
    expect(librariesOpened).not.toMatch(/libdsnode-runtime/);
  });
});

describe("npm run gst -- <command>", () => {
  it("runs the command with every built example on the plugin path", () => {
    const run = spawnSync(process.execPath, [join(repoRoot, "scripts", "gst.mjs"), "gst-inspect-1.0", "dsnode"], {
      encoding: "utf8",
      env: { ...process.env, GST_REGISTRY_1_0: join(scratchDir("gst-script"), "registry.bin") },
    });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^\s+framecounter: Frame counter$/m);
  });
});
