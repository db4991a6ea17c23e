// The pre-processing ops (native-host/src/ops/) on the CPU, from C++: every pixel format ×
// letterbox/stretch × NCHW/NHWC × uint8/float32/float16 × RGB/BGR on random odd-sized frames
// against an independent double-precision reference, hand-computed values, transforms and box
// mapping, float → half rounding and error texts (native-host/test/ops_core_test.cpp).
// The CUDA implementation is compared with this one on a GPU by scripts/gpu/run-device.sh.
import { join } from "node:path";
import { expect, it } from "vitest";
import { repoRoot } from "./helpers/gst";
import { runNativeTest } from "./helpers/native-test";

it("native-host/test/ops_core_test.cpp passes every check", () => {
  // DSNODE_OPS_BUILD_DIR: another configured build folder (e.g. one configured with -DDSNODE_OPS_ONLY=ON).
  const build = process.env.DSNODE_OPS_BUILD_DIR ?? join(repoRoot, "native-host", "build");
  const { run, output, summary } = runNativeTest(build, "dsnode-ops-test");
  expect(run.signal, output).toBeNull();
  expect(run.status, output).toBe(0);
  expect(summary, output).not.toBeNull();
  expect(Number(summary![1])).toBeGreaterThanOrEqual(200);
  expect(summary![2]).toBe("0");
});
