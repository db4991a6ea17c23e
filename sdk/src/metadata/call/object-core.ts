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
import {
  NVINFER_OBJECT,
  OBJ_DETECTOR_BBOX_INFO,
  OBJ_RECT_PARAMS_BORDER_COLOR,
  OBJ_RECT_PARAMS_BORDER_WIDTH,
  OBJ_RECT_PARAMS_HEIGHT,
  OBJ_RECT_PARAMS_LEFT,
  OBJ_RECT_PARAMS_TOP,
  OBJ_RECT_PARAMS_WIDTH,
  OBJ_STRIDE,
} from "../../protocol/transform-state.js";
import type { ClassifierMeta } from "../classifier-meta.js";
import { ADDED, REMOVED, STAGED, type HandleState } from "./handle-checks.js";
import type { TransformScope } from "./transform-scope.js";
import type { UserMeta } from "../user-meta.js";
import { maskFromNative, type MaskParams } from "../values.js";

export const OBJECT = "ObjectMeta";
const NONE: readonly never[] = Object.freeze([]);

/**
 * A fresh object's text params: nvinfer's (attach_metadata_detector, gstnvinfer_meta_utils.cpp
 * ~194-206): font "Serif" 11 white on black, no text yet (its label at addObjectMeta).
 */
export function emptyText(): NativeText {
  return {
    displayText: "",
    xOffset: 0,
    yOffset: 0,
    font: { name: NVINFER_OBJECT.fontName, size: NVINFER_OBJECT.fontSize, color: { ...NVINFER_OBJECT.fontColor } },
    setBgColor: NVINFER_OBJECT.setBgColor === 1,
    bgColor: { ...NVINFER_OBJECT.textBgColor },
  };
}

/** Where nvinfer puts an object's label: above its box's top left corner (`y_offset = top - 10`, clamped at 0 here). */
export function labelOffsets(left: number, top: number): { xOffset: number; yOffset: number } {
  const clamp = (value: number) => (value > 0 ? Math.min(Math.trunc(value), 4294967295) : 0);
  return { xOffset: clamp(left), yOffset: clamp(top - NVINFER_OBJECT.textAbove) };
}

/** nvinfer's text for a label at add: the label unless a text was written, above the box unless offsets were. */
function deriveLabelText(text: NativeText, label: string, left: number, top: number): void {
  if (text.displayText === "" && label !== "") text.displayText = label;
  if (text.displayText !== "" && text.xOffset === 0 && text.yOffset === 0) Object.assign(text, labelOffsets(left, top));
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
  /**
   * Added with its text untouched: the text is nvinfer's for `label`, above (`left`, `top`), as
   * deriveOnAdd found them. Native code composes it (addObject's text `true`: no text object to
   * read, ~1.5 µs an object); JS makes it only when read (textStore).
   */
  derivedText: { label: string; left: number; top: number } | undefined;
  /** The derived text is still to be sent (addObject's text `true`). */
  derivedTextPending = false;

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

  /**
   * A fresh object's row gets nvinfer's border (3 px red; attach_metadata_detector
   * gstnvinfer_meta_utils.cpp:179-189): what `acquireObjectMeta()` hands out.
   */
  applyNvinferRow(): void {
    const table = this.scope.table;
    table[this.base + OBJ_RECT_PARAMS_BORDER_WIDTH] = NVINFER_OBJECT.borderWidth;
    const { red, green, blue, alpha } = NVINFER_OBJECT.borderColor;
    table.set([red, green, blue, alpha], this.base + OBJ_RECT_PARAMS_BORDER_COLOR);
  }

  /**
   * What nvinfer derives from a detection when it adds it (gstnvinfer_meta_utils.cpp:171-197),
   * for a fresh object at addObjectMeta: `detector_bbox_info` is the box unless written, the
   * text is the label unless one was written, placed above the box unless offsets were written.
   */
  deriveOnAdd(): void {
    const table = this.scope.table;
    const base = this.base;
    const left = table[base + OBJ_RECT_PARAMS_LEFT] as number;
    const top = table[base + OBJ_RECT_PARAMS_TOP] as number;
    const detector = base + OBJ_DETECTOR_BBOX_INFO;
    if (table[detector] === 0 && table[detector + 1] === 0 && table[detector + 2] === 0 && table[detector + 3] === 0) {
      table[detector] = left;
      table[detector + 1] = top;
      table[detector + 2] = table[base + OBJ_RECT_PARAMS_WIDTH] as number;
      table[detector + 3] = table[base + OBJ_RECT_PARAMS_HEIGHT] as number;
    }
    // The text is sent in any case: the pool's text params are zeros, a fresh object's are
    // nvinfer's font.
    if (this.text === undefined) {
      // Never read nor written: native code derives the same text from the label and the box.
      this.derivedText = { label: this.label ?? "", left, top };
      this.derivedTextPending = true;
      return;
    }
    this.textChanged = true;
    deriveLabelText(this.text, this.label ?? "", left, top);
  }

  /**
   * nvinfer's classifier appends its result labels to the object's text
   * (attach_metadata_classifier, gstnvinfer_meta_utils.cpp:326-350): `display_text + " " +`
   * each label followed by a space; an object without text first gets nvinfer's text params.
   */
  appendClassifierText(labels: readonly string[]): void {
    const text = this.textStore();
    if (text.displayText === "") {
      const table = this.scope.table;
      Object.assign(text, emptyText(), labelOffsets(table[this.base + OBJ_RECT_PARAMS_LEFT] as number, table[this.base + OBJ_RECT_PARAMS_TOP] as number));
    }
    text.displayText = `${text.displayText} ${labels.map((label) => `${label} `).join("")}`;
    this.textChanged = true;
    this.touch();
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
      this.text ??= this.freshText();
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
      if (this.fresh) this.text = this.freshText();
      else this.loadExtras();
    }
    return this.text as NativeText;
  }

  /** A fresh object's text: nvinfer's font, and what deriveOnAdd derived once it was added. */
  private freshText(): NativeText {
    const text = emptyText();
    const derived = this.derivedText;
    if (derived !== undefined) deriveLabelText(text, derived.label, derived.left, derived.top);
    return text;
  }

  /** What addObject / writeObject send: the changed extras, null for those unchanged. */
  changedLabel(): string | null {
    return this.labelChanged ? (this.label as string) : null;
  }

  /** `true`: nvinfer's text for the object's label and box, which native code composes (deriveOnAdd). */
  changedText(): NativeText | true | null {
    if (this.textChanged) return this.text as NativeText;
    return this.derivedTextPending ? true : null;
  }

  changedMask(): { data: Float32Array; threshold: number; width: number; height: number } | null {
    if (!this.maskChanged) return null;
    // No mask: an empty one (width x height = 0 x 0) clears what the object had.
    return this.mask ?? { data: new Float32Array(0), threshold: 0, width: 0, height: 0 };
  }

  /** Everything pending was sent. */
  sent(): void {
    this.dirty = false;
    this.labelChanged = this.textChanged = this.maskChanged = this.derivedTextPending = false;
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
