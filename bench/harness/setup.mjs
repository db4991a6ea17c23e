// Prepares what every measurement shares: the TypeScript element built into bench/out/dist,
// a private GStreamer registry (the user's is never touched), and one environment in which
// identity, the gst-python peer and the TypeScript element are all visible.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";

/** Variables that would change what is measured; the benchmark sets the ones it wants itself. */
const INHERITED_VARIABLES_DROPPED = /^(GST_PLUGIN_PATH|GST_PLUGIN_PATH_1_0|GST_REGISTRY|GST_REGISTRY_1_0|GST_DEBUG|GST_DEBUG_FILE|GST_TRACERS|DS_ELEMENT_.*)$/;

export async function prepareBench(root) {
  const benchDir = join(root, "bench");
  const outDir = join(benchDir, "out");
  const distDir = join(outDir, "dist");
  mkdirSync(outDir, { recursive: true });

  const require = createRequire(import.meta.url);
  const cliPath = join(root, "sdk", "dist", "cli", "index.js");
  if (!existsSync(cliPath)) throw new Error(`Expected the built SDK at ${cliPath}: run \`npm run setup\` first`);
  const { buildProject, pluginEnvironment } = require(cliPath);

  // DS_BENCH_NATIVE_DIR measures another native build (e.g. a cmake build dir of work in
  // progress) without touching native-host/build.
  const nativeDir = process.env.DS_BENCH_NATIVE_DIR;
  const nativeArtefacts = nativeDir
    ? { pluginPath: join(nativeDir, "libgstdsnode.so"), runtimePath: join(nativeDir, "libdsnode-runtime.so.0") }
    : undefined;
  for (const file of nativeArtefacts ? Object.values(nativeArtefacts) : []) {
    if (!existsSync(file)) throw new Error(`Expected ${file} in DS_BENCH_NATIVE_DIR=${nativeDir}`);
  }
  rmSync(distDir, { recursive: true, force: true });
  await buildProject({ projectDir: join(benchDir, "elements"), outDir: distDir, nativeArtefacts });

  const base = Object.fromEntries(Object.entries(process.env).filter(([name]) => !INHERITED_VARIABLES_DROPPED.test(name)));
  const registry = join(outDir, "registry.bin");
  const env = {
    ...pluginEnvironment([distDir, join(benchDir, "peers", "gst-python-plugins")], base),
    GST_REGISTRY_1_0: registry,
  };
  // The overlay section also needs dsosd, one of the SDK's built-in elements (sdk/builtin/dist).
  const osdEnv = { ...pluginEnvironment([distDir, join(root, "sdk", "builtin", "dist")], base), GST_REGISTRY_1_0: join(outDir, "registry-osd.bin") };

  const pluginPath = join(distDir, "libgstdsnode.so");
  const runtimePath = join(distDir, "dsnode", "libdsnode-runtime.so.0");
  const runtimeBytes = readFileSync(runtimePath);
  return {
    outDir,
    distDir,
    env,
    osdEnv,
    native: {
      source: nativeDir ?? join(root, "native-host", "build", "Release"),
      pluginSha256: sha256(readFileSync(pluginPath)),
      runtimeSha256: sha256(runtimeBytes),
      // The tunables this build reads (a build that predates one ignores it).
      tunables: ["DS_ELEMENT_HANDOFF", "DS_ELEMENT_SPIN_US", "DS_ELEMENT_JS_SPIN_US", "DS_ELEMENT_GATE_TURN_US", "DS_ELEMENT_HANDOFF_STATS"].filter((name) => runtimeBytes.includes(name)),
    },
  };
}

function sha256(bytes) {
  return createHash("sha256").update(bytes).digest("hex").slice(0, 16);
}
