/**
 * Live views over one object's members: `obj.rectParams.left = 5`, `obj.rectParams.borderColor.red
 * = 1`, `obj.textParams.font.size = 12` write the object, after the same checks as the
 * object's own setters. Row members (rectParams, the boxes) read and write the call's object
 * table through views made from the table's descriptors (value-fields.ts); text members the
 * object's JS-side text params. Each view is made once per object, on first use.
 *
 * @internal
 */
import type { NativeColor } from "../../native/meta-binding.js";
import { OBJ_RECT_PARAMS } from "../../protocol/transform-state.js";
import { BBOX_COORDS_FIELDS, RECT_PARAMS_FIELDS } from "../../protocol/value-fields.js";
import { OBJECT, type ObjectCore } from "./object-core.js";
import { checkBoolean, checkCString, checkObject, checkUint32, checkUnit } from "./validation.js";
import { defineRowFields, RowStruct } from "./value-fields.js";
import {
  mergeColor,
  plainColor,
  type Box,
  type Color,
  type ColorInit,
  type FontParams,
  type FontParamsInit,
  type RectParams,
  type TextParams,
  type TextParamsInit,
} from "../values.js";

/** A member's name for stale/state messages and its `ObjectMeta.`-qualified name for value messages. */
interface Name {
  readonly member: string;
  readonly qualified: string;
}

function name(member: string): Name {
  return { member, qualified: `${OBJECT}.${member}` };
}

interface ColorNames {
  readonly self: Name;
  readonly red: Name;
  readonly green: Name;
  readonly blue: Name;
  readonly alpha: Name;
}

function colorNames(path: string): ColorNames {
  return { self: name(path), red: name(`${path}.red`), green: name(`${path}.green`), blue: name(`${path}.blue`), alpha: name(`${path}.alpha`) };
}

const TEXT = name("textParams");
const DISPLAY_TEXT = name("textParams.displayText");
const X_OFFSET = name("textParams.xOffset");
const Y_OFFSET = name("textParams.yOffset");
const FONT = name("textParams.font");
const FONT_NAME = name("textParams.font.name");
const FONT_SIZE = name("textParams.font.size");
const FONT_COLOR = colorNames("textParams.font.color");
const SET_BG_COLOR = name("textParams.setBgColor");
const TEXT_BG_COLOR = colorNames("textParams.bgColor");

// ---------------------------------------------------------------- row-backed

/** `obj.rectParams`: a live view over the object's row, one accessor per member of RECT_PARAMS_FIELDS. */
export class ObjectRectParams extends RowStruct {
  constructor(core: ObjectCore) {
    super(core, OBJ_RECT_PARAMS, "rectParams", RECT_PARAMS_FIELDS);
  }

  static {
    defineRowFields(ObjectRectParams, RECT_PARAMS_FIELDS);
  }
}
// The members defineRowFields gives it.
export interface ObjectRectParams extends RectParams {}

/** `obj.detectorBboxInfo`, `obj.trackerBboxInfo`: a live view over a box in the object's row. */
export class ObjectBox extends RowStruct {
  constructor(core: ObjectCore, offset: number, path: string) {
    super(core, offset, path, BBOX_COORDS_FIELDS);
  }

  static {
    defineRowFields(ObjectBox, BBOX_COORDS_FIELDS);
  }
}
// The members defineRowFields gives it.
export interface ObjectBox extends Box {}

// ---------------------------------------------------------------- text (JS-side)

/** A colour inside the object's text params. */
class TextColor implements Color {
  readonly #core: ObjectCore;
  readonly #pick: (core: ObjectCore) => NativeColor;
  readonly #names: ColorNames;

  constructor(core: ObjectCore, pick: (core: ObjectCore) => NativeColor, names: ColorNames) {
    this.#core = core;
    this.#pick = pick;
    this.#names = names;
  }

  #read(member: string): NativeColor {
    this.#core.check(member);
    return this.#pick(this.#core);
  }

  get red(): number {
    return this.#read(this.#names.red.member).red;
  }
  set red(value: number) {
    this.#write(this.#names.red).red = checkUnit(value, this.#names.red.qualified);
    this.#changed();
  }
  get green(): number {
    return this.#read(this.#names.green.member).green;
  }
  set green(value: number) {
    this.#write(this.#names.green).green = checkUnit(value, this.#names.green.qualified);
    this.#changed();
  }
  get blue(): number {
    return this.#read(this.#names.blue.member).blue;
  }
  set blue(value: number) {
    this.#write(this.#names.blue).blue = checkUnit(value, this.#names.blue.qualified);
    this.#changed();
  }
  get alpha(): number {
    return this.#read(this.#names.alpha.member).alpha;
  }
  set alpha(value: number) {
    this.#write(this.#names.alpha).alpha = checkUnit(value, this.#names.alpha.qualified);
    this.#changed();
  }

  #write(names: Name): NativeColor {
    this.#core.check(names.member, "writing");
    return this.#pick(this.#core);
  }

  #changed(): void {
    this.#core.textChanged = true;
    this.#core.touch();
  }

  /** Checks the given components against the current colour; returns the new colour. */
  resolve(init: unknown): Color {
    return mergeColor(this.#read(this.#names.self.member), init, this.#names.self.qualified);
  }

  assign(init: ColorInit): void {
    this.#core.check(this.#names.self.member, "writing");
    Object.assign(this.#pick(this.#core), this.resolve(init));
    this.#changed();
  }

  toJSON(): Color {
    return plainColor(this.#read(this.#names.self.member));
  }
}

/** `obj.textParams.font`. */
class ObjectFontParams implements FontParams {
  readonly #core: ObjectCore;
  readonly #color: TextColor;

  constructor(core: ObjectCore) {
    this.#core = core;
    this.#color = new TextColor(core, (owner) => owner.textStore().font.color, FONT_COLOR);
  }

  get name(): string {
    this.#core.check(FONT_NAME.member);
    return this.#core.textStore().font.name;
  }
  set name(value: string) {
    this.#core.check(FONT_NAME.member, "writing");
    this.#core.textStore().font.name = checkCString(value, FONT_NAME.qualified);
    this.#changed();
  }

  get size(): number {
    this.#core.check(FONT_SIZE.member);
    return this.#core.textStore().font.size;
  }
  set size(value: number) {
    this.#core.check(FONT_SIZE.member, "writing");
    this.#core.textStore().font.size = checkUint32(value, FONT_SIZE.qualified);
    this.#changed();
  }

  get color(): Color {
    this.#core.check(FONT_COLOR.self.member);
    return this.#color;
  }
  set color(value: ColorInit) {
    this.#color.assign(value);
  }

  #changed(): void {
    this.#core.textChanged = true;
    this.#core.touch();
  }

  /** Checks a font init; returns a function that applies it. */
  resolve(init: unknown): () => void {
    const value = checkObject(init, FONT.qualified);
    const fontName = value.name === undefined ? undefined : checkCString(value.name, FONT_NAME.qualified);
    const size = value.size === undefined ? undefined : checkUint32(value.size, FONT_SIZE.qualified);
    const color = value.color === undefined ? undefined : this.#color.resolve(value.color);
    return () => {
      const font = this.#core.textStore().font;
      if (fontName !== undefined) font.name = fontName;
      if (size !== undefined) font.size = size;
      if (color !== undefined) Object.assign(font.color, color);
    };
  }

  assign(init: FontParamsInit): void {
    this.#core.check(FONT.member, "writing");
    this.resolve(init)();
    this.#changed();
  }

  toJSON(): FontParams {
    this.#core.check(FONT.member);
    const font = this.#core.textStore().font;
    return { name: font.name, size: font.size, color: plainColor(font.color) };
  }
}

/** `obj.textParams`. */
export class ObjectTextParams implements TextParams {
  readonly #core: ObjectCore;
  readonly #font: ObjectFontParams;
  readonly #bgColor: TextColor;

  constructor(core: ObjectCore) {
    this.#core = core;
    this.#font = new ObjectFontParams(core);
    this.#bgColor = new TextColor(core, (owner) => owner.textStore().bgColor, TEXT_BG_COLOR);
  }

  get displayText(): string {
    this.#core.check(DISPLAY_TEXT.member);
    return this.#core.textStore().displayText;
  }
  set displayText(value: string) {
    this.#core.check(DISPLAY_TEXT.member, "writing");
    this.#core.textStore().displayText = checkCString(value, DISPLAY_TEXT.qualified);
    this.#changed();
  }

  get xOffset(): number {
    this.#core.check(X_OFFSET.member);
    return this.#core.textStore().xOffset;
  }
  set xOffset(value: number) {
    this.#core.check(X_OFFSET.member, "writing");
    this.#core.textStore().xOffset = checkUint32(value, X_OFFSET.qualified);
    this.#changed();
  }

  get yOffset(): number {
    this.#core.check(Y_OFFSET.member);
    return this.#core.textStore().yOffset;
  }
  set yOffset(value: number) {
    this.#core.check(Y_OFFSET.member, "writing");
    this.#core.textStore().yOffset = checkUint32(value, Y_OFFSET.qualified);
    this.#changed();
  }

  get font(): FontParams {
    this.#core.check(FONT.member);
    return this.#font;
  }
  set font(value: FontParamsInit) {
    this.#font.assign(value);
  }

  get setBgColor(): boolean {
    this.#core.check(SET_BG_COLOR.member);
    return this.#core.textStore().setBgColor;
  }
  set setBgColor(value: boolean) {
    this.#core.check(SET_BG_COLOR.member, "writing");
    this.#core.textStore().setBgColor = checkBoolean(value, SET_BG_COLOR.qualified);
    this.#changed();
  }

  get bgColor(): Color {
    this.#core.check(TEXT_BG_COLOR.self.member);
    return this.#bgColor;
  }
  set bgColor(value: ColorInit) {
    this.#bgColor.assign(value);
  }

  #changed(): void {
    this.#core.textChanged = true;
    this.#core.touch();
  }

  /** `obj.textParams = {...}`: the given members, all checked before any is written. */
  assign(init: TextParamsInit): void {
    const core = this.#core;
    core.check(TEXT.member, "writing");
    const value = checkObject(init, TEXT.qualified);
    const displayText = value.displayText === undefined ? undefined : checkCString(value.displayText, DISPLAY_TEXT.qualified);
    const xOffset = value.xOffset === undefined ? undefined : checkUint32(value.xOffset, X_OFFSET.qualified);
    const yOffset = value.yOffset === undefined ? undefined : checkUint32(value.yOffset, Y_OFFSET.qualified);
    const applyFont = value.font === undefined ? undefined : this.#font.resolve(value.font);
    const setBgColor = value.setBgColor === undefined ? undefined : checkBoolean(value.setBgColor, SET_BG_COLOR.qualified);
    const bgColor = value.bgColor === undefined ? undefined : this.#bgColor.resolve(value.bgColor);
    const text = core.textStore();
    if (displayText !== undefined) text.displayText = displayText;
    if (xOffset !== undefined) text.xOffset = xOffset;
    if (yOffset !== undefined) text.yOffset = yOffset;
    applyFont?.();
    if (setBgColor !== undefined) text.setBgColor = setBgColor;
    if (bgColor !== undefined) Object.assign(text.bgColor, bgColor);
    this.#changed();
  }

  /** A plain copy. */
  toJSON(): TextParams {
    this.#core.check(TEXT.member);
    const text = this.#core.textStore();
    return {
      displayText: text.displayText,
      xOffset: text.xOffset,
      yOffset: text.yOffset,
      font: this.#font.toJSON(),
      setBgColor: text.setBgColor,
      bgColor: plainColor(text.bgColor),
    };
  }
}
