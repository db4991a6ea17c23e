import type { Box } from "../metadata/values.js";

/**
 * Where one frame went in a {@link preprocess} output: a frame point `(x, y)` (continuous
 * coordinates, pixel `i` spans `[i, i + 1)`) lands at `(x × scaleX + padX, y × scaleY + padY)`
 * in network pixels. Use it to bring detections back to the frame.
 *
 * @example
 * ```ts
 * const { tensor, transforms } = preprocess(frames, { width: 640, height: 640 });
 * // a detection in network pixels → the frame's pixels, clipped to the frame
 * obj.rectParams = transforms[i]!.clip(transforms[i]!.toFrame({ left: 100, top: 80, width: 50, height: 120 }));
 * ```
 */
export class FrameTransform {
  /** resizedWidth / sourceWidth. */
  readonly scaleX: number;
  /** resizedHeight / sourceHeight. */
  readonly scaleY: number;
  /** Network pixels left of the image (letterbox padding). */
  readonly padX: number;
  /** Network pixels above the image. */
  readonly padY: number;
  /** Width of the resized image in the network input. */
  readonly resizedWidth: number;
  /** Height of the resized image in the network input. */
  readonly resizedHeight: number;
  /** The frame's width. */
  readonly sourceWidth: number;
  /** The frame's height. */
  readonly sourceHeight: number;

  /** @internal Made by preprocess from native results. */
  constructor(values: ArrayLike<number>, offset = 0) {
    this.scaleX = values[offset] as number;
    this.scaleY = values[offset + 1] as number;
    this.padX = values[offset + 2] as number;
    this.padY = values[offset + 3] as number;
    this.resizedWidth = values[offset + 4] as number;
    this.resizedHeight = values[offset + 5] as number;
    this.sourceWidth = values[offset + 6] as number;
    this.sourceHeight = values[offset + 7] as number;
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
    const left = (box.left - this.padX) / this.scaleX;
    const top = (box.top - this.padY) / this.scaleY;
    const right = (box.left + box.width - this.padX) / this.scaleX;
    const bottom = (box.top + box.height - this.padY) / this.scaleY;
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
   * outside.
   *
   * @example
   * ```ts
   * obj.rectParams = transform.clip(transform.toFrame(detection));
   * ```
   */
  clip(box: Box): Box {
    const clamp = (value: number, high: number) => Math.min(Math.max(value, 0), high);
    const left = clamp(box.left, this.sourceWidth);
    const top = clamp(box.top, this.sourceHeight);
    const right = clamp(box.left + box.width, this.sourceWidth);
    const bottom = clamp(box.top + box.height, this.sourceHeight);
    return { left, top, width: Math.max(right - left, 0), height: Math.max(bottom - top, 0) };
  }
}
