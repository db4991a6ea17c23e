// Typed user metas (defineUserMeta) through real pipelines, on the backend of the native build
// under test: the platewriter fixture writes ACME.ANPR.PLATE at batch, frame and object level,
// the platereader fixture reads them downstream with the same definition. On DeepStream, a C
// consumer (test/ds-consumer/user_meta_text.c, linked only against NVIDIA's libraries) finds
// them with nvds_get_user_meta_type and reads user_meta_data as NUL-terminated JSON text.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { launch, repoRoot, runGst, scratchDir } from "./helpers/gst";
import { fixturesDist, nativeBackend } from "./helpers/projects";

const BUFFERS = 3;
const SOURCE = `videotestsrc num-buffers=${BUFFERS} ! video/x-raw,format=RGB,width=320,height=240`;
const native = createRequire(__filename)(join(repoRoot, "native-host", "index.js")) as { buildDir: string };

/** What platewriter writes on buffer n (defaults applied). */
const written = (n: number) => ({
  batch: { text: `batch ${n}`, confidence: 0, region: "IN" },
  frame: { text: `frame ${n}`, confidence: 1, region: "EU" },
  object: { text: `KA "01" ü${n}`, confidence: 0.5 + n / 100, region: "IN" },
});

function readLines(file: string): unknown[] {
  return readFileSync(file, "utf8").trim().split("\n").map((line) => JSON.parse(line) as unknown);
}

describe(`typed user metas in a pipeline (${nativeBackend} backend)`, () => {
  it("an element downstream reads each level's value typed, as written", () => {
    const file = join(scratchDir("typed-user-meta"), "reads.jsonl");
    const run = launch(`${SOURCE} ! platewriter ! platereader location=${file} ! fakesink`, { dists: [fixturesDist] });
    expect(run.code, run.output).toBe(0);
    expect(readLines(file)).toEqual(
      Array.from({ length: BUFFERS }, (_, n) => {
        const { batch, frame, object } = written(n);
        return { batch: [{ value: batch }], frames: [{ frame: [{ value: frame }], all: { values: [frame] }, objects: [[{ value: object }]] }] };
      }),
    );
  });

  it("a meta of that type written with other content gives a clear error, or is skipped with safeAll()", () => {
    const file = join(scratchDir("typed-user-meta"), "reads.jsonl");
    const run = launch(`${SOURCE} ! platewriter foreign=true ! platereader location=${file} ! fakesink`, { dists: [fixturesDist] });
    expect(run.code, run.output).toBe(0);
    const lines = readLines(file) as { frames: { frame: unknown[]; all: unknown; objects: unknown[][] }[] }[];
    expect(lines).toHaveLength(BUFFERS);
    const invalid = (n: number) => ({
      error: "InvalidTypeError",
      message:
        `Expected a string for text of user meta ACME.ANPR.PLATE read from the buffer but received ${n}; ` +
        'Expected a number for confidence of user meta ACME.ANPR.PLATE read from the buffer but received "high"',
    });
    lines.forEach(({ frames: [frame] }, n) => {
      expect(frame!.frame).toEqual([{ value: written(n).frame }, invalid(n)]);
      expect(frame!.all).toEqual(invalid(n));
      expect(frame!.objects).toEqual([
        [
          { value: written(n).object },
          {
            error: "InvalidTypeError",
            message: "Expected a JSON payload (UserMeta.setJson) for user meta ACME.ANPR.PLATE read from the buffer but received a bytes payload (3 bytes)",
          },
        ],
      ]);
    });
  });
});

describe.skipIf(nativeBackend !== "deepstream")("a typed user meta read by C code as JSON text (DeepStream build only)", () => {
  it("user_meta_data is the NUL-terminated JSON text of the value, on the buffer and on its copy", () => {
    execFileSync("cmake", ["--build", dirname(native.buildDir), "--target", "dsnode-user-meta-text"], { stdio: "pipe" });
    const file = join(scratchDir("typed-user-meta"), "reads.jsonl");
    const run = runGst(
      join(dirname(native.buildDir), "dsnode-user-meta-text"),
      [`${SOURCE} ! platewriter ! platereader location=${file} ! identity name=probe ! fakesink`, "ACME.ANPR.PLATE"],
      { dists: [fixturesDist] },
    );
    expect(run.code, run.output).toBe(0);
    const seen = run.stdout.trim().split("\n").map((line) => {
      const [copy, buffer, level, length, text] = line.split("\t") as [string, string, string, string, string];
      expect(Number(length), line).toBe(Buffer.byteLength(text));
      return { copy: Number(copy), buffer: Number(buffer), level, value: JSON.parse(text) as unknown };
    });
    const expected = [0, 1].flatMap((copy) =>
      Array.from({ length: BUFFERS }, (_, n) => [
        { copy, buffer: n, level: "batch", value: written(n).batch },
        { copy, buffer: n, level: "frame 0", value: written(n).frame },
        { copy, buffer: n, level: "object 0.0", value: written(n).object },
      ]).flat(),
    );
    const order = (a: { copy: number; buffer: number }, b: { copy: number; buffer: number }) => a.copy - b.copy || a.buffer - b.buffer;
    expect(seen.sort(order)).toEqual(expected);
    // What C read is what the typed reader downstream read.
    const reads = readLines(file) as { frames: { objects: { value: unknown }[][] }[] }[];
    expect(reads.map((line) => line.frames[0]!.objects[0]![0]!.value)).toEqual(Array.from({ length: BUFFERS }, (_, n) => written(n).object));
  });
});
