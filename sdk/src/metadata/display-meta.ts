import { StaleHandleError } from "../errors/errors.js";
import type { NativeDisplay, NativeDisplayContent } from "../native/meta-binding.js";
import { ADDED, checkAddable, checkSameCall, HandleCore, notAHandle, notIn, REMOVED } from "./call/handle-checks.js";
import type { TransformScope } from "./call/transform-scope.js";
import {
  arrowFromNative,
  arrowToNative,
  circleFromNative,
  lineFromNative,
  makeArrow,
  makeCircle,
  makeLine,
  makeRect,
  makeText,
  rectFromNative,
  textFromNative,
  type ArrowParams,
  type ArrowParamsInit,
  type CircleParams,
  type CircleParamsInit,
  type LineParams,
  type LineParamsInit,
  type RectParams,
  type RectParamsInit,
  type TextParams,
  type TextParamsInit,
} from "./values.js";

const TYPE = "DisplayMeta";
const NO_MISC: readonly [number, number, number, number] = Object.freeze([0, 0, 0, 0] as [number, number, number, number]);

/** @internal How FrameMeta reaches a DisplayMeta's private state. */
export interface DisplayInternals {
  add(scope: TransformScope, frameIndex: number, display: DisplayMeta): void;
  remove(scope: TransformScope, frameIndex: number, display: DisplayMeta): void;
  /** The frame's physical display metas, one JS handle per native index. */
  list(scope: TransformScope, frameIndex: number): readonly DisplayMeta[];
}

/** @internal Assigned by DisplayMeta's static block. */
export let displayInternals: DisplayInternals;

/**
 * The plain values of a {@link DisplayMeta}, as {@link DisplayMeta.toJSON} returns them.
 *
 * @example
 * ```ts
 * const drawn: DisplayMetaJSON[] = frame.displayMetaItems.map((display) => display.toJSON());
 * ```
 */
export interface DisplayMetaJSON {
  /** See {@link DisplayMeta.rects}. */
  rects: Readonly<RectParams>[];
  /** See {@link DisplayMeta.texts}. */
  texts: Readonly<TextParams>[];
  /** See {@link DisplayMeta.lines}. */
  lines: LineParams[];
  /** See {@link DisplayMeta.arrows}. */
  arrows: ArrowParams[];
  /** See {@link DisplayMeta.circles}. */
  circles: CircleParams[];
  /** See {@link DisplayMeta.miscOsdData}. */
  miscOsdData: [number, number, number, number];
}

/**
 * Things for nvdsosd to draw on a frame (`NvDsDisplayMeta`): rectangles, texts, lines, arrows
 * and circles. DeepStream caps each kind at 16 per display meta; this one holds any number and
 * `frame.addDisplayMeta` chains as many DeepStream display metas as it needs (40 rects → 3).
 * Acquire it with `batch.acquireDisplayMeta()`, add elements, then add it to a frame; it is
 * read-only once added. `frame.displayMetaItems` lists the DeepStream display metas as they are
 * in the buffer (at most 16 of a kind each).
 *
 * Valid only during the transform() call that made it (see {@link StaleHandleError}).
 *
 * @example
 * ```ts
 * const display = batch.acquireDisplayMeta();
 * display
 *   .addText({ displayText: `people: ${count}`, xOffset: 10, yOffset: 10, font: { size: 16 } })
 *   .addLine({ x1: 0, y1: 400, x2: frame.pipelineWidth, y2: 400, lineWidth: 2, lineColor: { red: 1 } });
 * frame.addDisplayMeta(display);
 * ```
 */
export class DisplayMeta {
  /** Its call and state, and the check every member makes first. */
  readonly #core: HandleCore;
  /** The physical metas' indices once added (one per link of the chain). */
  #indices: readonly number[] = [];
  #frameIndex = -1;
  #rects: Readonly<RectParams>[] = [];
  #texts: Readonly<TextParams>[] = [];
  #lines: LineParams[] = [];
  #arrows: ArrowParams[] = [];
  #circles: CircleParams[] = [];
  #miscOsdData: readonly [number, number, number, number] = NO_MISC;

  /** @internal Display metas come from `batch.acquireDisplayMeta()` or the buffer; user code never constructs them. */
  constructor(scope: TransformScope) {
    this.#core = new HandleCore(scope, TYPE);
  }

  /**
   * The rectangles (`rect_params[0..num_rects)`).
   *
   * @example
   * ```ts
   * const areas = display.rects.map((rect) => rect.width * rect.height);
   * ```
   */
  get rects(): readonly Readonly<RectParams>[] {
    this.#core.check("rects");
    return this.#rects;
  }

  /**
   * The texts (`text_params[0..num_labels)`).
   *
   * @example
   * ```ts
   * const captions = display.texts.map((text) => text.displayText);
   * ```
   */
  get texts(): readonly Readonly<TextParams>[] {
    this.#core.check("texts");
    return this.#texts;
  }

  /**
   * The lines (`line_params[0..num_lines)`).
   *
   * @example
   * ```ts
   * const widths = display.lines.map((line) => line.lineWidth);
   * ```
   */
  get lines(): readonly LineParams[] {
    this.#core.check("lines");
    return this.#lines;
  }

  /**
   * The arrows (`arrow_params[0..num_arrows)`).
   *
   * @example
   * ```ts
   * const heads = display.arrows.map((arrow) => arrow.arrowHead);
   * ```
   */
  get arrows(): readonly ArrowParams[] {
    this.#core.check("arrows");
    return this.#arrows;
  }

  /**
   * The circles (`circle_params[0..num_circles)`).
   *
   * @example
   * ```ts
   * const centres = display.circles.map(({ xc, yc }) => [xc, yc]);
   * ```
   */
  get circles(): readonly CircleParams[] {
    this.#core.check("circles");
    return this.#circles;
  }

  /**
   * Four user integers of a display meta read from the buffer (`misc_osd_data`); zeros for one
   * made in this call (the binding does not send them yet).
   *
   * @example
   * ```ts
   * const [first] = display.miscOsdData;
   * ```
   */
  get miscOsdData(): readonly [number, number, number, number] {
    this.#core.check("miscOsdData");
    return this.#miscOsdData;
  }

  /** Checks and appends one element; the name in its messages is its place, e.g. `DisplayMeta.rects[3]`. */
  #add<T>(operation: string, member: string, list: T[], make: (init: unknown, name: string) => T, init: unknown): this {
    this.#core.check(operation, "writing");
    list.push(make(init, `DisplayMeta.${member}[${list.length}]`));
    return this;
  }

  /**
   * Adds a rectangle. Missing members default to 0/false, an opaque black border and a
   * transparent fill. Returns this display meta, for chaining.
   *
   * @example
   * ```ts
   * display.addRect({ left: 10, top: 10, width: 200, height: 40, hasBgColor: true, bgColor: { alpha: 0.4 } });
   * ```
   */
  addRect(rect: RectParamsInit = {}): this {
    return this.#add("addRect()", "rects", this.#rects, makeRect, rect);
  }

  /**
   * Adds a text. Missing members default to offsets 0, font "Serif" 10 pt opaque white, no
   * background. Returns this display meta, for chaining.
   *
   * @example
   * ```ts
   * display.addText({ displayText: "zone A", xOffset: 12, yOffset: 12, setBgColor: true, bgColor: { alpha: 0.6 } });
   * ```
   */
  addText(text: TextParamsInit = {}): this {
    return this.#add("addText()", "texts", this.#texts, makeText, text);
  }

  /**
   * Adds a line (coordinates are uint32 px). Missing members default to 0 and opaque black.
   * Returns this display meta, for chaining.
   *
   * @example
   * ```ts
   * display.addLine({ x1: 0, y1: 300, x2: 640, y2: 300, lineWidth: 3, lineColor: { green: 1 } });
   * ```
   */
  addLine(line: LineParamsInit = {}): this {
    return this.#add("addLine()", "lines", this.#lines, makeLine, line);
  }

  /**
   * Adds an arrow. Missing members default to 0, a head at the end and opaque black. Returns
   * this display meta, for chaining.
   *
   * @example
   * ```ts
   * display.addArrow({ x1: 100, y1: 100, x2: 200, y2: 100, arrowWidth: 4, arrowHead: "both" });
   * ```
   */
  addArrow(arrow: ArrowParamsInit = {}): this {
    return this.#add("addArrow()", "arrows", this.#arrows, makeArrow, arrow);
  }

  /**
   * Adds a circle. Missing members default to 0, an opaque black outline and no fill. Returns
   * this display meta, for chaining.
   *
   * @example
   * ```ts
   * display.addCircle({ xc: 320, yc: 240, radius: 30, circleWidth: 2, circleColor: { red: 1, green: 1 } });
   * ```
   */
  addCircle(circle: CircleParamsInit = {}): this {
    return this.#add("addCircle()", "circles", this.#circles, makeCircle, circle);
  }

  /**
   * The display meta's values as a plain object, safe to keep after transform() returns.
   *
   * @example
   * ```ts
   * this.overlays.push(display.toJSON());
   * ```
   */
  toJSON(): DisplayMetaJSON {
    this.#core.check("toJSON()");
    // Elements are frozen plain values: JSON-safe as they are.
    return {
      rects: this.#rects.slice(),
      texts: this.#texts.slice(),
      lines: this.#lines.slice(),
      arrows: this.#arrows.slice(),
      circles: this.#circles.slice(),
      miscOsdData: [...this.#miscOsdData] as [number, number, number, number],
    };
  }

  static {
    displayInternals = {
      add(scope, frameIndex, display) {
        if (!(display instanceof DisplayMeta)) notAHandle(TYPE, "FrameMeta.addDisplayMeta display", display);
        checkSameCall(display.#core.scope, scope, TYPE, "addDisplayMeta");
        checkAddable(display.#core.status, TYPE, "addDisplayMeta", "removeDisplayMeta");
        const meta = scope.meta;
        const content: NativeDisplayContent = {
          rects: display.#rects,
          texts: display.#texts,
          lines: display.#lines,
          arrows: display.#arrows.map(arrowToNative),
          circles: display.#circles,
        };
        const indices = meta.addDisplay(scope.callId, frameIndex, content);
        display.#core.status = ADDED;
        display.#frameIndex = frameIndex;
        display.#indices = Object.freeze(indices.slice());
        // One link: it is the physical meta, so displayMetaItems lists this very handle.
        if (indices.length === 1) (scope.displays ??= new Map()).set(indices[0] as number, display);
      },
      remove(scope, frameIndex, display) {
        if (!(display instanceof DisplayMeta)) notAHandle(TYPE, "FrameMeta.removeDisplayMeta display", display);
        checkSameCall(display.#core.scope, scope, TYPE, "removeDisplayMeta");
        if (display.#core.status !== ADDED || display.#frameIndex !== frameIndex) {
          notIn(display.#core.status, TYPE, "frame", "removeDisplayMeta", "removeDisplayMeta");
        }
        const meta = scope.meta;
        // A chained display meta removes every link it was split into.
        for (const index of display.#indices) {
          meta.removeDisplay(scope.callId, frameIndex, index);
          const linked = scope.displays?.get(index);
          if (linked !== undefined) {
            linked.#core.status = REMOVED;
            scope.displays?.delete(index);
          }
        }
        display.#core.status = REMOVED;
      },
      list(scope, frameIndex) {
        return Object.freeze(scope.meta.listDisplays(scope.callId, frameIndex).map((read) => fromNative(scope, frameIndex, read)));
      },
    };

    function fromNative(scope: TransformScope, frameIndex: number, read: NativeDisplay): DisplayMeta {
      const known = scope.displays?.get(read.index);
      if (known !== undefined) {
        known.#miscOsdData = Object.freeze(toMisc(read.miscOsdData));
        return known;
      }
      const display = new DisplayMeta(scope);
      display.#core.status = ADDED;
      display.#frameIndex = frameIndex;
      display.#indices = Object.freeze([read.index]);
      display.#rects = read.rects.map(rectFromNative);
      display.#texts = read.texts.map(textFromNative);
      display.#lines = read.lines.map(lineFromNative);
      display.#arrows = read.arrows.map(arrowFromNative);
      display.#circles = read.circles.map(circleFromNative);
      display.#miscOsdData = Object.freeze(toMisc(read.miscOsdData));
      (scope.displays ??= new Map()).set(read.index, display);
      return display;
    }
  }
}

function toMisc(values: readonly number[]): [number, number, number, number] {
  return [values[0] ?? 0, values[1] ?? 0, values[2] ?? 0, values[3] ?? 0];
}
