// The tensor output the testing harness attaches on the DeepStream backend is nvinfer's
// (output-tensor-meta=1) as far as a consumer can tell: native-host/test/tensor_meta_test.cpp
// reads the NVDSINFER_TENSOR_OUTPUT_META user meta through NVIDIA's headers (priv_data a
// GstMiniObject owning the layers, out_buf_ptrs_host on them, out_buf_ptrs_dev NULL) and what a
// buffer copy (NVIDIA's batch copy, the meta's copy_func) and the releases do to it. It needs
// NVIDIA's libnvds_meta: it runs on the DeepStream build (`npm run test:deepstream`) and is
// skipped, saying so, on the portable one.
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "./helpers/gst";
import { runNativeTest } from "./helpers/native-test";
import { nativeBackend } from "./helpers/projects";

const native = createRequire(__filename)(join(repoRoot, "native-host", "index.js")) as { buildDir: string };

if (nativeBackend !== "deepstream")
  console.info(
    "tensor-meta.test.ts: skipped: the native build is portable (no libnvds_meta); " +
      "run it on the DeepStream build with `DS_META_SOURCE=<NVIDIA's source> npm run test:deepstream -- test/tensor-meta.test.ts`",
  );

describe.skipIf(nativeBackend !== "deepstream")("the harness's tensor output meta on DeepStream's API (DeepStream build only)", () => {
  it("native-host/test/tensor_meta_test.cpp passes every check", () => {
    const { run, output, summary } = runNativeTest(dirname(native.buildDir), "dsnode-tensor-meta-test");
    expect(run.signal, output).toBeNull();
    expect(run.status, output).toBe(0);
    expect(summary, output).not.toBeNull();
    expect(output).toContain("ok - priv_data is a GstMiniObject (G_TYPE_POINTER, free function) with refcount 1");
    expect(output).toContain("ok - the copy shares the same priv_data");
    expect(output).toContain("ok - priv_data's refcount is 2 with the copy");
    expect(output).toContain("ok - the layers are readable from the copy after the original is released");
    expect(output).toContain("ok - the last unref frees priv_data (finalize notification)");
    expect(output).toContain("ok - out_buf_ptrs_dev is an array of NULLs (host-only layers)");
    expect(Number(summary![1])).toBeGreaterThanOrEqual(25);
    expect(summary![2]).toBe("0");
  });
});
