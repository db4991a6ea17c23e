/**
 * The value types metadata is made of (DeepStream's NvOSD_* structs, camelCased) and the
 * functions that turn what a user passes into checked, frozen values. The `*Init` types are
 * what setters and `add*` methods accept: every member optional. The members of each
 * interface, with their docs, are generated from the table (protocol/meta-fields.mjs STRUCTS).
 */
import type { NativeArrow, NativeCircle, NativeLine, NativeMask, NativeRect, NativeText } from "../native/meta-binding.js";
import { NVINFER_OBJECT } from "../protocol/transform-state.js";
import { ARROW_PARAMS_FIELDS, CIRCLE_PARAMS_FIELDS, LINE_PARAMS_FIELDS, RECT_PARAMS_FIELDS, TEXT_PARAMS_FIELDS } from "../protocol/value-fields.js";
import { makeValue, valueFromNative } from "./call/value-fields.js";
import {
  ARROW_HEADS,
  checkBoolean,
  checkCString,
  checkFloat,
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
  // generated: color-params (npm run generate)
  /** Red, 0..1. */
  red: number;
  /** Green, 0..1. */
  green: number;
  /** Blue, 0..1. */
  blue: number;
  /** Opacity, 0 (transparent) .. 1 (opaque). */
  alpha: number;
  // end generated: color-params
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
  // generated: bbox-coords (npm run generate)
  /** Left edge, px. */
  left: number;
  /** Top edge, px. */
  top: number;
  /** Width, px (>= 0). */
  width: number;
  /** Height, px (>= 0). */
  height: number;
  // end generated: bbox-coords
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
  // generated: font-params (npm run generate)
  /** Font family as Pango knows it (`font_name`), e.g. "Serif". */
  name: string;
  /** Size in points (`font_size`). */
  size: number;
  /** Text colour (`font_color`). */
  get color(): Color;
  /** Assigns the given components (or members); the others keep their values. */
  set color(value: ColorInit);
  // end generated: font-params
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
  // generated: font-params-init (npm run generate)
  /** See {@link FontParams.name}. */
  name?: string;
  /** See {@link FontParams.size}. */
  size?: number;
  /** See {@link FontParams.color}. */
  color?: ColorInit;
  // end generated: font-params-init
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
  // generated: text-params (npm run generate)
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
  // end generated: text-params
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
  // generated: text-params-init (npm run generate)
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
  // end generated: text-params-init
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
  // generated: line-params (npm run generate)
  /** Start x, px (`x1`). */
  readonly x1: number;
  /** Start y, px (`y1`). */
  readonly y1: number;
  /** End x, px (`x2`). */
  readonly x2: number;
  /** End y, px (`y2`). */
  readonly y2: number;
  /** Line width, px (`line_width`). */
  readonly lineWidth: number;
  /** Line colour (`line_color`). */
  readonly lineColor: Readonly<Color>;
  // end generated: line-params
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
  // generated: arrow-params (npm run generate)
  /** Start x, px (`x1`). */
  readonly x1: number;
  /** Start y, px (`y1`). */
  readonly y1: number;
  /** End x, px (`x2`). */
  readonly x2: number;
  /** End y, px (`y2`). */
  readonly y2: number;
  /** Arrow width, px (`arrow_width`). */
  readonly arrowWidth: number;
  /** Which ends get a head (`arrow_head`). */
  readonly arrowHead: ArrowHead;
  /** Arrow colour (`arrow_color`). */
  readonly arrowColor: Readonly<Color>;
  // end generated: arrow-params
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
  // generated: circle-params (npm run generate)
  /** Centre x, px (`xc`). */
  readonly xc: number;
  /** Centre y, px (`yc`). */
  readonly yc: number;
  /** Radius, px (`radius`). */
  readonly radius: number;
  /** Outline colour (`circle_color`). */
  readonly circleColor: Readonly<Color>;
  /** Whether the circle is filled with `bgColor` (`has_bg_color`). */
  readonly hasBgColor: boolean;
  /** Fill colour (`bg_color`), used when `hasBgColor`. */
  readonly bgColor: Readonly<Color>;
  /** Outline width, px (`circle_width`). */
  readonly circleWidth: number;
  // end generated: circle-params
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
  // generated: line-params-init (npm run generate)
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
  // end generated: line-params-init
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
  // generated: arrow-params-init (npm run generate)
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
  // end generated: arrow-params-init
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
  // generated: circle-params-init (npm run generate)
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
  // end generated: circle-params-init
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

function optional<T>(value: unknown, fallback: T, check: (value: unknown, name: string) => T, name: string): T {
  return value === undefined ? fallback : check(value, name);
}

/** @internal A checked, frozen display rectangle (members and defaults: RECT_PARAMS_FIELDS). */
export function makeRect(init: unknown, name: string): Readonly<RectParams> {
  return makeValue(RECT_PARAMS_FIELDS, init, name) as unknown as Readonly<RectParams>;
}

/**
 * A checked, frozen display text. Written out rather than `makeValue(TEXT_PARAMS_FIELDS, ...)`:
 * a new text's font defaults to "Serif" 10 pt (so it draws), where the table's members start
 * at their zero values (an empty font name, size 0), which makeValue gives a missing member.
 *
 * @internal
 */
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
 * font and background unless given; null for `false` (no text). Written out for the same
 * reason as makeText (nvinfer's defaults, not zero values), and only the font and background
 * are taken: each object's text and offsets are set from its label and box.
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

/** @internal */
export function rectFromNative(rect: NativeRect): Readonly<RectParams> {
  return valueFromNative(RECT_PARAMS_FIELDS, rect as unknown as Record<string, unknown>) as unknown as Readonly<RectParams>;
}

/** @internal */
export function textFromNative(text: NativeText): Readonly<TextParams> {
  return valueFromNative(TEXT_PARAMS_FIELDS, text as unknown as Record<string, unknown>) as unknown as Readonly<TextParams>;
}

/** @internal */
export function lineFromNative(line: NativeLine): LineParams {
  return valueFromNative(LINE_PARAMS_FIELDS, line as unknown as Record<string, unknown>) as unknown as LineParams;
}

/** @internal */
export function arrowFromNative(arrow: NativeArrow): ArrowParams {
  return valueFromNative(ARROW_PARAMS_FIELDS, arrow as unknown as Record<string, unknown>) as unknown as ArrowParams;
}

/** @internal */
export function arrowToNative(arrow: ArrowParams): NativeArrow {
  return { ...arrow, arrowHead: ARROW_HEADS.indexOf(arrow.arrowHead) as 0 | 1 | 2 };
}

/** @internal */
export function circleFromNative(circle: NativeCircle): CircleParams {
  return valueFromNative(CIRCLE_PARAMS_FIELDS, circle as unknown as Record<string, unknown>) as unknown as CircleParams;
}

/** @internal A native mask as a frozen MaskParams (its data is already a copy). */
export function maskFromNative(mask: NativeMask | null): MaskParams | undefined {
  if (mask === null || (mask.width === 0 && mask.height === 0 && mask.data.length === 0)) return undefined;
  return Object.freeze({ data: mask.data, threshold: mask.threshold, width: mask.width, height: mask.height });
}
