// The codes native code throws with too (error-codes.mjs is their one definition).
// generated: error codes (scripts/generate-shared-names.mjs: do not edit)
/** The `code` of every invalid-value error, thrown by JS validation and by native code alike. */
export const INVALID_VALUE_CODE = "ERR_DS_ELEMENT_INVALID_VALUE";
/** The `code` of every metadata state error (added twice, wrong parent, used after removal). */
export const META_STATE_CODE = "ERR_DS_ELEMENT_META_STATE";
/** The `code` of the error of a handle used after the call that handed it out ended (StaleHandleError). */
export const STALE_HANDLE_CODE = "ERR_DS_ELEMENT_STALE_HANDLE";
/** The `code` of the error of a full object table in a call: the SDK grows the table, rebinds and retries. */
export const TABLE_FULL_CODE = "ERR_DS_ELEMENT_TABLE_FULL";
/** The `code` of every tensor error, thrown by the SDK and by native code alike. */
export const TENSOR_CODE = "ERR_DS_ELEMENT_TENSOR";
/** The `code` of the error of a model a runner could not load. */
export const RUNNER_LOAD_CODE = "ERR_DS_ELEMENT_RUNNER_LOAD";
/** The `code` of the error of an inference that failed in a runner's backend. */
export const RUNNER_FAILED_CODE = "ERR_DS_ELEMENT_RUNNER_FAILED";
/** The `code` of the error of a runner used after dispose(). */
export const RUNNER_DISPOSED_CODE = "ERR_DS_ELEMENT_RUNNER_DISPOSED";
// end generated: error codes

/**
 * Thrown when a handle handed to `transform()` (BatchMeta, FrameMeta, GstBuffer) is used after
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
  readonly code = STALE_HANDLE_CODE;

  /** @internal Thrown by the handles themselves; user code never constructs it. */
  constructor(handle: string, member: string, action: "reading" | "writing" | "calling" | "passing it to" = "reading") {
    super(
      `${handle} used after its transform() call returned (${action} ${member}); a handle is valid ` +
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

function hasCode(value: unknown, code: string): boolean {
  return value instanceof Error && (value as { code?: unknown }).code === code;
}

/**
 * Thrown when a metadata value is out of range: a NaN width, a confidence of 1.5, a label over
 * 127 bytes. The message names the TypeScript member (`ObjectMeta.rectParams.width`); the
 * same rule checked again by native code names the DeepStream field instead
 * (`NvDsObjectMeta.rect_params.width`). A value of the wrong type throws
 * {@link InvalidTypeError}, with the same code.
 *
 * `instanceof InvalidValueError` matches every error with `code: "ERR_DS_ELEMENT_INVALID_VALUE"`:
 * both classes here and the RangeError/TypeError native code throws.
 *
 * @example
 * ```ts
 * try {
 *   obj.confidence = score;
 * } catch (error) {
 *   if (error instanceof InvalidValueError) this.log.warn(error.message);
 *   // Expected a number from 0 to 1 (or -0.1 for none) for ObjectMeta.confidence but received 1.5
 *   else throw error;
 * }
 * ```
 */
export class InvalidValueError extends RangeError {
  /** Stable code for programmatic checks. */
  readonly code = INVALID_VALUE_CODE;

  /** @internal Thrown by the metadata setters; user code never constructs it. */
  constructor(message: string) {
    super(message);
    this.name = "InvalidValueError";
  }

  /**
   * Matches any error carrying `code: "ERR_DS_ELEMENT_INVALID_VALUE"`.
   *
   * @example
   * ```ts
   * if (error instanceof InvalidValueError) console.error(error.message);
   * ```
   */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return hasCode(value, INVALID_VALUE_CODE);
  }
}

/**
 * Thrown when a metadata value has the wrong type (a string for a width, a number for a
 * bigint). A `TypeError` with the same `code` as {@link InvalidValueError}, which therefore
 * also matches it with `instanceof`.
 *
 * @example
 * ```ts
 * obj.label = 7 as unknown as string;
 * // InvalidTypeError: Expected at most 127 bytes (UTF-8) for ObjectMeta.label but received 7
 * ```
 */
export class InvalidTypeError extends TypeError {
  /** Stable code for programmatic checks. */
  readonly code = INVALID_VALUE_CODE;

  /** @internal Thrown by the metadata setters; user code never constructs it. */
  constructor(message: string) {
    super(message);
    this.name = "InvalidTypeError";
  }
}

/**
 * Thrown when a metadata operation does not fit the meta's state: adding an object twice,
 * removing it from a frame it is not in, using it after `removeObjectMeta`, writing a
 * classifier that is already added. `instanceof MetaStateError` also matches the errors
 * native code throws with `code: "ERR_DS_ELEMENT_META_STATE"`.
 *
 * @example
 * ```ts
 * frame.removeObjectMeta(obj);
 * obj.label;
 * // MetaStateError: ObjectMeta used after removeObjectMeta (reading label)
 * ```
 */
export class MetaStateError extends Error {
  /** Stable code for programmatic checks. */
  readonly code = META_STATE_CODE;

  /** @internal Thrown by the metadata API; user code never constructs it. */
  constructor(message: string) {
    super(message);
    this.name = "MetaStateError";
  }

  /**
   * Matches any error carrying `code: "ERR_DS_ELEMENT_META_STATE"`.
   *
   * @example
   * ```ts
   * if (error instanceof MetaStateError) this.log.warn(error.message);
   * ```
   */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return hasCode(value, META_STATE_CODE);
  }
}

/**
 * Thrown when a tensor or frame operation cannot be done: a frame format `Buffer.extract`
 * does not support (the message names the caps and the conversion to add), device memory read
 * without `toHost()`, a tensor used after `dispose()`, CUDA in a build without it.
 * `instanceof TensorError` also matches the errors native code throws with
 * `code: "ERR_DS_ELEMENT_TENSOR"`.
 *
 * @example
 * ```ts
 * try {
 *   buffer.extract(0);
 * } catch (error) {
 *   if (error instanceof TensorError) this.log.error(error.message);
 *   // Expected a packed RGB, RGBA, BGR, BGRx or GRAY8 frame for Buffer.extract but received NV12 (...);
 *   // convert first, e.g. "videoconvert ! video/x-raw,format=RGB" (...)
 *   else throw error;
 * }
 * ```
 */
export class TensorError extends Error {
  /** Stable code for programmatic checks. */
  readonly code = TENSOR_CODE;

  /** @internal Thrown by the tensor API; user code never constructs it. */
  constructor(message: string) {
    super(message);
    this.name = "TensorError";
  }

  /**
   * Matches any error carrying `code: "ERR_DS_ELEMENT_TENSOR"`.
   *
   * @example
   * ```ts
   * if (error instanceof TensorError) console.error(error.message);
   * ```
   */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return hasCode(value, TENSOR_CODE);
  }
}

/**
 * The codes a {@link RunnerError} carries: the model could not be loaded, an inference failed
 * inside the backend, or the runner was used after `dispose()`.
 *
 * @example
 * ```ts
 * const code: RunnerErrorCode = "ERR_DS_ELEMENT_RUNNER_LOAD";
 * ```
 */
export type RunnerErrorCode = "ERR_DS_ELEMENT_RUNNER_LOAD" | "ERR_DS_ELEMENT_RUNNER_FAILED" | "ERR_DS_ELEMENT_RUNNER_DISPOSED";

// Spelled out above for the API reference; checked against the generated codes here.
const RUNNER_CODES: ReadonlySet<string> = new Set<RunnerErrorCode>([RUNNER_LOAD_CODE, RUNNER_FAILED_CODE, RUNNER_DISPOSED_CODE]);

/**
 * A model that cannot be loaded (missing file, not a model, a backend that is not installed)
 * or run (the backend refused or failed an inference), or a runner used after `dispose()`.
 * The message names the model file and says what would fix it. Invalid inputs to
 * `Runner.infer` (wrong dtype, shape, device) are {@link InvalidValueError}s instead.
 *
 * @example
 * ```ts
 * try {
 *   this.runner = await loadRunner(this.props.model);
 * } catch (error) {
 *   if (error instanceof RunnerError && error.code === "ERR_DS_ELEMENT_RUNNER_LOAD") this.log.error(error.message);
 *   throw error;
 * }
 * ```
 */
export class RunnerError extends Error {
  /** Stable code for programmatic checks. */
  readonly code: RunnerErrorCode;

  /** @internal Thrown by the runners; user code never constructs it. */
  constructor(code: RunnerErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    this.name = "RunnerError";
  }

  /**
   * Matches any error carrying one of the {@link RunnerErrorCode}s (the native TensorRT
   * runner's errors too).
   *
   * @example
   * ```ts
   * if (error instanceof RunnerError) console.error(error.code, error.message);
   * ```
   */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return value instanceof Error && RUNNER_CODES.has(String((value as { code?: unknown }).code));
  }
}
