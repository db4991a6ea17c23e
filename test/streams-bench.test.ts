// The many-stream GPU bench's pipelines (bench/README.md, "Many streams on the GPU";
// scripts/gpu/run-streams-device.sh), checked where there is no GPU: dsnvmmtestmux labels each
// batch slot as a stream (sources=N), and on system-memory batches the ds-element detector
// (yolostandin, bench/elements) and its C++ peer (dsyolopeer, bench/gpu/peer) take the CPU paths
// of the same steps, the stand-in model's values computed on the host: both must write the same
// objects. DeepStream build with CUDA only (the muxer needs NVIDIA's libraries, the stand-in
// model and the peer need nvcc to build).
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { launch, repoRoot, scratchDir } from "./helpers/gst";
import { buildProject, builtinDist, nativeBackend } from "./helpers/projects";

/* eslint-disable @typescript-eslint/no-explicit-any */
type Json = Record<string, any>;

const native = createRequire(__filename)(join(repoRoot, "native-host", "index.js")) as { buildDir: string };
const buildRoot = dirname(native.buildDir);
const cache = join(buildRoot, "CMakeCache.txt");
// CMake records a compiler it looked for and did not find as `…=CMAKE_CUDA_COMPILER-NOTFOUND` or
// `NOTFOUND` (a Debian root of test:platforms has CUDA's headers bound in, not nvcc on PATH).
const withCuda = existsSync(cache) && /^CMAKE_CUDA_COMPILER:\w+=(?!\S*NOTFOUND)\S+/m.test(readFileSync(cache, "utf8"));
const NVBUF_MEM_SYSTEM = 6;
const BATCH = 3;
const REPEAT = 4;
const source = `videotestsrc num-buffers=${BATCH} pattern=ball ! video/x-raw,format=RGBA,width=320,height=180`;
const mux = `dsnvmmtestmux batch-size=${BATCH} sources=${BATCH} nvbuf-memory-type=${NVBUF_MEM_SYSTEM} repeat=${REPEAT}`;

describe.skipIf(nativeBackend !== "deepstream" || !withCuda)("the many-stream bench's pipelines on the CPU (DeepStream build with CUDA)", () => {
  const plugins = join(buildRoot, "test-plugins");
  const binding = join(buildRoot, "bench-modules", "dsbench_standin.node");
  let benchDist: string;

  beforeAll(() => {
    execFileSync("cmake", ["--build", buildRoot, "--target", "dsnode-nvmm-testmux", "dsnode-bench-yolo-peer", "dsnode-bench-standin-binding"], {
      stdio: "pipe",
    });
    benchDist = join(scratchDir("bench-elements"), "dist");
    buildProject(join(repoRoot, "bench", "elements"), benchDist);
  }, 180_000);

  it("labels frame i of each batch as source i (sources=N), frame numbers counted per source", () => {
    const dump = join(scratchDir("streams-mux"), "meta.jsonl");
    const run = launch(`${source} ! ${mux} ! dsmetadump location=${dump} ! fakesink`, { dists: [builtinDist, plugins] });
    expect(run.code, run.output).toBe(0);
    const frames = readFileSync(dump, "utf8").trim().split("\n").map((line) => JSON.parse(line) as Json).flatMap((batch) => batch.frameItems as Json[]);
    expect(frames.map((f) => f.sourceId)).toEqual(Array.from({ length: BATCH * REPEAT }, (_, i) => i % BATCH));
    expect(frames.map((f) => f.padIndex)).toEqual(frames.map((f) => f.sourceId));
    expect(frames.map((f) => f.frameNum)).toEqual(Array.from({ length: BATCH * REPEAT }, (_, i) => Math.floor(i / BATCH)));
  });

  it("yolostandin and dsyolopeer write the same objects, 6 a frame (the stand-in model's, after NMS)", () => {
    const dir = scratchDir("streams-detectors");
    const ts = launch(`${source} ! ${mux} ! yolostandin binding=${binding} report=${dir}/ts.json warmup=1 ! fakesink`, {
      dists: [benchDist, plugins],
      timeoutMs: 120_000,
    });
    const peer = launch(`${source} ! ${mux} ! dsyolopeer report=${dir}/peer.json warmup=1 ! fakesink`, { dists: [benchDist, plugins] });
    expect(ts.code, ts.output).toBe(0);
    expect(peer.code, peer.output).toBe(0);
    const [tsReport, peerReport] = ["ts", "peer"].map((name) => JSON.parse(readFileSync(join(dir, `${name}.json`), "utf8")) as Json);
    for (const report of [tsReport!, peerReport!]) {
      expect(report).toMatchObject({ model: "cpu", batches: REPEAT, frames: BATCH * REPEAT, objects: 6 * BATCH * REPEAT });
    }
    expect(tsReport!.objectChecksum).toBeGreaterThan(0);
    expect(tsReport!.objectChecksum).toBeCloseTo(peerReport!.objectChecksum, 6);
  });

  it("says which file is missing when the stand-in model's module is not there", () => {
    const run = launch(`${source} ! ${mux} ! yolostandin binding=/nonexistent/dsbench_standin.node report=/dev/null ! fakesink`, {
      dists: [benchDist, plugins],
    });
    expect(run.code).not.toBe(0);
    expect(run.signal).toBeNull();
    expect(run.output).toContain("Cannot load yolostandin's stand-in model dsbench_standin.node from /nonexistent/dsbench_standin.node");
    expect(run.output).toContain("--target dsnode-bench-standin-binding");
  });
});
