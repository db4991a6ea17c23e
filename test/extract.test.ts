// Buffer.extract in real pipelines. Two pixelprobe elements in a row on videotestsrc
// frames of one solid colour: the first records what it extracts (descriptor, pixels,
// preprocess output) and paints one pixel white in place; the second must find that pixel as
// the brightest, which proves the view is zero-copy and writes reach downstream. Planar YUV
// (NV12, I420) is read as it comes, planes and colour conversion included. An unsupported
// format (YUY2) fails the pipeline with the error naming the caps and the fix.
//
// GstCudaMemory (video/x-raw(memory:CUDAMemory)) needs a GPU and GStreamer's nvcodec plugin:
// see "CUDA memory" at the end, skipped where `cudaupload` is missing or cannot start.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { inspect, launch, scratchDir } from "./helpers/gst";
import { fixturesDist } from "./helpers/projects";

interface Line {
  frameNum: number;
  device: { type: string; id: number };
  dtype: string;
  shape: number[];
  strides: number[];
  byteOffset: number;
  format: string;
  owned: boolean;
  first: number[];
  last: number[];
  brightest: { x: number; y: number; sum: number };
  dataPtr: string;
  planes?: { shape: number[]; strides: number[]; byteOffset: number }[];
  colorimetry?: { matrix: string; range: string };
  preprocess: {
    device: { type: string; id: number };
    shape: number[];
    dtype: string;
    first: number;
    firstRgb: number[];
    scaleX: number;
  };
}

function lines(file: string): Line[] {
  return readFileSync(file, "utf8").trim().split("\n").filter(Boolean).map((line) => JSON.parse(line) as Line);
}

const FRAMES = 3;
// ARGB: R 0x10, G 0x20, B 0x30.
const SOURCE = `videotestsrc num-buffers=${FRAMES} pattern=solid-color foreground-color=0xff102030`;

function probe(caps: string, name: string): { a: Line[]; b: Line[]; output: string; code: number | null } {
  const dir = scratchDir(`extract-${name}`);
  const run = launch(
    `${SOURCE} ! ${caps} ! pixelprobe location=${join(dir, "a.jsonl")} paint-x=7 paint-y=5 ! ` +
      `pixelprobe location=${join(dir, "b.jsonl")} ! fakesink`,
    { dists: [fixturesDist] },
  );
  expect(run.signal, run.output).toBeNull();
  expect(run.code, run.output).toBe(0);
  return { a: lines(join(dir, "a.jsonl")), b: lines(join(dir, "b.jsonl")), output: run.output, code: run.code };
}

describe("Buffer.extract in a pipeline", () => {
  it("RGB: a padded-row view of the frame, painted in place for the next element", () => {
    const { a, b } = probe("video/x-raw,format=RGB,width=33,height=17", "rgb");
    expect(a).toHaveLength(FRAMES);
    for (const line of a) {
      expect(line).toMatchObject({
        device: { type: "cpu", id: 0 },
        dtype: "uint8",
        shape: [17, 33, 3],
        strides: [100, 3, 1], // 99 bytes of pixels, rows rounded up to 4
        byteOffset: 0,
        format: "RGB",
        owned: false,
        first: [16, 32, 48],
        last: [16, 32, 48],
        brightest: { x: 0, y: 0, sum: 96 },
        preprocess: { shape: [1, 3, 16, 16], dtype: "float32", first: 16 },
      });
      expect(line.preprocess.scaleX).toBeCloseTo(16 / 33, 6);
    }
    expect(b.map((line) => line.brightest)).toEqual(Array(FRAMES).fill({ x: 7, y: 5, sum: 765 }));
    expect(b.map((line) => line.first)).toEqual(Array(FRAMES).fill([16, 32, 48]));
    // The same memory in both elements: nothing was copied in between.
    expect(b.map((line) => line.dataPtr)).toEqual(a.map((line) => line.dataPtr));
  });

  it("BGRx: blue first, four bytes a pixel", () => {
    const { a, b } = probe("video/x-raw,format=BGRx,width=20,height=10", "bgrx");
    for (const line of a) {
      expect(line).toMatchObject({ shape: [10, 20, 4], strides: [80, 4, 1], format: "BGRx" });
      expect(line.first.slice(0, 3)).toEqual([48, 32, 16]);
      expect(line.preprocess.first).toBe(16); // channel 0 of the RGB output is red
    }
    expect(b.map((line) => line.brightest)).toEqual(Array(FRAMES).fill({ x: 7, y: 5, sum: 765 }));
  });

  it("GRAY8: one byte a pixel", () => {
    const { a, b } = probe("video/x-raw,format=GRAY8,width=21,height=9", "gray8");
    for (const line of a) {
      expect(line).toMatchObject({ shape: [9, 21, 1], strides: [24, 1, 1], format: "GRAY8" });
      expect(line.first).toEqual(line.last); // one solid colour
      expect(line.preprocess.first).toBe(line.first[0]);
    }
    expect(b.map((line) => line.brightest)).toEqual(Array(FRAMES).fill({ x: 7, y: 5, sum: 255 }));
  });

  it("RGBx and BGRA: four bytes a pixel, colour where the format says", () => {
    for (const [format, firstBytes] of [
      ["RGBx", [16, 32, 48]],
      ["BGRA", [48, 32, 16, 255]],
    ] as const) {
      const { a, b } = probe(`video/x-raw,format=${format},width=20,height=10`, format.toLowerCase());
      for (const line of a) {
        expect(line).toMatchObject({ shape: [10, 20, 4], strides: [80, 4, 1], format });
        expect(line.first.slice(0, firstBytes.length)).toEqual(firstBytes);
        expect(line.preprocess.firstRgb).toEqual([16, 32, 48]);
      }
      expect(b.map((line) => line.brightest)).toEqual(Array(FRAMES).fill({ x: 7, y: 5, sum: 765 }));
      expect(b.map((line) => line.dataPtr)).toEqual(a.map((line) => line.dataPtr));
    }
  });

  // videotestsrc writes the colour as YUV itself (BT.601 limited below 576 lines); preprocess
  // converts it back, within the rounding of the two conversions.
  it.each([
    ["NV12", [{ shape: [17, 33, 1], strides: [36, 1, 1], byteOffset: 0 }, { shape: [9, 17, 2], strides: [36, 2, 1], byteOffset: 648 }]],
    [
      "I420",
      [
        { shape: [17, 33, 1], strides: [36, 1, 1], byteOffset: 0 },
        { shape: [9, 17, 1], strides: [20, 1, 1], byteOffset: 648 },
        { shape: [9, 17, 1], strides: [20, 1, 1], byteOffset: 828 },
      ],
    ],
  ] as const)("%s: one frame with its planes, converted to RGB by preprocess, painted in place", (format, planes) => {
    const { a, b } = probe(`video/x-raw,format=${format},width=33,height=17`, format.toLowerCase());
    expect(a).toHaveLength(FRAMES);
    for (const line of a) {
      expect(line).toMatchObject({
        device: { type: "cpu", id: 0 },
        shape: [17, 33, 1],
        strides: [36, 1, 1],
        format,
        planes,
        colorimetry: { matrix: "bt601", range: "limited" },
        preprocess: { shape: [1, 3, 16, 16], dtype: "float32" },
      });
      line.preprocess.firstRgb.forEach((value, c) => expect(Math.abs(value - [16, 32, 48][c]!)).toBeLessThanOrEqual(2));
    }
    // The Y plane painted white at (7, 5) by the first element, seen by the second: zero-copy.
    expect(b.map((line) => line.brightest)).toEqual(Array(FRAMES).fill({ x: 7, y: 5, sum: 255 }));
    expect(b.map((line) => line.dataPtr)).toEqual(a.map((line) => line.dataPtr));
  });

  it("YUY2 fails the pipeline with an error naming the caps and the conversion", () => {
    const dir = scratchDir("extract-yuy2");
    const run = launch(
      `videotestsrc num-buffers=1 ! video/x-raw,format=YUY2,width=32,height=16 ! pixelprobe location=${join(dir, "a.jsonl")} ! fakesink`,
      { dists: [fixturesDist] },
    );
    expect(run.code, run.output).not.toBe(0);
    expect(run.output).toContain(
      "Expected an RGB, RGBA, BGR, BGRx, GRAY8, RGBx, BGRA, ARGB, ABGR, NV12, NV21 or I420 frame for Buffer.extract but " +
        "received YUY2 (video/x-raw, format=(string)YUY2, width=(int)32, height=(int)16",
    );
    expect(run.output).toContain(
      'convert first, e.g. "videoconvert ! video/x-raw,format=RGB" (or "nvvideoconvert ! video/x-raw(memory:NVMM),format=RGBA" in DeepStream)',
    );
  });

  // Needs an NVIDIA GPU and GStreamer's nvcodec plugin (cudaupload/cudadownload), so it runs
  // on the GPU machine (`npm run test:gpu`, docs/internals/gpu-testing.md) and is skipped here.
  // The frame stays in GstCudaMemory: the handle is "cuda" with the device pointer, pixels are
  // read through a toHost() copy, and preprocess runs on the GPU (a "cuda" output).
  const hasCudaUpload = inspect(["cudaupload"], { dists: [] }).code === 0;
  it.skipIf(!hasCudaUpload)("CUDA memory: a cuda handle with the device pointer, preprocess on the GPU", () => {
    const dir = scratchDir("extract-cuda");
    const run = launch(
      `${SOURCE} ! video/x-raw,format=RGBA,width=32,height=16 ! cudaupload ! video/x-raw(memory:CUDAMemory),format=RGBA ! ` +
        `pixelprobe location=${join(dir, "a.jsonl")} ! cudadownload ! fakesink`,
      { dists: [fixturesDist] },
    );
    expect(run.code, run.output).toBe(0);
    const read = lines(join(dir, "a.jsonl"));
    expect(read).toHaveLength(FRAMES);
    for (const line of read) {
      expect(line).toMatchObject({ device: { type: "cuda" }, shape: [16, 32, 4], format: "RGBA", first: [16, 32, 48, 255] });
      expect(line.strides[0]).toBeGreaterThanOrEqual(128); // pitch-aligned rows of GstCudaMemory
      expect(BigInt(line.dataPtr)).toBeGreaterThan(0n);
      expect(line.preprocess).toMatchObject({ device: { type: "cuda" }, shape: [1, 3, 16, 16], first: 16 });
    }
  });
});
