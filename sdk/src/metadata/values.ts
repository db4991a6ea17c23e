/**
 * The value types metadata is made of (DeepStream's NvOSD_* structs, camelCased) and the
 * functions that turn what a user passes into checked, frozen values. The `*Init` types are
 * what setters and `add*` methods accept: every member optional.
 */
import type { NativeArrow, NativeCircle, NativeColor, NativeLine, NativeMask, NativeRect, NativeText } from "../native/meta-binding.js";
import { NVINFER_OBJECT } from "../protocol/transform-state.js";
import { ARROW_PARAMS_FIELDS, CIRCLE_PARAMS_FIELDS, LINE_PARAMS_FIELDS, RECT_PARAMS_FIELDS } from "../protocol/value-fields.js";
import { makeValue, valueFromNative } from "./call/value-fields.js";
import {
  ARROW_HEADS,
  checkBoolean,
  checkCString,
  checkFloat,
  checkFloatSize,
  checkInt32,
  checkObject,
  checkUint32,
  checkUnit,
  invalid,
  invalidReceived,
} from "./call/validation.js";

/**
 * A colour (`NvOSD_ColorParams`), each component from 0 to 1. On an object's `rectParams` and
 * `textParams` it is a live view: `obj.rectParams.borderColor.red = 1` writes the object.
 *
 * @example
 * ```ts
 * const red: Color = { red: 1, green: 0, blue: 0, alpha: 1 };
 * obj.rectParams.borderColor = red;
 * ```
 */
export interface Color {
  /** Red, 0..1. */
  red: number;
  /** Green, 0..1. */
  green: number;
  /** Blue, 0..1. */
  blue: number;
  /** Opacity, 0 (transparent) .. 1 (opaque). */
  alpha: number;
}

/**
 * A colour being written. Assigned to a live view it changes only the given components; in a
 * new display element (`addRect`, ...) a missing red/green/blue is 0 and a missing alpha is 1.
 *
 * @example
 * ```ts
 * display.addLine({ x1: 0, y1: 0, x2: 100, y2: 100, lineWidth: 2, lineColor: { green: 1 } }); // opaque green
 * ```
 */
export type ColorInit = Partial<Color>;

/**
 * An axis-aligned box in pixels of the frame (`NvBbox_Coords`, and the first four members of
 * `NvOSD_RectParams`). `left`/`top` may be negative (boxes may start off-frame); sizes are >= 0.
 *
 * @example
 * ```ts
 * const { left, top, width, height }: Box = obj.detectorBboxInfo;
 * ```
 */
export interface Box {
  /** Left edge, px. */
  left: number;
  /** Top edge, px. */
  top: number;
  /** Width, px (>= 0). */
  width: number;
  /** Height, px (>= 0). */
  height: number;
}

/**
 * A box being written: only the given members change.
 *
 * @example
 * ```ts
 * obj.trackerBboxInfo = { left: 10, top: 20 };
 * ```
 */
export type BoxInit = Partial<Box>;

/**
 * A rectangle as nvdsosd draws it (`NvOSD_RectParams`): an object's `rect_params` and the
 * `rect_params[]` of a display meta. `obj.rectParams` is a live view over the object
 * (`obj.rectParams.width = 50` writes it); a display meta's `rects` are frozen
 * (`Readonly<RectParams>`).
 *
 * @example
 * ```ts
 * obj.rectParams.borderWidth = 3;
 * obj.rectParams.borderColor = { red: 1, green: 0, blue: 0, alpha: 1 };
 * const areas = display.rects.map((rect: Readonly<RectParams>) => rect.width * rect.height);
 * ```
 */
export interface RectParams extends Box {
  // generated: rect-params (npm run generate)
  /** Border width, px (`border_width`). */
  borderWidth: number;
  /** Border colour (`border_color`); assign a {@link ColorInit} to change some components. */
  get borderColor(): Color;
  /** Assigns the given components (or members); the others keep their values. */
  set borderColor(value: ColorInit);
  /** Whether the box is filled with `bgColor` (`has_bg_color`). */
  hasBgColor: boolean;
  /** Fill colour (`bg_color`), used when `hasBgColor`. */
  get bgColor(): Color;
  /** Assigns the given components (or members); the others keep their values. */
  set bgColor(value: ColorInit);
  /** Whether `colorId` is set (`has_color_info`). */
  hasColorInfo: boolean;
  /** Colour palette index (`color_id`), used when `hasColorInfo`. */
  colorId: number;
  /** Rotation of the box in degrees (`rotation_angle`, oriented boxes). */
  rotationAngle: number;
  // end generated: rect-params
}

/**
 * Rectangle members being written: with `obj.rectParams = {...}` only the given ones change;
 * in `display.addRect({...})` a missing one is 0 or false, with an opaque black border and a
 * transparent fill.
 *
 * @example
 * ```ts
 * obj.rectParams = { left: 10, top: 20, width: 100, height: 50, borderWidth: 2, borderColor: { red: 1 } };
 * display.addRect({ left: 0, top: 0, width: 320, height: 40, hasBgColor: true, bgColor: { alpha: 0.5 } });
 * ```
 */
export interface RectParamsInit extends BoxInit {
  // generated: rect-params-init (npm run generate)
  /** See {@link RectParams.borderWidth}. */
  borderWidth?: number;
  /** See {@link RectParams.borderColor}. */
  borderColor?: ColorInit;
  /** See {@link RectParams.hasBgColor}. */
  hasBgColor?: boolean;
  /** See {@link RectParams.bgColor}. */
  bgColor?: ColorInit;
  /** See {@link RectParams.hasColorInfo}. */
  hasColorInfo?: boolean;
  /** See {@link RectParams.colorId}. */
  colorId?: number;
  /** See {@link RectParams.rotationAngle}. */
  rotationAngle?: number;
  // end generated: rect-params-init
}

/**
 * A font (`NvOSD_FontParams`). On `obj.textParams.font` a live view; on a display meta's
 * texts frozen.
 *
 * @example
 * ```ts
 * obj.textParams.font.size = 14;
 * const sizes = display.texts.map((text) => text.font.size);
 * ```
 */
export interface FontParams {
  /** Font family as Pango knows it (`font_name`), e.g. "Serif". */
  name: string;
  /** Size in points (`font_size`). */
  size: number;
  /** Text colour (`font_color`). */
  get color(): Color;
  /** Assigns the given components (or members); the others keep their values. */
  set color(value: ColorInit);
}

/**
 * Font members being written.
 *
 * @example
 * ```ts
 * obj.textParams.font = { name: "Sans", size: 12, color: { red: 1, green: 1, blue: 1 } };
 * ```
 */
export interface FontParamsInit {
  /** See {@link FontParams.name}. */
  name?: string;
  /** See {@link FontParams.size}. */
  size?: number;
  /** See {@link FontParams.color}. */
  color?: ColorInit;
}

/**
 * A text label as nvdsosd draws it (`NvOSD_TextParams`): an object's `text_params` and the
 * `text_params[]` of a display meta. `obj.textParams` is a live view; a display meta's `texts`
 * are frozen (`Readonly<TextParams>`).
 *
 * @example
 * ```ts
 * obj.textParams.displayText = `${obj.label} ${(obj.confidence * 100).toFixed(0)}%`;
 * obj.textParams.xOffset = Math.max(0, Math.round(obj.rectParams.left));
 * const captions = display.texts.map((text: Readonly<TextParams>) => text.displayText);
 * ```
 */
export interface TextParams {
  /** The text (`display_text`); no NUL characters. */
  displayText: string;
  /** Horizontal position, px (`x_offset`, uint32). */
  xOffset: number;
  /** Vertical position, px (`y_offset`, uint32). */
  yOffset: number;
  /** The font (`font_params`). */
  get font(): FontParams;
  /** Assigns the given components (or members); the others keep their values. */
  set font(value: FontParamsInit);
  /** Whether the text gets a background box (`set_bg_clr`). */
  setBgColor: boolean;
  /** Background colour (`text_bg_clr`), used when `setBgColor`. */
  get bgColor(): Color;
  /** Assigns the given components (or members); the others keep their values. */
  set bgColor(value: ColorInit);
}

/**
 * Text members being written: with `obj.textParams = {...}` only the given ones change; in
 * `display.addText({...})` a missing one defaults to offsets 0, font "Serif" 10 pt opaque
 * white, no background.
 *
 * @example
 * ```ts
 * obj.textParams = { displayText: "car", font: { size: 12 }, setBgColor: true, bgColor: { alpha: 0.5 } };
 * display.addText({ displayText: "people: 3", xOffset: 10, yOffset: 10 });
 * ```
 */
export interface TextParamsInit {
  /** See {@link TextParams.displayText}. */
  displayText?: string;
  /** See {@link TextParams.xOffset}. */
  xOffset?: number;
  /** See {@link TextParams.yOffset}. */
  yOffset?: number;
  /** See {@link TextParams.font}. */
  font?: FontParamsInit;
  /** See {@link TextParams.setBgColor}. */
  setBgColor?: boolean;
  /** See {@link TextParams.bgColor}. */
  bgColor?: ColorInit;
}

/**
 * An instance-segmentation mask (`NvOSD_MaskParams`): `width * height` probabilities, row by
 * row, over the object's rectangle. Assigned as a whole (`obj.maskParams = {...}`); the data
 * is copied when assigned.
 *
 * @example
 * ```ts
 * obj.maskParams = { data: new Float32Array(28 * 28), threshold: 0.5, width: 28, height: 28 };
 * ```
 */
export interface MaskParams {
  /** `width * height` values (`data`). */
  readonly data: Float32Array;
  /** Values above it are inside the mask (`threshold`). */
  readonly threshold: number;
  /** Columns (`width`). */
  readonly width: number;
  /** Rows (`height`). */
  readonly height: number;
}

/**
 * A line of a display meta (`NvOSD_LineParams`): a frozen value; coordinates are uint32 px.
 *
 * @example
 * ```ts
 * const long = display.lines.filter((line) => Math.hypot(line.x2 - line.x1, line.y2 - line.y1) > 100);
 * ```
 */
export interface LineParams {
  /** Start x, px. */
  readonly x1: number;
  /** Start y, px. */
  readonly y1: number;
  /** End x, px. */
  readonly x2: number;
  /** End y, px. */
  readonly y2: number;
  /** Width, px (`line_width`). */
  readonly lineWidth: number;
  /** Colour (`line_color`). */
  readonly lineColor: Readonly<Color>;
}

/**
 * Which end of an arrow has a head (`NvOSD_Arrow_Head_Direction`: START_HEAD, END_HEAD, BOTH_HEAD).
 *
 * @example
 * ```ts
 * const head: ArrowHead = "both";
 * ```
 */
export type ArrowHead = "start" | "end" | "both";

/**
 * An arrow of a display meta (`NvOSD_ArrowParams`): a frozen value.
 *
 * @example
 * ```ts
 * const pointingRight = display.arrows.filter((arrow) => arrow.x2 > arrow.x1);
 * ```
 */
export interface ArrowParams {
  /** Start x, px. */
  readonly x1: number;
  /** Start y, px. */
  readonly y1: number;
  /** End x, px. */
  readonly x2: number;
  /** End y, px. */
  readonly y2: number;
  /** Width, px (`arrow_width`). */
  readonly arrowWidth: number;
  /** Where the head is (`arrow_head`). */
  readonly arrowHead: ArrowHead;
  /** Colour (`arrow_color`). */
  readonly arrowColor: Readonly<Color>;
}

/**
 * A circle of a display meta (`NvOSD_CircleParams`): a frozen value.
 *
 * @example
 * ```ts
 * const radii = display.circles.map((circle) => circle.radius);
 * ```
 */
export interface CircleParams {
  /** Centre x, px. */
  readonly xc: number;
  /** Centre y, px. */
  readonly yc: number;
  /** Radius, px. */
  readonly radius: number;
  /** Outline colour (`circle_color`). */
  readonly circleColor: Readonly<Color>;
  /** Whether the circle is filled. */
  readonly hasBgColor: boolean;
  /** Fill colour. */
  readonly bgColor: Readonly<Color>;
  /** Outline width, px (`circle_width`). */
  readonly circleWidth: number;
}

/**
 * A display line being added (`display.addLine`). Defaults: 0 and an opaque black colour.
 *
 * @example
 * ```ts
 * display.addLine({ x1: 0, y1: 240, x2: 640, y2: 240, lineWidth: 2, lineColor: { red: 1 } });
 * ```
 */
export interface LineParamsInit {
  /** See {@link LineParams.x1}. */
  x1?: number;
  /** See {@link LineParams.y1}. */
  y1?: number;
  /** See {@link LineParams.x2}. */
  x2?: number;
  /** See {@link LineParams.y2}. */
  y2?: number;
  /** See {@link LineParams.lineWidth}. */
  lineWidth?: number;
  /** See {@link LineParams.lineColor}. */
  lineColor?: ColorInit;
}

/**
 * A display arrow being added (`display.addArrow`). Defaults: 0, head at the end, opaque black.
 *
 * @example
 * ```ts
 * display.addArrow({ x1: 10, y1: 10, x2: 60, y2: 10, arrowWidth: 3, arrowHead: "end" });
 * ```
 */
export interface ArrowParamsInit {
  /** See {@link ArrowParams.x1}. */
  x1?: number;
  /** See {@link ArrowParams.y1}. */
  y1?: number;
  /** See {@link ArrowParams.x2}. */
  x2?: number;
  /** See {@link ArrowParams.y2}. */
  y2?: number;
  /** See {@link ArrowParams.arrowWidth}. */
  arrowWidth?: number;
  /** See {@link ArrowParams.arrowHead}. */
  arrowHead?: ArrowHead;
  /** See {@link ArrowParams.arrowColor}. */
  arrowColor?: ColorInit;
}

/**
 * A display circle being added (`display.addCircle`). Defaults: 0, an opaque black outline, no fill.
 *
 * @example
 * ```ts
 * display.addCircle({ xc: 100, yc: 100, radius: 20, circleWidth: 2, circleColor: { blue: 1 } });
 * ```
 */
export interface CircleParamsInit {
  /** See {@link CircleParams.xc}. */
  xc?: number;
  /** See {@link CircleParams.yc}. */
  yc?: number;
  /** See {@link CircleParams.radius}. */
  radius?: number;
  /** See {@link CircleParams.circleColor}. */
  circleColor?: ColorInit;
  /** See {@link CircleParams.hasBgColor}. */
  hasBgColor?: boolean;
  /** See {@link CircleParams.bgColor}. */
  bgColor?: ColorInit;
  /** See {@link CircleParams.circleWidth}. */
  circleWidth?: number;
}

// ---------------------------------------------------------------- building checked values

const TRANSPARENT: Readonly<Color> = Object.freeze({ red: 0, green: 0, blue: 0, alpha: 0 });
const OPAQUE_WHITE: Readonly<Color> = Object.freeze({ red: 1, green: 1, blue: 1, alpha: 1 });

/** @internal A new colour from an init: missing red/green/blue are 0, a missing alpha is 1; no init gives `fallback`. */
export function makeColor(init: unknown, name: string, fallback: Readonly<Color>): Readonly<Color> {
  if (init === undefined) return fallback;
  const value = checkObject(init, name);
  return Object.freeze({
    red: value.red === undefined ? 0 : checkUnit(value.red, `${name}.red`),
    green: value.green === undefined ? 0 : checkUnit(value.green, `${name}.green`),
    blue: value.blue === undefined ? 0 : checkUnit(value.blue, `${name}.blue`),
    alpha: value.alpha === undefined ? 1 : checkUnit(value.alpha, `${name}.alpha`),
  });
}

/** @internal `current` with the given components of an init (all checked): live-view assignment semantics. */
export function mergeColor(current: Readonly<Color>, init: unknown, name: string): Color {
  const value = checkObject(init, name);
  return {
    red: value.red === undefined ? current.red : checkUnit(value.red, `${name}.red`),
    green: value.green === undefined ? current.green : checkUnit(value.green, `${name}.green`),
    blue: value.blue === undefined ? current.blue : checkUnit(value.blue, `${name}.blue`),
    alpha: value.alpha === undefined ? current.alpha : checkUnit(value.alpha, `${name}.alpha`),
  };
}

function optional<T>(value: unknown, fallback: T, check: (value: unknown, name: string) => T, name: string): T {
  return value === undefined ? fallback : check(value, name);
}

/** @internal A checked, frozen display rectangle (members and defaults: RECT_PARAMS_FIELDS). */
export function makeRect(init: unknown, name: string): Readonly<RectParams> {
  return makeValue(RECT_PARAMS_FIELDS, init, name) as unknown as Readonly<RectParams>;
}

/** @internal A checked, frozen display text. */
export function makeText(init: unknown, name: string): Readonly<TextParams> {
  const value = checkObject(init ?? {}, name);
  const font = checkObject(value.font ?? {}, `${name}.font`);
  return Object.freeze({
    displayText: optional(value.displayText, "", checkCString, `${name}.displayText`),
    xOffset: optional(value.xOffset, 0, checkUint32, `${name}.xOffset`),
    yOffset: optional(value.yOffset, 0, checkUint32, `${name}.yOffset`),
    font: Object.freeze({
      name: optional(font.name, "Serif", checkCString, `${name}.font.name`),
      size: optional(font.size, 10, checkUint32, `${name}.font.size`),
      color: makeColor(font.color, `${name}.font.color`, OPAQUE_WHITE),
    }),
    setBgColor: optional(value.setBgColor, false, checkBoolean, `${name}.setBgColor`),
    bgColor: makeColor(value.bgColor, `${name}.bgColor`, TRANSPARENT),
  });
}

/**
 * The text every object of a bulk add gets (`FrameMeta.addObjects`' `labelText`): nvinfer's
 * font and background unless given; null for `false` (no text).
 *
 * @internal
 */
export function makeLabelText(init: unknown, name: string): NativeText | null {
  if (init === false) return null;
  const value = checkObject(init ?? {}, name);
  const font = checkObject(value.font ?? {}, `${name}.font`);
  return {
    displayText: "",
    xOffset: 0,
    yOffset: 0,
    font: {
      name: optional(font.name, NVINFER_OBJECT.fontName, checkCString, `${name}.font.name`),
      size: optional(font.size, NVINFER_OBJECT.fontSize, checkUint32, `${name}.font.size`),
      color: makeColor(font.color, `${name}.font.color`, NVINFER_OBJECT.fontColor),
    },
    setBgColor: optional(value.setBgColor, NVINFER_OBJECT.setBgColor === 1, checkBoolean, `${name}.setBgColor`),
    bgColor: makeColor(value.bgColor, `${name}.bgColor`, NVINFER_OBJECT.textBgColor),
  };
}

/** @internal A checked, frozen display line. */
export function makeLine(init: unknown, name: string): LineParams {
  return makeValue(LINE_PARAMS_FIELDS, init, name) as unknown as LineParams;
}

/** @internal A checked, frozen display arrow. */
export function makeArrow(init: unknown, name: string): ArrowParams {
  return makeValue(ARROW_PARAMS_FIELDS, init, name) as unknown as ArrowParams;
}

/** @internal A checked, frozen display circle. */
export function makeCircle(init: unknown, name: string): CircleParams {
  return makeValue(CIRCLE_PARAMS_FIELDS, init, name) as unknown as CircleParams;
}

/** @internal A checked mask with its own copy of the data. */
export function makeMask(init: unknown, name: string): MaskParams {
  const value = checkObject(init, name);
  const width = checkUint32(value.width, `${name}.width`);
  const height = checkUint32(value.height, `${name}.height`);
  const threshold = checkFloat(value.threshold, `${name}.threshold`);
  const data = value.data;
  if (!(data instanceof Float32Array)) return invalid("a Float32Array", `${name}.data`, data, true);
  if (data.length !== width * height) {
    return invalidReceived(`${width * height} values (width ${width} x height ${height})`, `${name}.data`, `${data.length} values`);
  }
  return Object.freeze({ data: data.slice(), threshold, width, height });
}

// ---------------------------------------------------------------- native shapes

/** @internal A native colour as a frozen Color. */
export function colorFromNative(color: NativeColor): Readonly<Color> {
  return Object.freeze({ red: color.red, green: color.green, blue: color.blue, alpha: color.alpha });
}

/** @internal */
export function rectFromNative(rect: NativeRect): Readonly<RectParams> {
  return valueFromNative(RECT_PARAMS_FIELDS, rect as unknown as Record<string, unknown>) as unknown as Readonly<RectParams>;
}

/** @internal */
export function textFromNative(text: NativeText): Readonly<TextParams> {
  return Object.freeze({
    displayText: text.displayText,
    xOffset: text.xOffset,
    yOffset: text.yOffset,
    font: Object.freeze({ name: text.font.name, size: text.font.size, color: colorFromNative(text.font.color) }),
    setBgColor: text.setBgColor,
    bgColor: colorFromNative(text.bgColor),
  });
}

/** @internal */
export function lineFromNative(line: NativeLine): LineParams {
  return Object.freeze({ x1: line.x1, y1: line.y1, x2: line.x2, y2: line.y2, lineWidth: line.lineWidth, lineColor: colorFromNative(line.lineColor) });
}

/** @internal */
export function arrowFromNative(arrow: NativeArrow): ArrowParams {
  return Object.freeze({
    x1: arrow.x1,
    y1: arrow.y1,
    x2: arrow.x2,
    y2: arrow.y2,
    arrowWidth: arrow.arrowWidth,
    arrowHead: ARROW_HEADS[arrow.arrowHead] ?? "end",
    arrowColor: colorFromNative(arrow.arrowColor),
  });
}

/** @internal */
export function arrowToNative(arrow: ArrowParams): NativeArrow {
  return { ...arrow, arrowHead: ARROW_HEADS.indexOf(arrow.arrowHead) as 0 | 1 | 2 };
}

/** @internal */
export function circleFromNative(circle: NativeCircle): CircleParams {
  return Object.freeze({
    xc: circle.xc,
    yc: circle.yc,
    radius: circle.radius,
    circleColor: colorFromNative(circle.circleColor),
    hasBgColor: circle.hasBgColor,
    bgColor: colorFromNative(circle.bgColor),
    circleWidth: circle.circleWidth,
  });
}

/** @internal A native mask as a frozen MaskParams (its data is already a copy). */
export function maskFromNative(mask: NativeMask | null): MaskParams | undefined {
  if (mask === null || (mask.width === 0 && mask.height === 0 && mask.data.length === 0)) return undefined;
  return Object.freeze({ data: mask.data, threshold: mask.threshold, width: mask.width, height: mask.height });
}

/** @internal Plain copies (for toJSON). */
export function plainColor(color: Readonly<Color>): Color {
  return { red: color.red, green: color.green, blue: color.blue, alpha: color.alpha };
}
