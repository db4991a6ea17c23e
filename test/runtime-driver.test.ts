// The runtime library on its own, driven from C++ the way the plugin drives it: Node start-up,
// every kind of call, errors, Promises, process.exit, timer errors, concurrency, teardown at exit.
import { execFileSync, spawnSync } from "node:child_process";
import { join } from "node:path";
import { expect, it } from "vitest";
import { repoRoot } from "./helpers/gst";

it("native-host/test/runtime_driver.cpp passes every check", () => {
  const build = join(repoRoot, "native-host", "build");
  execFileSync("cmake", ["--build", build, "--target", "dsnode-runtime-driver"], { stdio: "pipe" });
  const run = spawnSync(join(build, "dsnode-runtime-driver"), ["--no-timings"], {
    encoding: "utf8",
    timeout: 120_000,
    cwd: join(repoRoot, "native-host"),
  });
  const output = `${run.stdout}\n${run.stderr}`;
  expect(run.signal, output).toBeNull();
  expect(run.status, output).toBe(0);
  const summary = /^(\d+) passed, (\d+) failed$/m.exec(run.stdout);
  expect(summary, output).not.toBeNull();
  expect(Number(summary![1])).toBeGreaterThanOrEqual(30);
  expect(summary![2]).toBe("0");
});
