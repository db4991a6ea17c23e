// The TensorRT backend of loadRunner (native-host/src/runners/, docs/internals/runners.md)
// on a real GPU, with the checks the ONNX Runtime backend gets: the inputs and outputs it lists,
// results equal to ONNX Runtime's within tolerance, a dynamic batch, and the exact error texts.
// Engines are built here from ONNX models (two tiny ones written by test/helpers/tensorrt.ts and
// the ball detector of scripts/make-ball-model.mjs) with dsnode-trt-build-engine or trtexec.
//
// Runs where the native build has the TensorRT runner (CMake found TensorRT) and a CUDA device
// answers: `npm run test:gpu`. Everywhere else the suite is skipped and its title says why.
import { execFileSync } from "node:child_process";
import { copyFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { InferenceSession, Tensor } from "onnxruntime-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bestClasses } from "../../sdk/src/postprocess/best-classes";
import { decodeYolo, useCandidateSelection } from "../../sdk/src/postprocess/decode-yolo";
import { detectionItems } from "../../sdk/src/postprocess/detections";
import { loadRunner } from "../../sdk/src/runners/load-runner";
import { tensorStats } from "../../sdk/src/tensor/tensor-stats";
import { deviceTensorFromRunner, TensorHandle } from "../../sdk/src/tensor/tensor-handle";
import { repoRoot, scratchDir } from "../helpers/gst";
import {
  affineReference,
  DeviceMemory,
  engineBuilder,
  halfToNumber,
  loadTestingAddon,
  worstExcess,
  writeAffineModel,
  writePixelsModel,
  type EngineBuilder,
  type RunnerOutput,
  type TensorRTAddon,
  type TensorRTRunner,
} from "../helpers/tensorrt";

const BALL_SIZE = 64;

function whyNotRun(): { reason: string } | { addon: Required<TensorRTAddon>; build: EngineBuilder } {
  const addon = loadTestingAddon();
  if (typeof addon === "string") return { reason: addon };
  if (!addon.loadTensorRT || !addon.cudaTesting || !addon.tensorRTVersion) {
    return { reason: "this build has no TensorRT runner: CMake did not find TensorRT (set TENSORRT_ROOT and rebuild; `npm run test:gpu`)" };
  }
  if (addon.cudaTesting.deviceCount() === 0) return { reason: "no CUDA device answers" };
  const build = engineBuilder();
  if (typeof build === "string") return { reason: build };
  return { addon: addon as Required<TensorRTAddon>, build };
}

const setup = whyNotRun();
const skipped = "reason" in setup ? setup.reason : undefined;

/** A float32 ramp with a sign change, different for each seed. */
function ramp(length: number, seed: number): Float32Array {
  return Float32Array.from({ length }, (_, i) => Math.fround(((i * 7 + seed * 13) % 29) / 7 - 2));
}

async function rejection(promise: Promise<unknown>): Promise<{ type: string; code: unknown; message: string }> {
  try {
    await promise;
  } catch (error) {
    const e = error as Error & { code?: unknown };
    return { type: e.constructor.name, code: e.code, message: e.message };
  }
  throw new Error("expected a rejection");
}

describe.skipIf(skipped !== undefined)(`TensorRT runner${skipped ? ` (skipped: ${skipped})` : ""}`, () => {
  const { addon, build } = setup as { addon: Required<TensorRTAddon>; build: EngineBuilder };
  const dir = skipped ? "" : scratchDir("tensorrt-runner");
  const memory = skipped ? (undefined as unknown as DeviceMemory) : new DeviceMemory(addon.cudaTesting);
  const paths = { affine: "", affineOnnx: "", pixels: "", ball: "", ballOnnx: "" };
  let runner: TensorRTRunner;

  beforeAll(async () => {
    paths.affineOnnx = writeAffineModel(join(dir, "affine.onnx"));
    paths.affine = join(dir, "affine.engine");
    build(paths.affineOnnx, paths.affine, [{ name: "images", min: [1, 3, 4, 4], opt: [2, 3, 4, 4], max: [8, 3, 4, 4] }]);
    const pixelsOnnx = writePixelsModel(join(dir, "pixels.onnx"));
    paths.pixels = join(dir, "pixels.plan");
    build(pixelsOnnx, paths.pixels, [{ name: "pixels", min: [1, 4, 4, 3], opt: [1, 4, 4, 3], max: [4, 4, 4, 3] }]);
    paths.ballOnnx = join(dir, "ball.onnx");
    execFileSync(process.execPath, [join(repoRoot, "scripts", "make-ball-model.mjs"), "--out", paths.ballOnnx,
      "--size", String(BALL_SIZE), "--batch", "dynamic"], { stdio: "pipe" });
    paths.ball = join(dir, "ball.engine");
    const square = [3, BALL_SIZE, BALL_SIZE];
    build(paths.ballOnnx, paths.ball, [{ name: "images", min: [1, ...square], opt: [1, ...square], max: [4, ...square] }]);
    runner = await addon.loadTensorRT(paths.affine, { maxConcurrency: 2 });
  });

  afterAll(() => {
    runner?.dispose();
    memory?.freeAll();
  });

  /** Runs the affine engine on `batch` frames of seed `seed`; checks against the JS reference. */
  async function inferAffine(target: TensorRTRunner, batch: number, seed: number, bias = 0.5, ownContext = false): Promise<RunnerOutput[]> {
    const images = ramp(batch * 48, seed);
    const outputs = await target.infer({
      images: memory.tensor(images, "float32", [batch, 3, 4, 4], { ownContext }),
      bias: memory.tensor(Float32Array.of(bias), "float32", [1], { ownContext }),
    });
    const expected = affineReference(images, batch, bias);
    expect(outputs.map((o) => [o.name, o.dtype, o.shape])).toEqual([
      ["affine", "float32", [batch, 3, 4, 4]],
      ["sums", "float32", [batch, 3]],
    ]);
    expect(worstExcess(new Float32Array(memory.read(outputs[0]!)), expected.affine, 1e-6)).toBeLessThanOrEqual(1e-6);
    expect(worstExcess(new Float32Array(memory.read(outputs[1]!)), expected.sums, 1e-5)).toBeLessThanOrEqual(1e-5);
    return outputs;
  }

  it("lists the engine's inputs and outputs: dtype, -1 for the dynamic batch, the optimisation profile", () => {
    expect(runner.backend).toBe("tensorrt");
    expect(runner.path).toBe(paths.affine);
    // Dynamic batch: one execution context, whatever maxConcurrency asked (TensorRT forbids two
    // concurrent contexts on one optimisation profile of such an engine).
    expect(runner.maxConcurrency).toBe(1);
    expect([...runner.inputs].sort((a, b) => a.name.localeCompare(b.name))).toEqual([
      { name: "bias", dtype: "float32", shape: [1], format: "linear", profile: { min: [1], opt: [1], max: [1] } },
      {
        name: "images", dtype: "float32", shape: [-1, 3, 4, 4], format: "linear",
        profile: { min: [1, 3, 4, 4], opt: [2, 3, 4, 4], max: [8, 3, 4, 4] },
      },
    ]);
    expect([...runner.outputs].sort((a, b) => a.name.localeCompare(b.name))).toEqual([
      { name: "affine", dtype: "float32", shape: [-1, 3, 4, 4], format: "linear" },
      { name: "sums", dtype: "float32", shape: [-1, 3], format: "linear" },
    ]);
  });

  it("infers what ONNX Runtime infers on the same model", async () => {
    const batch = 2;
    const images = ramp(batch * 48, 1);
    const session = await InferenceSession.create(paths.affineOnnx);
    const reference = await session.run({
      images: new Tensor("float32", images, [batch, 3, 4, 4]),
      bias: new Tensor("float32", Float32Array.of(0.5), [1]),
    });
    const outputs = await inferAffine(runner, batch, 1);
    for (const output of outputs) {
      const expected = reference[output.name]!;
      expect(output.shape).toEqual([...expected.dims]);
      expect(worstExcess(new Float32Array(memory.read(output)), expected.data as Float32Array, 1e-5)).toBeLessThanOrEqual(1e-5);
    }
  });

  it("binds inputs whose memory belongs to another CUDA context of the device, as (memory:CUDAMemory) frames' does", async () => {
    // GstCudaMemory (and preprocess's output of it) lives in GStreamer's own CUDA context; the
    // engine runs in the primary one and binds the pointers as they are (docs/internals/runners.md §4).
    await inferAffine(runner, 2, 4, 0.25, true);
  });

  it("follows the batch size through the profile: 1, 3 and 8", async () => {
    for (const [seed, batch] of [1, 3, 8].entries()) await inferAffine(runner, batch, seed);
  });

  it("refuses a batch outside the profile, naming the profile's bounds", async () => {
    const error = await rejection(runner.infer({
      images: memory.tensor(new Float32Array(9 * 48), "float32", [9, 3, 4, 4]),
      bias: memory.tensor(Float32Array.of(0), "float32", [1]),
    }));
    expect(error).toEqual({
      type: "RangeError",
      code: "ERR_DS_ELEMENT_INVALID_VALUE",
      message: 'Expected a shape from [1,3,4,4] to [8,3,4,4] (optimisation profile 0) for input "images" but received [9,3,4,4]',
    });
  });

  it("names what is wrong with the tensors it is given", async () => {
    const images = memory.tensor(new Float32Array(48), "float32", [1, 3, 4, 4]);
    const bias = memory.tensor(Float32Array.of(0), "float32", [1]);
    const cases: [Record<string, unknown>, string, string][] = [
      [{ images }, "RangeError", 'Expected a tensor for input "bias" but received none'],
      [{ images, bias, extra: bias }, "RangeError", 'Expected only the engine\'s inputs ("images", "bias") in inputs but received "extra"'],
      [{ images: { ...images, dtype: "float16" }, bias }, "RangeError", 'Expected a float32 tensor for input "images" but received a float16 tensor'],
      [{ images: { ...images, shape: [3, 4, 4] }, bias }, "RangeError", 'Expected a 4-dimensional shape for input "images" but received [3,4,4]'],
      [{ images: { ...images, strides: [48, 16, 1, 4] }, bias }, "RangeError",
        'Expected a dense row-major tensor (strides [48,16,4,1]) for input "images" but received strides [48,16,1,4]'],
      [{ images: { ...images, device: { type: "cpu", id: 0 } }, bias }, "RangeError",
        "Expected a CUDA tensor for inputs.images but received a cpu tensor (copy it to the GPU first)"],
      [{ images: { ...images, dataPtr: 5 }, bias }, "TypeError",
        "Expected a device address (a bigint from 0 to 2^64-1) for inputs.images.dataPtr but received 5"],
      [{ images: { ...images, dataPtr: 0n }, bias }, "RangeError", 'Expected a device pointer for input "images" but received a null pointer'],
      [{ images: { ...images, byteOffset: 4 }, bias }, "RangeError",
        'Expected a device address aligned to 256 bytes (TensorRT requires it) for input "images" but received one 4 bytes past such an address'],
    ];
    for (const [inputs, type, message] of cases) {
      // The engine may list its inputs in another order: the message follows the engine's.
      const expected = message.includes("engine's inputs")
        ? `Expected only the engine's inputs (${runner.inputs.map((i) => `"${i.name}"`).join(", ")}) in inputs but received "extra"`
        : message;
      expect(await rejection(runner.infer(inputs as never))).toEqual({ type, code: "ERR_DS_ELEMENT_INVALID_VALUE", message: expected });
    }
  });

  it("writes into output tensors the caller gives, and says when one is too small", async () => {
    const images = ramp(2 * 48, 4);
    const given = memory.tensor(new Float32Array(2 * 48), "float32", [2, 3, 4, 4]);
    const outputs = await runner.infer(
      { images: memory.tensor(images, "float32", [2, 3, 4, 4]), bias: memory.tensor(Float32Array.of(1), "float32", [1]) },
      { affine: given },
    );
    expect(outputs[0]!.devicePointer).toBe(given.dataPtr);
    expect(worstExcess(new Float32Array(memory.readTensor(given)), affineReference(images, 2, 1).affine, 1e-6)).toBeLessThanOrEqual(1e-6);
    const small = memory.tensor(new Float32Array(48), "float32", [1, 3, 4, 4]);
    expect(await rejection(runner.infer(
      { images: memory.tensor(images, "float32", [2, 3, 4, 4]), bias: memory.tensor(Float32Array.of(1), "float32", [1]) },
      { affine: small },
    ))).toEqual({
      type: "RangeError",
      code: "ERR_DS_ELEMENT_INVALID_VALUE",
      message: 'Expected at least 384 bytes for output "affine" (float32 [2,3,4,4]) but received a tensor of 192 bytes',
    });
  });

  it("runs more inferences at once than it has execution contexts, each with its own result", async () => {
    const batches = [1, 2, 3, 4, 5, 6, 7, 8, 2, 1, 4, 8];
    await Promise.all(batches.map((batch, seed) => inferAffine(runner, batch, seed, seed / 4)));
  });

  it("hands released output memory back to its pool", async () => {
    // A runner of its own: its pool holds only what this test releases.
    const own = await addon.loadTensorRT(paths.affine);
    try {
      const first = await inferAffine(own, 3, 9);
      const pointers = first.map((o) => o.devicePointer);
      for (const output of first) output.release();
      first[0]!.release(); // twice is harmless
      const second = await inferAffine(own, 3, 10);
      expect(second.map((o) => o.devicePointer)).toEqual(pointers);
    } finally {
      own.dispose();
    }
  });

  it("passes uint8 inputs and float16 outputs through as they are", async () => {
    const pixels = await addon.loadTensorRT(paths.pixels);
    try {
      expect(pixels.inputs.map((t) => [t.name, t.dtype, t.shape])).toEqual([["pixels", "uint8", [-1, 4, 4, 3]]]);
      expect(pixels.outputs.map((t) => [t.name, t.dtype, t.shape])).toEqual([["normalized", "float16", [-1, 4, 4, 3]]]);
      const values = Uint8Array.from({ length: 2 * 48 }, (_, i) => (i * 37) % 256);
      const [output] = await pixels.infer({ pixels: memory.tensor(values, "uint8", [2, 4, 4, 3]) });
      expect([output!.dtype, output!.shape, output!.byteLength]).toEqual(["float16", [2, 4, 4, 3], 192]);
      const halves = Array.from(new Uint16Array(memory.read(output!)), halfToNumber);
      expect(worstExcess(halves, Array.from(values, (v) => v / 255), 1e-3)).toBeLessThanOrEqual(1e-3);
    } finally {
      pixels.dispose();
    }
  });

  it("gives the ball detector's outputs within tolerance of ONNX Runtime's, batch 1 and 4", async () => {
    const ball = await addon.loadTensorRT(paths.ball);
    const session = await InferenceSession.create(paths.ballOnnx);
    try {
      for (const batch of [1, 4]) {
        // A white disk per frame, a different place in each.
        const plane = BALL_SIZE * BALL_SIZE;
        const images = new Float32Array(batch * 3 * plane);
        for (let b = 0; b < batch; b++) {
          const [cx, cy] = [16 + 8 * b, 40 - 6 * b];
          for (let c = 0; c < 3; c++) {
            for (let y = 0; y < BALL_SIZE; y++) {
              for (let x = 0; x < BALL_SIZE; x++) {
                images[(b * 3 + c) * plane + y * BALL_SIZE + x] = Math.hypot(x + 0.5 - cx, y + 0.5 - cy) <= 6 ? 1 : 0;
              }
            }
          }
        }
        const outputs = await ball.infer({ images: memory.tensor(images, "float32", [batch, 3, BALL_SIZE, BALL_SIZE]) });
        const reference = await session.run({ images: new Tensor("float32", images, [batch, 3, BALL_SIZE, BALL_SIZE]) });
        for (const output of outputs) {
          const expected = reference[output.name]!;
          expect(output.shape).toEqual([...expected.dims]);
          // Box coordinates are in pixels (up to 64): 1e-3 absolute plus 1e-4 relative.
          expect(worstExcess(new Float32Array(memory.read(output)), expected.data as Float32Array, 1e-4)).toBeLessThanOrEqual(1e-3);
        }
      }
    } finally {
      ball.dispose();
      await session.release();
    }
  });

  it("refuses files that are not engines, with the file's name and TensorRT's words", async () => {
    const missing = join(dir, "missing.engine");
    expect(await rejection(addon.loadTensorRT(missing))).toEqual({
      type: "Error", code: "ERR_DS_ELEMENT_RUNNER_LOAD", message: `Cannot load the TensorRT engine ${missing}: no such file`,
    });
    const empty = join(dir, "empty.engine");
    writeFileSync(empty, "");
    expect((await rejection(addon.loadTensorRT(empty))).message).toBe(`Cannot load the TensorRT engine ${empty}: the file is empty`);
    // A device said "the file is empty"; a FIFO with no writer hung the load.
    expect((await rejection(addon.loadTensorRT("/dev/zero"))).message).toBe("Cannot load the TensorRT engine /dev/zero: it is not a regular file (a character device)");
    const fifo = join(dir, "fifo.engine");
    execFileSync("mkfifo", [fifo]);
    expect((await rejection(addon.loadTensorRT(fifo))).message).toBe(`Cannot load the TensorRT engine ${fifo}: it is not a regular file (a FIFO)`);
    expect((await rejection(addon.loadTensorRT(paths.affineOnnx))).message).toBe(
      `Cannot load the TensorRT engine ${paths.affineOnnx}: it is an ONNX model, not a serialized engine: load it with the ` +
        `ONNX Runtime backend, or build an engine from it with \`trtexec --onnx=${paths.affineOnnx} --saveEngine=<name>.engine\``,
    );
    const onnxBytes = join(dir, "onnx-bytes.engine");
    copyFileSync(paths.affineOnnx, onnxBytes);
    const error = await rejection(addon.loadTensorRT(onnxBytes));
    expect(error.code).toBe("ERR_DS_ELEMENT_RUNNER_LOAD");
    expect(error.message).toMatch(new RegExp(
      `^Cannot load the TensorRT engine ${onnxBytes.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: TensorRT cannot deserialize it: ` +
        `it is not a TensorRT engine, or it was built by another TensorRT version or for another GPU ` +
        `\\(this process runs TensorRT ${addon.tensorRTVersion.replace(/\./g, "\\.")} on .+ \\(CUDA device 0, compute capability \\d+\\.\\d+\\)\\); ` +
        `TensorRT said: .+`,
    ));
    expect(await rejection(addon.loadTensorRT(paths.affine, { profile: 1 }))).toEqual({
      type: "RangeError", code: "ERR_DS_ELEMENT_INVALID_VALUE",
      message: `Expected an optimisation profile of ${paths.affine} (0 to 0) for options.profile but received 1`,
    });
  });

  it("rejects inferences after dispose(), and lets those in flight finish", async () => {
    const own = await addon.loadTensorRT(paths.affine);
    const inFlight = inferAffine(own, 2, 3);
    own.dispose();
    await inFlight;
    expect(await rejection(own.infer({}))).toEqual({
      type: "Error", code: "ERR_DS_ELEMENT_RUNNER_DISPOSED",
      message: `Expected a live runner for infer but received one disposed by dispose() (${paths.affine})`,
    });
    own.dispose(); // twice is harmless
  });

  it("loadRunner: the TypeScript face — CUDA TensorHandles in, CUDA TensorHandles out, toHost() equal to ONNX Runtime", async () => {
    const batch = 3;
    const images = ramp(batch * 48, 5);
    const session = await InferenceSession.create(paths.affineOnnx);
    const reference = await session.run({
      images: new Tensor("float32", images, [batch, 3, 4, 4]),
      bias: new Tensor("float32", Float32Array.of(0.25), [1]),
    });
    const upload = (values: Float32Array, shape: number[]) => {
      const device = memory.tensor(values, "float32", shape);
      return deviceTensorFromRunner({ deviceId: 0, dtype: "float32", shape, dataPtr: device.dataPtr, byteLength: values.byteLength, release: () => undefined });
    };
    const ts = await loadRunner(paths.affine);
    expect(ts.backend).toBe("tensorrt");
    expect(ts.inputs.map((input) => [input.name, input.dtype, input.shape])).toEqual([["images", "float32", [-1, 3, 4, 4]], ["bias", "float32", [1]]]);
    const outputs = await ts.infer({ images: upload(images, [batch, 3, 4, 4]), bias: upload(Float32Array.of(0.25), [1]) });
    expect(outputs.map((output) => output.device)).toEqual(ts.outputs.map(() => ({ type: "cuda", id: 0 })));
    for (const [index, output] of outputs.entries()) {
      const expected = reference[ts.outputs[index]!.name]!;
      expect(output.shape).toEqual([...expected.dims]);
      const host = output.toHost();
      expect(worstExcess(host.toTypedArray() as Float32Array, expected.data as Float32Array, 1e-5)).toBeLessThanOrEqual(1e-5);
      host.dispose();
      output.dispose();
    }
    const cpu = await rejection(ts.infer({ images: TensorHandle.fromTypedArray(images, [batch, 3, 4, 4]), bias: upload(Float32Array.of(0), [1]) }));
    expect(cpu.message).toMatch(/^Expected a CUDA tensor for input "images" but received a cpu tensor \(TensorRT runs /);
    await ts.dispose();
  });

  it("decodeYolo takes a CUDA TensorHandle: a kernel selects the candidates, no whole-tensor host copy, the results of the host data", () => {
    // [1, 4 + 2, 64]: boxes of 8..57 px, class scores 0..0.99.
    const shape = [1, 6, 64];
    const data = Float32Array.from({ length: 6 * 64 }, (_, i) => (i < 4 * 64 ? 8 + (i % 50) : ((i * 37) % 100) / 100));
    const device = memory.tensor(data, "float32", shape);
    const tensor = deviceTensorFromRunner({ deviceId: 0, dtype: "float32", shape, dataPtr: device.dataPtr, byteLength: data.byteLength, release: () => undefined });
    const before = tensorStats();
    const fromDevice = decodeYolo(tensor, { confidenceThreshold: 0.5 }).map((detections) => [...detectionItems(detections)]);
    const after = tensorStats();
    expect(after.hostCopies - before.hostCopies).toBe(0);
    expect(after.pool.liveBlocks).toBe(before.pool.liveBlocks);
    // The peer: the whole tensor copied to the host for the call (what a CUDA output cost before).
    useCandidateSelection("host");
    const copied = decodeYolo(tensor, { confidenceThreshold: 0.5 }).map((detections) => [...detectionItems(detections)]);
    useCandidateSelection("auto");
    expect(tensorStats().hostCopies - after.hostCopies).toBe(1);
    const fromHost = decodeYolo({ data, dims: shape }, { confidenceThreshold: 0.5 }).map((detections) => [...detectionItems(detections)]);
    expect(fromDevice[0]!.length).toBeGreaterThan(0);
    expect(fromDevice).toEqual(fromHost);
    expect(copied).toEqual(fromHost);
    tensor.dispose();
  });

  it("decodeYolo and bestClasses of CUDA tensors equal the host path on random outputs (ties, NaN, ±Infinity, both layouts)", () => {
    let state = 28; // mulberry32
    const random = () => {
      state = (state + 0x6d2b79f5) >>> 0;
      let t = Math.imul(state ^ (state >>> 15), state | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
    };
    const value = () => {
      const r = random();
      return r < 0.01 ? NaN : r < 0.02 ? -Infinity : r < 0.03 ? Infinity : r < 0.4 ? Math.floor(random() * 8) / 8 : random();
    };
    let detections = 0;
    for (let round = 0; round < 50; round++) {
      const batch = 1 + (round % 3);
      const classes = 1 + Math.floor(random() * 80);
      const candidates = 1 + Math.floor(random() * 2000);
      const layout = round % 2 === 0 ? ("channels-first" as const) : ("channels-last" as const);
      const shape = layout === "channels-first" ? [batch, 4 + classes, candidates] : [batch, candidates, 4 + classes];
      const data = Float32Array.from({ length: batch * (4 + classes) * candidates }, value);
      const device = memory.tensor(data, "float32", shape);
      const tensor = deviceTensorFromRunner({ deviceId: 0, dtype: "float32", shape, dataPtr: device.dataPtr, byteLength: data.byteLength, release: () => undefined });
      const options = { confidenceThreshold: [0, 0.25, 0.3, 0.7, 1][round % 5], layout };
      const fromDevice = decodeYolo(tensor, options).map((d) => [...detectionItems(d)]);
      expect(fromDevice, `round ${round}`).toEqual(decodeYolo({ data, dims: shape }, options).map((d) => [...detectionItems(d)]));
      detections += fromDevice.reduce((n, d) => n + d.length, 0);
      const rows = { data, dims: [data.length / classes, classes] };
      const rowTensor = deviceTensorFromRunner({ deviceId: 0, dtype: "float32", shape: rows.dims, dataPtr: device.dataPtr, byteLength: data.byteLength, release: () => undefined });
      expect(bestClasses(rowTensor), `round ${round}`).toEqual(bestClasses(rows));
      rowTensor.dispose();
      tensor.dispose();
    }
    expect(detections).toBeGreaterThan(1000);
  });
});
