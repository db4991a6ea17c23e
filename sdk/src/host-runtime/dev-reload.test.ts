// Dev mode inside host.js (dev-reload.ts), driven through the handlers as the runtime drives
// them: a rebuilt bundle (the test rewrites its VERSION) takes over at the next buffer with the
// same properties and caps, after start(); onHotReload carries state; stop() ends the old one;
// whatever fails keeps the old code. Without options.dev nothing is reloaded.
import { EventEmitter } from "node:events";
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { bundleForTest, temporaryDir } from "../test-support/bundle.js";
import { requireStandaloneBinding, standaloneBindings } from "../test-support/standalone-binding.js";
import { makeTransformState } from "../test-support/transform-state.js";
import type { HostControls, NativeHandlers } from "../native/runtime-binding.js";
import { startHost } from "./host.js";

const CAPS = { string: "video/x-raw, width=(int)4", structures: [] };

let dir: string;
let bundle: string;
let marker: string;
let original: string;

async function until(what: string, test: () => boolean): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!test()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

function host(dev: boolean, deadlineMs?: number) {
  let handlers: NativeHandlers | undefined;
  const logged: string[] = [];
  const printed: string[] = [];
  const native = {
    setHandlers: (installed: NativeHandlers) => (handlers = installed),
    transformState: makeTransformState({ frames: [{ frameNum: 0 }] }),
    log: vi.fn((_id: number, _level: number, message: string) => logged.push(message)),
    postError: vi.fn(),
    liveInstances: vi.fn(() => [1]),
    ...(deadlineMs !== undefined ? { callDeadlineMs: () => deadlineMs } : {}),
  } satisfies HostControls;
  startHost(native, standaloneBindings(), {
    errorSource: new EventEmitter(),
    requireBundle: createRequire(__filename),
    ...(dev ? { dev: { marker, intervalMs: 10, print: (line: string) => printed.push(line) } } : {}),
  });
  return { handlers: handlers!, logged, printed };
}

/** Rewrites the bundle as a rebuild would (`version` in place of version-A) and bumps the marker. */
function rebuild(version: string, generation: number, body = original.replaceAll("version-A", version)) {
  writeFileSync(bundle, body);
  writeFileSync(marker, JSON.stringify({ generation, elements: ["reloaded"] }));
}

beforeEach(async () => {
  dir = temporaryDir("dev-reload");
  bundle = await bundleForTest(join(__dirname, "__fixtures__", "reload-element.ts"), join(dir, "reloaded", "index.js"));
  original = readFileSync(bundle, "utf8");
  marker = join(dir, "reload.json");
  writeFileSync(marker, JSON.stringify({ generation: 1, elements: ["reloaded"] }));
});

describe("dev mode in host.js", () => {
  it("switches a running instance to the rebuilt code at the next buffer, with its properties and caps", async () => {
    const { handlers, logged, printed } = host(true);
    handlers.create(1, "reloaded", bundle, { label: "cam-1" });
    await handlers.start(1);
    await handlers.caps(1, CAPS);
    await handlers.transform(1);
    await handlers.transform(1);
    rebuild("version-B", 2);
    await until("build 2 to start", () => printed.some((line) => line.includes("build 2 started")));
    await handlers.transform(1);
    expect(logged).toEqual([
      "version-A start cam-1",
      "version-A caps video/x-raw, width=(int)4",
      "version-A transform cam-1 1",
      "version-A transform cam-1 2",
      "version-B start cam-1",
      "version-B caps video/x-raw, width=(int)4",
      "reloaded (instance 1): build 2 started; it takes over at the next buffer",
      "reloaded (instance 1): switched from build 1 to build 2 at this buffer",
      "version-B takes over from a count of 2",
      "version-A stop",
      "version-B transform cam-1 3",
    ]);
  });

  it("gives the new code properties set while it started, and stops it with the element", async () => {
    const { handlers, logged, printed } = host(true);
    handlers.create(1, "reloaded", bundle, {});
    await handlers.start(1);
    rebuild("version-B", 2);
    await until("build 2 to start", () => printed.some((line) => line.includes("build 2 started")));
    handlers.property(1, "label", "cam-2");
    expect(logged.slice(-2)).toEqual(["version-A property label=cam-2", "version-B property label=cam-2"]);
    await handlers.stop(1);
    expect(logged.slice(-2)).toEqual(["version-B stop", "version-A stop"]);
  });

  it("keeps the running code when the rebuilt bundle does not load, and says why", async () => {
    const { handlers, logged, printed } = host(true);
    handlers.create(1, "reloaded", bundle, {});
    await handlers.start(1);
    rebuild("version-B", 2, "module.exports = {\n  oops: ,\n};\n");
    await until("the load error", () => printed.length > 0);
    expect(printed[0]).toMatch(/^reloaded: build 2 cannot be loaded: Cannot load the bundle of element reloaded \(.*\): SyntaxError: Unexpected token/);
    expect(printed[0]).toMatch(/the running code stays$/);
    await handlers.transform(1);
    expect(logged.at(-1)).toBe("version-A transform none 1");
  });

  it("keeps the running code when the new code's start() throws, and says why", async () => {
    const { handlers, logged, printed } = host(true);
    handlers.create(1, "reloaded", bundle, { failStart: true });
    await handlers.start(1);
    rebuild("version-B", 2);
    await until("the start error", () => printed.length > 0);
    expect(printed).toEqual(["reloaded (instance 1): build 2 failed to start: version-B refuses to start; still running build 1"]);
    await handlers.transform(1);
    expect(logged.at(-1)).toBe("version-A transform none 1");
  });

  it("drops the new code when its start() does not settle within the element's deadline, and says so (issue 29)", async () => {
    const { handlers, logged, printed } = host(true, 200);
    handlers.create(1, "reloaded", bundle, { hangStart: true });
    await handlers.start(1);
    rebuild("version-B", 2);
    await until("the deadline message", () => printed.length > 0);
    expect(printed).toEqual([
      "reloaded (instance 1): build 2 failed to start: start() did not finish within 0.2 s: its Promise was abandoned (the deadline of the element's calls); still running build 1",
    ]);
    await handlers.transform(1);
    expect(logged.at(-1)).toBe("version-A transform none 1");
    rebuild("version-C", 3);
    await until("build 3 to start", () => printed.some((line) => line.includes("build 3 started")));
    await handlers.transform(1);
    expect(logged.at(-1)).toBe("version-C transform none 2");
  });

  it("is off unless asked for: without options.dev a rebuilt bundle is never loaded", async () => {
    const { handlers, logged } = host(false);
    handlers.create(1, "reloaded", bundle, {});
    await handlers.start(1);
    rebuild("version-B", 2);
    await new Promise((resolve) => setTimeout(resolve, 200));
    await handlers.transform(1);
    expect(logged.at(-1)).toBe("version-A transform none 1");
  });
});
