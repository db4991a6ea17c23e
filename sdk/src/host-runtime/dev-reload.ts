/**
 * Dev mode's half inside the pipeline process (`ds-element dev`, docs/dev-mode.md). host.js
 * turns it on only when DS_ELEMENT_DEV names the marker file `ds-element dev` rewrites after
 * each successful build. Each element instance is then wrapped: it remembers its properties
 * and caps, and when the marker says an element was rebuilt, the bundle is loaded again and a
 * new instance is made with the same properties, started and given the caps, while the old
 * one keeps running. At the next buffer the new one takes over: `onHotReload(previous)` on it,
 * `stop()` on the old one, then the buffer goes to the new one. Whatever fails on the way (the
 * bundle does not load, the constructor or start() throws) is printed, and the old code keeps
 * running. The new build's code runs under the deadline of the element's calls, though it runs
 * outside any call (from the marker's watcher): a start() that never returns is interrupted, one
 * whose Promise never settles is abandoned, and the new build is dropped either way.
 */
import { readFileSync, unwatchFile, watchFile } from "node:fs";
import type { ElementAdapterV1, ElementInstanceV1 } from "../protocol/host-protocol-v1.js";
import type { Caps } from "../stream/caps.js";
import type { StreamEvent } from "../stream/stream-event.js";

/** Where dev mode looks for builds. */
export interface DevOptions {
  /** The marker file (DS_ELEMENT_DEV): JSON {@link DevMarker}, rewritten after every build. */
  marker: string;
  /** How often the marker is looked at, in ms. Default 100. */
  intervalMs?: number;
  /** Where the lines for the developer go, besides the element's log. Default: stderr. */
  print?: (line: string) => void;
}

/** What `ds-element dev` writes to the marker after a successful build. */
export interface DevMarker {
  /** 1 for the build the pipeline started with, then one more per successful rebuild. */
  generation: number;
  /** The elements (factory names) that build wrote. */
  elements: string[];
}

/** What the reloader needs from host.js. */
export interface DevHost {
  /** A fresh adapter of the bundle (not the cached one), which replaces the cached one; throws like a first load. */
  reload(elementName: string, bundlePath: string): ElementAdapterV1;
  /** Runs `run` as instance `instanceId`'s code (errors from what it starts are posted to it). */
  runAs<T>(instanceId: number, run: () => T): T;
  /** A line for the developer: the pipeline's stderr, and the element's log. */
  report(instanceId: number | undefined, level: "info" | "error", line: string): void;
  /**
   * Runs `run` under the deadline of the instance's calls; past it, its JavaScript is
   * interrupted and this throws "`what` did not return within …". Default: no deadline.
   */
  runWithDeadline?<T>(instanceId: number, what: string, run: () => T): T;
  /** The deadline of the instance's calls in ms (0: none). Default: none. */
  deadlineMs?(instanceId: number): number;
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === "object" && value !== null && typeof (value as { then?: unknown }).then === "function";
}

function messageOf(thrown: unknown): string {
  return thrown instanceof Error ? thrown.message : String(thrown);
}

/**
 * `value`, or when it is a Promise, one that rejects with "`what` did not finish within …" if it
 * has not settled after `deadlineMs` (0: it may take forever).
 */
function settleWithin(value: unknown, what: string, deadlineMs: number): unknown {
  if (!isThenable(value) || deadlineMs <= 0) return value;
  let timer: NodeJS.Timeout | undefined;
  const abandoned = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(
      () => reject(new Error(`${what} did not finish within ${deadlineMs / 1000} s: its Promise was abandoned (the deadline of the element's calls)`)),
      deadlineMs,
    );
  });
  return Promise.race([Promise.resolve(value), abandoned]).finally(() => clearTimeout(timer));
}

/** Runs `next` after `value` settles (at once when it is not a Promise). */
function after(value: unknown, next: () => unknown): unknown {
  return isThenable(value) ? Promise.resolve(value).then(next) : next();
}

interface Pending {
  instance: ElementInstanceV1;
  generation: number;
}

/** One element instance as host.js sees it in dev mode: the running build's instance, and the next one once started. */
class ReloadableInstance implements ElementInstanceV1 {
  #current: ElementInstanceV1;
  #generation: number;
  #pending: Pending | undefined;
  #preparing = 0;
  #props: Record<string, unknown>;
  #caps: Caps | undefined;
  #running = false;

  constructor(
    readonly id: number,
    readonly elementName: string,
    readonly bundlePath: string,
    props: Record<string, unknown>,
    instance: ElementInstanceV1,
    generation: number,
    private readonly host: DevHost,
    private readonly forget: (id: number) => void,
  ) {
    this.#current = instance;
    this.#generation = generation;
    this.#props = { ...props };
  }

  get element(): object | undefined {
    return this.#current.element;
  }

  start(): unknown {
    this.#running = true;
    return this.#current.start();
  }

  stop(): unknown {
    this.#running = false;
    this.#discardPending();
    return this.#current.stop();
  }

  caps(caps: Caps): unknown {
    this.#caps = caps;
    return this.#current.caps(caps);
  }

  event(event: StreamEvent): unknown {
    return this.#current.event(event);
  }

  property(jsName: string, value: unknown): unknown {
    const result = this.#current.property(jsName, value);
    this.#props = { ...this.#props, [jsName]: value };
    const pending = this.#pending;
    if (pending !== undefined) this.#guard(`the property ${jsName} on build ${pending.generation}`, () => pending.instance.property(jsName, value));
    return result;
  }

  transform(state: Float64Array): unknown {
    return this.#pending === undefined ? this.#current.transform(state) : this.#takeOver(state);
  }

  destroy(): void {
    this.forget(this.id);
    this.#discardPending();
    this.#current.destroy();
  }

  /** Makes and starts an instance of `adapter`'s build; it takes over at the next buffer. */
  async prepare(adapter: ElementAdapterV1, generation: number): Promise<void> {
    const token = ++this.#preparing;
    this.#discardPending();
    const name = this.#name();
    let next: ElementInstanceV1;
    const props = this.#props;
    try {
      next = this.#underDeadline("the constructor", () => adapter.instantiate(this.id, { ...props })) as ElementInstanceV1;
    } catch (error) {
      this.host.report(this.id, "error", `${name}: build ${generation} cannot be made with the current properties: ${messageOf(error)}; still running build ${this.#generation}`);
      return;
    }
    if (!this.#running) {
      // Not started (or stopped): the new build replaces the old one now; start() will run on it.
      const previous = this.#current;
      this.#current = next;
      this.#generation = generation;
      previous.destroy();
      this.host.report(this.id, "info", `${name}: build ${generation} loaded (the element is not started)`);
      return;
    }
    try {
      await this.#underDeadline("start()", () => next.start());
      const caps = this.#caps;
      if (caps !== undefined) await this.#underDeadline("onCaps()", () => next.caps(caps));
    } catch (error) {
      this.host.report(this.id, "error", `${name}: build ${generation} failed to start: ${messageOf(error)}; still running build ${this.#generation}`);
      this.#guard(`destroying build ${generation}`, () => next.destroy());
      return;
    }
    if (token !== this.#preparing || !this.#running) {
      // A newer build came, or the element stopped, while this one started.
      this.#guard(`stopping build ${generation}`, () => after(next.stop(), () => next.destroy()));
      return;
    }
    // Properties set while it started.
    for (const [jsName, value] of Object.entries(this.#props)) {
      if (props[jsName] !== value) this.#guard(`the property ${jsName} on build ${generation}`, () => next.property(jsName, value));
    }
    this.#pending = { instance: next, generation };
    this.host.report(this.id, "info", `${name}: build ${generation} started; it takes over at the next buffer`);
  }

  /** The next buffer: the new instance takes over, then gets the buffer. */
  #takeOver(state: Float64Array): unknown {
    const { instance: next, generation } = this.#pending!;
    this.#pending = undefined;
    const previous = this.#current;
    const previousGeneration = this.#generation;
    this.#current = next;
    this.#generation = generation;
    // Other elements' calls rewrite the shared state array while a Promise below waits.
    const mine = state.slice();
    this.host.report(this.id, "info", `${this.#name()}: switched from build ${previousGeneration} to build ${generation} at this buffer`);
    const kept = previous.element;
    const hooked = kept === undefined ? undefined : this.#guard("onHotReload()", () => next.hotReload?.(kept));
    return after(hooked, () =>
      after(this.#guard(`stop() of build ${previousGeneration}`, () => previous.stop()), () => {
        this.#guard(`destroying build ${previousGeneration}`, () => previous.destroy());
        return next.transform(mine);
      }),
    );
  }

  #discardPending(): void {
    const pending = this.#pending;
    if (pending === undefined) return;
    this.#pending = undefined;
    this.#guard(`stopping build ${pending.generation}`, () => after(pending.instance.stop(), () => pending.instance.destroy()));
  }

  /**
   * Runs the new build's `run` as this instance, under the deadline of its calls: its synchronous
   * part is interrupted past it, and a Promise it returns is abandoned past it.
   */
  #underDeadline(what: string, run: () => unknown): unknown {
    const host = this.host;
    const asInstance = () => host.runAs(this.id, run);
    const result = host.runWithDeadline !== undefined ? host.runWithDeadline(this.id, what, asInstance) : asInstance();
    return settleWithin(result, what, host.deadlineMs?.(this.id) ?? 0);
  }

  /** Runs `run`; what it throws or rejects with is reported, never passed on. */
  #guard(what: string, run: () => unknown): unknown {
    const report = (error: unknown) => this.host.report(this.id, "error", `${this.#name()}: ${what} failed: ${messageOf(error)}`);
    try {
      const result = this.host.runAs(this.id, run);
      return isThenable(result) ? Promise.resolve(result).then(undefined, report) : undefined;
    } catch (error) {
      report(error);
      return undefined;
    }
  }

  #name(): string {
    return `${this.elementName} (instance ${this.id})`;
  }
}

/**
 * Watches the marker and swaps the code of the instances it wraps.
 *
 * @example
 * ```ts
 * const reloader = new DevReloader({ marker: process.env.DS_ELEMENT_DEV! }, host);
 * instances.set(id, reloader.wrap(id, "framecounter", bundlePath, props, instance));
 * ```
 */
export class DevReloader {
  readonly #instances = new Map<number, ReloadableInstance>();
  /** Every bundle loaded per element, so that a rebuild also refreshes those without instances. */
  readonly #bundles = new Map<string, Set<string>>();
  #generation: number;

  constructor(
    private readonly options: DevOptions,
    private readonly host: DevHost,
  ) {
    this.#generation = this.#read()?.generation ?? 0;
    // Not persistent: the watcher never keeps the runtime's loop alive.
    watchFile(options.marker, { interval: options.intervalMs ?? 100, persistent: false }, () => this.check());
  }

  /** The instance host.js keeps for `instance`, reloadable. */
  wrap(id: number, elementName: string, bundlePath: string, props: Record<string, unknown>, instance: ElementInstanceV1): ElementInstanceV1 {
    const wrapped = new ReloadableInstance(id, elementName, bundlePath, props, instance, this.#generation, this.host, (gone) => this.#instances.delete(gone));
    this.#instances.set(id, wrapped);
    let bundles = this.#bundles.get(elementName);
    if (bundles === undefined) this.#bundles.set(elementName, (bundles = new Set()));
    bundles.add(bundlePath);
    return wrapped;
  }

  /** Looks at the marker now (the watcher calls it); a new generation reloads its elements. */
  check(): void {
    const marker = this.#read();
    if (marker === undefined || marker.generation <= this.#generation) return;
    this.#generation = marker.generation;
    for (const elementName of marker.elements) {
      for (const bundlePath of this.#bundles.get(elementName) ?? []) {
        let adapter: ElementAdapterV1;
        const instances = [...this.#instances.values()].filter((instance) => instance.bundlePath === bundlePath);
        const load = () => this.host.reload(elementName, bundlePath);
        try {
          // Its top-level code runs now: under the deadline of an instance's calls, when there is one.
          const first = instances[0];
          adapter = first !== undefined && this.host.runWithDeadline !== undefined ? this.host.runWithDeadline(first.id, "loading the bundle", load) : load();
        } catch (error) {
          this.host.report(instances[0]?.id, "error", `${elementName}: build ${marker.generation} cannot be loaded: ${messageOf(error)}; the running code stays`);
          continue;
        }
        for (const instance of instances) void instance.prepare(adapter, marker.generation);
      }
    }
  }

  /** Stops watching. */
  close(): void {
    unwatchFile(this.options.marker);
  }

  #read(): DevMarker | undefined {
    let text: string;
    try {
      text = readFileSync(this.options.marker, "utf8");
    } catch {
      return undefined;
    }
    try {
      const marker = JSON.parse(text) as DevMarker;
      return Number.isInteger(marker.generation) && Array.isArray(marker.elements) ? marker : undefined;
    } catch {
      return undefined; // being rewritten: the next look sees it whole
    }
  }
}
