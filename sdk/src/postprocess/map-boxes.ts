import { clampToFrame, FrameTransform, toFrameAxis } from "../ops/frame-transform.js";
import { checkBooleanOr, checkFinite, checkOptions, checkPositive, invalid } from "./checks.js";
import { checkDetections, type Detections } from "./detections.js";

/**
 * Options of {@link mapBoxes}.
 *
 * @example
 * ```ts
 * const options: MapBoxesOptions = { clip: false }; // keep boxes that reach into the padding as they are
 * ```
 */
export interface MapBoxesOptions {
  /** Clip each box to the transform's frame (`frameWidth` × `frameHeight`), as `FrameTransform.clip` does (default true). */
  clip?: boolean;
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
 * The {@link FrameTransform} of a frame scaled into the network input, as Ultralytics'
 * `LetterBox` and nvinfer (`maintain-aspect-ratio`, `symmetric-padding`) do it, without their
 * rounding of the scaled size to whole pixels (a difference below one network pixel). For
 * pre-processing done elsewhere; `preprocess()` returns its own transforms.
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
export function letterboxTransform(options: LetterboxOptions): FrameTransform {
  const name = "letterboxTransform options";
  if (typeof options !== "object" || options === null) return invalid("an options object", name, options, true);
  const frameWidth = checkPositive(options.frameWidth, `${name}.frameWidth`);
  const frameHeight = checkPositive(options.frameHeight, `${name}.frameHeight`);
  const networkWidth = checkPositive(options.networkWidth, `${name}.networkWidth`);
  const networkHeight = checkPositive(options.networkHeight, `${name}.networkHeight`);
  const maintainAspectRatio = checkBooleanOr(options.maintainAspectRatio, true, `${name}.maintainAspectRatio`);
  const symmetricPadding = checkBooleanOr(options.symmetricPadding, true, `${name}.symmetricPadding`);
  const scaleX = maintainAspectRatio ? Math.min(networkWidth / frameWidth, networkHeight / frameHeight) : networkWidth / frameWidth;
  const scaleY = maintainAspectRatio ? scaleX : networkHeight / frameHeight;
  const resizedWidth = frameWidth * scaleX;
  const resizedHeight = frameHeight * scaleY;
  const centred = maintainAspectRatio && symmetricPadding;
  return new FrameTransform({
    scaleX,
    scaleY,
    padX: centred ? (networkWidth - resizedWidth) / 2 : 0,
    padY: centred ? (networkHeight - resizedHeight) / 2 : 0,
    resizedWidth,
    resizedHeight,
    frameWidth,
    frameHeight,
  });
}

/**
 * Maps boxes from network input pixels back to frame pixels, **in place**: each edge becomes
 * `(edge - pad) / scale` per axis, then (unless `clip: false`) is clamped to the transform's
 * frame, so a box wholly outside ends up with zero width or height, at the border. The same
 * arithmetic as `transform.clip(transform.toFrame(box))`, for every row at once. Returns
 * `detections`, so calls chain. Values are computed in double precision and stored as float32.
 *
 * @example
 * ```ts
 * const [candidates] = decodeYolo(output, { confidenceThreshold: 0.3 });
 * frame.addObjects(mapBoxes(nms(candidates), transforms[i]!), { labels: this.props.labels });
 * ```
 */
export function mapBoxes(detections: Detections, transform: FrameTransform, options?: MapBoxesOptions): Detections {
  const boxes = checkDetections(detections, "mapBoxes detections");
  const name = "mapBoxes transform";
  if (typeof transform !== "object" || transform === null) return invalid("a FrameTransform", name, transform, true);
  const scaleX = checkPositive(transform.scaleX, `${name}.scaleX`);
  const scaleY = checkPositive(transform.scaleY, `${name}.scaleY`);
  const padX = checkFinite(transform.padX, `${name}.padX`);
  const padY = checkFinite(transform.padY, `${name}.padY`);
  const clip = checkBooleanOr(checkOptions(options, "mapBoxes options").clip, true, "mapBoxes options.clip");
  const frameWidth = clip ? checkPositive(transform.frameWidth, `${name}.frameWidth`) : undefined;
  const frameHeight = clip ? checkPositive(transform.frameHeight, `${name}.frameHeight`) : undefined;
  mapAxis(boxes.left, boxes.width, boxes.count, scaleX, padX, frameWidth);
  mapAxis(boxes.top, boxes.height, boxes.count, scaleY, padY, frameHeight);
  return detections;
}

function mapAxis(start: Float32Array, size: Float32Array, count: number, scale: number, pad: number, limit: number | undefined): void {
  for (let row = 0; row < count; row++) {
    const low = start[row] as number;
    let from = toFrameAxis(low, scale, pad);
    let to = toFrameAxis(low + (size[row] as number), scale, pad);
    if (limit !== undefined) {
      from = clampToFrame(from, limit);
      to = clampToFrame(to, limit);
    }
    start[row] = from;
    size[row] = to - from;
  }
}
