// What a YOLOv8 pipeline does around the model, in plain TypeScript, as a reference for the
// real elements: letterbox a frame into the square input tensor, then decode `output0`
// ([batch, 4 + classes, candidates]) with a confidence threshold and per-class NMS, and map the
// boxes back to frame pixels.
import type { Box, RgbFrame } from "./ball-frames";
import { intersectionOverUnion } from "./ball-frames";

/** Where the frame landed inside the square input: scale per axis and the top-left offset. */
export interface Letterbox {
  size: number;
  scaleX: number;
  scaleY: number;
  padLeft: number;
  padTop: number;
}

/**
 * Resizes `frame` bilinearly (half-pixel centres, like cv2.resize) to fit a size×size square
 * keeping its aspect, centres it on `padValue` (0..255) and writes planar RGB / 255 into
 * `into` (3·size² floats) at `offset`.
 */
export function letterboxInto(frame: RgbFrame, size: number, padValue: number, into: Float32Array, offset = 0): Letterbox {
  const scale = Math.min(size / frame.width, size / frame.height);
  const width = Math.round(frame.width * scale);
  const height = Math.round(frame.height * scale);
  const padLeft = Math.floor((size - width) / 2);
  const padTop = Math.floor((size - height) / 2);
  const plane = size * size;
  into.fill(padValue / 255, offset, offset + 3 * plane);
  const stepX = frame.width / width;
  const stepY = frame.height / height;
  for (let y = 0; y < height; y++) {
    const sourceY = Math.min(Math.max((y + 0.5) * stepY - 0.5, 0), frame.height - 1);
    const y0 = Math.floor(sourceY);
    const y1 = Math.min(y0 + 1, frame.height - 1);
    const fy = sourceY - y0;
    for (let x = 0; x < width; x++) {
      const sourceX = Math.min(Math.max((x + 0.5) * stepX - 0.5, 0), frame.width - 1);
      const x0 = Math.floor(sourceX);
      const x1 = Math.min(x0 + 1, frame.width - 1);
      const fx = sourceX - x0;
      const target = offset + (padTop + y) * size + padLeft + x;
      for (let channel = 0; channel < 3; channel++) {
        const at = (row: number, column: number) => frame.pixels[row * frame.stride + 3 * column + channel]!;
        const top = at(y0, x0) * (1 - fx) + at(y0, x1) * fx;
        const bottom = at(y1, x0) * (1 - fx) + at(y1, x1) * fx;
        into[target + channel * plane] = (top * (1 - fy) + bottom * fy) / 255;
      }
    }
  }
  return { size, scaleX: width / frame.width, scaleY: height / frame.height, padLeft, padTop };
}

/** One decoded detection, its box in model-input pixels. */
export interface Detection {
  classId: number;
  confidence: number;
  box: Box;
  /** Which column of output0 it came from. */
  candidate: number;
}

export interface DecodeOptions {
  confidenceThreshold?: number;
  nmsThreshold?: number;
}

/**
 * Decodes one image of a YOLOv8 `output0` ([batch, 4 + classes, candidates], row-major):
 * best class per candidate, drop those under the confidence threshold, then per-class NMS.
 */
export function decodeYolov8(
  output: Float32Array,
  dims: readonly number[],
  image = 0,
  { confidenceThreshold = 0.25, nmsThreshold = 0.45 }: DecodeOptions = {},
): Detection[] {
  const [, rows, candidates] = dims as [number, number, number];
  const base = image * rows * candidates;
  const value = (row: number, candidate: number) => output[base + row * candidates + candidate]!;
  const found: Detection[] = [];
  for (let candidate = 0; candidate < candidates; candidate++) {
    let classId = 0;
    for (let row = 5; row < rows; row++) if (value(row, candidate) > value(4 + classId, candidate)) classId = row - 4;
    const confidence = value(4 + classId, candidate);
    if (confidence < confidenceThreshold) continue;
    const [cx, cy, w, h] = [0, 1, 2, 3].map((row) => value(row, candidate)) as [number, number, number, number];
    found.push({ classId, confidence, candidate, box: { left: cx - w / 2, top: cy - h / 2, right: cx + w / 2, bottom: cy + h / 2 } });
  }
  found.sort((a, b) => b.confidence - a.confidence);
  const kept: Detection[] = [];
  for (const detection of found) {
    const overlaps = kept.some(
      (other) => other.classId === detection.classId && intersectionOverUnion(other.box, detection.box) > nmsThreshold,
    );
    if (!overlaps) kept.push(detection);
  }
  return kept;
}

/** A box in model-input pixels mapped back to the frame's pixels. */
export function unletterbox(box: Box, letterbox: Letterbox): Box {
  return {
    left: (box.left - letterbox.padLeft) / letterbox.scaleX,
    top: (box.top - letterbox.padTop) / letterbox.scaleY,
    right: (box.right - letterbox.padLeft) / letterbox.scaleX,
    bottom: (box.bottom - letterbox.padTop) / letterbox.scaleY,
  };
}
