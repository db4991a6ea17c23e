import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: "sdk",
          include: ["sdk/src/**/*.test.ts"],
          environment: "node",
          // A stray console.* in a unit test fails that test (see the setup file).
          setupFiles: ["sdk/src/test-support/fail-on-console.ts"],
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: "integration",
          include: ["test/**/*.test.ts"],
          globalSetup: ["test/helpers/projects.ts"],
          environment: "node",
          // Real pipelines: builds, Node start-up inside GStreamer, one file at a time.
          testTimeout: 180_000,
          hookTimeout: 600_000,
          fileParallelism: false,
          sequence: { concurrent: false },
        },
      },
    ],
  },
});
