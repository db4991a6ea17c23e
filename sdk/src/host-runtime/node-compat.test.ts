// node-compat.ts on the Node that runs the tests (Node 20 here; each platform's own Node under
// `npm run test:platforms`): the route chosen for this version reaches Node's live async context
// stack, emptying it the way the runtime does in the middle of a callback leaves the process
// running, and leaving it inconsistent still aborts it (so the clearing is still needed there).
// The embedded libnode runs the same module through the bootstrap: test/hard-failures.test.ts.
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { bundleForTest, temporaryDir } from "../test-support/bundle.js";
import { asyncWrapRoute, nodeMajor } from "./node-compat.js";

let bundle: string;

beforeAll(async () => {
  bundle = await bundleForTest(join(__dirname, "node-compat.ts"), join(temporaryDir("node-compat"), "node-compat.js"));
});

/**
 * Runs node-compat in a child Node (with --expose-internals, so that its `require` reaches
 * internal modules as the builtin require of an embedder does) and, inside a timer callback,
 * does `mode` to the async context stack before the callback returns.
 */
function probe(mode: "none" | "clear" | "corrupt") {
  const script = `
    const compat = require(${JSON.stringify(bundle)});
    const asyncHooks = require("node:async_hooks");
    const routes = {};
    for (const route of ["process.binding", "internal/test/binding"]) {
      try { compat.asyncIdStackThrough(route, process, require); routes[route] = "open"; }
      catch (error) { routes[route] = String(error.message); }
    }
    const [hookFields, idFields, kStackLength, kExecutionAsyncId, kTriggerAsyncId] = compat.asyncIdStackOf(process, require);
    setTimeout(() => {
      const inside = { length: hookFields[kStackLength], id: idFields[kExecutionAsyncId], publicId: asyncHooks.executionAsyncId() };
      if (${JSON.stringify(mode)} === "clear") {
        hookFields[kStackLength] = 0; idFields[kExecutionAsyncId] = 0; idFields[kTriggerAsyncId] = 0;
      } else if (${JSON.stringify(mode)} === "corrupt") {
        idFields[kExecutionAsyncId] = 987654;
      }
      setImmediate(() => console.log(JSON.stringify({ node: process.versions.node, routes, inside, nextId: asyncHooks.executionAsyncId() })));
    }, 1);`;
  const run = spawnSync(process.execPath, ["--expose-internals", "-e", script], { encoding: "utf8", timeout: 30_000 });
  const line = run.stdout.trim().split("\n").pop() ?? "";
  return { run, output: `${run.stdout}\n${run.stderr}`, result: line.startsWith("{") ? JSON.parse(line) : undefined };
}

describe("the route to Node's async context stack, per Node version", () => {
  it("is process.binding up to Node 22 and internal/test/binding from Node 24 on", () => {
    expect([18, 20, 22].map(asyncWrapRoute)).toEqual(["process.binding", "process.binding", "process.binding"]);
    expect([24, 25].map(asyncWrapRoute)).toEqual(["internal/test/binding", "internal/test/binding"]);
    expect(nodeMajor("20.19.2")).toBe(20);
  });

  it(`reaches the live stack on this Node (${process.versions.node}), without a warning`, () => {
    const { run, output, result } = probe("none");
    expect(run.status, output).toBe(0);
    expect(result.routes[asyncWrapRoute(nodeMajor(process.versions.node))], output).toBe("open");
    // Inside a timer callback: one context pushed, and the id Node's public API reports.
    expect(result.inside.length).toBeGreaterThanOrEqual(1);
    expect(result.inside.id).toBe(result.inside.publicId);
    expect(result.inside.id).toBeGreaterThan(0);
    expect(run.stderr).not.toMatch(/Warning/);
  });
});

describe("emptying the stack inside a callback, as the runtime does before it terminates JavaScript", () => {
  it("leaves the process running: the callback's end finds nothing to pop", () => {
    const { run, output, result } = probe("clear");
    expect(run.signal, output).toBeNull();
    expect(run.status, output).toBe(0);
    expect(result.nextId).toBeGreaterThan(0);
    expect(run.stderr).not.toMatch(/async hook stack has become corrupted/);
  });

  it("is still needed on this Node: a stack left inconsistent ends the process", () => {
    const { run, output } = probe("corrupt");
    expect(run.status === 0 && run.signal === null, output).toBe(false);
    expect(run.stderr).toMatch(/async hook stack has become corrupted/);
  });
});
