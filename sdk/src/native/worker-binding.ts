/**
 * Which library the native binding of this process came from, for worker threads: a worker is
 * a Node environment of its own and loads the same library (the runtime library inside
 * GStreamer, the standalone binding elsewhere) to view the main thread's host memory in place
 * (host-view.ts).
 *
 * @internal
 */
import { RUNTIME_KEY_V1, type RuntimeInfoV1 } from "./binding.js";
import { standaloneBindingPath } from "./standalone-binding.js";

/**
 * The file of the binding this process uses: the runtime library's path, which its bootstrap
 * leaves in a global, inside GStreamer; the standalone binding's elsewhere. Throws what the testing
 * addon's lookup throws where ds-element-native cannot be found.
 */
export function bindingLibraryPath(): string {
  const runtime = (globalThis as Record<symbol, Partial<RuntimeInfoV1> | undefined>)[RUNTIME_KEY_V1];
  if (typeof runtime?.runtimePath === "string" && runtime.runtimePath !== "") return runtime.runtimePath;
  const path = standaloneBindingPath();
  if (path instanceof Error) throw path;
  return path;
}
