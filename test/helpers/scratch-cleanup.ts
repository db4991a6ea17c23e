/**
 * vitest setup for the integration tests: when every test of a file passed, the folders its
 * tests made with scratchDir() (test/out, or test/out-deepstream) are removed at the file's
 * end; when any test or hook of the file failed they stay, as the failure's evidence.
 * DS_ELEMENT_KEEP_TEST_OUT=1 keeps them all.
 *
 * Why: a whole run left 2 GB under test/out (the copies that broken-bundle, manifest and
 * registry tests make of the 127 MB fixture folder alone came to 1.1 GB), twice over with the
 * DeepStream build and again inside each platform root, and a fresh-clone `.ci/run` with the
 * platform matrix ran out of disk on the CI machine.
 */
import { rmSync } from "node:fs";
import { afterAll } from "vitest";
import { takeScratchDirs } from "./gst";

type Task = { result?: { state?: string; errors?: unknown[] }; tasks?: Task[] };

// A failed test, or a failed hook (its errors are on the suite), anywhere in the file.
function anyFailed(task: Task): boolean {
  if (task.result?.state === "fail" || (task.result?.errors?.length ?? 0) > 0) return true;
  return (task.tasks ?? []).some(anyFailed);
}

// Registered before the file's own hooks, so it runs after them (vitest runs after-hooks as a
// stack): the file's afterAll has stopped what it started in these folders by then.
// vitest wants the first argument destructured; the suite is the second.
afterAll(({}, suite) => {
  const dirs = takeScratchDirs();
  if (anyFailed(suite as Task) || process.env.DS_ELEMENT_KEEP_TEST_OUT === "1") return;
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});
