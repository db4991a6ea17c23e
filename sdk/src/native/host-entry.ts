/**
 * Entry of dist/dsnode/host.js, the JS side of the ds-element runtime. The runtime's bootstrap
 * requires it once, on the JS thread, after setting `globalThis.__dsnodeRuntimePath`.
 * Bundled by `ds-element build-host` (CommonJS, Node 18).
 */
import { loadBinding } from "./binding.js";
import { installExitGuard } from "./exit-guard.js";
import { startHost } from "./host.js";

// Stack traces of user code show their .ts files and lines (bundles carry source maps).
process.setSourceMapsEnabled(true);
installExitGuard(process as unknown as Parameters<typeof installExitGuard>[0]);
// DS_ELEMENT_DEV (set by `ds-element dev` only): reload element bundles when they are rebuilt.
const devMarker = process.env.DS_ELEMENT_DEV;
startHost(loadBinding(), devMarker ? { dev: { marker: devMarker } } : {});
