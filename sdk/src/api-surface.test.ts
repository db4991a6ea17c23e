// The public API is a snapshot: a change to what `ds-element`, `ds-element/testing` or
// `ds-element/cli` export (a name, a signature, a member) fails this test until the report
// under sdk/api/ is updated on purpose (`npx vitest run -u sdk/src/api-surface.test.ts`) and
// committed with the change, where a reviewer sees it.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { apiReports } from "./test-support/api-report.js";

const sdkRoot = join(__dirname, "..");
const ENTRIES = { "src/index.ts": "index", "src/testing/index.ts": "testing", "src/cli/index.ts": "cli" } as const;

describe("public API", () => {
  const reports = apiReports(join(sdkRoot, "tsconfig.build.json"), Object.keys(ENTRIES));

  for (const [entry, name] of Object.entries(ENTRIES)) {
    it(`of ${entry} matches sdk/api/${name}.api.txt`, async () => {
      await expect(reports.get(entry)).toMatchFileSnapshot(join(sdkRoot, "api", `${name}.api.txt`));
    });
  }

  it("names nothing after a global of Node (an import would hide it, as a `Buffer` once hid Node's)", async () => {
    const globals = new Set(Object.getOwnPropertyNames(globalThis));
    const exported = await Promise.all([import("./index.js"), import("./testing/index.js"), import("./cli/index.js")]);
    const values = exported.flatMap((module) => Object.keys(module));
    const types = [...reports.values()].flatMap((report) =>
      [...report.matchAll(/^export (?:declare )?(?:class|interface|type|function|const|namespace|enum) (\w+)/gm)].map((match) => match[1] as string),
    );
    expect(values.length).toBeGreaterThan(30);
    expect(types.length).toBeGreaterThan(values.length);
    expect([...values, ...types].filter((name) => globals.has(name))).toEqual([]);
  });
});
