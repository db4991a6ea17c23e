// The isolate's gate (native-host/src/embed/isolate_gate.h) with plain threads: one holder at a
// time, streaming threads in turns, and nobody left waiting when a turn's thread stops coming
// back, ends, or gives up its place, or when the JS thread wants in
// (native-host/test/isolate_gate_test.cpp).
import { join } from "node:path";
import { expect, it } from "vitest";
import { repoRoot } from "./helpers/gst";
import { runNativeTest } from "./helpers/native-test";

it("native-host/test/isolate_gate_test.cpp passes every check", () => {
  const { run, output, summary } = runNativeTest(join(repoRoot, "native-host", "build"), "dsnode-isolate-gate-test");
  expect(run.signal, output).toBeNull();
  expect(run.status, output).toBe(0);
  expect(summary, output).not.toBeNull();
  expect(Number(summary![1])).toBe(14);
  expect(summary![2]).toBe("0");
});
