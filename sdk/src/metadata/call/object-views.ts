/**
 * Live views over one object's members: `obj.rectParams.left = 5`, `obj.rectParams.borderColor.red
 * = 1`, `obj.textParams.font.size = 12` write the object, after the same checks as the
 * object's own setters. Row members read and write the call's object table; text members the
 * object's JS-side text params. Each view is made once per object, on first use. Member names
 * for messages are built once per module, never per access.
 *
 * @internal
 */
import type { NativeColor } from "../../native/meta-binding.js";
import {
  OBJ_RECT_PARAMS_BG_COLOR,
  OBJ_RECT_PARAMS_BORDER_COLOR,
  OBJ_RECT_PARAMS_BORDER_WIDTH,
  OBJ_RECT_PARAMS_COLOR_ID,
  OBJ_RECT_PARAMS_HAS_BG_COLOR,
  OBJ_RECT_PARAMS_HAS_COLOR_INFO,
  OBJ_RECT_PARAMS,
  OBJ_RECT_PARAMS_ROTATION_ANGLE,
} from "../../protocol/transform-state.js";
import { OBJECT, type ObjectCore } from "./object-core.js";
import {
  checkBoolean,
  checkCString,
  checkFloat,
  checkFloatSize,
  checkInt32,
  checkObject,
  checkUint32,
  checkUnit,
} from "./validation.js";
import {
  mergeColor,
  plainColor,
  type Box,
  type Color,
  type ColorInit,
  type FontParams,
  type FontParamsInit,
  type RectParams,
  type RectParamsInit,
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

interface BoxNames {
  readonly self: Name;
  readonly left: Name;
  readonly top: Name;
  readonly width: Name;
  readonly height: Name;
}

/** @internal */
export function boxNames(path: string): BoxNames {
  return { self: name(path), left: name(`${path}.left`), top: name(`${path}.top`), width: name(`${path}.width`), height: name(`${path}.height`) };
}

const RECT = boxNames("rectParams");
const BORDER_WIDTH = name("rectParams.borderWidth");
const BORDER_COLOR = colorNames("rectParams.borderColor");
const HAS_BG_COLOR = name("rectParams.hasBgColor");
const BG_COLOR = colorNames("rectParams.bgColor");
const COLOR_ID = name("rectParams.colorId");
const HAS_COLOR_INFO = name("rectParams.hasColorInfo");
const ROTATION_ANGLE = name("rectParams.rotationAngle");
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

/** A colour in four consecutive doubles of the row. */
class TableColor implements Color {
  readonly #core: ObjectCore;
  readonly #offset: number;
  readonly #names: ColorNames;

  constructor(core: ObjectCore, offset: number, names: ColorNames) {
    this.#core = core;
    this.#offset = offset;
    this.#names = names;
  }

  get red(): number {
    return this.#core.read(this.#offset, this.#names.red.member);
  }
  set red(value: number) {
    this.#set(0, value, this.#names.red);
  }
  get green(): number {
    return this.#core.read(this.#offset + 1, this.#names.green.member);
  }
  set green(value: number) {
    this.#set(1, value, this.#names.green);
  }
  get blue(): number {
    return this.#core.read(this.#offset + 2, this.#names.blue.member);
  }
  set blue(value: number) {
    this.#set(2, value, this.#names.blue);
  }
  get alpha(): number {
    return this.#core.read(this.#offset + 3, this.#names.alpha.member);
  }
  set alpha(value: number) {
    this.#set(3, value, this.#names.alpha);
  }

  #set(component: number, value: number, names: Name): void {
    const core = this.#core;
    core.check(names.member, "writing");
    core.scope.table[core.base + this.#offset + component] = checkUnit(value, names.qualified);
    core.touch();
  }

  /** Assigns the given components (all checked first). */
  assign(init: ColorInit): void {
    const core = this.#core;
    core.check(this.#names.self.member, "writing");
    const color = mergeColor(this.toJSON(), init, this.#names.self.qualified);
    const table = core.scope.table;
    const at = core.base + this.#offset;
    table[at] = color.red;
    table[at + 1] = color.green;
    table[at + 2] = color.blue;
    table[at + 3] = color.alpha;
    core.touch();
  }

  toJSON(): Color {
    const table = this.#core.scope.table;
    const at = this.#core.base + this.#offset;
    this.#core.check(this.#names.self.member);
    return { red: table[at] as number, green: table[at + 1] as number, blue: table[at + 2] as number, alpha: table[at + 3] as number };
  }
}

/** A box in four consecutive doubles of the row (rect_params, detector/tracker bbox). */
export class TableBox implements Box {
  readonly #core: ObjectCore;
  readonly #offset: number;
  readonly #names: BoxNames;

  constructor(core: ObjectCore, offset: number, names: BoxNames) {
    this.#core = core;
    this.#offset = offset;
    this.#names = names;
  }

  get left(): number {
    return this.#core.read(this.#offset, this.#names.left.member);
  }
  set left(value: number) {
    this.#set(0, checkFloat, value, this.#names.left);
  }
  get top(): number {
    return this.#core.read(this.#offset + 1, this.#names.top.member);
  }
  set top(value: number) {
    this.#set(1, checkFloat, value, this.#names.top);
  }
  get width(): number {
    return this.#core.read(this.#offset + 2, this.#names.width.member);
  }
  set width(value: number) {
    this.#set(2, checkFloatSize, value, this.#names.width);
  }
  get height(): number {
    return this.#core.read(this.#offset + 3, this.#names.height.member);
  }
  set height(value: number) {
    this.#set(3, checkFloatSize, value, this.#names.height);
  }

  #set(index: number, check: (value: unknown, name: string) => number, value: number, names: Name): void {
    const core = this.#core;
    core.check(names.member, "writing");
    core.scope.table[core.base + this.#offset + index] = check(value, names.qualified);
    core.touch();
  }

  /** Checks the given members of `init` (all before writing any) and returns them by index (NaN = keep). */
  resolve(init: unknown): [number, number, number, number] {
    const value = checkObject(init, this.#names.self.qualified);
    return [
      value.left === undefined ? NaN : checkFloat(value.left, this.#names.left.qualified),
      value.top === undefined ? NaN : checkFloat(value.top, this.#names.top.qualified),
      value.width === undefined ? NaN : checkFloatSize(value.width, this.#names.width.qualified),
      value.height === undefined ? NaN : checkFloatSize(value.height, this.#names.height.qualified),
    ];
  }

  /** Writes what `resolve` returned. */
  write(resolved: readonly [number, number, number, number]): void {
    const table = this.#core.scope.table;
    const at = this.#core.base + this.#offset;
    for (let i = 0; i < 4; i++) {
      const value = resolved[i] as number;
      if (!Number.isNaN(value)) table[at + i] = value;
    }
    this.#core.touch();
  }

  /** Assigns the given members (all checked first). */
  assign(init: unknown): void {
    this.#core.check(this.#names.self.member, "writing");
    this.write(this.resolve(init));
  }

  toJSON(): Box {
    this.#core.check(this.#names.self.member);
    const table = this.#core.scope.table;
    const at = this.#core.base + this.#offset;
    return { left: table[at] as number, top: table[at + 1] as number, width: table[at + 2] as number, height: table[at + 3] as number };
  }
}

/** `obj.rectParams`. */
export class ObjectRectParams implements RectParams {
  readonly #core: ObjectCore;
  readonly #box: TableBox;
  #borderColor: TableColor | undefined;
  #bgColor: TableColor | undefined;

  constructor(core: ObjectCore) {
    this.#core = core;
    this.#box = new TableBox(core, OBJ_RECT_PARAMS, RECT);
  }

  get left(): number {
    return this.#box.left;
  }
  set left(value: number) {
    this.#box.left = value;
  }
  get top(): number {
    return this.#box.top;
  }
  set top(value: number) {
    this.#box.top = value;
  }
  get width(): number {
    return this.#box.width;
  }
  set width(value: number) {
    this.#box.width = value;
  }
  get height(): number {
    return this.#box.height;
  }
  set height(value: number) {
    this.#box.height = value;
  }

  get borderWidth(): number {
    return this.#core.read(OBJ_RECT_PARAMS_BORDER_WIDTH, BORDER_WIDTH.member);
  }
  set borderWidth(value: number) {
    this.#set(OBJ_RECT_PARAMS_BORDER_WIDTH, checkUint32(this.#writable(BORDER_WIDTH, value), BORDER_WIDTH.qualified));
  }

  get borderColor(): Color {
    this.#core.check(BORDER_COLOR.self.member);
    return this.#borderColorView();
  }
  set borderColor(value: ColorInit) {
    this.#borderColorView().assign(value);
  }

  #borderColorView(): TableColor {
    return (this.#borderColor ??= new TableColor(this.#core, OBJ_RECT_PARAMS_BORDER_COLOR, BORDER_COLOR));
  }

  get hasBgColor(): boolean {
    return this.#core.read(OBJ_RECT_PARAMS_HAS_BG_COLOR, HAS_BG_COLOR.member) !== 0;
  }
  set hasBgColor(value: boolean) {
    this.#set(OBJ_RECT_PARAMS_HAS_BG_COLOR, checkBoolean(this.#writable(HAS_BG_COLOR, value), HAS_BG_COLOR.qualified) ? 1 : 0);
  }

  get bgColor(): Color {
    this.#core.check(BG_COLOR.self.member);
    return this.#bgColorView();
  }
  set bgColor(value: ColorInit) {
    this.#bgColorView().assign(value);
  }

  #bgColorView(): TableColor {
    return (this.#bgColor ??= new TableColor(this.#core, OBJ_RECT_PARAMS_BG_COLOR, BG_COLOR));
  }

  get colorId(): number {
    return this.#core.read(OBJ_RECT_PARAMS_COLOR_ID, COLOR_ID.member);
  }
  set colorId(value: number) {
    this.#set(OBJ_RECT_PARAMS_COLOR_ID, checkInt32(this.#writable(COLOR_ID, value), COLOR_ID.qualified));
  }

  get hasColorInfo(): boolean {
    return this.#core.read(OBJ_RECT_PARAMS_HAS_COLOR_INFO, HAS_COLOR_INFO.member) !== 0;
  }
  set hasColorInfo(value: boolean) {
    this.#set(OBJ_RECT_PARAMS_HAS_COLOR_INFO, checkBoolean(this.#writable(HAS_COLOR_INFO, value), HAS_COLOR_INFO.qualified) ? 1 : 0);
  }

  get rotationAngle(): number {
    return this.#core.read(OBJ_RECT_PARAMS_ROTATION_ANGLE, ROTATION_ANGLE.member);
  }
  set rotationAngle(value: number) {
    this.#set(OBJ_RECT_PARAMS_ROTATION_ANGLE, checkFloat(this.#writable(ROTATION_ANGLE, value), ROTATION_ANGLE.qualified));
  }

  /** Checks the object may be written before the value is (so a stale handle reports staleness). */
  #writable<T>(names: Name, value: T): T {
    this.#core.check(names.member, "writing");
    return value;
  }

  #set(offset: number, value: number): void {
    const core = this.#core;
    core.scope.table[core.base + offset] = value;
    core.touch();
  }

  /** `obj.rectParams = {...}`: the given members, all checked before any is written. */
  assign(init: RectParamsInit): void {
    const core = this.#core;
    core.check(RECT.self.member, "writing");
    const value = checkObject(init, RECT.self.qualified);
    const box = this.#box.resolve(value);
    const borderWidth = value.borderWidth === undefined ? undefined : checkUint32(value.borderWidth, BORDER_WIDTH.qualified);
    const borderColor =
      value.borderColor === undefined ? undefined : mergeColor(this.borderColor, value.borderColor, BORDER_COLOR.self.qualified);
    const hasBgColor = value.hasBgColor === undefined ? undefined : checkBoolean(value.hasBgColor, HAS_BG_COLOR.qualified);
    const bgColor = value.bgColor === undefined ? undefined : mergeColor(this.bgColor, value.bgColor, BG_COLOR.self.qualified);
    const colorId = value.colorId === undefined ? undefined : checkInt32(value.colorId, COLOR_ID.qualified);
    const hasColorInfo = value.hasColorInfo === undefined ? undefined : checkBoolean(value.hasColorInfo, HAS_COLOR_INFO.qualified);
    const rotationAngle = value.rotationAngle === undefined ? undefined : checkFloat(value.rotationAngle, ROTATION_ANGLE.qualified);
    this.#box.write(box);
    if (borderWidth !== undefined) this.#set(OBJ_RECT_PARAMS_BORDER_WIDTH, borderWidth);
    if (borderColor !== undefined) this.#setColor(OBJ_RECT_PARAMS_BORDER_COLOR, borderColor);
    if (hasBgColor !== undefined) this.#set(OBJ_RECT_PARAMS_HAS_BG_COLOR, hasBgColor ? 1 : 0);
    if (bgColor !== undefined) this.#setColor(OBJ_RECT_PARAMS_BG_COLOR, bgColor);
    if (colorId !== undefined) this.#set(OBJ_RECT_PARAMS_COLOR_ID, colorId);
    if (hasColorInfo !== undefined) this.#set(OBJ_RECT_PARAMS_HAS_COLOR_INFO, hasColorInfo ? 1 : 0);
    if (rotationAngle !== undefined) this.#set(OBJ_RECT_PARAMS_ROTATION_ANGLE, rotationAngle);
  }

  #setColor(offset: number, color: Color): void {
    const table = this.#core.scope.table;
    const at = this.#core.base + offset;
    table[at] = color.red;
    table[at + 1] = color.green;
    table[at + 2] = color.blue;
    table[at + 3] = color.alpha;
    this.#core.touch();
  }

  /** A plain copy. */
  toJSON(): RectParams {
    const box = this.#box.toJSON();
    return {
      ...box,
      borderWidth: this.borderWidth,
      borderColor: this.#borderColorView().toJSON(),
      hasBgColor: this.hasBgColor,
      bgColor: this.#bgColorView().toJSON(),
      colorId: this.colorId,
      hasColorInfo: this.hasColorInfo,
      rotationAngle: this.rotationAngle,
    };
  }
}

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
