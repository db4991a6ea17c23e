/**
 * Thrown when a handle handed to `transform()` (BatchMeta, FrameMeta, Buffer) is used after
 * that call returned or its Promise settled. The native buffer behind it has moved on, so its
 * values would belong to another buffer.
 *
 * @example
 * ```ts
 * let kept: BatchMeta | undefined;
 * transform(batch: BatchMeta) {
 *   kept = batch;                 // wrong: the handle outlives the call
 *   this.numFrames = batch.numFrames; // right: copy the value
 * }
 * // later: kept.numFrames -> throws StaleHandleError
 * ```
 */
export class StaleHandleError extends Error {
  /** Stable code for programmatic checks. */
  readonly code = "ERR_DS_ELEMENT_STALE_HANDLE";

  /** @internal Thrown by the handles themselves; user code never constructs it. */
  constructor(handle: string, member: string) {
    super(
      `${handle} used after its transform() call returned (reading ${member}); a handle is valid ` +
        `only during the call that received it: copy the values you need ` +
        `(e.g. \`const { frameNum } = frame\`) before transform() returns`,
    );
    this.name = "StaleHandleError";
  }
}

/**
 * Thrown when a property value does not satisfy the element's zod schema: at element creation
 * (all properties) or when a property is set while the element runs (that property). The
 * message names the GStreamer (kebab-case) property, the rule and the value.
 *
 * @example
 * ```ts
 * try {
 *   FrameCounter.create({ location: "/tmp/x", everyN: 0 });
 * } catch (error) {
 *   if (error instanceof PropertyValidationError) console.error(error.message);
 *   // Expected a number ≥ 1 for every-n but received 0
 * }
 * ```
 */
export class PropertyValidationError extends Error {
  /** Stable code for programmatic checks. */
  readonly code = "ERR_DS_ELEMENT_INVALID_PROPERTY";

  /** @internal */
  constructor(message: string) {
    super(message);
    this.name = "PropertyValidationError";
  }
}

/**
 * Thrown by `Element.define()` (and so by `ds-element build`) when the element's declaration
 * cannot be turned into a GStreamer element: a bad name, empty caps, or a property schema that
 * has no GObject equivalent. The message names the field and what to use instead.
 *
 * @example
 * ```ts
 * Element.define({ name: "FrameCounter", ... });
 * // ElementDefinitionError: Expected a name matching /^[a-z][a-z0-9-]*$/ for name in Element.define() but received "FrameCounter"
 * ```
 */
export class ElementDefinitionError extends Error {
  /** Stable code for programmatic checks. */
  readonly code = "ERR_DS_ELEMENT_DEFINITION";

  /** @internal */
  constructor(message: string) {
    super(message);
    this.name = "ElementDefinitionError";
  }
}
