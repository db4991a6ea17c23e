/**
 * The native bindings this copy of the SDK works with, one set per process: the host hands
 * them over through the host protocol (HostServicesV1: host.js inside GStreamer, the testing
 * harness over the standalone binding) and the element adapter installs them here, before any
 * element code runs. Metadata handles get `meta` through their call's TransformScope (the
 * adapter passes it from this same set); frames, tensors, ops and runners read the set here.
 *
 * Where no host has handed a set over: inside GStreamer that is an error (the runtime's
 * binding is the only one that knows its calls; the standalone binding is never used there);
 * in ordinary Node (a script, a test without a harness, the bench) the set is the standalone
 * binding's, ordinary Node's binary, loaded through loader.ts like every other.
 *
 * @internal
 */
import { checkBindingVersions, standaloneBindings, type NativeBindings } from "./loader.js";
import { RUNTIME_KEY_V1 } from "./runtime-binding.js";
import type { RunnerBinding } from "./runner-binding.js";
import type { TensorBinding } from "./tensor-binding.js";

let installed: NativeBindings | undefined;

/**
 * Installs the set the host handed over (after the one version check: the bundle's SDK copy may
 * be another release than the host's). The last host wins: one process has one runtime, and a
 * test process makes every harness over the same standalone binding.
 */
export function installBindings(bindings: NativeBindings): void {
  checkBindingVersions(bindings, bindings.libraryPath, "the element was built with another release of ds-element than the runtime's (rebuild both with one release)");
  installed = bindings;
}

/** The set, or an error saying what needed it and where it comes from. */
export function nativeBindings(what: string): NativeBindings {
  if (installed !== undefined) return installed;
  if ((globalThis as Record<symbol, unknown>)[RUNTIME_KEY_V1] !== undefined) {
    throw new Error(
      `${what} needs the runtime's native bindings, which host.js did not pass to this element: ` +
        "the element was built with a newer ds-element than the runtime's (rebuild both with one release)",
    );
  }
  try {
    installed = standaloneBindings();
  } catch (error) {
    throw new Error(`${what} needs ds-element's native binding: ${(error as Error).message}`, { cause: error });
  }
  return installed;
}

/** The tensor binding (frames, owned tensors, ops). */
export function tensorBinding(what: string): TensorBinding {
  return nativeBindings(what).tensor;
}

/**
 * The tensor binding when it can be had, else undefined: for native fast paths that have a
 * TypeScript fallback (post-processing), which must work wherever the SDK does.
 */
export function optionalTensorBinding(): TensorBinding | undefined {
  try {
    return nativeBindings("a native fast path").tensor;
  } catch {
    return undefined;
  }
}

/** The runner functions (`loadTensorRT` only where the build found TensorRT). */
export function runnerBinding(what: string): RunnerBinding {
  return nativeBindings(what).runners;
}
