// The runtime library on its own, driven from C++ the way the plugin drives it: Node start-up,
// every kind of call, errors, Promises, process.exit, timer errors, concurrency, teardown at exit.
import { join } from "node:path";
import { expect, it } from "vitest";
import { repoRoot } from "./helpers/gst";
import { runNativeTest } from "./helpers/native-test";

it("native-host/test/runtime_driver.cpp passes every check", () => {
  const build = join(repoRoot, "native-host", "build");
  const { run, output, summary } = runNativeTest(build, "dsnode-runtime-driver", ["--no-timings"], join(repoRoot, "native-host"));
  expect(run.signal, output).toBeNull();
  expect(run.status, output).toBe(0);
  expect(summary, output).not.toBeNull();
  expect(Number(summary![1])).toBeGreaterThanOrEqual(30);
  expect(summary![2]).toBe("0");
});
