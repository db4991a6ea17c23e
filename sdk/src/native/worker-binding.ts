/**
 * The native binding from a worker thread. A worker is a Node environment of its own: it loads
 * the same library the main thread's binding came from (the runtime library inside GStreamer,
 * the testing addon elsewhere), and Node-API gives it an instance of its own. Workers use it
 * only to view the main thread's host memory in place (`tensor.hostView`).
 *
 * @internal
 */
import { RUNTIME_KEY_V1, type RuntimeInfoV1 } from "./binding.js";
import { metaAddonPath } from "./meta-addon.js";

/**
 * The file of the binding this process uses: the runtime library's path, which its bootstrap
 * leaves in a global, inside GStreamer; the testing addon's elsewhere. Throws what the testing
 * addon's lookup throws where ds-element-native cannot be found.
 */
export function bindingLibraryPath(): string {
  const runtime = (globalThis as Record<symbol, Partial<RuntimeInfoV1> | undefined>)[RUNTIME_KEY_V1];
  if (typeof runtime?.runtimePath === "string" && runtime.runtimePath !== "") return runtime.runtimePath;
  const path = metaAddonPath();
  if (path instanceof Error) throw path;
  return path;
}

/**
 * Source of `openHostView(libraryPath)`, a function for **inside a worker**: it loads the
 * binding from `libraryPath` and returns its `hostView(address, byteLength)`. Plain JavaScript
 * text, so that no bundler or coverage tool can rewrite it into something that refers outside
 * itself.
 */
export const OPEN_HOST_VIEW_SOURCE = String.raw`function openHostView(libraryPath) {
  const module = { exports: {} };
  process.dlopen(module, libraryPath);
  const hostView = module.exports.tensor && module.exports.tensor.hostView;
  if (typeof hostView !== "function") {
    throw new Error("Expected tensor.hostView in " + libraryPath + " but received " + typeof hostView +
      ": the native library is older than the SDK (rebuild both with one release: npm run build)");
  }
  return hostView;
}`;
