import type { Box } from "../metadata/values.js";

/**
 * The members of a {@link FrameTransform}.
 *
 * @internal Made by preprocess() from native results and by letterboxTransform().
 */
export interface FrameTransformValues {
  scaleX: number;
  scaleY: number;
  padX: number;
  padY: number;
  resizedWidth: number;
  resizedHeight: number;
  frameWidth: number;
  frameHeight: number;
}

/**
 * How one frame was scaled and padded into the network input: a frame point `(x, y)`
 * (continuous coordinates, pixel `i` spans `[i, i + 1)`) lands at
 * `(x × scaleX + padX, y × scaleY + padY)` in network pixels. The one description of that
 * mapping in the SDK: {@link preprocess} returns one per frame, {@link letterboxTransform} makes
 * one for pre-processing done elsewhere (nvinfer, Ultralytics), and both {@link mapBoxes} (every
 * detection of a frame, in place) and `clip(toFrame(box))` (one box) undo it with the same
 * arithmetic, clipping to `frameWidth` × `frameHeight`.
 *
 * @example
 * ```ts
 * const { tensor, transforms } = preprocess(frames, { width: 640, height: 640 });
 * // a detection in network pixels → the frame's pixels, clipped to the frame
 * obj.rectParams = transforms[i]!.clip(transforms[i]!.toFrame({ left: 100, top: 80, width: 50, height: 120 }));
 * ```
 */
export class FrameTransform {
  /** Network pixels per frame pixel, horizontally (resizedWidth / frameWidth). */
  readonly scaleX: number;
  /** Network pixels per frame pixel, vertically (resizedHeight / frameHeight). */
  readonly scaleY: number;
  /** Network pixels left of the image (letterbox padding). */
  readonly padX: number;
  /** Network pixels above the image. */
  readonly padY: number;
  /** Width of the resized image in the network input. */
  readonly resizedWidth: number;
  /** Height of the resized image in the network input. */
  readonly resizedHeight: number;
  /** The frame's width, px: boxes are clipped to it. */
  readonly frameWidth: number;
  /** The frame's height, px. */
  readonly frameHeight: number;

  /** @internal Made by preprocess() and letterboxTransform(). */
  constructor(values: FrameTransformValues) {
    this.scaleX = values.scaleX;
    this.scaleY = values.scaleY;
    this.padX = values.padX;
    this.padY = values.padY;
    this.resizedWidth = values.resizedWidth;
    this.resizedHeight = values.resizedHeight;
    this.frameWidth = values.frameWidth;
    this.frameHeight = values.frameHeight;
    Object.freeze(this);
  }

  /**
   * A box in network pixels (what a detector outputs) → the same box in frame pixels, corner
   * to corner. Not clipped: see {@link FrameTransform.clip}.
   *
   * @example
   * ```ts
   * const inFrame = transform.toFrame({ left: 320, top: 320, width: 64, height: 64 });
   * ```
   */
  toFrame(box: Box): Box {
    const left = toFrameAxis(box.left, this.scaleX, this.padX);
    const top = toFrameAxis(box.top, this.scaleY, this.padY);
    const right = toFrameAxis(box.left + box.width, this.scaleX, this.padX);
    const bottom = toFrameAxis(box.top + box.height, this.scaleY, this.padY);
    return { left, top, width: right - left, height: bottom - top };
  }

  /**
   * A box in frame pixels → network pixels, corner to corner (the inverse of `toFrame`).
   *
   * @example
   * ```ts
   * const inNetwork = transform.toNetwork(obj.rectParams);
   * ```
   */
  toNetwork(box: Box): Box {
    const left = box.left * this.scaleX + this.padX;
    const top = box.top * this.scaleY + this.padY;
    const right = (box.left + box.width) * this.scaleX + this.padX;
    const bottom = (box.top + box.height) * this.scaleY + this.padY;
    return { left, top, width: right - left, height: bottom - top };
  }

  /**
   * The part of a box (frame pixels) inside the frame; width and height 0 when it lies
   * outside (at the border it is nearest to).
   *
   * @example
   * ```ts
   * obj.rectParams = transform.clip(transform.toFrame(detection));
   * ```
   */
  clip(box: Box): Box {
    const left = clampToFrame(box.left, this.frameWidth);
    const top = clampToFrame(box.top, this.frameHeight);
    const right = clampToFrame(box.left + box.width, this.frameWidth);
    const bottom = clampToFrame(box.top + box.height, this.frameHeight);
    return { left, top, width: Math.max(right - left, 0), height: Math.max(bottom - top, 0) };
  }
}

/** @internal One coordinate, network → frame: what toFrame() and mapBoxes() both compute. */
export function toFrameAxis(value: number, scale: number, pad: number): number {
  return (value - pad) / scale;
}

/** @internal One coordinate clamped to [0, limit]: what clip() and mapBoxes() both compute. */
export function clampToFrame(value: number, limit: number): number {
  return Math.min(Math.max(value, 0), limit);
}

/** @internal The transforms of a native preprocess result: 8 numbers per frame. */
export function frameTransformsFromNative(values: ArrayLike<number>, count: number): FrameTransform[] {
  const transforms: FrameTransform[] = [];
  for (let index = 0; index < count; index++) {
    const at = (member: number): number => values[index * 8 + member] as number;
    transforms.push(
      new FrameTransform({
        scaleX: at(0),
        scaleY: at(1),
        padX: at(2),
        padY: at(3),
        resizedWidth: at(4),
        resizedHeight: at(5),
        frameWidth: at(6),
        frameHeight: at(7),
      }),
    );
  }
  return transforms;
}
