/**
 * Work the host adapter does around an element's own hooks, for base classes that manage
 * state of their own (InferenceElement's model): it runs whether or not the user's class
 * overrides start(), stop() or onPropertyChange(), and never needs a `super` call.
 */

/** @internal */
export interface RuntimeHooks {
  /** Before the element's start(): e.g. load the model. */
  start(): void | Promise<void>;
  /** After the element's stop() (even when it threw): e.g. free the model. */
  stop(): void | Promise<void>;
  /** After `props` took a new value, before onPropertyChange(). */
  propertyChanged(name: string): void;
  /** Before each transform(), between batches: e.g. switch to a model loaded in the background. */
  beforeTransform(): void;
}

/** @internal The key under which an element instance offers its RuntimeHooks. */
export const RUNTIME_HOOKS: unique symbol = Symbol("ds-element.runtime-hooks");

/** @internal */
export function runtimeHooksOf(element: object): RuntimeHooks | undefined {
  return (element as { [RUNTIME_HOOKS]?: RuntimeHooks })[RUNTIME_HOOKS];
}
