// Without a config file of its own, vitest would use the first one it finds in a parent folder.
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    environment: "node",
    // The pipeline test builds the element and runs GStreamer.
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
