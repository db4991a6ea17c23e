import { checkBooleanOr, checkFinite, checkOptions, checkPositive, checkSizeOrUndefined, invalid } from "./checks.js";
import { checkDetections, type Detections } from "./detections.js";

/**
 * How a frame was scaled and padded into the network input: `network = frame * scale + pad`,
 * per axis. The `FrameTransform`s that `preprocess()` returns are ones (pass them as they
 * are, with their `sourceWidth`/`sourceHeight` to clamp); {@link letterboxTransform} computes
 * one for preprocessing done elsewhere (nvinfer, Ultralytics); {@link mapBoxes} undoes it.
 *
 * @example
 * ```ts
 * // 1280×720 letterboxed into 640×640: scale 0.5, 140 px bands above and below.
 * const transform: LetterboxTransform = { scaleX: 0.5, scaleY: 0.5, padX: 0, padY: 140 };
 * ```
 */
export interface LetterboxTransform {
  /** Network pixels per frame pixel, horizontally (> 0). */
  readonly scaleX: number;
  /** Network pixels per frame pixel, vertically (> 0). */
  readonly scaleY: number;
  /** Network pixels left of the scaled frame. */
  readonly padX: number;
  /** Network pixels above the scaled frame. */
  readonly padY: number;
}

/**
 * Options of {@link mapBoxes}: the frame size to clamp the boxes to.
 *
 * @example
 * ```ts
 * const options: MapBoxesOptions = { frameWidth: frame.pipelineWidth, frameHeight: frame.pipelineHeight };
 * ```
 */
export interface MapBoxesOptions {
  /** Clamp left and right edges to [0, frameWidth] (default: no clamping). */
  frameWidth?: number;
  /** Clamp top and bottom edges to [0, frameHeight] (default: no clamping). */
  frameHeight?: number;
}

/**
 * What {@link letterboxTransform} needs: both sizes and how the frame was fitted.
 *
 * @example
 * ```ts
 * const fit: LetterboxOptions = { frameWidth: 1920, frameHeight: 1080, networkWidth: 640, networkHeight: 640 };
 * ```
 */
export interface LetterboxOptions {
  /** Width of the frame the network input was made from, px. */
  frameWidth: number;
  /** Height of that frame, px. */
  frameHeight: number;
  /** Network input width, px. */
  networkWidth: number;
  /** Network input height, px. */
  networkHeight: number;
  /**
   * Scale both axes by the same factor, the largest that fits (default true; nvinfer's
   * `maintain-aspect-ratio`). False: each axis is stretched to fit.
   */
  maintainAspectRatio?: boolean;
  /**
   * Centre the scaled frame, padding both sides (default true, as Ultralytics does; nvinfer's
   * `symmetric-padding`). False: the frame sits at the top left, padding right and bottom.
   */
  symmetricPadding?: boolean;
}

/**
 * The transform of a frame scaled into the network input, as Ultralytics' `LetterBox` and
 * nvinfer (`maintain-aspect-ratio`, `symmetric-padding`) do it, without their rounding of the
 * scaled size to whole pixels (a difference below one network pixel).
 *
 * @example
 * ```ts
 * const tensor = frame.tensorItems[0]!;
 * const transform = letterboxTransform({
 *   frameWidth: frame.pipelineWidth, frameHeight: frame.pipelineHeight,
 *   networkWidth: tensor.networkInfo.width, networkHeight: tensor.networkInfo.height,
 *   maintainAspectRatio: tensor.maintainAspectRatio, symmetricPadding: tensor.symmetricPadding,
 * });
 * ```
 */
export function letterboxTransform(options: LetterboxOptions): LetterboxTransform {
  const name = "letterboxTransform options";
  if (typeof options !== "object" || options === null) return invalid("an options object", name, options, true);
  const frameWidth = checkPositive(options.frameWidth, `${name}.frameWidth`);
  const frameHeight = checkPositive(options.frameHeight, `${name}.frameHeight`);
  const networkWidth = checkPositive(options.networkWidth, `${name}.networkWidth`);
  const networkHeight = checkPositive(options.networkHeight, `${name}.networkHeight`);
  const maintainAspectRatio = checkBooleanOr(options.maintainAspectRatio, true, `${name}.maintainAspectRatio`);
  const symmetricPadding = checkBooleanOr(options.symmetricPadding, true, `${name}.symmetricPadding`);
  if (!maintainAspectRatio) {
    return { scaleX: networkWidth / frameWidth, scaleY: networkHeight / frameHeight, padX: 0, padY: 0 };
  }
  const scale = Math.min(networkWidth / frameWidth, networkHeight / frameHeight);
  if (!symmetricPadding) return { scaleX: scale, scaleY: scale, padX: 0, padY: 0 };
  return {
    scaleX: scale,
    scaleY: scale,
    padX: (networkWidth - frameWidth * scale) / 2,
    padY: (networkHeight - frameHeight * scale) / 2,
  };
}

/**
 * Maps boxes from network input pixels back to frame pixels, **in place**: each box becomes
 * `(left - padX) / scaleX, (top - padY) / scaleY, width / scaleX, height / scaleY`, then, when
 * a frame size is given, its edges are clamped to the frame (a box wholly outside ends up
 * with zero width or height, at the border). Returns `detections`, so calls chain. Values are
 * computed in double precision and stored as float32.
 *
 * @example
 * ```ts
 * const kept = mapBoxes(nms(candidates), transform, { frameWidth: frame.pipelineWidth, frameHeight: frame.pipelineHeight });
 * frame.addObjects({ ...kept, labels: this.props.labels });
 * // after preprocess(): its transforms know the frame size
 * const t = transforms[i]!;
 * mapBoxes(kept, t, { frameWidth: t.sourceWidth, frameHeight: t.sourceHeight });
 * ```
 */
export function mapBoxes(detections: Detections, transform: LetterboxTransform, options?: MapBoxesOptions): Detections {
  const boxes = checkDetections(detections, "mapBoxes detections");
  const name = "mapBoxes transform";
  if (typeof transform !== "object" || transform === null) return invalid("a LetterboxTransform", name, transform, true);
  const scaleX = checkPositive(transform.scaleX, `${name}.scaleX`);
  const scaleY = checkPositive(transform.scaleY, `${name}.scaleY`);
  const padX = checkFinite(transform.padX, `${name}.padX`);
  const padY = checkFinite(transform.padY, `${name}.padY`);
  const settings = checkOptions(options, "mapBoxes options");
  const frameWidth = checkSizeOrUndefined(settings.frameWidth, "mapBoxes options.frameWidth");
  const frameHeight = checkSizeOrUndefined(settings.frameHeight, "mapBoxes options.frameHeight");
  mapAxis(boxes.left, boxes.width, boxes.count, scaleX, padX, frameWidth);
  mapAxis(boxes.top, boxes.height, boxes.count, scaleY, padY, frameHeight);
  return detections;
}

function mapAxis(start: Float32Array, size: Float32Array, count: number, scale: number, pad: number, limit: number | undefined): void {
  for (let row = 0; row < count; row++) {
    const low = ((start[row] as number) - pad) / scale;
    const extent = (size[row] as number) / scale;
    if (limit === undefined) {
      start[row] = low;
      size[row] = extent;
    } else {
      const clampedLow = Math.min(Math.max(low, 0), limit);
      start[row] = clampedLow;
      size[row] = Math.min(Math.max(low + extent, 0), limit) - clampedLow;
    }
  }
}
