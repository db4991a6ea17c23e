/**
 * The one module that loads ds-element's native binaries (docs/internals/layering.md; the
 * repository's layering test checks that nothing else does). Every binary goes through the one
 * check below, so a binary from another build fails the same way wherever it is loaded:
 *
 * - the runtime library, libdsnode-runtime.so.0, inside GStreamer (host.js, loadRuntimeBinding);
 * - the standalone binding, ds-element-native's dsnode_standalone.node, in ordinary Node
 *   (loadStandaloneBinding): the real metadata and tensor bindings over the portable backend,
 *   loadable by any Node (it links GStreamer and the metadata core, not libnode), plus a harness
 *   that makes GstBuffers, which only `ds-element/testing` and tests use;
 * - either of them again from a worker thread, for its `tensor.hostView` (openHostView).
 *
 * What the element code of a bundle uses is a {@link NativeBindings} set, made from either
 * binary by {@link bindingsOf} and handed to the bundle through the host protocol
 * (installed-bindings.ts).
 *
 * @internal
 */
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { NativeBindingsV1 } from "../protocol/host-protocol-v1.js";
import { META_LAYOUT_VERSION } from "../protocol/transform-state.js";
import { RUNTIME_KEY_V1, type NativeBinding, type RuntimeInfoV1 } from "./runtime-binding.js";
import type { MetaBinding, StandaloneHarness } from "./meta-binding.js";
import type { RunnerBinding } from "./runner-binding.js";
import { FRAME_INFO_LENGTH, TENSOR_BINDING_VERSION, type TensorBinding } from "./tensor-binding.js";

/** Every binding element code uses, from one binary (the runtime library or the standalone binding). */
export type NativeBindings = NativeBindingsV1;

/** What `process.dlopen` of dsnode_standalone.node exports. */
export interface StandaloneBinding extends RunnerBinding {
  readonly meta: MetaBinding;
  readonly harness: StandaloneHarness;
  /** Frame access and ops (Buffer.extract). */
  readonly tensor: TensorBinding;
}

/** `hostView(address, byteLength)`: an ArrayBuffer over host memory another thread keeps alive. */
export type HostView = (address: bigint, byteLength: number) => ArrayBuffer;

/** The fix of a runtime library that does not fit this SDK. */
const REBUILD = "host.js and the runtime library come from different builds: rebuild with `npm run build`";
/** The fix of a missing, broken or mismatched standalone binding. */
const REINSTALL =
  "ds-element-native ships it in build/Release: reinstall it with `npm install ds-element` " +
  "(in the ds-element repository: `npm run build -w ds-element-native`)";

function platform(): string {
  return `${process.platform}-${process.arch}, Node ${process.versions.node}`;
}

/** `process.dlopen`, with an error naming the binary, the platform, the loader's reason and the fix. */
/**
 * Loads the Node-API module at `path`; on failure the Error names `what`, the path, this
 * platform, the loader's reason and `fix`. Every binary of the SDK and of its tests (the GPU
 * tests' dsnode_cuda_testing.node) is loaded through it.
 */
export function dlopen(what: string, path: string, fix: string): Record<string, unknown> {
  const module = { exports: {} as Record<string, unknown> };
  try {
    process.dlopen(module, path);
  } catch (error) {
    throw new Error(`Cannot load ${what} from ${path} (${platform()}): ${(error as Error).message}; ${fix}`, { cause: error });
  }
  return module.exports;
}

/**
 * The one version check: the metadata layout and the tensor functions of `binding` are the
 * ones this SDK was built against. Also checks what host.js hands a bundle (installed-bindings.ts), whose
 * SDK copy may be another release than host.js's.
 */
export function checkBindingVersions(binding: { readonly meta?: unknown; readonly tensor?: unknown }, where: string, fix: string): void {
  const meta = binding.meta as Partial<MetaBinding> | undefined;
  if (meta?.layoutVersion !== META_LAYOUT_VERSION) {
    throw new Error(`Expected metadata layout version ${META_LAYOUT_VERSION} for ${where} but received ${String(meta?.layoutVersion)}; ${fix}`);
  }
  const tensor = binding.tensor as Partial<TensorBinding> | undefined;
  if (tensor?.version !== TENSOR_BINDING_VERSION) {
    throw new Error(`Expected tensor binding version ${TENSOR_BINDING_VERSION} for ${where} but received ${String(tensor?.version)}; ${fix}`);
  }
  if (tensor.frameInfoLength !== FRAME_INFO_LENGTH) {
    throw new Error(`Expected frame descriptors of ${FRAME_INFO_LENGTH} numbers for ${where} but received ${String(tensor.frameInfoLength)}; ${fix}`);
  }
}

/** The set element code uses, from a loaded binary. */
export function bindingsOf(binding: NativeBinding | StandaloneBinding, libraryPath: string): NativeBindings {
  return Object.freeze({
    meta: binding.meta,
    tensor: binding.tensor,
    runners: { loadTensorRT: binding.loadTensorRT, tensorRTVersion: binding.tensorRTVersion },
    libraryPath,
  });
}

// ---------------------------------------------------------------- the runtime library

const RUNTIME_FUNCTIONS = ["setHandlers", "log", "postError", "liveInstances"] as const;

/** The runtime library's path, which its bootstrap leaves in a global; undefined outside GStreamer. */
export function runtimeLibraryPath(): string | undefined {
  const info = (globalThis as Record<symbol, Partial<RuntimeInfoV1> | undefined>)[RUNTIME_KEY_V1];
  const path = info?.runtimePath;
  return typeof path === "string" && path !== "" ? path : undefined;
}

/** Loads the binding of the runtime library the bootstrap names (host.js, inside GStreamer). */
export function loadRuntimeBinding(): NativeBinding {
  const runtimePath = runtimeLibraryPath();
  if (runtimePath === undefined) {
    const info = (globalThis as Record<symbol, Partial<RuntimeInfoV1> | undefined>)[RUNTIME_KEY_V1];
    throw new Error(
      `Expected the path of libdsnode-runtime.so.0 for globalThis[Symbol.for("ds-element.runtime.v1")].runtimePath but received ${String(info?.runtimePath)}; ` +
        "host.js runs only inside the ds-element runtime, whose bootstrap sets it",
    );
  }
  const binding = dlopen("the ds-element binding", runtimePath, "rebuild it with `npm run build -w ds-element-native`");
  const missing = RUNTIME_FUNCTIONS.filter((name) => typeof binding[name] !== "function");
  if (missing.length > 0 || !(binding.transformState instanceof Float64Array)) {
    throw new Error(
      `Expected the binding exports setHandlers, log, postError, liveInstances and transformState for ${runtimePath} ` +
        `but received ${Object.keys(binding).join(", ") || "none"}; ${REBUILD}`,
    );
  }
  checkBindingVersions(binding, runtimePath, REBUILD);
  return binding as unknown as NativeBinding;
}

// ---------------------------------------------------------------- the standalone binding

let standalone: { path: string; binding: StandaloneBinding } | undefined;

/**
 * Where the standalone binding is: `DSNODE_STANDALONE_BINDING` when set (another build, e.g.
 * with sanitizers, or a bundled test driver that cannot resolve packages from its folder), else
 * ds-element-native's `standaloneBindingPath`. An Error (not thrown) when ds-element-native
 * cannot be resolved.
 */
export function standaloneBindingPath(): string | Error {
  const override = process.env.DSNODE_STANDALONE_BINDING;
  if (override) return override;
  const require = createRequire(__filename);
  try {
    const native = require("ds-element-native") as { standaloneBindingPath?: string; buildDir?: string };
    return native.standaloneBindingPath ?? join(native.buildDir ?? dirname(require.resolve("ds-element-native")), "dsnode_standalone.node");
  } catch (error) {
    return new Error(
      `Cannot find the package ds-element-native (${platform()}), which ds-element depends on: ${(error as Error).message}; ` +
        `install it with \`npm install ds-element\``,
      { cause: error },
    );
  }
}

/**
 * The standalone binding, loaded once per process: ordinary Node's binary (never inside
 * GStreamer, see installed-bindings.ts). Throws an Error naming the path it tried, the platform and the command
 * that fixes it when the binding is missing, does not load, or comes from another release.
 */
export function loadStandaloneBinding(): StandaloneBinding {
  const path = standaloneBindingPath();
  if (path instanceof Error) throw path;
  if (standalone?.path === path) return standalone.binding;
  if (!existsSync(path)) {
    throw new Error(`Expected ds-element's standalone binding at ${path} but received no such file (${platform()}); ${REINSTALL}`);
  }
  const binding = dlopen("ds-element's standalone binding", path, REINSTALL);
  checkBindingVersions(binding, path, "ds-element and ds-element-native are from different releases (reinstall them together)");
  if (typeof (binding.harness as Partial<StandaloneHarness> | undefined)?.openCall !== "function") {
    throw new Error(`Expected the harness functions in ${path} but received none; ${REINSTALL}`);
  }
  standalone = { path, binding: binding as unknown as StandaloneBinding };
  return standalone.binding;
}

/** The standalone binding's set, as a host hands it to elements (ordinary Node: tests, scripts, the bench). */
export function standaloneBindings(): NativeBindings {
  const binding = loadStandaloneBinding();
  return bindingsOf(binding, standalone!.path);
}

// ---------------------------------------------------------------- worker threads

/**
 * A worker thread's `tensor.hostView`, from the binary the main thread's bindings came from
 * (`NativeBindings.libraryPath`): a worker is a Node environment of its own and Node-API gives it
 * an instance of its own. Workers use it only to view the main thread's host memory in place
 * (runners/onnx-session-worker.ts).
 */
export function openHostView(libraryPath: string): HostView {
  const binding = dlopen("ds-element's binding in a worker thread", libraryPath, REBUILD);
  checkBindingVersions(binding, libraryPath, REBUILD);
  const hostView = (binding.tensor as Partial<TensorBinding>).hostView;
  if (typeof hostView !== "function") {
    throw new Error(`Expected tensor.hostView in ${libraryPath} but received ${typeof hostView}; ${REBUILD}`);
  }
  return hostView as HostView;
}
