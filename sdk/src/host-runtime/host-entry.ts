/**
 * Entry of dist/dsnode/host.js, the JS side of the ds-element runtime. The runtime's bootstrap
 * (bootstrap.ts) requires it once, on the JS thread, after it has guarded the process's exits
 * and left the runtime's paths under `Symbol.for("ds-element.runtime.v1")`.
 * Bundled by `ds-element build-host` (CommonJS, Node 18).
 */
import { bindingsOf, loadRuntimeBinding, runtimeLibraryPath } from "../native/loader.js";
import { startHost } from "./host.js";

// Stack traces of user code show their .ts files and lines (bundles carry source maps).
process.setSourceMapsEnabled(true);
const native = loadRuntimeBinding();
// DS_ELEMENT_DEV (set by `ds-element dev` only): reload element bundles when they are rebuilt.
const devMarker = process.env.DS_ELEMENT_DEV;
startHost(native, bindingsOf(native, runtimeLibraryPath() as string), devMarker ? { dev: { marker: devMarker } } : {});
