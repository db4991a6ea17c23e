// The segmentation and nvdsanalytics metas the DeepStream backend writes are NVIDIA's structs as
// far as a consumer can tell: native-host/test/typed_metas_test.cpp reads them through NVIDIA's
// headers (NvDsInferSegmentationMeta as nvsegvisual reads it; NvDsAnalyticsFrameMeta's
// std::unordered_maps and NvDsAnalyticsObjInfo's std::vectors as nvdsanalytics' own readers do),
// copies the buffer (each meta's copy_func), releases the original, then the copy, and checks
// that no segmentation meta is left allocated. It needs NVIDIA's libnvds_meta: it runs on the
// DeepStream build (`npm run test:deepstream`) and is skipped, saying so, on the portable one
// (where test/typed-user-metas.test.ts covers the same values).
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "./helpers/gst";
import { runNativeTest } from "./helpers/native-test";
import { nativeBackend } from "./helpers/projects";

const native = createRequire(__filename)(join(repoRoot, "native-host", "index.js")) as { buildDir: string };

if (nativeBackend !== "deepstream")
  console.info(
    "typed-metas-deepstream.test.ts: skipped: the native build is portable (no libnvds_meta); " +
      "run it on the DeepStream build with `DS_META_SOURCE=<NVIDIA's source> npm run test:deepstream -- test/typed-metas-deepstream.test.ts`",
  );

describe.skipIf(nativeBackend !== "deepstream")("segmentation and nvdsanalytics metas on DeepStream's API (DeepStream build only)", () => {
  it("native-host/test/typed_metas_test.cpp passes every check", () => {
    const { run, output, summary } = runNativeTest(dirname(native.buildDir), "dsnode-typed-metas-test");
    expect(run.signal, output).toBeNull();
    expect(run.status, output).toBe(0);
    expect(summary, output).not.toBeNull();
    expect(output).toContain("ok - NvDsInferSegmentationMeta holds classes, width, height, unique_id and both maps");
    expect(output).toContain("ok - NvDsAnalyticsFrameMeta's maps hold the counts (read with std::unordered_map::at)");
    expect(output).toContain("ok - the copy's maps hold the values after the original is released");
    expect(output).toContain("ok - releasing the copy frees the last segmentation meta (no leak)");
    expect(Number(summary![1])).toBeGreaterThanOrEqual(18);
    expect(summary![2]).toBe("0");
  });
});
