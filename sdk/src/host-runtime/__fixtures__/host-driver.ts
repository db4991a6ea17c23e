// Runs host.js's logic in a plain Node process against a fake binding, with the real process
// hooks (source maps, exit guard, uncaught errors), and prints what the binding saw as JSON.
import { installExitGuard } from "../exit-guard.js";
import type { HostControls, NativeHandlers } from "../../native/runtime-binding.js";
import { startHost } from "../host.js";
import { standaloneBindings } from "../../test-support/standalone-binding.js";
import { makeTransformState } from "../../test-support/transform-state.js";

const bundle = process.argv[2]!;
const events: unknown[][] = [];
const live = new Set<number>();
let handlers: NativeHandlers | undefined;
const state = makeTransformState({ pts: 0, size: 100, frames: [{ frameNum: 42, width: 320, height: 240 }] }, 4);

const native: HostControls = {
  setHandlers: (installed) => {
    handlers = installed;
  },
  transformState: state,
  log: (...args) => void events.push(["log", ...args]),
  postError: (...args) => void events.push(["postError", ...args]),
  liveInstances: () => [...live],
};

process.setSourceMapsEnabled(true);
// As the runtime's bootstrap does (bootstrap.ts).
installExitGuard(process as unknown as Parameters<typeof installExitGuard>[0]);
startHost(native, standaloneBindings());

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function outcome(run: () => unknown): Promise<{ ok: boolean; message?: string; stack?: string }> {
  try {
    await run();
    return { ok: true };
  } catch (error) {
    return { ok: false, message: (error as Error).message, stack: (error as Error).stack };
  }
}

async function scenario(id: number, behaviour: string) {
  live.add(id);
  handlers!.create(id, "probe", bundle, { behaviour, everyN: null });
  await handlers!.start(id);
  return outcome(() => handlers!.transform(id));
}

async function main() {
  const results: Record<string, unknown> = {};
  results.ok = await scenario(1, "ok");
  results.throw = await scenario(2, "throw");
  results.reject = await scenario(3, "reject");
  results.exit = await scenario(4, "exit");
  results.log = await scenario(5, "log");
  await scenario(6, "timer");
  await sleep(30);
  await scenario(7, "keep");
  await sleep(30);
  results.badProperty = await outcome(() => handlers!.property(1, "everyN", 0));
  results.goodProperty = await outcome(() => handlers!.property(1, "everyN", 4));
  results.badProps = await outcome(() => handlers!.create(8, "probe", bundle, { everyN: 0 }));
  results.destroyed = await outcome(() => {
    handlers!.destroy(1);
    return handlers!.transform(1);
  });
  results.exitStillGuarded = await outcome(() => process.exit(0));
  results.abort = await outcome(() => process.abort());
  // Node's own exit paths end in reallyExit, after setting _exiting.
  const node = process as unknown as { reallyExit(code: number): never; _exiting: boolean };
  node._exiting = true;
  results.reallyExit = await outcome(() => node.reallyExit(5));
  results.exitingAfter = { ok: (node._exiting as boolean) === false };
  process.stdout.write(JSON.stringify({ results, events }));
}

void main();
