// The CPU overlay (native-host/src/osd/) on its own, from C++: blending on each format, box
// geometry, shapes, Pango text and its cache, display metas past 16 and 10 000 objects through
// the portable backend, and the errors for values only a C writer can produce (colours out of
// 0..1, NaN, foreign enum values) (native-host/test/osd_core_test.cpp).
import { join } from "node:path";
import { expect, it } from "vitest";
import { repoRoot } from "./helpers/gst";
import { runNativeTest } from "./helpers/native-test";

it("native-host/test/osd_core_test.cpp passes every check", () => {
  const build = process.env.DSNODE_META_BUILD_DIR ?? join(repoRoot, "native-host", "build");
  const { run, output, summary } = runNativeTest(build, "dsnode-osd-test");
  expect(run.signal, output).toBeNull();
  expect(run.status, output).toBe(0);
  expect(summary, output).not.toBeNull();
  expect(Number(summary![1])).toBeGreaterThanOrEqual(80);
  expect(summary![2]).toBe("0");
});
