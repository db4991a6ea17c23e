// The runtime's one reading of libuv's private state (native-host/src/embed/uv_watcher_queue.h)
// against the libuv libnode runs with here: started watchers read as pending until the loop
// polls (native-host/test/uv_watcher_queue_test.cpp). Run on every platform the host builds on
// (libuv 1.44 keeps the queue as void*[2], 1.48 and later as struct uv__queue).
import { join } from "node:path";
import { expect, it } from "vitest";
import { repoRoot } from "./helpers/gst";
import { runNativeTest } from "./helpers/native-test";

it("native-host/test/uv_watcher_queue_test.cpp passes every check", () => {
  const { run, output, summary } = runNativeTest(join(repoRoot, "native-host", "build"), "dsnode-uv-watcher-queue-test");
  expect(run.signal, output).toBeNull();
  expect(run.status, output).toBe(0);
  expect(summary, output).not.toBeNull();
  expect(Number(summary![1])).toBe(8);
  expect(summary![2]).toBe("0");
});
