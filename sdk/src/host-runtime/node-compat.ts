/**
 * What the runtime takes from Node's internals, in one place, per Node version: the embedded
 * Node is the distribution's libnode the host was built against (Debian 12: Node 18, Debian 13:
 * Node 20, sid: Node 22 and 24). Read from Node's own lib/ of each version (the builtin sources
 * inside each libnode): internal/async_hooks exports the same functions from 18 to 24, and
 * internalBinding('async_wrap') has the same fields; only the way to reach async_wrap changed.
 * node-compat.test.ts checks each route on the Node that runs the tests; the element tests run
 * the runtime's own choice on the libnode that the host embeds.
 */

/** The `require` that Node's LoadEnvironment hands the embedder: builtin modules, internal ones included. */
export type BuiltinRequire = (id: string) => unknown;

/** Node's internal/async_hooks, what the runtime's fatal-exception path uses of it (Node 18 to 24). */
export interface InternalAsyncHooks {
  afterHooksExist(): boolean;
  executionAsyncId(): number;
  popAsyncContext(asyncId: number): void;
  emitAfter(asyncId: number): void;
  hasAsyncIdStack(): boolean;
  clearAsyncIdStack(): void;
}

/**
 * Node's async context stack, for the runtime to empty when it terminates JavaScript (the
 * watchdog, the heap limit): `[async_hook_fields, async_id_fields, kStackLength,
 * kExecutionAsyncId, kTriggerAsyncId]`.
 */
export type AsyncIdStack = [Uint32Array, Float64Array, number, number, number];

/** internalBinding('async_wrap'), the part the runtime reads. */
interface AsyncWrapBinding {
  async_hook_fields: Uint32Array;
  async_id_fields: Float64Array;
  constants: { kStackLength: number; kExecutionAsyncId: number; kTriggerAsyncId: number };
}

/** How a Node version lets the runtime reach internalBinding('async_wrap'). */
export type AsyncWrapRoute = "process.binding" | "internal/test/binding";

/** The process as this file uses it: Node's public one plus process.binding. */
type BindingProcess = NodeJS.Process & { binding?(name: string): unknown };

/** The major version of a `process.versions.node` string. */
export function nodeMajor(version: string): number {
  return Number.parseInt(version, 10);
}

/**
 * Up to Node 22, process.binding still serves async_wrap (deprecated, DEP0111: its warning is
 * not the user's business and is silenced). Node 24 took async_wrap off process.binding's list;
 * there the builtin require reaches internalBinding through internal/test/binding, whose
 * "for internal testing only" warning is silenced the same way.
 */
export function asyncWrapRoute(major: number): AsyncWrapRoute {
  return major <= 22 ? "process.binding" : "internal/test/binding";
}

/** The process's warnings silenced while `body` runs (Node emits them on the next tick). */
function quietly<T>(node: NodeJS.Process, body: () => T): T {
  const { noDeprecation, emitWarning } = node;
  node.noDeprecation = true;
  node.emitWarning = () => {};
  try {
    return body();
  } finally {
    node.noDeprecation = noDeprecation;
    node.emitWarning = emitWarning;
  }
}

/** Node's async context stack through one route; throws where that route is closed. */
export function asyncIdStackThrough(route: AsyncWrapRoute, node: NodeJS.Process, builtinRequire: BuiltinRequire): AsyncIdStack {
  const binding = quietly(node, () => {
    if (route === "process.binding") return (node as BindingProcess).binding!("async_wrap") as AsyncWrapBinding;
    const { internalBinding } = builtinRequire("internal/test/binding") as { internalBinding(name: string): unknown };
    return internalBinding("async_wrap") as AsyncWrapBinding;
  });
  const { async_hook_fields, async_id_fields, constants } = binding;
  if (!(async_hook_fields instanceof Uint32Array) || !(async_id_fields instanceof Float64Array)) {
    throw new TypeError(`async_wrap through ${route} has no async_hook_fields/async_id_fields`);
  }
  return [async_hook_fields, async_id_fields, constants.kStackLength, constants.kExecutionAsyncId, constants.kTriggerAsyncId];
}

/**
 * Node's async context stack, through the route this Node version offers (the other one is
 * tried when it fails). Undefined where neither reaches it; the runtime then warns that a call
 * the watchdog interrupts may abort the process.
 *
 * Terminated JavaScript skips the finally blocks that pop what it pushed (a timer's, a
 * nextTick's, a Promise hook's context), and the next callback scope to close would abort the
 * process ("async hook stack has become corrupted"), from Node 18 to 24 alike: the runtime
 * empties the stack first, as Node's clearAsyncIdStack does.
 */
export function asyncIdStackOf(node: NodeJS.Process, builtinRequire: BuiltinRequire, major = nodeMajor(node.versions.node)): AsyncIdStack | undefined {
  const first = asyncWrapRoute(major);
  for (const route of [first, first === "process.binding" ? "internal/test/binding" : "process.binding"] as const) {
    try {
      return asyncIdStackThrough(route, node, builtinRequire);
    } catch {
      // the other route, else undefined
    }
  }
  return undefined;
}

/** Node's internal/async_hooks (the same exports from Node 18 to 24). */
export function internalAsyncHooks(builtinRequire: BuiltinRequire): InternalAsyncHooks {
  return builtinRequire("internal/async_hooks") as InternalAsyncHooks;
}
