/**
 * The state behind one ObjectMeta: its row in the call's object table, where it is in its
 * life (acquired, in a frame, removed), the members kept JS-side (label, text, mask) and what
 * changed since they were last sent. ObjectMeta and its live views (rectParams, textParams,
 * ...) are thin shells over it.
 *
 * @internal
 */
import { MetaStateError, StaleHandleError } from "../../errors/errors.js";
import type { NativeText } from "../../native/meta-binding.js";
import { OBJ_STRIDE } from "../../protocol/transform-state.js";
import type { ClassifierMeta } from "../classifier-meta.js";
import { ADDED, REMOVED, STAGED, type HandleState } from "./handle-checks.js";
import type { TransformScope } from "./transform-scope.js";
import type { UserMeta } from "../user-meta.js";
import { maskFromNative, type MaskParams } from "../values.js";

export const OBJECT = "ObjectMeta";
const NONE: readonly never[] = Object.freeze([]);

/** A fresh object's text params: DeepStream's zeroed NvOSD_TextParams. */
export function emptyText(): NativeText {
  return {
    displayText: "",
    xOffset: 0,
    yOffset: 0,
    font: { name: "", size: 0, color: { red: 0, green: 0, blue: 0, alpha: 0 } },
    setBgColor: false,
    bgColor: { red: 0, green: 0, blue: 0, alpha: 0 },
  };
}

export class ObjectCore {
  readonly scope: TransformScope;
  readonly row: number;
  /** First double of the row in the table. */
  readonly base: number;
  status: HandleState;
  /** Index of the frame (in frameItems) the object is in; -1 when not added. */
  frameIndex: number;
  dirty = false;

  // Kept JS-side; undefined = not read from native yet (objects that existed before the call).
  label: string | undefined;
  text: NativeText | undefined;
  mask: MaskParams | undefined;
  maskLoaded: boolean;
  /** Acquired in this call: its extras are DeepStream's zeroed defaults. */
  readonly fresh: boolean;
  labelChanged = false;
  textChanged = false;
  maskChanged = false;

  /** Cached lists, dropped when this call changes them. */
  classifierItems: readonly ClassifierMeta[] | undefined;
  userMetaItems: readonly UserMeta[] | undefined;

  constructor(scope: TransformScope, row: number, status: HandleState, frameIndex: number) {
    this.scope = scope;
    this.row = row;
    this.base = row * OBJ_STRIDE;
    this.status = status;
    this.frameIndex = frameIndex;
    if (status === STAGED) {
      // A pool object starts zeroed: no native call needed to know its extras (the text
      // params are made on first use).
      this.fresh = true;
      this.label = "";
      this.mask = undefined;
      this.maskLoaded = true;
      this.classifierItems = NONE;
      this.userMetaItems = NONE;
    } else {
      this.fresh = false;
      this.maskLoaded = false;
    }
  }

  /** Throws unless the object may be used: its call is running and it was not removed. */
  check(member: string, action: "reading" | "writing" | "calling" = "reading"): void {
    if (!this.scope.alive) throw new StaleHandleError(OBJECT, member, action);
    if (this.status === REMOVED) throw new MetaStateError(`ObjectMeta used after removeObjectMeta (${action} ${member})`);
  }

  /** One double of the row, after the checks. */
  read(offset: number, member: string): number {
    this.check(member);
    return this.scope.table[this.base + offset] as number;
  }

  /** Records that a row member or string changed (sent at commit once the object is in a frame). */
  touch(): void {
    if (this.status === ADDED && !this.dirty) {
      this.dirty = true;
      this.scope.markDirty(this);
    }
  }

  /** Loads label, text and mask from native code unless all are known. */
  loadExtras(): void {
    if (this.fresh) {
      this.text ??= emptyText();
      return;
    }
    if (this.label !== undefined && this.text !== undefined && this.maskLoaded) return;
    const meta = this.scope.meta;
    const extras = meta.readObjectExtras(this.scope.callId, this.row);
    if (this.label === undefined) this.label = extras.label;
    if (this.text === undefined) this.text = extras.text;
    if (!this.maskLoaded) {
      this.mask = maskFromNative(extras.mask);
      this.maskLoaded = true;
    }
  }

  /** The text params, loaded if needed. */
  textStore(): NativeText {
    if (this.text === undefined) {
      if (this.fresh) this.text = emptyText();
      else this.loadExtras();
    }
    return this.text as NativeText;
  }

  /** What addObject / writeObject send: the changed extras, null for those unchanged. */
  changedLabel(): string | null {
    return this.labelChanged ? (this.label as string) : null;
  }

  changedText(): NativeText | null {
    return this.textChanged ? (this.text as NativeText) : null;
  }

  changedMask(): { data: Float32Array; threshold: number; width: number; height: number } | null {
    if (!this.maskChanged) return null;
    // No mask: an empty one (width x height = 0 x 0) clears what the object had.
    return this.mask ?? { data: new Float32Array(0), threshold: 0, width: 0, height: 0 };
  }

  /** Everything pending was sent. */
  sent(): void {
    this.dirty = false;
    this.labelChanged = this.textChanged = this.maskChanged = false;
  }

  /** Sends a dirty object's row and changed extras (TransformScope.commit). */
  flush(): void {
    if (!this.dirty) return;
    if (this.status === ADDED) {
      const meta = this.scope.meta;
      meta.writeObject(this.scope.callId, this.row, this.changedLabel(), this.changedText(), this.changedMask());
    }
    this.sent();
  }
}
