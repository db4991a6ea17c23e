/**
 * Typed user metadata: one definition per meta type (`defineUserMeta("ACME.ANPR.PLATE", schema)`)
 * that writes, reads and validates the JSON payload of the user metas of that type with a zod
 * schema. Built on the untyped {@link UserMeta} (`setJson`): what it writes is a regular JSON user
 * meta that untyped readers, other elements and C consumers read as before.
 */
import { z } from "zod";
import { describeValue, expectedMessage } from "../errors/describe-value.js";
import { InvalidTypeError, InvalidValueError, StaleHandleError } from "../errors/errors.js";
import { describeRule, subPath, valueAt } from "../properties/issue-message.js";
import { BatchMeta } from "./batch-meta.js";
import { checkUserMetaType } from "./call/validation.js";
import { FrameMeta, frameInternals } from "./frame-meta.js";
import { ObjectMeta, objectCoreOf } from "./object-meta.js";
import { UserMeta, type UserMetaJSON } from "./user-meta.js";

/**
 * Where user metas of a type are written: the batch (`batch_user_meta_list`), a frame
 * (`frame_user_meta_list`) or an object (`obj_user_meta_list`).
 *
 * @example
 * ```ts
 * const owners: UserMetaOwner[] = [batch, frame, obj];
 * ```
 */
export type UserMetaOwner = BatchMeta | FrameMeta | ObjectMeta;

/**
 * Where user metas of a type are read: a live `BatchMeta`, `FrameMeta` or `ObjectMeta`, or their
 * `toJSON()` (what the testing harness returns and `dsmetadump` writes), or anything else with
 * a `userMetaItems` list of {@link UserMeta}s or {@link UserMetaJSON}s.
 *
 * @example
 * ```ts
 * const out = await harness.push({ frames: [{}] });
 * const source: UserMetaSource = out.frameItems[0]!; // a FrameMetaJSON
 * ```
 */
export interface UserMetaSource {
  /** The user metas of the batch, frame or object, in the order they were added. */
  readonly userMetaItems: readonly (UserMeta | UserMetaJSON)[];
}

/**
 * The outcome of reading one user meta with {@link UserMetaDefinition.safeAll}: its value, or the
 * error {@link UserMetaDefinition.all} would have thrown for it.
 *
 * @example
 * ```ts
 * for (const read of PLATE.safeAll(obj)) {
 *   if (read.success) this.plates.push(read.value.text);
 *   else this.log.warn(read.error.message);
 * }
 * ```
 */
export type UserMetaReadResult<Value> =
  | {
      /** The payload satisfied the schema. */
      success: true;
      /** The payload as the schema parsed it (defaults applied). */
      value: Value;
      /** The user meta read. */
      user: UserMeta | UserMetaJSON;
    }
  | {
      /** The payload is not JSON, or does not satisfy the schema. */
      success: false;
      /** What is wrong: an {@link InvalidValueError} or {@link InvalidTypeError} naming the meta type, the path and what was expected. */
      error: InvalidValueError | InvalidTypeError;
      /** The user meta read. */
      user: UserMeta | UserMetaJSON;
    };

type Parsed<Value> = { success: true; value: Value } | { success: false; error: InvalidValueError | InvalidTypeError };

/**
 * A user meta type with a typed, validated JSON payload, made by {@link defineUserMeta}. Its
 * `add` validates the value against the schema and writes it as the JSON user meta of type
 * {@link UserMetaDefinition.metaType} (what `UserMeta.setJson` writes); `get`/`all` read the
 * metas of that type back and validate them again, since another element (or another version
 * of this one) may have written that type with other content.
 *
 * `Input` is what `add` accepts (the schema's input), `Value` what reading gives (its output,
 * defaults applied).
 *
 * @example
 * ```ts
 * export const PLATE = defineUserMeta("ACME.ANPR.PLATE", z.object({ text: z.string(), confidence: z.number().min(0).max(1) }));
 * PLATE.add(obj, { text: "KA01AB1234", confidence: 0.93 });
 * const plate = PLATE.get(obj); // { text: string; confidence: number } | undefined
 * ```
 */
export class UserMetaDefinition<Input, Value> {
  /**
   * The type string, `ORG.COMPONENT.DESCRIPTION`: `UserMeta.metaType`, and on DeepStream
   * the string C consumers pass to `nvds_get_user_meta_type`.
   *
   * @example
   * ```ts
   * const mine = frame.userMetaItems.filter((user) => user.metaType === PLATE.metaType);
   * ```
   */
  readonly metaType: string;

  /**
   * The zod schema of the payload.
   *
   * @example
   * ```ts
   * type Plate = z.output<typeof PLATE.schema>;
   * ```
   */
  readonly schema: z.ZodType<Value, Input>;

  /** @internal Made by {@link defineUserMeta}. */
  constructor(metaType: string, schema: z.ZodType<Value, Input>) {
    this.metaType = metaType;
    this.schema = schema;
  }

  /**
   * Validates `value` against the schema and attaches it to `owner` (the batch, a frame or an
   * object) as a new user meta of this type, its payload the JSON text of the parsed value
   * (defaults applied, unknown keys of `z.object` dropped). Returns the user meta added.
   * Throws an {@link InvalidValueError} (an {@link InvalidTypeError} when every problem is a
   * wrong type) naming the meta type, the path in the value and what was expected; nothing is
   * added then.
   *
   * @example
   * ```ts
   * PLATE.add(obj, { text: "KA01AB1234", confidence: 0.93 });
   * PLATE.add(obj, { text: 7, confidence: 0.93 });
   * // InvalidTypeError: Expected a string for text of user meta ACME.ANPR.PLATE but received 7
   * ```
   */
  add(owner: UserMetaOwner, value: Input): UserMeta {
    const scope = scopeOf(owner, `${this.metaType} add()`);
    const parsed = this.#parse(value, "");
    if (!parsed.success) throw parsed.error;
    const user = owner instanceof BatchMeta ? owner.acquireUserMeta() : new UserMeta(scope!);
    user.setJson(this.metaType, parsed.value);
    owner.addUserMeta(user);
    return user;
  }

  /**
   * The value of the first user meta of this type on `source` (in the order they were added),
   * or undefined when there is none. Throws as {@link UserMetaDefinition.all} does when that
   * meta's payload does not satisfy the schema.
   *
   * @example
   * ```ts
   * for (const obj of frame.objectItems) {
   *   const plate = PLATE.get(obj);
   *   if (plate !== undefined && plate.confidence > 0.8) obj.label = plate.text;
   * }
   * ```
   */
  get(source: UserMetaSource): Value | undefined {
    const user = this.#items(source, "get()")[0];
    return user === undefined ? undefined : this.parse(user);
  }

  /**
   * The values of every user meta of this type on `source`, in the order they were added.
   * Throws an {@link InvalidValueError} or {@link InvalidTypeError} naming the meta type, the path
   * and what was expected when a payload is not JSON or does not satisfy the schema; use
   * {@link UserMetaDefinition.safeAll} to read the valid ones past an invalid one.
   *
   * @example
   * ```ts
   * const texts = PLATE.all(obj).map((plate) => plate.text);
   * ```
   */
  all(source: UserMetaSource): Value[] {
    return this.#items(source, "all()").map((user) => this.parse(user));
  }

  /**
   * Every user meta of this type on `source`, each with its value or the error reading it
   * gave; never throws for a payload.
   *
   * @example
   * ```ts
   * const plates = PLATE.safeAll(obj).flatMap((read) => (read.success ? [read.value] : []));
   * ```
   */
  safeAll(source: UserMetaSource): UserMetaReadResult<Value>[] {
    // Written out, not `{ ...read, user }`: V8 copies a spread followed by more properties slowly
    // on Node 18 and 20 (1.15 µs for such a copy on the 2-core development VM).
    return this.#items(source, "safeAll()").map((user): UserMetaReadResult<Value> => {
      const read = this.#read(user);
      return read.success ? { success: true, value: read.value, user } : { success: false, error: read.error, user };
    });
  }

  /**
   * Whether `user` is of this type (its payload not checked).
   *
   * @example
   * ```ts
   * for (const user of frame.userMetaItems) if (PLATE.is(user)) frame.removeUserMeta(user);
   * ```
   */
  is(user: UserMeta | UserMetaJSON): boolean {
    return user.metaType === this.metaType;
  }

  /**
   * The value of one user meta of this type, validated; throws as {@link UserMetaDefinition.all}
   * does, and for a meta of another type.
   *
   * @example
   * ```ts
   * const user = frame.userMetaItems.find((item) => PLATE.is(item));
   * if (user) this.last = PLATE.parse(user);
   * ```
   */
  parse(user: UserMeta | UserMetaJSON): Value {
    const read = this.#read(user);
    if (!read.success) throw read.error;
    return read.value;
  }

  /**
   * A user meta of this type for the testing harness's input (`userMeta` of a batch, frame or
   * object in `harness.push`), the value validated as {@link UserMetaDefinition.add} does.
   *
   * @example
   * ```ts
   * const out = await harness.push({ frames: [{ objects: [{ userMeta: [PLATE.init({ text: "KA01AB1234", confidence: 0.9 })] }] }] });
   * ```
   */
  init(value: Input): {
    /** {@link UserMetaDefinition.metaType}. */
    type: string;
    /** The value as the schema parsed it (defaults applied). */
    json: Value;
  } {
    const parsed = this.#parse(value, "");
    if (!parsed.success) throw parsed.error;
    return { type: this.metaType, json: parsed.value };
  }

  #items(source: UserMetaSource, member: string): (UserMeta | UserMetaJSON)[] {
    const items = (source as Partial<UserMetaSource> | null | undefined)?.userMetaItems;
    if (!Array.isArray(items)) {
      throw new InvalidTypeError(
        expectedMessage("a BatchMeta, FrameMeta or ObjectMeta (or its toJSON())", `${this.metaType} ${member} source`, describeValue(source)),
      );
    }
    return items.filter((user: UserMeta | UserMetaJSON) => user.metaType === this.metaType);
  }

  #read(user: UserMeta | UserMetaJSON): Parsed<Value> {
    const where = " read from the buffer";
    if (user.metaType !== this.metaType) {
      return failure(new InvalidValueError(expectedMessage(`a user meta of type ${this.metaType}`, `${this.metaType} parse() user`, `one of type ${describeValue(user.metaType)}`)));
    }
    if (user.kind !== "json") {
      const size = user.bytes?.length;
      const received = `a ${user.kind} payload${size === undefined ? "" : ` (${size} bytes)`}`;
      return failure(new InvalidTypeError(expectedMessage("a JSON payload (UserMeta.setJson)", `user meta ${this.metaType}${where}`, received)));
    }
    let json: unknown;
    try {
      json = user.json;
    } catch (error) {
      const received = `text JSON.parse rejects (${(error as Error).message})`;
      return failure(new InvalidValueError(expectedMessage("JSON text", `user meta ${this.metaType}${where}`, received)));
    }
    return this.#parse(json, where);
  }

  #parse(value: unknown, where: string): Parsed<Value> {
    const result = this.schema.safeParse(value);
    if (result.success) return { success: true, value: result.data };
    const issues = result.error.issues;
    const message = issues
      .map((issue) => {
        const inside = subPath(issue.path).replace(/^\./, "");
        const name = `${inside === "" ? "" : `${inside} of `}user meta ${this.metaType}${where}`;
        return expectedMessage(describeRule(issue), name, describeValue(valueAt(value, issue.path)));
      })
      .join("; ");
    const wrongType = issues.every((issue) => issue.code === "invalid_type");
    return failure(wrongType ? new InvalidTypeError(message) : new InvalidValueError(message));
  }
}

function failure(error: InvalidValueError | InvalidTypeError): Parsed<never> {
  return { success: false, error };
}

/** The call of a live owner (undefined for a BatchMeta, which acquires its own), or an error naming it. */
function scopeOf(owner: unknown, member: string) {
  if (owner instanceof BatchMeta) return undefined;
  const located = owner instanceof FrameMeta ? frameInternals.locate(owner) : undefined;
  const scope = located?.scope ?? (owner instanceof ObjectMeta ? objectCoreOf(owner)?.scope : undefined);
  if (scope === undefined) {
    throw new InvalidTypeError(expectedMessage("a BatchMeta, FrameMeta or ObjectMeta of this transform() call", `${member} owner`, describeValue(owner)));
  }
  if (!scope.alive) throw new StaleHandleError(owner instanceof FrameMeta ? "FrameMeta" : "ObjectMeta", "addUserMeta()", "calling");
  return scope;
}

/**
 * Defines a user meta type whose payload is a JSON value checked by a zod schema: the typed
 * way to attach results of your own (a licence plate, line-crossing counts, a zone's state)
 * to the batch, a frame or an object, and to read them back downstream.
 *
 * The payload is stored as JSON text, exactly as {@link UserMeta.setJson} stores it: untyped
 * readers see a `"json"` user meta of type `metaType`, and on DeepStream C code finds it with
 * `nvds_get_user_meta_type(metaType)` and reads `user_meta_data` as a NUL-terminated UTF-8
 * JSON string. The schema must describe JSON values (no transforms, dates, bigints, maps):
 * it is checked here, once.
 *
 * @param metaType the type string, `ORG.COMPONENT.DESCRIPTION`
 * @param schema the zod schema of the payload
 *
 * @example
 * ```ts
 * import { defineUserMeta, z } from "ds-element";
 *
 * export const PLATE = defineUserMeta(
 *   "ACME.ANPR.PLATE",
 *   z.object({ text: z.string().min(1), confidence: z.number().min(0).max(1) }),
 * );
 *
 * // in the element that reads plates:
 * PLATE.add(obj, { text: "KA01AB1234", confidence: 0.93 });
 * // in any element downstream:
 * const plate = PLATE.get(obj); // { text: string; confidence: number } | undefined
 * ```
 */
export function defineUserMeta<Schema extends z.ZodType>(metaType: string, schema: Schema): UserMetaDefinition<z.input<Schema>, z.output<Schema>> {
  const type = checkUserMetaType(metaType, "defineUserMeta metaType");
  if (typeof (schema as Partial<z.ZodType> | null | undefined)?.safeParse !== "function") {
    throw new InvalidTypeError(expectedMessage("a zod schema", `defineUserMeta schema of ${type}`, describeValue(schema)));
  }
  for (const io of ["input", "output"] as const) {
    try {
      z.toJSONSchema(schema, { io });
    } catch (error) {
      throw new InvalidTypeError(
        expectedMessage(
          "a zod schema of JSON values (no transforms, dates, bigints, maps, sets or custom types)",
          `defineUserMeta schema of ${type}`,
          `one that is not (${(error as Error).message})`,
        ),
      );
    }
  }
  return new UserMetaDefinition(type, schema as z.ZodType<z.output<Schema>, z.input<Schema>>);
}
