// Without a config file of its own, vitest would use the first one it finds in a parent folder.
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts"],
    environment: "node",
  },
});
