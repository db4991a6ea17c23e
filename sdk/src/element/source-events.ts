/**
 * nvstreammux's per-source events (native-host/src/gst/source_events.h) to the element's source
 * hooks, and the per-source state that goes with them (source-state.ts).
 */
import type { Source } from "../stream/source.js";
import type { StreamEvent } from "../stream/stream-event.js";
import type { Element } from "./element.js";
import { dropSourceStates } from "./source-state.js";

type SourceHook = "onSourceAdded" | "onSourceRemoved" | "onSourceEos" | "onSourceReset";

/** The hook of each event type, and whether the source's state goes before it (a fresh source) or after it (a source gone). */
const HOOKS: Readonly<Record<string, { hook: SourceHook; drop: "before" | "after" | "never" }>> = {
  "source-added": { hook: "onSourceAdded", drop: "before" },
  "source-removed": { hook: "onSourceRemoved", drop: "after" },
  "source-eos": { hook: "onSourceEos", drop: "never" },
  "source-reset": { hook: "onSourceReset", drop: "after" },
};

/** @internal */
export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === "object" && value !== null && typeof (value as { then?: unknown }).then === "function";
}

/** @internal Whether the event goes to a source hook rather than onEvent(). */
export function hasSourceHook(event: StreamEvent): event is StreamEvent & { source: Source } {
  return event.source !== undefined && Object.hasOwn(HOOKS, event.type);
}

/** @internal Calls the event's source hook; the source's state is dropped as HOOKS says, also when the hook throws. */
export function callSourceHook(element: Element<object>, event: StreamEvent & { source: Source }): unknown {
  const { hook, drop } = HOOKS[event.type]!;
  const source: Source = Object.freeze({ sourceId: event.source.sourceId });
  const dropState = () => dropSourceStates(element, source.sourceId);
  if (drop === "before") dropState();
  if (drop !== "after") return element[hook](source);
  let result: unknown;
  try {
    result = element[hook](source);
  } catch (error) {
    dropState();
    throw error;
  }
  if (!isThenable(result)) {
    dropState();
    return result;
  }
  return Promise.resolve(result).finally(dropState);
}
