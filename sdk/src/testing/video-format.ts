/**
 * The video formats of synthetic frames: how a frame's pixels are given (rows without padding,
 * planes one after another), how they lie in the buffer (as GStreamer lays them out) and the
 * caps a frame of each gives, as GStreamer would negotiate them (`gst_caps_to_string()` text and
 * the structure's fields).
 */
import type { Caps } from "../stream/caps.js";
import { FORMAT_CHANNELS, PIXEL_FORMATS, PLANAR_PIXEL_FORMATS, type PlanarPixelFormat } from "../tensor/types.js";
import type { VideoFormat } from "./batch-init.js";

/** The formats, for error messages. */
export const VIDEO_FORMATS: readonly VideoFormat[] = PIXEL_FORMATS;

/** What a frame's caps say; one batch has one. */
export interface VideoInfo {
  format: VideoFormat;
  width: number;
  height: number;
}

/** One plane of a frame: where it starts in the frame, its row pitch and its size in samples. */
export interface PlaneLayout {
  offset: number;
  stride: number;
  rows: number;
  columns: number;
  /** Bytes a sample: the pixel's for packed formats, 2 for the U,V pairs of NV12/NV21, else 1. */
  samples: number;
}

/** Where a frame's planes lie in the buffer, and its size there. */
export interface FrameLayout {
  planes: PlaneLayout[];
  frameBytes: number;
}

const roundUp = (value: number, to: number) => Math.ceil(value / to) * to;

export function isPlanar(format: VideoFormat): format is PlanarPixelFormat {
  return (PLANAR_PIXEL_FORMATS as readonly string[]).includes(format);
}

/**
 * GStreamer's default layout of a planar 4:2:0 frame (gst_video_info_set_format): rows rounded
 * up to 4 bytes, chroma planes after the Y plane of an even number of rows.
 */
export function planarLayout(format: PlanarPixelFormat, width: number, height: number): FrameLayout {
  const lumaStride = roundUp(width, 4);
  const chromaRows = roundUp(height, 2) / 2;
  const chromaColumns = roundUp(width, 2) / 2;
  const first = lumaStride * roundUp(height, 2);
  const planes: PlaneLayout[] = [{ offset: 0, stride: lumaStride, rows: height, columns: width, samples: 1 }];
  if (format === "I420") {
    const stride = roundUp(chromaColumns, 4);
    planes.push({ offset: first, stride, rows: chromaRows, columns: chromaColumns, samples: 1 });
    planes.push({ offset: first + stride * chromaRows, stride, rows: chromaRows, columns: chromaColumns, samples: 1 });
  } else {
    planes.push({ offset: first, stride: lumaStride, rows: chromaRows, columns: chromaColumns, samples: 2 });
  }
  const last = planes[planes.length - 1]!;
  return { planes, frameBytes: last.offset + last.stride * last.rows };
}

/**
 * How a synthetic frame lies in the buffer: packed frames row after row without padding (a
 * GstVideoMeta gives the stride), planar frames in GStreamer's default layout.
 */
export function frameLayout(video: VideoInfo): FrameLayout {
  const { format, width, height } = video;
  if (isPlanar(format)) return planarLayout(format, width, height);
  const samples = FORMAT_CHANNELS[format];
  return { planes: [{ offset: 0, stride: width * samples, rows: height, columns: width, samples }], frameBytes: width * height * samples };
}

/** Bytes of a frame's `pixels`: every plane's samples, rows without padding. */
export function pixelBytes(layout: FrameLayout): number {
  return layout.planes.reduce((sum, plane) => sum + plane.rows * plane.columns * plane.samples, 0);
}

/** "2x2 RGB, 3 per pixel, rows without padding": what `pixels` must hold. */
export function describePixels(video: VideoInfo): string {
  const { format } = video;
  if (!isPlanar(format)) return `${describeVideo(video)}, ${FORMAT_CHANNELS[format]} per pixel, rows without padding`;
  const [luma, ...chroma] = frameLayout(video).planes;
  const size = (plane: PlaneLayout) => `${plane.columns}x${plane.rows}`;
  const rest =
    format === "I420"
      ? `a ${size(chroma[0]!)} U plane and a ${size(chroma[0]!)} V plane`
      : `a ${size(chroma[0]!)} plane of ${format === "NV12" ? "U,V" : "V,U"} pairs`;
  return `${describeVideo(video)}: a ${size(luma!)} Y plane, then ${rest}, rows without padding`;
}

/** `pixels` (planes one after another, rows without padding) as `layout` lays them in the buffer. */
export function layOutPixels(layout: FrameLayout, pixels: Uint8Array): Uint8Array {
  const { planes } = layout;
  if (planes.length === 1 && planes[0]!.stride === planes[0]!.columns * planes[0]!.samples) return pixels;
  const bytes = new Uint8Array(layout.frameBytes);
  let from = 0;
  for (const plane of planes) {
    const row = plane.columns * plane.samples;
    for (let y = 0; y < plane.rows; y++, from += row) bytes.set(pixels.subarray(from, from + row), plane.offset + y * plane.stride);
  }
  return bytes;
}

/** `video/x-raw, format=(string)RGB, width=(int)320, height=(int)240`, frozen. */
export function capsOf(video: VideoInfo): Caps {
  const { format, width, height } = video;
  return Object.freeze({
    string: `video/x-raw, format=(string)${format}, width=(int)${width}, height=(int)${height}`,
    structures: Object.freeze([Object.freeze({ name: "video/x-raw", fields: Object.freeze({ format, width, height }) })]),
  });
}

/** "320x240 RGB". */
export function describeVideo(video: VideoInfo): string {
  return `${video.width}x${video.height} ${video.format}`;
}

export function sameVideo(a: VideoInfo, b: VideoInfo): boolean {
  return a.format === b.format && a.width === b.width && a.height === b.height;
}
