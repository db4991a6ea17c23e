// GStreamer's own analytics metadata (GstAnalyticsRelationMeta, GStreamer >= 1.24) beside a
// ds-element's objects (docs/gst-analytics.md): GStreamer's objectdetectionoverlay
// (gst-plugins-bad) draws a ds-element detector's boxes, checked on the pixels; the classifiers
// and tracking ids come out related to their detections, read back through GStreamer's library
// (dsanalyticsreader, test/gst-analytics-writer/); and what an upstream element attaches through
// that library (dsanalyticswriter) is read by a ds-element as objects. On GStreamer < 1.24 the
// `gst-analytics-meta` property says the feature is absent and nothing else changes.
import { execFileSync } from "node:child_process";
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { inspect, launch, repoRoot, runGst, scratchDir } from "./helpers/gst";
import { fixturesDist } from "./helpers/projects";

/* eslint-disable @typescript-eslint/no-explicit-any */
type Json = Record<string, any>;

const versionText = runGst("gst-launch-1.0", ["--version"], { dists: [] }).stdout;
const [major, minor] = (/GStreamer (\d+)\.(\d+)/.exec(versionText) ?? ["", "0", "0"]).slice(1).map(Number) as [number, number];
const gstreamer = `${major}.${minor}`;
const hasAnalytics = major > 1 || (major === 1 && minor >= 24);

const native = createRequire(__filename)(join(repoRoot, "native-host", "index.js")) as { buildDir: string };
const testPlugins = join(dirname(native.buildDir), "test-plugins");
const WIDTH = 320;
const HEIGHT = 240;
const source = (frames: number) => `videotestsrc pattern=black num-buffers=${frames} ! video/x-raw,format=RGBA,width=${WIDTH},height=${HEIGHT}`;
const lines = (file: string): Json[] => readFileSync(file, "utf8").trim().split("\n").filter(Boolean).map((l) => JSON.parse(l) as Json);
/** dsanalyticsreader's lines: one per buffer. */
const readerLines = (stdout: string) => stdout.split("\n").filter((line) => line.startsWith("analytics:"));

describe("the gst-analytics-meta property", () => {
  it("is on every ds-element, auto by default, with its values and what it needs", () => {
    const run = inspect(["detections"], { dists: [fixturesDist] });
    expect(run.code, run.output).toBe(0);
    expect(run.stdout).toMatch(/gst-analytics-meta\s+: Also write the objects this element adds .* Needs GStreamer >= 1\.24 \(libgstanalytics-1\.0\)/);
    expect(run.stdout).toMatch(/Enum "DsNodeGstAnalyticsMeta" Default: 0, "auto"/);
    for (const nick of ["auto", "on", "off"]) expect(run.stdout).toMatch(new RegExp(`\\(\\d\\): ${nick}\\s`));
  });
});

describe("a manifest with a property named gst-analytics-meta (written by hand: `ds-element build` refuses the name)", () => {
  it("is skipped with a warning naming the file and the reserved name; the other elements register", () => {
    const dist = join(scratchDir("gst-analytics-reserved"), "dist");
    cpSync(fixturesDist, dist, { recursive: true });
    const manifest = join(dist, "ds-elements", "detections", "element.json");
    const json = JSON.parse(readFileSync(manifest, "utf8")) as { properties: Record<string, unknown>[] };
    Object.assign(json.properties[0]!, { name: "gst-analytics-meta", jsName: "gstAnalyticsMeta" });
    writeFileSync(manifest, JSON.stringify(json));
    const run = inspect(["dsnode"], { dists: [dist], registry: join(dist, "..", "registry.bin"), env: { GST_DEBUG: "dsnode:2" } });
    expect(run.code, run.output).toBe(0);
    expect(run.stderr).toContain(manifest);
    expect(run.stderr).toContain("the name is reserved by the ds-element host (docs/gst-analytics.md)");
    expect(run.stdout).not.toMatch(/^\s*detections: /m);
    expect(run.stdout).toMatch(/^\s*trackeddetector: /m);
  });
});

describe.skipIf(hasAnalytics)(`on GStreamer < 1.24 (this is ${gstreamer}): the analytics library is absent`, () => {
  it("gst-analytics-meta=on refuses to start, naming the library, this GStreamer and the fix", () => {
    const run = launch(`${source(2)} ! detections gst-analytics-meta=on ! fakesink`, { dists: [fixturesDist] });
    expect(run.signal, run.output).toBeNull();
    expect(run.code, run.output).not.toBe(0);
    expect(run.output).toContain("detections0: gst-analytics-meta=on but libgstanalytics-1.0.so.0 not found (");
    expect(run.output).toContain(`GStreamer's analytics metadata needs GStreamer >= 1.24 (this is GStreamer ${gstreamer}`);
    expect(run.output).toContain("Set gst-analytics-meta=auto (or off) to run without it");
  });

  it("auto (the default) runs as before and logs that the feature is not available", () => {
    const dump = join(scratchDir("gst-analytics-auto"), "objects.jsonl");
    const run = launch(`${source(2)} ! detections ! metareader location=${dump} ! fakesink`, {
      dists: [fixturesDist],
      env: { GST_DEBUG: "detections:4" },
    });
    expect(run.code, run.output).toBe(0);
    expect(run.output).toContain("gst-analytics-meta=auto: not available, neither written nor read: libgstanalytics-1.0.so.0 not found");
    expect(lines(dump).map((batch) => batch.frameItems[0].objectItems.length)).toEqual([3, 3]);
  });
});

describe.skipIf(!hasAnalytics)(`on GStreamer >= 1.24 (this is ${gstreamer}): GstAnalyticsRelationMeta written and read`, () => {
  beforeAll(() => {
    execFileSync("cmake", ["--build", dirname(native.buildDir), "--target", "dsnode-gst-analytics-writer"], { stdio: "pipe" });
  });

  /** One RGBA frame after objectdetectionoverlay drew a green outline around each detection. */
  function overlaid(mode: string): { code: number | null; output: string; green: (x: number, y: number) => boolean } {
    const raw = join(scratchDir(`gst-analytics-overlay-${mode}`), "frame.raw");
    const run = launch(
      `${source(1)} ! detections gst-analytics-meta=${mode} ! ` +
        `objectdetectionoverlay draw-labels=false object-detection-outline-color=0xff00ff00 ! filesink location=${raw}`,
      { dists: [fixturesDist] },
    );
    const bytes = run.code === 0 ? readFileSync(raw) : Buffer.alloc(WIDTH * HEIGHT * 4);
    const green = (x: number, y: number) => {
      const i = (y * WIDTH + x) * 4;
      return bytes[i]! < 60 && bytes[i + 1]! > 150 && bytes[i + 2]! < 60;
    };
    return { code: run.code, output: run.output, green };
  }
  const countGreen = (green: (x: number, y: number) => boolean, x0: number, y0: number, x1: number, y1: number) => {
    let n = 0;
    for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) if (green(x, y)) n++;
    return n;
  };
  // The detections fixture's boxes (test/fixtures/elements/src/detections.ts): left, top, width, height.
  const boxes = [
    { label: "car", left: 40, top: 60, width: 80, height: 50 },
    { label: "person", left: 200, top: 5, width: 60, height: 40 },
    { label: "dog", left: 120, top: 150, width: 70, height: 60 },
  ];

  it("GStreamer's objectdetectionoverlay draws a ds-element detector's boxes: on their edges, nowhere else", () => {
    const { code, output, green } = overlaid("auto");
    expect(code, output).toBe(0);
    for (const { label, left, top, width, height } of boxes) {
      const [right, bottom] = [left + width, top + height];
      const midX = left + Math.floor(width / 2);
      const midY = top + Math.floor(height / 2);
      // Each edge is drawn within 2 px of the box's border line, along its whole length.
      for (const [what, x0, y0, x1, y1] of [
        ["top", midX, top - 2, midX + 1, top + 3],
        ["bottom", midX, bottom - 3, midX + 1, bottom + 2],
        ["left", left - 2, midY, left + 3, midY + 1],
        ["right", right - 3, midY, right + 2, midY + 1],
      ] as const)
        expect(countGreen(green, x0, y0, x1, y1), `${label}: ${what} edge`).toBeGreaterThan(0);
      // Inside, 4 px from the edges: nothing.
      expect(countGreen(green, left + 4, top + 4, right - 4, bottom - 4), `${label}: inside`).toBe(0);
    }
    // Away from every box (3 px margin): nothing.
    const nearBox = (x: number, y: number) => boxes.some((b) => x >= b.left - 3 && x < b.left + b.width + 3 && y >= b.top - 3 && y < b.top + b.height + 3);
    let outside = 0;
    for (let y = 0; y < HEIGHT; y++) for (let x = 0; x < WIDTH; x++) if (!nearBox(x, y) && green(x, y)) outside++;
    expect(outside).toBe(0);
  });

  it("gst-analytics-meta=off: the overlay has nothing to draw", () => {
    const { code, output, green } = overlaid("off");
    expect(code, output).toBe(0);
    expect(countGreen(green, 0, 0, WIDTH, HEIGHT)).toBe(0);
  });

  it("writes classifiers and tracking ids related to their detections, read back through GStreamer's library", () => {
    const run = launch(`${source(2)} ! trackeddetector step=20 ! dsanalyticsreader ! fakesink`, { dists: [fixturesDist, testPlugins] });
    expect(run.code, run.output).toBe(0);
    expect(readerLines(run.stdout)).toEqual([
      "analytics: od person 10 20 40 40 0.900 [cls red 0.800] [track 1]; od car 10 80 40 40 0.800 [cls blue 0.800] [track 2]",
      "analytics: od person 30 20 40 40 0.900 [cls red 0.800] [track 1]; od car 30 80 40 40 0.800 [cls blue 0.800] [track 2]",
    ]);
  });

  it("mirrors only what each element adds: a reader downstream of the detector adds no entries", () => {
    const dump = join(scratchDir("gst-analytics-chain"), "objects.jsonl");
    const run = launch(`${source(1)} ! trackeddetector ! metareader location=${dump} ! dsanalyticsreader ! fakesink`, {
      dists: [fixturesDist, testPlugins],
    });
    expect(run.code, run.output).toBe(0);
    expect(readerLines(run.stdout)).toEqual([
      "analytics: od person 10 20 40 40 0.900 [cls red 0.800] [track 1]; od car 10 80 40 40 0.800 [cls blue 0.800] [track 2]",
    ]);
    expect(lines(dump)[0]!.frameItems[0].objectItems).toHaveLength(2);
  });

  it("a ds-element reads upstream object detections, their classifications and tracking id as objects", () => {
    const dump = join(scratchDir("gst-analytics-upstream"), "objects.jsonl");
    const run = launch(`${source(2)} ! dsanalyticswriter ! metareader location=${dump} ! fakesink`, { dists: [fixturesDist, testPlugins] });
    expect(run.code, run.output).toBe(0);
    const batches = lines(dump);
    expect(batches).toHaveLength(2);
    for (const batch of batches) {
      const [car, person, ...rest] = batch.frameItems[0].objectItems;
      expect(rest).toEqual([]);
      expect(car).toMatchObject({
        label: "car",
        classId: -1,
        uniqueComponentId: 124,
        confidence: 0.875,
        objectId: 42,
        rectParams: { left: 40, top: 60, width: 80, height: 50 },
        classifierItems: [
          {
            uniqueComponentId: 124,
            labelInfoItems: [
              { resultLabel: "red", resultProb: 0.75, resultClassId: 0 },
              { resultLabel: "blue", resultProb: 0.25, resultClassId: 1 },
            ],
          },
        ],
      });
      expect(person).toMatchObject({
        label: "person",
        confidence: 0.5,
        rectParams: { left: 200, top: 5, width: 60, height: 40 },
        classifierItems: [{ labelInfoItems: [{ resultLabel: "adult", resultProb: 0.625 }] }],
      });
      // No tracking entry related to it: untracked (UNTRACKED_OBJECT_ID, -1 in TypeScript).
      expect(person.objectId).toBe(-1);
    }
  });

  it("gst-analytics-meta=off reads nothing from upstream", () => {
    const dump = join(scratchDir("gst-analytics-upstream-off"), "objects.jsonl");
    const run = launch(`${source(1)} ! dsanalyticswriter ! metareader gst-analytics-meta=off location=${dump} ! fakesink`, {
      dists: [fixturesDist, testPlugins],
    });
    expect(run.code, run.output).toBe(0);
    // The reader wrote nothing, so no batch went onto the buffer: it read an empty frame.
    expect(lines(dump)[0]!.frameItems[0].objectItems).toEqual([]);
  });

  it("upstream's entries stay, and a detector's are added beside them (not the upstream ones again)", () => {
    const run = launch(`${source(1)} ! dsanalyticswriter ! detections ! dsanalyticsreader ! fakesink`, { dists: [fixturesDist, testPlugins] });
    expect(run.code, run.output).toBe(0);
    expect(readerLines(run.stdout)).toEqual([
      "analytics: od car 40 60 80 50 0.875 [cls red 0.750 blue 0.250] [track 42]; od person 200 5 60 40 0.500 [cls adult 0.625]" +
        // The fixture's classifier goes on the first "car", upstream's: an object that was there before the
        // call, whose entry cannot change (docs/gst-analytics.md, "What is not mirrored").
        "; od car 40 60 80 50 0.900; od person 200 5 60 40 0.700; od dog 120 150 70 60 0.800",
    ]);
  });
});

const hasOrientedBoxes = major > 1 || (major === 1 && minor >= 26);
describe.skipIf(!hasOrientedBoxes)(`oriented boxes on GStreamer >= 1.26 (this is ${gstreamer})`, () => {
  beforeAll(() => {
    execFileSync("cmake", ["--build", dirname(native.buildDir), "--target", "dsnode-gst-analytics-writer"], { stdio: "pipe" });
  });

  it("an object's rotation_angle (degrees) goes out as the od entry's rotation (radians)", () => {
    // metawriter's object: left 10, top 20, 30.5 x 40.25 (rounded to whole pixels), rotationAngle 0.5
    // degrees = 0.0087 radians, classifier red 0.9 / blue 0.8, objectId 0 (frame 0).
    const location = join(scratchDir("gst-analytics-oriented-out"), "written.jsonl");
    const run = launch(`${source(1)} ! metawriter objects=1 location=${location} ! dsanalyticsreader ! fakesink`, {
      dists: [fixturesDist, testPlugins],
    });
    expect(run.code, run.output).toBe(0);
    expect(readerLines(run.stdout)).toEqual(["analytics: od thing-0 10 20 31 40 0.500 r 0.0087 [cls red 0.900 blue 0.800] [track 0]"]);
  });

  it("an upstream oriented box reads as rect_params with rotation_angle in degrees", () => {
    const dump = join(scratchDir("gst-analytics-oriented-in"), "objects.jsonl");
    const run = launch(`${source(1)} ! dsanalyticswriter oriented=true ! metareader location=${dump} ! fakesink`, {
      dists: [fixturesDist, testPlugins],
    });
    expect(run.code, run.output).toBe(0);
    const [car, person, sign] = lines(dump)[0]!.frameItems[0].objectItems;
    expect(car.rectParams.rotationAngle).toBe(0);
    expect(person.rectParams.rotationAngle).toBe(0);
    expect(sign).toMatchObject({ label: "sign", confidence: 0.25, rectParams: { left: 100, top: 100, width: 40, height: 20 } });
    expect(sign.rectParams.rotationAngle).toBeCloseTo(90, 4);
  });
});

describe.skipIf(!hasAnalytics)(`gst-analytics-meta=on on GStreamer >= 1.24 (this is ${gstreamer})`, () => {
  it("starts and writes", () => {
    const run = launch(`${source(1)} ! detections gst-analytics-meta=on ! fakesink`, { dists: [fixturesDist], env: { GST_DEBUG: "detections:4" } });
    expect(run.code, run.output).toBe(0);
    expect(run.output).toContain("GStreamer's analytics metadata is written and read (libgstanalytics-1.0.so.0)");
  });
});
