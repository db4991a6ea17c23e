import { writeFileSync } from "node:fs";
import { Element, TensorHandle, decodeYolo, mapBoxes, nms, preprocess, tensorStats, z, type BatchMeta, type GstBuffer } from "ds-element";
// Bench-only: the SDK has no public way yet to hand it device memory of one's own as a CUDA
// TensorHandle (runners do it with this internal function). The same module instance as
// "ds-element" (node_modules/ds-element is this repository's sdk/), so decodeYolo sees a TensorHandle.
import { deviceTensorFromRunner } from "../../../sdk/dist/tensor/tensor-handle.js";
// Binaries load through the SDK's one loader (docs/internals/layering.md): errors name the file and the fix.
import { dlopen } from "../../../sdk/dist/native/loader.js";

/** What bench/gpu/standin/standin_binding.cpp exports (dsbench_standin.node). */
interface StandinModule {
  create(maxBatch: number, deviceId?: number): object;
  run(model: object, input: bigint, dtype: string, batch: number, height: number, width: number, seed: number): { dataPtr: bigint; byteLength: number; gpuMs: number };
  release(model: object): void;
  destroy(model: object): void;
  runHost(input: ArrayBufferView, dtype: string, batch: number, height: number, width: number, seed: number, output: Float32Array): void;
}

const SIDE = 640;

/**
 * The ds-element side of the many-stream GPU bench (bench/README.md, "Many streams on the GPU";
 * scripts/gpu/run-streams-device.sh): a YOLOv8 detector's whole per-batch work, with a stand-in
 * for the model. Per NVMM batch: extract() every frame, one preprocess() of the batch on the GPU
 * (letterbox to 640×640 float16 NCHW, 1/255), the stand-in model (bench/gpu/standin/: a CUDA
 * kernel writing a realistic [N, 84, 8400] float32 output, no real network), decodeYolo on that
 * CUDA output (its GPU path: only the candidates come to the host), nms and mapBoxes per frame,
 * and addObjects on each frame's metadata. Its C++ peer, dsyolopeer
 * (bench/gpu/peer/yolo_peer.cpp), does the same with the same kernels and no JavaScript.
 *
 * At stop it writes `report` (JSON): batches and frames seen, objects written, the rate over the
 * batches after `warmup`, and per batch (after the warm-up) the element's own time and its parts:
 * extract, preprocess (a synchronous call: launch + GPU + wait), the stand-in kernel (its GPU time
 * from two CUDA events, and the call), decode (the candidate kernel, the copy, the decoding) and
 * nms + mapBoxes + addObjects; and the host copies and bytes of the whole run (tensorStats).
 *
 * Host frames (system-memory NVMM, plain video/x-raw) take the CPU path of every step, the stand-in
 * model included (the same values, computed on the host): the pipeline's check where there is no
 * GPU; the report says which (`model`). Not a benchmark there.
 */
export default class YoloStandin extends Element.define({
  name: "yolostandin",
  longName: "YOLOv8 detector with a stand-in model (bench)",
  klass: "Filter/Analyzer/Video",
  description: "Extracts, preprocesses on the GPU, runs the bench's stand-in YOLOv8 kernel, decodes on the GPU and writes objects",
  author: "ds-element authors",
  caps: "video/x-raw(memory:NVMM), format={ RGBA, NV12 }; video/x-raw(memory:CUDAMemory), format={ RGBA, NV12 }; video/x-raw, format={ RGBA, NV12 }",
  properties: z.object({
    binding: z.string().min(1).describe("Path of dsbench_standin.node (native-host/build/bench-modules/, or the GPU bundle's bench/)"),
    report: z.string().min(1).describe("JSON file the figures are written to at stop"),
    maxBatch: z.number().int().min(1).max(1024).default(64).describe("Largest batch the stand-in model's output is made for"),
    confidenceThreshold: z.number().min(0).max(1).default(0.25).describe("Minimum class score of a detection"),
    iouThreshold: z.number().min(0).max(1).default(0.45).describe("NMS IoU threshold"),
    warmup: z.number().int().min(0).default(10).describe("Batches left out of the rate and the timings"),
  }),
}) {
  private module: StandinModule | undefined;
  private model: object | undefined;
  private arrivals: number[] = [];
  private frames = 0;
  private objects = 0;
  /** The sum of every object's box, confidence and class: dsyolopeer's, when both wrote the same. */
  private checksum = 0;
  private timed = { batches: 0, frames: 0, elementMs: 0, extractMs: 0, preprocessMs: 0, modelCallMs: 0, modelGpuMs: 0, decodeMs: 0, objectsMs: 0 };
  private copies = { count: 0, bytes: 0 };

  start() {
    this.module = dlopen(
      "yolostandin's stand-in model dsbench_standin.node",
      this.props.binding,
      "build it with `cmake --build native-host/build --target dsnode-bench-standin-binding` (needs nvcc), or give its path in binding=",
    ) as unknown as StandinModule;
    this.device = undefined;
    this.arrivals = [];
    this.frames = 0;
    this.objects = 0;
    this.checksum = 0;
    for (const key of Object.keys(this.timed) as (keyof typeof this.timed)[]) this.timed[key] = 0;
    const stats = tensorStats();
    this.copies = { count: stats.hostCopies, bytes: stats.hostCopyBytes };
  }

  transform(batch: BatchMeta, buffer: GstBuffer) {
    const t0 = performance.now();
    this.arrivals.push(t0);
    const items = batch.frameItems;
    const frames = items.map((item) => buffer.extract(item.batchId));
    const t1 = performance.now();
    const { tensor, transforms } = preprocess(frames, { mode: "letterbox", width: SIDE, height: SIDE, dtype: "float16" });
    const t2 = performance.now();
    let output: TensorHandle;
    let gpuMs: number;
    try {
      output = this.infer(tensor, items.length);
      gpuMs = this.lastGpuMs;
    } finally {
      tensor.dispose();
    }
    const t3 = performance.now();
    let images;
    try {
      images = decodeYolo(output, { confidenceThreshold: this.props.confidenceThreshold });
    } finally {
      output.dispose();
    }
    const t4 = performance.now();
    for (const [i, frame] of items.entries()) {
      const boxes = mapBoxes(nms(images[i]!, { iouThreshold: this.props.iouThreshold }), transforms[i]!);
      this.objects += frame.addObjects(boxes, { uniqueComponentId: 1 });
      for (let row = 0; row < boxes.count; row++) {
        this.checksum += boxes.left[row]! + boxes.top[row]! + boxes.width[row]! + boxes.height[row]! + boxes.confidence[row]! + boxes.classId[row]!;
      }
    }
    const t5 = performance.now();
    this.frames += items.length;
    if (this.arrivals.length > this.props.warmup) {
      const timed = this.timed;
      timed.batches++;
      timed.frames += items.length;
      timed.elementMs += t5 - t0;
      timed.extractMs += t1 - t0;
      timed.preprocessMs += t2 - t1;
      timed.modelCallMs += t3 - t2;
      timed.modelGpuMs += gpuMs;
      timed.decodeMs += t4 - t3;
      timed.objectsMs += t5 - t4;
    }
  }

  private lastGpuMs = 0;
  private device: string | undefined;

  /** The stand-in model on `input` ([n, 3, 640, 640]): its output, a CUDA TensorHandle for a CUDA input. */
  private infer(input: TensorHandle, n: number): TensorHandle {
    const module = this.module!;
    const seed = this.arrivals.length;
    this.device ??= input.device.type;
    if (input.device.type !== "cuda") {
      const values = new Float32Array(n * 84 * 8400);
      module.runHost(input.toTypedArray(), input.dtype, n, SIDE, SIDE, seed, values);
      this.lastGpuMs = 0;
      return TensorHandle.fromTypedArray(values, [n, 84, 8400]);
    }
    // Made on the first CUDA batch, on its device.
    this.model ??= module.create(this.props.maxBatch, input.device.id);
    const model = this.model;
    const result = module.run(model, input.dataPtr + BigInt(input.byteOffset), input.dtype, n, SIDE, SIDE, seed);
    this.lastGpuMs = result.gpuMs;
    return deviceTensorFromRunner({
      deviceId: input.device.id,
      dtype: "float32",
      shape: [n, 84, result.byteLength / (n * 84 * 4)],
      dataPtr: result.dataPtr,
      byteLength: result.byteLength,
      release: () => module.release(model),
    });
  }

  stop() {
    if (this.module !== undefined && this.model !== undefined) this.module.destroy(this.model);
    this.model = undefined;
    const timed = this.arrivals.slice(this.props.warmup);
    const intervals = timed.length - 1;
    const seconds = intervals > 0 ? (timed[timed.length - 1]! - timed[0]!) / 1000 : 0;
    const perBatch = this.arrivals.length > 0 ? this.frames / this.arrivals.length : 0;
    const t = this.timed;
    const perFrame = (ms: number) => (t.frames > 0 ? ms / t.frames : null);
    const stats = tensorStats();
    writeFileSync(
      this.props.report,
      `${JSON.stringify({
        element: "yolostandin",
        model: this.device ?? null,
        objectChecksum: this.checksum,
        batches: this.arrivals.length,
        frames: this.frames,
        framesPerBatch: perBatch,
        objects: this.objects,
        objectsPerFrame: this.frames > 0 ? this.objects / this.frames : 0,
        timedBatches: t.batches,
        framesPerSecond: seconds > 0 ? (intervals * perBatch) / seconds : null,
        msPerFrame: {
          element: perFrame(t.elementMs),
          extract: perFrame(t.extractMs),
          preprocess: perFrame(t.preprocessMs),
          modelCall: perFrame(t.modelCallMs),
          modelGpu: perFrame(t.modelGpuMs),
          decode: perFrame(t.decodeMs),
          nmsAndObjects: perFrame(t.objectsMs),
        },
        hostCopies: stats.hostCopies - this.copies.count,
        hostCopyBytesPerFrame: this.frames > 0 ? (stats.hostCopyBytes - this.copies.bytes) / this.frames : 0,
      })}\n`,
    );
  }
}
