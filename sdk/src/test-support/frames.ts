/**
 * Buffers with pixels for the SDK's own frame and tensor tests: a portable batch of `frames`
 * frames of one format, laid out as Buffer.extract expects (frame b at b × stride × height),
 * with the stream info a pipeline would give them (harness.setVideo).
 */
import { GstBuffer } from "../stream/gst-buffer.js";
import {
  FRAME_BATCH_ID,
  FRAME_NUM,
  FRAME_NUM_SURFACES_PER_FRAME,
  FRAME_PIPELINE_HEIGHT,
  FRAME_PIPELINE_WIDTH,
  FRAME_SOURCE_FRAME_HEIGHT,
  FRAME_SOURCE_FRAME_WIDTH,
  STATE_FRAME_STRIDE,
} from "../protocol/transform-state.js";
import { FORMAT_CHANNELS, type PixelFormat, type PlanarPixelFormat } from "../tensor/types.js";
import type { BatchMeta } from "../metadata/batch-meta.js";
import { openCall, type StandaloneBinding, type OpenCall } from "./standalone-binding.js";
import { planarLayout, type PlaneLayout } from "../testing/video-format.js";

export { planarLayout, type PlaneLayout };

export interface FrameBufferOptions {
  format: PixelFormat;
  width: number;
  height: number;
  /** Frames in the batch (default 1). */
  frames?: number;
  /** Row pitch in bytes: attaches a GstVideoMeta. Default: GStreamer's for the format. */
  stride?: number;
  /** Caps to give instead of the default `video/x-raw,format=...` (for error cases). */
  caps?: string;
  /** Byte value at (frame, y, x, channel); default: a hash of the position. */
  pixel?: (frame: number, y: number, x: number, channel: number) => number;
}

export interface FrameBuffer {
  buffer: object;
  frames: number;
  stride: number;
  /** stride × height */
  frameBytes: number;
  /** The buffer's memory as written (padding bytes 0xEE). */
  bytes: Uint8Array;
  pixel(frame: number, y: number, x: number, channel: number): number;
}

/** GStreamer's default row stride of a packed format (rows rounded up to 4 bytes). */
export function defaultStride(format: PixelFormat, width: number): number {
  return Math.ceil((width * FORMAT_CHANNELS[format]) / 4) * 4;
}

export function hashPixel(frame: number, y: number, x: number, channel: number): number {
  return (frame * 101 + y * 31 + x * 7 + channel * 53 + ((x * y) % 13)) & 0xff;
}

/** The frame meta record of frame `f` of a batch of `width` × `height` frames. */
function frameRecord(f: number, width: number, height: number): Float64Array {
  const record = new Float64Array(STATE_FRAME_STRIDE);
  record[FRAME_NUM] = f;
  record[FRAME_BATCH_ID] = f;
  record[FRAME_SOURCE_FRAME_WIDTH] = record[FRAME_PIPELINE_WIDTH] = width;
  record[FRAME_SOURCE_FRAME_HEIGHT] = record[FRAME_PIPELINE_HEIGHT] = height;
  record[FRAME_NUM_SURFACES_PER_FRAME] = 1;
  return record;
}

export function makeFrameBuffer(addon: StandaloneBinding, options: FrameBufferOptions): FrameBuffer {
  const { format, width, height } = options;
  const frames = options.frames ?? 1;
  const channels = FORMAT_CHANNELS[format];
  const stride = options.stride ?? defaultStride(format, width);
  const frameBytes = stride * height;
  const pixel = options.pixel ?? hashPixel;
  const bytes = new Uint8Array(frameBytes * frames).fill(0xee);
  for (let f = 0; f < frames; f++) {
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        for (let c = 0; c < channels; c++) bytes[f * frameBytes + y * stride + x * channels + c] = pixel(f, y, x, c);
      }
    }
  }
  const buffer = addon.harness.createBuffer(frames, bytes.length);
  for (let f = 0; f < frames; f++) addon.harness.addFrame(buffer, frameRecord(f, width, height));
  addon.harness.writeBuffer(buffer, 0, bytes);
  addon.harness.setVideo(
    buffer,
    options.caps ?? `video/x-raw,format=${format},width=${width},height=${height},framerate=30/1`,
    options.stride,
  );
  return { buffer, frames, stride, frameBytes, bytes, pixel };
}

/** Runs `body` in a call over `frames` with the call's GstBuffer handle (closed after). */
export function inFrameCall<T>(
  addon: StandaloneBinding,
  frames: { buffer: object; frames: number },
  body: (buffer: GstBuffer, batch: BatchMeta, call: OpenCall) => T,
): T {
  const call = openCall(addon, frames.buffer, frames.frames);
  try {
    return body(new GstBuffer(call.scope), call.batch, call);
  } finally {
    call.close();
  }
}

export interface PlanarBufferOptions {
  format: PlanarPixelFormat;
  width: number;
  height: number;
  frames?: number;
  /** Extra caps fields, e.g. "colorimetry=bt709". */
  capsExtra?: string;
  /** Byte value of sample (column, row, byte) of `plane` in `frame`; default: a hash. */
  sample?: (frame: number, plane: number, row: number, column: number, byte: number) => number;
}

export interface PlanarBuffer {
  buffer: object;
  frames: number;
  planes: PlaneLayout[];
  frameBytes: number;
  bytes: Uint8Array;
  sample(frame: number, plane: number, row: number, column: number, byte: number): number;
}

/** A portable batch of planar frames in GStreamer's default layout, frame b at b × frame size. */
export function makePlanarBuffer(addon: StandaloneBinding, options: PlanarBufferOptions): PlanarBuffer {
  const { format, width, height } = options;
  const frames = options.frames ?? 1;
  const { planes, frameBytes } = planarLayout(format, width, height);
  const sample = options.sample ?? ((f, p, row, column, byte) => hashPixel(f + p * 3, row, column, byte));
  const bytes = new Uint8Array(frameBytes * frames).fill(0xee);
  for (let f = 0; f < frames; f++) {
    planes.forEach((plane, p) => {
      for (let row = 0; row < plane.rows; row++) {
        for (let column = 0; column < plane.columns; column++) {
          for (let byte = 0; byte < plane.samples; byte++) {
            bytes[f * frameBytes + plane.offset + row * plane.stride + column * plane.samples + byte] = sample(f, p, row, column, byte);
          }
        }
      }
    });
  }
  const buffer = addon.harness.createBuffer(frames, bytes.length);
  for (let f = 0; f < frames; f++) addon.harness.addFrame(buffer, frameRecord(f, width, height));
  addon.harness.writeBuffer(buffer, 0, bytes);
  const extra = options.capsExtra === undefined ? "" : `,${options.capsExtra}`;
  addon.harness.setVideo(buffer, `video/x-raw,format=${format},width=${width},height=${height},framerate=30/1${extra}`);
  return { buffer, frames, planes, frameBytes, bytes, sample };
}

/**
 * The Y'CbCr of an RGB pixel under BT.601, limited range (GStreamer's colorimetry for frames
 * under 720 lines), unrounded: the reference the YUV tests compare converted or drawn pixels to.
 */
export function yCbCr601(r: number, g: number, b: number): [number, number, number] {
  const [kr, kb] = [0.299, 0.114];
  const luma = kr * r + (1 - kr - kb) * g + kb * b;
  return [16 + (219 * luma) / 255, 128 + ((224 / 255) * (b - luma)) / (2 * (1 - kb)), 128 + ((224 / 255) * (r - luma)) / (2 * (1 - kr))];
}
