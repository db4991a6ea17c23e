// The metadata core (native-host/src/meta/) on its own, from C++: every field of every meta type
// round-trips, pools reuse metas, 10 000 objects, remove, display chaining past 16, buffer copies
// deep-copy, string bounds and invalid-value error texts (native-host/test/meta_core_test.cpp).
import { join } from "node:path";
import { expect, it } from "vitest";
import { repoRoot } from "./helpers/gst";
import { runNativeTest } from "./helpers/native-test";

it("native-host/test/meta_core_test.cpp passes every check", () => {
  // DSNODE_META_BUILD_DIR: another configured build folder (e.g. one with DS_SDK_ROOT set).
  const build = process.env.DSNODE_META_BUILD_DIR ?? join(repoRoot, "native-host", "build");
  const { run, output, summary } = runNativeTest(build, "dsnode-meta-test");
  expect(run.signal, output).toBeNull();
  expect(run.status, output).toBe(0);
  expect(summary, output).not.toBeNull();
  expect(Number(summary![1])).toBeGreaterThanOrEqual(100);
  expect(summary![2]).toBe("0");
});
