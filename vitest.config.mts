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
          // Type tests: tsc over the SDK and the tests (test/tsconfig.json) with expectTypeOf
          // and @ts-expect-error checked; a type error anywhere in them fails the run. The
          // *.types.test.ts files also run as ordinary tests in the projects above.
          name: "types",
          include: [],
          typecheck: {
            enabled: true,
            only: true,
            include: ["sdk/src/**/*.types.test.ts", "test/**/*.types.test.ts"],
            tsconfig: "test/tsconfig.json",
          },
        },
      },
      {
        test: {
          // What the repository's sources must keep (layering, no code in strings): reads files,
          // builds nothing.
          name: "repository",
          include: ["test/repository/**/*.test.ts"],
          environment: "node",
        },
      },
      {
        test: {
          name: "integration",
          include: ["test/**/*.test.ts"],
          // Scratch folders (test/out*, test/helpers/gst.ts) can hold test files a test wrote
          // (test/scratch-cleanup.test.ts's failing ones, kept when that test fails).
          exclude: ["test/repository/**", "test/out*/**"],
          globalSetup: ["test/helpers/projects.ts"],
          // A file's scratch folders go when it passed (the setup file says why).
          setupFiles: ["test/helpers/scratch-cleanup.ts"],
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
