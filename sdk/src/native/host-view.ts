/**
 * The native binding's `tensor.hostView` from **inside a worker thread**: a worker is a Node
 * environment of its own, so it loads the library the main thread's binding came from
 * (bindingLibraryPath) and Node-API gives it an instance of its own. Workers use it only to
 * view the main thread's host memory in place. Bundled into the workers that need it
 * (runners/onnx-session-worker.ts).
 *
 * @internal
 */

/** `hostView(address, byteLength)`: an ArrayBuffer over host memory another thread keeps alive. */
export type HostView = (address: bigint, byteLength: number) => ArrayBuffer;

/** Loads the binding from `libraryPath` and returns its `tensor.hostView`. */
export function openHostView(libraryPath: string): HostView {
  const module = { exports: {} as { tensor?: { hostView?: unknown } } };
  process.dlopen(module, libraryPath);
  const hostView = module.exports.tensor?.hostView;
  if (typeof hostView !== "function") {
    throw new Error(
      `Expected tensor.hostView in ${libraryPath} but received ${typeof hostView}: ` +
        "the native library is older than the SDK (rebuild both with one release: npm run build)",
    );
  }
  return hostView as HostView;
}
