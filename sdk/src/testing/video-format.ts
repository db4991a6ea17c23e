/**
 * The packed video formats of synthetic frames and the caps a frame of each gives, as
 * GStreamer would negotiate them (`gst_caps_to_string()` text and the structure's fields).
 */
import type { Caps } from "../stream/caps.js";
import type { VideoFormat } from "./batch-init.js";

/** Bytes per pixel of each format. */
export const BYTES_PER_PIXEL: Readonly<Record<VideoFormat, number>> = Object.freeze({
  RGB: 3,
  BGR: 3,
  RGBA: 4,
  BGRx: 4,
  GRAY8: 1,
});

/** The formats, for error messages. */
export const VIDEO_FORMATS = Object.freeze(Object.keys(BYTES_PER_PIXEL) as VideoFormat[]);

/** What a frame's caps say; one batch has one. */
export interface VideoInfo {
  format: VideoFormat;
  width: number;
  height: number;
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
