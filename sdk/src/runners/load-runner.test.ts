import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { InvalidValueError, RunnerError } from "../errors/errors.js";
import { preprocess } from "../ops/preprocess.js";
import { decodeYolo } from "../postprocess/decode-yolo.js";
import { makeBallModel, diskFrame } from "../test-support/ball-model.js";
import { TensorHandle } from "../tensor/tensor-handle.js";
import { tensorStats } from "../tensor/tensor-stats.js";
import { loadRunner } from "./load-runner.js";
import type { Runner } from "./types.js";

const scratch = mkdtempSync(join(tmpdir(), "ds-element-runner-"));

/** A named pipe in the scratch folder (nothing ever writes to it). */
function fifo(name: string): string {
  const path = join(scratch, name);
  execFileSync("mkfifo", [path]);
  return path;
}

function file(name: string, content: string | Uint8Array): string {
  const path = join(scratch, name);
  writeFileSync(path, content);
  return path;
}

async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected a rejection");
}

describe("loadRunner, ONNX Runtime backend", () => {
  let path: string;
  let runner: Runner;

  beforeAll(async () => {
    path = makeBallModel("ball", { size: 64, batch: "dynamic" });
    runner = await loadRunner(path);
  });

  it("lists the model's inputs and outputs, dynamic dimensions as -1 with their names", () => {
    expect(runner.backend).toBe("onnxruntime");
    expect(runner.path).toBe(path);
    expect(runner.inputs).toEqual([{ name: "images", dtype: "float32", shape: [-1, 3, 64, 64], dimNames: ["batch", undefined, undefined, undefined] }]);
    expect(runner.outputs).toEqual([{ name: "output0", dtype: "float32", shape: [-1, 6, 3], dimNames: ["batch", undefined, undefined] }]);
  });

  it("runs a batch read in place from a preprocess() tensor and returns owned host tensors", async () => {
    const frames = [diskFrame(128, 96, 40, 30), diskFrame(128, 96, 90, 60)].map((pixels) =>
      TensorHandle.fromTypedArray(pixels, [96, 128, 3], { format: "RGB" }),
    );
    const { tensor, transforms } = preprocess(frames, { width: 64, height: 64 });
    const outputs = await runner.infer([tensor]);
    expect(outputs).toHaveLength(1);
    const [output] = outputs;
    expect(output!.owned).toBe(true);
    expect(output!.device).toEqual({ type: "cpu", id: 0 });
    expect(output!.shape).toEqual([2, 6, 3]);
    const images = decodeYolo({ data: output!.toTypedArray() as Float32Array, dims: output!.shape }, { confidenceThreshold: 0.5 });
    for (const [i, [cx, cy]] of [[40, 30], [90, 60]].entries()) {
      const t = transforms[i]!;
      const column = images[i]!.confidence.indexOf(Math.max(...images[i]!.confidence));
      const box = t.toFrame({ left: images[i]!.left[column]!, top: images[i]!.top[column]!, width: images[i]!.width[column]!, height: images[i]!.height[column]! });
      expect(box.left + box.width / 2).toBeCloseTo(cx!, 0);
      expect(box.top + box.height / 2).toBeCloseTo(cy!, 0);
    }
    output!.dispose();
    tensor.dispose();
  });

  it("takes the inputs by name too", async () => {
    const input = TensorHandle.fromTypedArray(new Float32Array(3 * 64 * 64), [1, 3, 64, 64]);
    const [output] = await runner.infer({ images: input });
    expect(output!.shape).toEqual([1, 6, 3]);
  });

  it("refuses inputs the model cannot take, naming the input", async () => {
    const good = TensorHandle.fromTypedArray(new Float32Array(3 * 64 * 64), [1, 3, 64, 64]);
    const cases: [unknown, string][] = [
      [[], `Expected 1 tensor ("images") for the inputs of ${path} but received 0`],
      [{ images: good, extra: good }, `Expected only the model's inputs ("images") for the inputs of ${path} but received "extra"`],
      [{}, 'Expected a tensor for input "images" but received none'],
      [[new Float32Array(4)], 'Expected a TensorHandle for input "images" but received {"0":0,"1":0,"2":0,"3":0}'],
      [[TensorHandle.fromTypedArray(new Uint16Array(3 * 64 * 64), [1, 3, 64, 64], { dtype: "float16" })], 'Expected a float32 tensor for input "images" but received a float16 tensor'],
      [[TensorHandle.fromTypedArray(new Float32Array(3 * 64 * 64), [3, 64, 64])], 'Expected a 4-dimensional shape for input "images" but received [3,64,64]'],
      [[TensorHandle.fromTypedArray(new Float32Array(3 * 32 * 32), [1, 3, 32, 32])], 'Expected shape [batch,3,64,64] for input "images" but received [1,3,32,32]'],
    ];
    for (const [inputs, message] of cases) {
      const error = await rejection(runner.infer(inputs as never));
      expect(error.message).toBe(message);
      expect((error as { code?: string }).code).toBe("ERR_DS_ELEMENT_INVALID_VALUE");
    }
  });

  it("refuses a frame with padded rows, saying to pre-process it", async () => {
    // A tensor over padded rows (a frame's layout), described the way Buffer.extract does.
    const padded = new TensorHandle({
      device: { type: "cpu", id: 0 }, dtype: "float32", shape: [1, 3, 64, 64], strides: [3 * 64 * 68, 64 * 68, 68, 1],
      byteOffset: 0, byteLength: 4 * 3 * 64 * 68, dataPtr: undefined, format: undefined, owned: true,
      source: undefined as never, life: undefined, buffer: undefined, data: undefined,
    });
    const error = await rejection(runner.infer([padded]));
    expect(error).toBeInstanceOf(InvalidValueError);
    expect(error.message).toBe(
      'Expected a dense row-major tensor (strides [12288,4096,64,1]) for input "images" but received strides [13056,4352,68,1] (a frame with padded rows: run preprocess() first)',
    );
  });

  it("rejects infer after dispose(), and dispose() twice is harmless", async () => {
    const own = await loadRunner(path);
    await own.dispose();
    await own.dispose();
    const error = await rejection(own.infer([TensorHandle.fromTypedArray(new Float32Array(3 * 64 * 64), [1, 3, 64, 64])]));
    expect(error).toBeInstanceOf(RunnerError);
    expect((error as RunnerError).code).toBe("ERR_DS_ELEMENT_RUNNER_DISPOSED");
    expect(error.message).toBe(`Expected a live runner for infer but received one disposed by dispose() (${path})`);
  });

  it("waits for the inferences in flight before it frees the model", async () => {
    const own = await loadRunner(path);
    const input = TensorHandle.fromTypedArray(new Float32Array(3 * 64 * 64), [1, 3, 64, 64]);
    const pending = own.infer([input]);
    const disposed = own.dispose();
    const [output] = await pending;
    await disposed;
    expect(output!.shape).toEqual([1, 6, 3]);
  });
});

/** Threads of this process, as the kernel counts them. */
function threadCount(): number {
  return Number(/^Threads:\s+(\d+)/m.exec(readFileSync("/proc/self/status", "utf8"))![1]);
}

/** Polls until `check` holds (threads end a little after their exit event), at most 5 s. */
async function eventually(check: () => boolean): Promise<boolean> {
  for (let waited = 0; waited < 5000 && !check(); waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
  return check();
}

describe("loadRunner, ONNX Runtime backend: the session's own thread", () => {
  it("loads a slow model without blocking the JS thread", async () => {
    // ONNX Runtime computes this model's constant subgraph while it sets the session up.
    const slow = makeBallModel("slow-to-load", { size: 64, setupWork: 150 });
    const ticks: number[] = [];
    const timer = setInterval(() => ticks.push(performance.now()), 1);
    const started = performance.now();
    const runner = await loadRunner(slow);
    const loadMs = performance.now() - started;
    clearInterval(timer);
    const gaps = ticks.map((tick, i) => tick - (ticks[i - 1] ?? started));
    // On the JS thread, the set-up would have been one gap as long as the load itself.
    expect(ticks.length).toBeGreaterThan(10);
    expect(Math.max(...gaps), `largest gap between timer ticks during a ${loadMs.toFixed(0)} ms load`).toBeLessThan(loadMs / 2);
    await runner.dispose();
  });

  it("keeps an input's memory until it has read it, even when the caller disposes the input at once", async () => {
    const path = makeBallModel("ball-in-place", { size: 64 });
    const runner = await loadRunner(path);
    const frame = TensorHandle.fromTypedArray(diskFrame(64, 64, 20, 40), [64, 64, 3], { format: "RGB" });
    const { tensor } = preprocess([frame], { width: 64, height: 64 });
    const [expected] = await runner.infer([tensor]);
    const before = tensorStats().pool.liveBlocks;
    const pending = runner.infer([tensor]);
    tensor.dispose();
    // Were the block back in the pool, this would reuse it and overwrite the disk with black.
    const { tensor: black } = preprocess([TensorHandle.fromTypedArray(new Uint8Array(64 * 64 * 3), [64, 64, 3], { format: "RGB" })], { width: 64, height: 64 });
    const [output] = await pending;
    expect(Array.from(output!.toTypedArray() as Float32Array)).toEqual(Array.from(expected!.toTypedArray() as Float32Array));
    // The hold ended with the inference: only `black` is left of the two inputs.
    expect(tensorStats().pool.liveBlocks).toBe(before);
    black.dispose();
    await runner.dispose();
  });

  it("has one thread per runner, ended by dispose()", async () => {
    const path = makeBallModel("ball-threads", { size: 64 });
    const baseline = threadCount();
    const runners = await Promise.all([1, 2, 3].map(() => loadRunner(path, { intraOpThreads: 1 })));
    expect(threadCount()).toBeGreaterThanOrEqual(baseline + 3);
    await Promise.all(runners.map((runner) => runner.dispose()));
    expect(await eventually(() => threadCount() <= baseline), `threads: ${threadCount()}, before loading: ${baseline}`).toBe(true);
  });

  it("ends the thread of a runner collected without dispose()", async () => {
    const path = makeBallModel("ball-collected", { size: 64 });
    setFlagsFromString("--expose-gc");
    const gc = runInNewContext("gc") as () => void;
    const baseline = threadCount();
    let runner: Runner | undefined = await loadRunner(path, { intraOpThreads: 1 });
    expect(threadCount()).toBeGreaterThan(baseline);
    runner = undefined;
    expect(runner).toBeUndefined();
    expect(await eventually(() => (gc(), threadCount() <= baseline)), `threads: ${threadCount()}, before loading: ${baseline}`).toBe(true);
  });
});

describe("loadRunner errors", () => {
  const cases: [string, () => string, string][] = [
    ["a missing file", () => join(scratch, "missing.onnx"), "no such file"],
    ["an empty file", () => file("empty.onnx", ""), "the file is empty"],
  ];

  it.each(cases)("%s: a RunnerError naming the file and the reason", async (_what, make, reason) => {
    const path = make();
    const error = await rejection(loadRunner(path));
    expect(error).toBeInstanceOf(RunnerError);
    expect(error.message).toBe(`Cannot load the ONNX model ${path}: ${reason}`);
    expect((error as RunnerError).code).toBe("ERR_DS_ELEMENT_RUNNER_LOAD");
  });

  // These said "the file is empty" (they have no size); a FIFO with no writer must not hang the load.
  it.each([
    ["/dev/zero", () => "/dev/zero", "a character device"],
    ["/dev/urandom", () => "/dev/urandom", "a character device"],
    ["a FIFO", () => fifo("model-fifo.onnx"), "a FIFO"],
  ])("%s: not a regular file", async (_what, make, kind) => {
    const path = make();
    const error = await rejection(loadRunner(path, { backend: "onnxruntime" }));
    expect(error).toBeInstanceOf(RunnerError);
    expect(error.message).toBe(`Cannot load the ONNX model ${path}: it is not a regular file (${kind})`);
  });

  it("a directory", async () => {
    const dir = mkdtempSync(join(scratch, "models-"));
    const error = await rejection(loadRunner(dir, { backend: "onnxruntime" }));
    expect(error.message).toBe(`Cannot load the ONNX model ${dir}: it is a directory`);
  });

  it("bytes that are not an ONNX model: ONNX Runtime's own reason", async () => {
    const path = file("garbage.onnx", "this is not a protobuf");
    const error = await rejection(loadRunner(path));
    expect(error).toBeInstanceOf(RunnerError);
    expect(error.message).toMatch(new RegExp(`^Cannot load the ONNX model ${path}: ONNX Runtime refused it: .+`));
  });

  it("a file name of no known backend", async () => {
    const error = await rejection(loadRunner(file("model.pt", "x")));
    expect(error).toBeInstanceOf(InvalidValueError);
    expect(error.message).toBe(
      `Expected a model file ending in .onnx (ONNX Runtime), .engine or .plan (TensorRT) for the path of loadRunner() but received "${join(scratch, "model.pt")}" (name the backend with { backend: "onnxruntime" | "tensorrt" } for other names)`,
    );
  });

  it("invalid options, with the one message shape", async () => {
    expect((await rejection(loadRunner(""))).message).toBe('Expected the path of a model file for the path of loadRunner() but received ""');
    expect((await rejection(loadRunner("m.onnx", { deviceId: -1 }))).message).toBe("Expected a whole number from 0 to 1023 for options.deviceId of loadRunner() but received -1");
    expect((await rejection(loadRunner("m.onnx", { maxConcurrency: "2" as never }))).message).toBe('Expected a whole number from 1 to 64 for options.maxConcurrency of loadRunner() but received "2"');
    expect((await rejection(loadRunner("m.onnx", { backend: "torch" as never }))).message).toBe('Expected "onnxruntime" or "tensorrt" for options.backend of loadRunner() but received "torch"');
  });

  it("a TensorRT engine on a build without TensorRT says how to get one", async () => {
    const error = await rejection(loadRunner(file("yolo.engine", "x")));
    expect(error).toBeInstanceOf(RunnerError);
    expect(error.message).toBe(
      `Cannot load the TensorRT engine ${join(scratch, "yolo.engine")}: this build of ds-element-native has no TensorRT runner (TensorRT >= 10 was not found when it was built): ` +
        "install TensorRT and rebuild with `TENSORRT_ROOT=<TensorRT folder> npm run build -w ds-element-native`, or load an .onnx model (ONNX Runtime, CPU)",
    );
  });
});
