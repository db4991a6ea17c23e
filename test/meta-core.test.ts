// The metadata core (native-host/src/meta/) on its own, from C++: every field of every meta type
// round-trips, pools reuse metas, 10 000 objects, remove, display chaining past 16, buffer copies
// deep-copy, string bounds and invalid-value error texts (native-host/test/meta_core_test.cpp).
import { execFileSync, spawnSync } from "node:child_process";
import { join } from "node:path";
import { expect, it } from "vitest";
import { repoRoot } from "./helpers/gst";

it("native-host/test/meta_core_test.cpp passes every check", () => {
  // DSNODE_META_BUILD_DIR: another configured build folder (e.g. one with DS_SDK_ROOT set).
  const build = process.env.DSNODE_META_BUILD_DIR ?? join(repoRoot, "native-host", "build");
  execFileSync("cmake", ["--build", build, "--target", "dsnode-meta-test"], { stdio: "pipe" });
  const run = spawnSync(join(build, "dsnode-meta-test"), [], { encoding: "utf8", timeout: 120_000 });
  const output = `${run.stdout}\n${run.stderr}`;
  expect(run.signal, output).toBeNull();
  expect(run.status, output).toBe(0);
  const summary = /^(\d+) passed, (\d+) failed$/m.exec(run.stdout);
  expect(summary, output).not.toBeNull();
  expect(Number(summary![1])).toBeGreaterThanOrEqual(100);
  expect(summary![2]).toBe("0");
});
