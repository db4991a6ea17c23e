import { spawnSync } from "node:child_process";
import { EventEmitter } from "node:events";
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { bundleForTest, lineOf, temporaryDir } from "../test-support/bundle.js";
import { addonPath, requireStandaloneBinding, standaloneBindings } from "../test-support/standalone-binding.js";
import { makeTransformState } from "../test-support/transform-state.js";
import type { HostControls, NativeHandlers } from "../native/runtime-binding.js";
import { startHost, toError } from "./host.js";

const fixtures = join(__dirname, "__fixtures__");
const probeSource = join(fixtures, "probe-element.ts");
let dir: string;
let probeBundle: string;

beforeAll(async () => {
  dir = temporaryDir("host");
  probeBundle = await bundleForTest(probeSource, join(dir, "probe", "index.js"));
});

function fakeNative(options: { runQueues?: () => void; onQueueError?: (thrown: unknown) => void } = {}) {
  let handlers: NativeHandlers | undefined;
  const native = {
    setHandlers: (installed: NativeHandlers) => {
      handlers = installed;
    },
    transformState: makeTransformState({ frames: [{ frameNum: 3 }] }),
    log: vi.fn(),
    postError: vi.fn(),
    liveInstances: vi.fn(() => [1, 2]),
  } satisfies HostControls;
  const errors = new EventEmitter();
  startHost(native, standaloneBindings(), { errorSource: errors, requireBundle: createRequire(__filename), ...options });
  return { native, errors, handlers: handlers! };
}

describe("host: loading bundles", () => {
  it("creates and drives an instance of a bundle's element", async () => {
    const { handlers } = fakeNative();
    handlers.create(1, "probe", probeBundle, { behaviour: "ok" });
    await handlers.start(1);
    await expect(handlers.transform(1)).resolves.toBeUndefined();
  });

  it("names the path of a missing bundle", () => {
    const { handlers } = fakeNative();
    const missing = join(dir, "nope", "index.js");
    expect(() => handlers.create(1, "nope", missing, {})).toThrow(
      `Expected the bundle of element nope at ${missing} but received no such file; run \`ds-element build\` again`,
    );
  });

  it("names the path of a bundle with a syntax error and keeps the parser's location", () => {
    const { handlers } = fakeNative();
    const broken = join(dir, "broken.js");
    writeFileSync(broken, "module.exports = {\n  oops: ,\n};\n");
    let error: Error | undefined;
    try {
      handlers.create(1, "broken", broken, {});
    } catch (thrown) {
      error = thrown as Error;
    }
    expect(error?.message).toMatch(new RegExp(`^Cannot load the bundle of element broken \\(${broken}\\): SyntaxError: Unexpected token`));
    expect(error?.stack).toContain(`${broken}:2`);
  });

  it("rejects a default export that is not an element class", async () => {
    const bundle = await bundleForTest(join(fixtures, "not-an-element.ts"), join(dir, "not", "index.js"));
    const { handlers } = fakeNative();
    expect(() => handlers.create(1, "not", bundle, {})).toThrow(
      `Expected an element class (export default class ... extends Element.define({...})) for the default export of ${bundle} but received class NotAnElement, which does not extend Element`,
    );
  });

  it("rejects a bundle whose class declares another name", () => {
    const { handlers } = fakeNative();
    expect(() => handlers.create(1, "other", probeBundle, {})).toThrow(
      `Expected element other in ${probeBundle} but received a class declaring "probe"; run \`ds-element build\` again`,
    );
  });

  it("loads each bundle once", () => {
    const requireBundle = vi.fn(createRequire(__filename));
    let handlers: NativeHandlers | undefined;
    const native = { ...fakeNative().native, setHandlers: (h: NativeHandlers) => (handlers = h) };
    startHost(native, standaloneBindings(), { errorSource: new EventEmitter(), requireBundle });
    handlers!.create(1, "probe", probeBundle, {});
    handlers!.create(2, "probe", probeBundle, {});
    expect(requireBundle).toHaveBeenCalledTimes(1);
  });

  it("fails calls on unknown instances clearly", () => {
    const { handlers } = fakeNative();
    expect(() => handlers.transform(9)).toThrow(
      "Expected a live element instance for id 9 but received none (its creation failed or it was destroyed)",
    );
  });
});

describe("host: transform() outside a callback scope drains Node's queues itself", () => {
  it("tells the runtime it can (Node has process._tickCallback)", () => {
    expect(fakeNative().handlers.drainsQueues).toBe(true);
  });

  it("leaves the queues to the runtime when transform() returns a Promise, so its callbacks are attached first", async () => {
    const runQueues = vi.fn();
    const { handlers } = fakeNative({ runQueues });
    handlers.create(1, "probe", probeBundle, { behaviour: "ok" });
    await handlers.transform(1);
    await handlers.transform(1, false);
    await expect(handlers.transform(1, true)).resolves.toBeUndefined();
    expect(runQueues).not.toHaveBeenCalled();
  });

  it("runs the queues once when transform() returns nothing or throws, and the failure still reaches the runtime", () => {
    const runQueues = vi.fn();
    const { handlers } = fakeNative({ runQueues });
    handlers.create(1, "probe", probeBundle, { behaviour: "sync" });
    expect(handlers.transform(1, true)).toBeUndefined();
    expect(runQueues).toHaveBeenCalledTimes(1);
    handlers.create(2, "probe", probeBundle, { behaviour: "sync-throw" });
    expect(() => handlers.transform(2, true)).toThrow("probe: sync transform failed on frame 3");
    expect(runQueues).toHaveBeenCalledTimes(2);
  });

  it("an async transform() that throws before its first await rejects once, and nothing is reported as unhandled", async () => {
    const runQueues = vi.fn();
    const { handlers, native, errors } = fakeNative({ runQueues });
    const unhandled = vi.fn();
    errors.on("unhandledRejection", unhandled);
    handlers.create(1, "probe", probeBundle, { behaviour: "throw" });
    await expect(handlers.transform(1, true)).rejects.toThrow("probe: transform failed on frame 3");
    expect(runQueues).not.toHaveBeenCalled();
    expect(unhandled).not.toHaveBeenCalled();
    expect(native.postError).not.toHaveBeenCalled();
  });

  it("hands what a queued callback threw to onQueueError and runs the rest of the queue", () => {
    const failure = new Error("a nextTick callback failed");
    const runQueues = vi.fn().mockImplementationOnce(() => {
      throw failure;
    });
    const onQueueError = vi.fn();
    const { handlers } = fakeNative({ runQueues, onQueueError });
    handlers.create(1, "probe", probeBundle, { behaviour: "sync" });
    expect(handlers.transform(1, true)).toBeUndefined();
    expect(onQueueError).toHaveBeenCalledWith(failure);
    expect(runQueues).toHaveBeenCalledTimes(2);
  });
});

describe("host: errors without a waiting call", () => {
  it("posts an uncaught error to every live instance when no element owns it", () => {
    const { native, errors } = fakeNative();
    errors.emit("uncaughtException", new Error("lost"));
    expect(native.postError.mock.calls.map((call) => call.slice(0, 2))).toEqual([
      [1, "Uncaught exception in element code: lost"],
      [2, "Uncaught exception in element code: lost"],
    ]);
  });

  it("turns thrown non-Errors into Errors", () => {
    expect(toError("text").message).toBe('Element code threw a non-Error value: "text"');
    expect(toError(42).message).toBe("Element code threw a non-Error value: 42");
  });
});

describe("host.js in a Node process (source maps, exit guard, timers)", () => {
  interface Outcome {
    ok: boolean;
    message?: string;
    stack?: string;
  }
  let results: Record<string, Outcome>;
  let events: unknown[][];
  const source = readFileSync(probeSource, "utf8");
  const at = (marker: string) => `probe-element.ts:${lineOf(source, `LINE:${marker}`)}`;

  beforeAll(async () => {
    const driver = await bundleForTest(join(fixtures, "host-driver.ts"), join(dir, "driver.js"));
    const addon = addonPath();
    if (addon instanceof Error) throw addon;
    const run = spawnSync(process.execPath, [driver, probeBundle], {
      encoding: "utf8",
      timeout: 20_000,
      env: { ...process.env, DSNODE_STANDALONE_BINDING: addon },
    });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    ({ results, events } = JSON.parse(run.stdout) as { results: Record<string, Outcome>; events: unknown[][] });
  }, 30_000);

  it("runs a good element", () => {
    expect(results.ok).toEqual({ ok: true });
  });

  it("keeps the user's TypeScript line in a thrown error's stack", () => {
    expect(results.throw?.message).toBe("probe: transform failed on frame 42");
    expect(results.throw?.stack).toContain(at("throw"));
  });

  it("keeps the user's TypeScript line in a rejection's stack", () => {
    expect(results.reject?.message).toBe("probe: async transform failed on frame 42");
    expect(results.reject?.stack).toContain(at("reject"));
  });

  it("turns process.exit() into an error thrown at the caller", () => {
    expect(results.exit?.message).toBe("process.exit(3) called by element code; an element cannot exit the host process");
    expect(results.exit?.stack?.split("\n")[1]).toContain(at("exit"));
    expect(results.exitStillGuarded?.message).toBe("process.exit(0) called by element code; an element cannot exit the host process");
  });

  it("refuses every other way out with the same error (abort, Node's own reallyExit)", () => {
    expect(results.abort?.message).toBe("process.abort() called by element code; an element cannot exit the host process");
    expect(results.reallyExit?.message).toBe("process.exit(5) called by element code; an element cannot exit the host process");
    expect(results.exitingAfter).toEqual({ ok: true });
  });

  it("logs with the caller's TypeScript file and line", () => {
    const log = events.find((event) => event[0] === "log" && event[1] === 5);
    expect(log?.slice(0, 4)).toEqual(["log", 5, 2, "frame 42"]);
    expect(String(log?.[4])).toMatch(/probe-element\.ts$/);
    expect(log?.[5]).toBe(lineOf(source, "LINE:log"));
  });

  it("attributes a timer's uncaught error to the element that started the timer", () => {
    const posted = events.filter((event) => event[0] === "postError" && String(event[2]).includes("timer failed"));
    expect(posted.map((event) => event.slice(1, 3))).toEqual([[6, "Uncaught exception in element code: probe: timer failed"]]);
    expect(String(posted[0]?.[3])).toContain(at("timer"));
  });

  it("reports a handle used after its call as StaleHandleError, attributed to its element", () => {
    const posted = events.filter((event) => event[0] === "postError" && event[1] === 7);
    expect(posted.map((event) => event[2])).toEqual([
      "Uncaught exception in element code: BatchMeta used after its transform() call returned (reading numFrames); a handle is valid only " +
        "during the call that received it: copy the values you need (e.g. `const { frameNum } = frame`) before transform() returns",
    ]);
    expect(String(posted[0]?.[3])).toContain(at("stale"));
  });

  it("validates property changes and creation props", () => {
    expect(results.badProperty?.message).toBe("Expected a number ≥ 1 for every-n but received 0");
    expect(results.goodProperty).toEqual({ ok: true });
    expect(events).toContainEqual(["log", 1, 4, "everyN=4", null, null]);
    expect(results.badProps?.message).toBe("Expected a number ≥ 1 for every-n but received 0");
  });

  it("forgets destroyed instances", () => {
    expect(results.destroyed?.message).toBe(
      "Expected a live element instance for id 1 but received none (its creation failed or it was destroyed)",
    );
  });
});
