/**
 * The runner half of the native binding: the TensorRT runner (native-host/src/runners/
 * tensorrt_binding.cpp, docs/internals/runners.md), exported by libdsnode-runtime.so.0 and by
 * the standalone binding only where the build found TensorRT. The host hands them to the bundle
 * (HostServicesV1.runners) with the other bindings (bindings.ts).
 *
 * @internal
 */
import type { TensorHandle } from "../tensor/tensor-handle.js";

/** An engine input or output as the native runner lists it (-1: dynamic). */
export interface NativeEngineTensor {
  name: string;
  dtype: string;
  shape: number[];
  format: string;
  profile?: { min: number[]; opt: number[]; max: number[] };
}

/** One output of an inference: device memory of the runner's pool. */
export interface NativeEngineOutput {
  name: string;
  dtype: string;
  shape: number[];
  devicePointer: bigint;
  byteLength: number;
  /** Hands the memory back to the pool (idempotent). */
  release(): void;
}

export interface NativeTensorRTRunner {
  readonly backend: "tensorrt";
  readonly path: string;
  readonly deviceId: number;
  /** Execution contexts it uses: the option, or 1 on engines with dynamic input shapes. */
  readonly maxConcurrency: number;
  readonly inputs: NativeEngineTensor[];
  readonly outputs: NativeEngineTensor[];
  /** Reads each input's DLPack face (device, dtype, shape, strides, byteOffset, dataPtr). */
  infer(inputs: Record<string, TensorHandle>): Promise<NativeEngineOutput[]>;
  dispose(): void;
}

export interface RunnerBinding {
  loadTensorRT?(path: string, options?: { deviceId?: number; maxConcurrency?: number; profile?: number }): Promise<NativeTensorRTRunner>;
  readonly tensorRTVersion?: string;
}
