// NVMM batches as nvstreammux hands them downstream: test/nvmm-testmux/ (dsnvmmtestmux) lays
// frames out as an NvBufSurface of pitch-linear surfaces in one `video/x-raw(memory:NVMM)`
// buffer, with an NvDsBatchMeta of as many frames made by NVIDIA's libnvds_meta. The cudaprobe
// fixture extract()s every frame and letterboxes it; its output must equal the same frames' on
// plain system memory. Here the surfaces are system memory (NVBUF_MEM_SYSTEM: this machine has
// no GPU); the GPU run (test/gpu/nvmm.sh, `npm run test:gpu`) does the same on CUDA device memory.
// The muxer needs NVIDIA's libraries: DeepStream build only (`npm run test:deepstream`).
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { launch, repoRoot, scratchDir, type GstRun } from "./helpers/gst";
import { fixturesDist, nativeBackend } from "./helpers/projects";

/* eslint-disable @typescript-eslint/no-explicit-any */
type Json = Record<string, any>;

const native = createRequire(__filename)(join(repoRoot, "native-host", "index.js")) as { buildDir: string };
const FRAMES = 10;
const BATCH = 4;
const NVBUF_MEM_SYSTEM = 6;
/** Jetson's NVMM memory; the muxer lays it out in system memory under that label. */
const NVBUF_MEM_SURFACE_ARRAY = 4;
// 100 RGBA pixels are 400 bytes a row: the muxer pads rows to 512, as hardware allocators do.
const source = `videotestsrc num-buffers=${FRAMES} pattern=ball ! video/x-raw,format=RGBA,width=100,height=60`;
const probe = "width=64 height=48 dtype=float32";

const lines = (dir: string): Json[] =>
  readFileSync(join(dir, "frames.jsonl"), "utf8").trim().split("\n").filter(Boolean).map((line) => JSON.parse(line) as Json);

describe.skipIf(nativeBackend !== "deepstream")("NVMM batches from an nvstreammux stand-in (DeepStream build only)", () => {
  const plugins = join(dirname(native.buildDir), "test-plugins");
  let nvmm: GstRun;
  let plain: GstRun;
  let nvmmDir: string;
  let plainDir: string;

  beforeAll(() => {
    execFileSync("cmake", ["--build", dirname(native.buildDir), "--target", "dsnode-nvmm-testmux"], { stdio: "pipe" });
    nvmmDir = scratchDir("nvmm");
    plainDir = scratchDir("nvmm-plain");
    nvmm = launch(
      `${source} ! dsnvmmtestmux batch-size=${BATCH} nvbuf-memory-type=${NVBUF_MEM_SYSTEM} ! cudaprobe location=${nvmmDir} ${probe} ! fakesink`,
      { dists: [fixturesDist, plugins] },
    );
    plain = launch(`${source} ! cudaprobe location=${plainDir} ${probe} ! fakesink`, { dists: [fixturesDist] });
  });

  it("runs both pipelines to the end", () => {
    expect(nvmm.code, nvmm.output).toBe(0);
    expect(plain.code, plain.output).toBe(0);
  });

  it("sees the muxer's batches: 4 frames a buffer (the last one partial), frame numbers and batch ids from its NvDsBatchMeta", () => {
    const seen = lines(nvmmDir);
    expect(seen.map((l) => l.frameNum)).toEqual([...Array(FRAMES).keys()]);
    expect(seen.map((l) => l.batchId)).toEqual([0, 1, 2, 3, 0, 1, 2, 3, 0, 1]);
    expect(seen.map((l) => l.framesInBatch)).toEqual([4, 4, 4, 4, 4, 4, 4, 4, 2, 2]);
    // Each frame is its own surface of the NvBufSurface, not a slice of one block.
    expect(new Set(seen.slice(0, BATCH).map((l) => l.dataPtr)).size).toBe(BATCH);
    expect(lines(plainDir).map((l) => l.framesInBatch)).toEqual(Array(FRAMES).fill(1));
  });

  it("extracts every surface where it lies (no host copy) and letterboxes it exactly as the same frame in plain memory", () => {
    const seen = lines(nvmmDir);
    expect(seen.every((l) => l.device === "cpu" && l.outputDevice === "cpu" && l.hostCopies === 0)).toBe(true);
    expect(seen[0]).toMatchObject({ dtype: "float32", shape: [1, 3, 48, 64] });
    for (const line of seen) {
      const ours = readFileSync(join(nvmmDir, line.file));
      const reference = readFileSync(join(plainDir, line.file));
      expect(ours.length, line.file).toBe(3 * 48 * 64 * 4);
      expect(ours.equals(reference), `${line.file} differs from the system-memory run`).toBe(true);
    }
    // The ball moves: frames differ from each other, so equal outputs are not equal by accident.
    expect(readFileSync(join(nvmmDir, "frame-0.bin")).equals(readFileSync(join(nvmmDir, "frame-5.bin")))).toBe(false);
  });

  // Jetson's surface arrays are readable only through NvBufSurfaceMap, which ds-element does not
  // link: extract() refuses them before reading a byte, naming the conversion to put before it.
  it("refuses a surface array (Jetson's NVMM memory), naming nvvideoconvert's conversion into CUDA device memory", () => {
    const dir = scratchDir("nvmm-surface-array");
    const run = launch(
      `${source} ! dsnvmmtestmux batch-size=${BATCH} nvbuf-memory-type=${NVBUF_MEM_SURFACE_ARRAY} ! cudaprobe location=${dir} ${probe} ! fakesink`,
      { dists: [fixturesDist, plugins] },
    );
    expect(run.code, run.output).not.toBe(0);
    expect(run.signal).toBeNull();
    expect(run.output).toContain("but received NVBUF_MEM_SURFACE_ARRAY (Jetson's NVMM memory)");
    expect(run.output).toContain(
      'convert them before this element with "nvvideoconvert compute-hw=1 nvbuf-memory-type=2" (the GPU\'s conversion into NVBUF_MEM_CUDA_DEVICE)',
    );
    expect(readFileSync(join(dir, "frames.jsonl"), "utf8")).toBe("");
  });

  // Planar surfaces: each plane at its own 256-byte pitch and offset (planeParams), the colour
  // format naming the matrix and range (NV12_709, YUV420, ...: the one table in
  // frame_access.cpp). The letterbox converts them to RGB exactly as it converts the same
  // frames in system memory, read with the caps' colorimetry.
  it.each([
    ["NV12", "bt709"],
    ["NV12", "1:4:0:0"],
    ["I420", "bt601"],
  ])("%s surfaces (colorimetry %s) letterbox exactly as the same frames in system memory", (format, colorimetry) => {
    const yuv = `videotestsrc num-buffers=${BATCH} pattern=ball ! video/x-raw,format=${format},width=100,height=60,colorimetry=${colorimetry}`;
    const name = `${format}-${colorimetry.replaceAll(":", "-")}`;
    const surfacesDir = scratchDir(`nvmm-${name}`);
    const memoryDir = scratchDir(`nvmm-${name}-plain`);
    const surfaces = launch(
      `${yuv} ! dsnvmmtestmux batch-size=${BATCH} nvbuf-memory-type=${NVBUF_MEM_SYSTEM} ! cudaprobe location=${surfacesDir} ${probe} ! fakesink`,
      { dists: [fixturesDist, plugins] },
    );
    const memory = launch(`${yuv} ! cudaprobe location=${memoryDir} ${probe} ! fakesink`, { dists: [fixturesDist] });
    expect(surfaces.code, surfaces.output).toBe(0);
    expect(memory.code, memory.output).toBe(0);
    const seen = lines(surfacesDir);
    expect(seen.map((l) => l.framesInBatch)).toEqual(Array(BATCH).fill(BATCH));
    for (const line of seen) {
      expect(readFileSync(join(surfacesDir, line.file)).equals(readFileSync(join(memoryDir, line.file))), line.file).toBe(true);
    }
    expect(readFileSync(join(surfacesDir, "frame-0.bin")).equals(readFileSync(join(surfacesDir, "frame-3.bin")))).toBe(false);
  });
});
