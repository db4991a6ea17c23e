/**
 * How an element instance gets its props and logger before the user's constructor body and
 * field initializers run: whoever constructs it (the host adapter, `create()`) parks a context
 * here for the duration of `new`, and Element's constructor takes it. This keeps the user's
 * constructor signature empty and `this.props` usable in field initializers.
 */
import type { ElementDefinition } from "./declaration.js";
import type { ElementLogger } from "./logger.js";

/** @internal */
export interface ElementContext {
  props: object;
  log: ElementLogger;
}

let pending: ElementContext | undefined;

/** @internal Called once by Element's constructor. */
export function takePendingContext(): ElementContext | undefined {
  const context = pending;
  pending = undefined;
  return context;
}

/** @internal Constructs `cls` with `context` as its props and logger. */
export function constructWithContext<T>(cls: new () => T, context: ElementContext): T {
  pending = context;
  try {
    return new cls();
  } finally {
    pending = undefined;
  }
}

/** Where Element.define() keeps the validated definition on the class it returns. */
const DEFINITION = Symbol("ds-element.definition");

/** @internal */
export function attachDefinition(cls: Function, definition: ElementDefinition): void {
  Object.defineProperty(cls, DEFINITION, { value: definition });
}

/** @internal The definition of a class made by Element.define() (inherited by subclasses). */
export function definitionOf(cls: Function): ElementDefinition | undefined {
  return (cls as unknown as Record<symbol, ElementDefinition | undefined>)[DEFINITION];
}
