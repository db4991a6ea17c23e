/**
 * vitest setup for the SDK's unit tests: any console.* call fails the test that made it, so
 * debugging output cannot slip into a commit and library code cannot print behind users' backs.
 */
import { format } from "node:util";
import { afterEach, beforeEach, vi } from "vitest";

const METHODS = ["log", "info", "warn", "error", "debug", "trace"] as const;
const calls: string[] = [];

beforeEach(() => {
  calls.length = 0;
  for (const method of METHODS) {
    vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
      calls.push(`console.${method}(${format(...args)})`);
    });
  }
});

afterEach(() => {
  vi.restoreAllMocks();
  if (calls.length > 0) {
    const made = calls.splice(0);
    throw new Error(`Expected no console output in a unit test but received:\n  ${made.join("\n  ")}`);
  }
});
