// NVBUF_MEM_DEFAULT is CUDA device memory on every discrete GPU, aarch64 servers (GH200, IGX)
// included, and a surface array only on an integrated GPU (Jetson): frame access decides from
// CUDA's "integrated" attribute at run time (native-host/src/tensor/default_memory.h). The
// decision is checked here with both answers (native-host/test/default_memory_test.cpp); the
// machines in CI have no integrated GPU to ask.
import { join } from "node:path";
import { expect, it } from "vitest";
import { repoRoot } from "./helpers/gst";
import { runNativeTest } from "./helpers/native-test";

it("native-host/test/default_memory_test.cpp passes every check", () => {
  const { run, output, summary } = runNativeTest(join(repoRoot, "native-host", "build"), "dsnode-default-memory-test");
  expect(run.status, output).toBe(0);
  expect(summary, output).not.toBeNull();
  expect(output).toContain("ok - aarch64, discrete GPU (GH200, IGX): CUDA device memory");
  expect(output).toContain("ok - aarch64, integrated GPU (Jetson): a surface array");
  expect(summary![2]).toBe("0");
});
