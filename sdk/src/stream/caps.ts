/**
 * One structure of a caps or event: a media type (or event name) and its fields, converted
 * from GStreamer values to JSON-like values (fractions as `{ num, den }`, lists and ranges as
 * arrays/objects).
 *
 * @example
 * ```ts
 * onCaps(caps: Caps) {
 *   const video = caps.structures[0];
 *   this.log.info(`negotiated ${video?.name} ${String(video?.fields.width)}x${String(video?.fields.height)}`);
 * }
 * ```
 */
export interface Structure {
  /** The media type (`video/x-raw`) or structure name of an event. */
  readonly name: string;
  /** Field values by field name. */
  readonly fields: Readonly<Record<string, unknown>>;
}

/**
 * The caps negotiated on the element's pads, handed to `onCaps()`.
 *
 * @example
 * ```ts
 * onCaps(caps: Caps) {
 *   this.log.info(`caps: ${caps.string}`); // "video/x-raw, format=(string)RGB, width=(int)320, ..."
 *   const format = caps.structures[0]?.fields.format; // "RGB"
 * }
 * ```
 */
export interface Caps {
  /** `gst_caps_to_string()` of the caps. */
  readonly string: string;
  /** The caps' structures, in order. */
  readonly structures: readonly Structure[];
}
