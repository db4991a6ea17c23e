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
import { FORMAT_CHANNELS, type PixelFormat } from "../tensor/types.js";
import type { BatchMeta } from "../metadata/batch-meta.js";
import { openCall, type StandaloneBinding, type OpenCall } from "./standalone-binding.js";

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
  for (let f = 0; f < frames; f++) {
    const record = new Float64Array(STATE_FRAME_STRIDE);
    record[FRAME_NUM] = f;
    record[FRAME_BATCH_ID] = f;
    record[FRAME_SOURCE_FRAME_WIDTH] = record[FRAME_PIPELINE_WIDTH] = width;
    record[FRAME_SOURCE_FRAME_HEIGHT] = record[FRAME_PIPELINE_HEIGHT] = height;
    record[FRAME_NUM_SURFACES_PER_FRAME] = 1;
    addon.harness.addFrame(buffer, record);
  }
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
