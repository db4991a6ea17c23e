// What the TensorRT runner's GPU test (test/gpu/tensorrt-runner.test.ts) needs: the standalone
// binding's loadTensorRT, the test-only module dsnode_cuda_testing.node's cudaTesting, tiny ONNX
// models written here, and an engine builder (dsnode-trt-build-engine from the native build,
// else trtexec).
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { delimiter, join } from "node:path";
import { dlopen, loadStandaloneBinding } from "../../sdk/src/native/loader";
import * as onnx from "../../sdk/src/testing/models/onnx-encoding";
import { repoRoot } from "./gst";

// ---------------------------------------------------------------- the addon

export interface ProfileShapes {
  min: number[];
  opt: number[];
  max: number[];
}

export interface RunnerTensorInfo {
  name: string;
  dtype: string;
  shape: number[];
  format: string;
  profile?: ProfileShapes;
}

export interface RunnerOutput {
  name: string;
  dtype: string;
  shape: number[];
  devicePointer: bigint;
  byteLength: number;
  release(): void;
}

/** The JS face of a TensorHandle that tensorrt_binding.cpp reads (DESIGN §4). */
export interface DeviceTensor {
  device: { type: string; id: number };
  dtype: string;
  shape: number[];
  strides?: number[];
  byteOffset?: number;
  dataPtr: bigint;
}

export interface TensorRTRunner {
  readonly backend: "tensorrt";
  readonly path: string;
  readonly deviceId: number;
  readonly maxConcurrency: number;
  readonly inputs: RunnerTensorInfo[];
  readonly outputs: RunnerTensorInfo[];
  infer(inputs: Record<string, DeviceTensor>, outputs?: Record<string, DeviceTensor>): Promise<RunnerOutput[]>;
  dispose(): void;
}

export interface CudaTesting {
  deviceCount(): number;
  upload(view: ArrayBufferView, deviceId?: number): bigint;
  download(address: bigint, byteLength: number, deviceId?: number): ArrayBuffer;
  free(address: bigint, deviceId?: number): void;
  /** Like upload, in a CUDA context of its own on the device (as GstCudaMemory frames are). */
  uploadInOwnContext(view: ArrayBufferView, deviceId?: number): bigint;
}

export interface TensorRTAddon {
  loadTensorRT?: (path: string, options?: { deviceId?: number; maxConcurrency?: number; profile?: number }) => Promise<TensorRTRunner>;
  tensorRTVersion?: string;
  cudaTesting?: CudaTesting;
}

/**
 * The standalone binding (through the SDK's one loader, sdk/src/native/loader.ts) with the
 * test-only `cudaTesting` of dsnode_cuda_testing.node beside it (built here from the native
 * build folder, where CMake found TensorRT and CUDA), or why not.
 */
export function loadTestingAddon(): TensorRTAddon | string {
  let addon: TensorRTAddon;
  try {
    // The test views the runner through its own TensorRTRunner interface (what these tests call).
    addon = loadStandaloneBinding() as unknown as TensorRTAddon;
  } catch (error) {
    return (error as Error).message;
  }
  if (addon.loadTensorRT === undefined) return addon;
  const build = process.env.DSNODE_META_BUILD_DIR ?? join(repoRoot, "native-host", "build");
  const built = spawnSync("cmake", ["--build", build, "--target", "dsnode-cuda-testing"], { encoding: "utf8" });
  const testing = join(build, "test-modules", "dsnode_cuda_testing.node");
  if (built.status !== 0 || !existsSync(testing)) {
    return `the test module dsnode_cuda_testing.node does not build in ${build}: ${built.stderr || built.stdout}`;
  }
  try {
    const module = dlopen("the test module dsnode_cuda_testing.node", testing, `rebuild it: cmake --build ${build} --target dsnode-cuda-testing`);
    return { ...addon, cudaTesting: (module as { cudaTesting: CudaTesting }).cudaTesting };
  } catch (error) {
    return (error as Error).message;
  }
}

// ---------------------------------------------------------------- device memory

export const DTYPE_BYTES: Record<string, number> = { float32: 4, float16: 2, int32: 4, int64: 8, int8: 1, uint8: 1, bool: 1 };

/** Device tensors made by a test, freed together at the end. */
export class DeviceMemory {
  readonly #cuda: CudaTesting;
  readonly #addresses: bigint[] = [];

  constructor(cuda: CudaTesting) {
    this.#cuda = cuda;
  }

  /**
   * A CUDA tensor holding `values` (their bytes as they are); with `ownContext`, its memory
   * belongs to a CUDA context other than the device's primary one, as a GstCudaMemory frame's does.
   */
  tensor(values: ArrayBufferView, dtype: string, shape: number[], { ownContext = false } = {}): DeviceTensor {
    const address = ownContext ? this.#cuda.uploadInOwnContext(values) : this.#cuda.upload(values);
    this.#addresses.push(address);
    return { device: { type: "cuda", id: 0 }, dtype, shape, dataPtr: address };
  }

  /** An output's bytes, copied back to the host. */
  read(output: RunnerOutput): ArrayBuffer {
    return this.#cuda.download(output.devicePointer, output.byteLength);
  }

  /** A device tensor's bytes, copied back to the host. */
  readTensor(tensor: DeviceTensor): ArrayBuffer {
    const bytes = tensor.shape.reduce((product, dim) => product * dim, DTYPE_BYTES[tensor.dtype] ?? 1);
    return this.#cuda.download(tensor.dataPtr, bytes);
  }

  freeAll(): void {
    for (const address of this.#addresses.splice(0)) this.#cuda.free(address);
  }
}

/** IEEE half-precision bits to a number. */
export function halfToNumber(bits: number): number {
  const sign = bits & 0x8000 ? -1 : 1;
  const exponent = (bits >> 10) & 0x1f;
  const fraction = bits & 0x3ff;
  if (exponent === 0) return sign * fraction * 2 ** -24;
  if (exponent === 31) return fraction ? Number.NaN : sign * Number.POSITIVE_INFINITY;
  return sign * (1 + fraction / 1024) * 2 ** (exponent - 15);
}

/** Largest |a - b| - rtol·|b| over the two arrays (≤ atol means "equal within tolerance"). */
export function worstExcess(actual: ArrayLike<number>, expected: ArrayLike<number>, rtol: number): number {
  let worst = 0;
  for (let i = 0; i < expected.length; i++) {
    worst = Math.max(worst, Math.abs(actual[i]! - expected[i]!) - rtol * Math.abs(expected[i]!));
  }
  return worst;
}

// ---------------------------------------------------------------- tiny models

const FLOAT = 1;
const UINT8 = 2;
const FLOAT16 = 10;

function writeModel(path: string, name: string, graph: Uint8Array): string {
  const model = onnx.encodeModel({
    irVersion: 8,
    opsetVersion: 17,
    producerName: "ds-element tests",
    producerVersion: "1",
    modelVersion: 1,
    docString: name,
    graph,
    metadata: [],
  }) as Uint8Array;
  writeFileSync(path, model);
  return path;
}

/**
 * `affine`: images float32 [batch, 3, 4, 4] and bias float32 [1] (static) →
 * affine = images × 2 + bias [batch, 3, 4, 4] and sums = images summed over H and W [batch, 3].
 */
export function writeAffineModel(path: string): string {
  const graph = onnx.encodeGraph({
    name: "affine",
    nodes: [
      onnx.encodeNode({ name: "scale", opType: "Mul", inputs: ["images", "two"], outputs: ["scaled"] }),
      onnx.encodeNode({ name: "shift", opType: "Add", inputs: ["scaled", "bias"], outputs: ["affine"] }),
      onnx.encodeNode({ name: "sum", opType: "ReduceSum", inputs: ["images", "axes"], outputs: ["sums"], attributes: { keepdims: { int: 0 } } }),
    ],
    initializers: [
      onnx.encodeTensor({ name: "two", dataType: FLOAT, dims: [1], values: [2] }),
      onnx.encodeTensor({ name: "axes", dataType: onnx.DataType.INT64, dims: [2], values: [2, 3] }),
    ],
    inputs: [
      onnx.encodeValueInfo({ name: "images", dataType: FLOAT, dims: ["batch", 3, 4, 4] }),
      onnx.encodeValueInfo({ name: "bias", dataType: FLOAT, dims: [1] }),
    ],
    outputs: [
      onnx.encodeValueInfo({ name: "affine", dataType: FLOAT, dims: ["batch", 3, 4, 4] }),
      onnx.encodeValueInfo({ name: "sums", dataType: FLOAT, dims: ["batch", 3] }),
    ],
  }) as Uint8Array;
  return writeModel(path, "affine", graph);
}

/** The affine model in JS: what the engine must compute. */
export function affineReference(images: Float32Array, batch: number, bias: number): { affine: Float32Array; sums: Float32Array } {
  const affine = new Float32Array(images.length);
  const sums = new Float32Array(batch * 3);
  for (let i = 0; i < images.length; i++) {
    affine[i] = Math.fround(Math.fround(images[i]! * 2) + bias);
    sums[Math.floor(i / 16)]! += images[i]!;
  }
  return { affine, sums };
}

/** `pixels`: uint8 [batch, 4, 4, 3] → normalized = pixels / 255 as float16, same shape. */
export function writePixelsModel(path: string): string {
  const graph = onnx.encodeGraph({
    name: "pixels",
    nodes: [
      onnx.encodeNode({ name: "widen", opType: "Cast", inputs: ["pixels"], outputs: ["wide"], attributes: { to: { int: FLOAT } } }),
      onnx.encodeNode({ name: "normalise", opType: "Mul", inputs: ["wide", "inverse_255"], outputs: ["unit"] }),
      onnx.encodeNode({ name: "narrow", opType: "Cast", inputs: ["unit"], outputs: ["normalized"], attributes: { to: { int: FLOAT16 } } }),
    ],
    initializers: [onnx.encodeTensor({ name: "inverse_255", dataType: FLOAT, dims: [1], values: [1 / 255] })],
    inputs: [onnx.encodeValueInfo({ name: "pixels", dataType: UINT8, dims: ["batch", 4, 4, 3] })],
    outputs: [onnx.encodeValueInfo({ name: "normalized", dataType: FLOAT16, dims: ["batch", 4, 4, 3] })],
  }) as Uint8Array;
  return writeModel(path, "pixels", graph);
}

// ---------------------------------------------------------------- engines

/** One input's optimisation profile: name and min/opt/max shapes. */
export interface InputProfile {
  name: string;
  min: number[];
  opt: number[];
  max: number[];
}

export type EngineBuilder = (onnxPath: string, enginePath: string, profiles: InputProfile[]) => void;

function findTrtexec(): string | undefined {
  const folders = [
    ...(process.env.PATH ?? "").split(delimiter),
    ...(process.env.TENSORRT_ROOT ? [join(process.env.TENSORRT_ROOT, "bin")] : []),
    "/usr/src/tensorrt/bin",
  ];
  return folders.map((folder) => join(folder, "trtexec")).find((candidate) => existsSync(candidate));
}

/**
 * dsnode-trt-build-engine (built from native-host/build, where CMake found TensorRT's ONNX
 * parser), else trtexec; or why neither is there.
 */
export function engineBuilder(): EngineBuilder | string {
  const build = join(repoRoot, "native-host", "build");
  const tool = join(build, "dsnode-trt-build-engine");
  if (existsSync(join(build, "CMakeCache.txt"))) {
    spawnSync("cmake", ["--build", build, "--target", "dsnode-trt-build-engine"], { stdio: "pipe" });
  }
  const dims = (shape: number[]) => shape.join("x");
  if (existsSync(tool)) {
    return (onnxPath, enginePath, profiles) => {
      const args = profiles.flatMap((p) => ["--profile", `${p.name}:${dims(p.min)}:${dims(p.opt)}:${dims(p.max)}`]);
      execFileSync(tool, [onnxPath, enginePath, ...args], { stdio: "pipe" });
    };
  }
  const trtexec = findTrtexec();
  if (trtexec) {
    return (onnxPath, enginePath, profiles) => {
      const shapes = (pick: (p: InputProfile) => number[]) => profiles.map((p) => `${p.name}:${dims(pick(p))}`).join(",");
      const args = [`--onnx=${onnxPath}`, `--saveEngine=${enginePath}`, "--stronglyTyped", "--skipInference"];
      if (profiles.length > 0) {
        args.push(`--minShapes=${shapes((p) => p.min)}`, `--optShapes=${shapes((p) => p.opt)}`, `--maxShapes=${shapes((p) => p.max)}`);
      }
      execFileSync(trtexec, args, { stdio: "pipe" });
    };
  }
  return "no engine builder: neither dsnode-trt-build-engine (needs TensorRT's ONNX parser, libnvonnxparser) nor trtexec";
}
