// What the consumer tests (test/ds-msgconv-broker.test.ts, test/ds-analytics.test.ts) share: the
// dsnode-nvidia-consumers program (test/ds-consumers/nvidia_consumers.cpp) and where NVIDIA's
// consumer libraries are. `npm run test:deepstream` builds them
// (scripts/build-deepstream-consumers.sh) and names their folder in DS_ELEMENT_DEEPSTREAM_ROOT.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { repoRoot } from "./gst";

/** nvmsgconv's configuration of the static parts (deepstream-test4's msgconv_config.txt keys). */
export const MSGCONV_CONFIG = `[sensor0]
enable=1
type=Camera
id=camera-0
location=45.29;-75.83;48.15
description=Entrance camera
coordinate=5.2;10.1;11.2

[place0]
enable=1
id=place-0
type=garage
name=endeavor
location=30.32;-40.55;100.0
coordinate=1.0;2.0;3.0
place-sub-field1=walsh
place-sub-field2=lane1
place-sub-field3=P2

[analytics0]
enable=1
id=module-0
description=ds-element detector
source=ds-element
version=1.0
`;

const native = createRequire(__filename)(join(repoRoot, "native-host", "index.js")) as { buildDir: string };
const buildRoot = dirname(native.buildDir);

/** The folder of NVIDIA's libraries (lib/) and plugins (lib/gst-plugins/) the consumers run. */
export function deepstreamLibDir(): string {
  const root = process.env.DS_ELEMENT_DEEPSTREAM_ROOT;
  if (!root || !existsSync(join(root, "lib", "libnvds_msgconv.so")))
    throw new Error(
      `NVIDIA's consumer libraries are not built (DS_ELEMENT_DEEPSTREAM_ROOT=${root ?? "unset"}): run these tests through \`npm run test:deepstream\`, which builds them (scripts/build-deepstream-consumers.sh)`,
    );
  return join(root, "lib");
}

/** Builds dsnode-nvidia-consumers in the native build and returns its path. */
export function consumersProgram(): string {
  try {
    execFileSync("cmake", ["--build", buildRoot, "--target", "dsnode-nvidia-consumers"], { stdio: "pipe" });
  } catch (error) {
    throw new Error(
      `cannot build dsnode-nvidia-consumers in ${buildRoot} (CMake defines it where libnvds_msgconv.so, libnvds_msgbroker.so and nvmsgconv.h are beside libnvds_meta: ` +
        `\`npm run test:deepstream\` builds them first): ${(error as { stderr?: Buffer }).stderr?.toString() ?? String(error)}`,
    );
  }
  return join(buildRoot, "dsnode-nvidia-consumers");
}

/** Builds dsnode-ds-consumer (test/ds-consumer/ds_consumer.c, the C reader on DeepStream's API) and returns its path. */
export function cReaderProgram(): string {
  execFileSync("cmake", ["--build", buildRoot, "--target", "dsnode-ds-consumer"], { stdio: "pipe" });
  return join(buildRoot, "dsnode-ds-consumer");
}

/** Where the dsnvmmtestmux test plugin is built (test/nvmm-testmux/), after building it. */
export function nvmmTestMuxDir(): string {
  execFileSync("cmake", ["--build", buildRoot, "--target", "dsnode-nvmm-testmux"], { stdio: "pipe" });
  return join(buildRoot, "test-plugins");
}
