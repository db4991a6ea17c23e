/**
 * The state checks shared by every add/remove method: a handle must come from the running
 * call, be in the right state, and be removed only from where it is. Messages follow native
 * code's (docs/internals/metadata-design.md §4, "state").
 *
 * @internal
 */
import { InvalidTypeError, MetaStateError, StaleHandleError } from "../../errors/errors.js";
import type { TransformScope } from "./transform-scope.js";

/**
 * Where a handle is in its life, the same for every kind (ObjectMeta, ClassifierMeta,
 * LabelInfo, DisplayMeta, UserMeta): {@link STAGED}, {@link ADDED} or {@link REMOVED}.
 */
export type HandleState = typeof STAGED | typeof ADDED | typeof REMOVED;
/** Acquired (or staged), not added yet: an object's writes travel with addObjectMeta. */
export const STAGED = 0;
/** Added by this call, or read from the buffer: an object's writes are queued for commit. */
export const ADDED = 1;
/** Removed: every member throws. */
export const REMOVED = 2;

function article(type: string): string {
  // ObjectMeta is the one handle name read with a vowel sound ("a UserMeta", "a LabelInfo").
  return type === "ObjectMeta" ? "an" : "a";
}

/** Throws unless `handleScope` is the running `scope`. */
export function checkSameCall(handleScope: TransformScope, scope: TransformScope, type: string, operation: string): void {
  if (handleScope === scope) return;
  if (!handleScope.alive) throw new StaleHandleError(type, `${operation}()`, "passing it to");
  throw new MetaStateError(
    `Expected ${article(type)} ${type} of this transform() call for ${operation} but received one from another call`,
  );
}

/** Throws unless the handle was never added (add twice, add after remove). */
export function checkAddable(status: HandleState, type: string, operation: string, removeOperation: string): void {
  if (status === STAGED) return;
  if (status === REMOVED) throw new MetaStateError(`${type} used after ${removeOperation} (passing it to ${operation}())`);
  throw new MetaStateError(`Expected a newly acquired ${type} for ${operation} but received one already added`);
}

/** Throws the error for removing a handle from an owner it is not in. */
export function notIn(status: HandleState, type: string, owner: string, operation: string, removeOperation: string): never {
  if (status === REMOVED) throw new MetaStateError(`${type} used after ${removeOperation} (passing it to ${operation}())`);
  const received = status === STAGED ? "one acquired but never added" : "one that is not in it";
  throw new MetaStateError(`Expected ${article(type)} ${type} of this ${owner} for ${operation} but received ${received}`);
}

/** The error for writing a member of an added, read-only handle. */
export function readOnly(type: string, member: string, addOperation: string): MetaStateError {
  return new MetaStateError(
    `Expected ${article(type)} ${type} not yet added for ${type}.${member} but received one already added ` +
      `(its values are fixed once added: set them before ${addOperation})`,
  );
}

/** Throws unless `value` is an instance of the handle class (a TypeError naming the parameter). */
export function notAHandle(type: string, parameter: string, value: unknown): never {
  throw new InvalidTypeError(`Expected ${article(type)} ${type} for ${parameter} but received ${describe(value)}`);
}

function describe(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (typeof value === "object") return `an instance of ${(value as object).constructor?.name ?? "Object"}`;
  return typeof value;
}

/**
 * Throws unless a staged-then-added handle (ClassifierMeta, LabelInfo, DisplayMeta, UserMeta)
 * may be used: its call is running, it was not removed, and it is not written once added.
 */
export function checkUsable(
  scope: TransformScope,
  status: HandleState,
  type: string,
  member: string,
  action: "reading" | "writing" | "calling",
): void {
  if (!scope.alive) throw new StaleHandleError(type, member, action);
  if (status === REMOVED) throw new MetaStateError(`${type} used after remove${type} (${action} ${member})`);
  if (action === "writing" && status === ADDED) throw readOnly(type, member, `add${type}`);
}

/**
 * What every staged-then-added handle (ClassifierMeta, LabelInfo, DisplayMeta, UserMeta) holds:
 * the call it belongs to, where it is in its life, and the check each of its members makes
 * first ({@link checkUsable}, naming the handle's type).
 */
export class HandleCore {
  /** {@link STAGED} when acquired; add and remove move it on. */
  status: HandleState = STAGED;

  constructor(
    readonly scope: TransformScope,
    readonly type: string,
  ) {}

  /** Throws unless the handle may be used for `action` on `member`. */
  check(member: string, action: "reading" | "writing" | "calling" = "reading"): void {
    checkUsable(this.scope, this.status, this.type, member, action);
  }
}
