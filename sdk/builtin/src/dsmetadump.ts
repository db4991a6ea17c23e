import { closeSync, openSync, writeSync } from "node:fs";
import { Element, z, type BatchMeta, type GstBuffer } from "ds-element";

const properties = z.object({
  location: z
    .string()
    .default("")
    .describe("File the JSON lines are written to (truncated at start); empty: standard output"),
});

/**
 * Writes every batch's metadata as one JSON line: the buffer's times, then each frame with its
 * objects (classifiers, label infos, user metas), display metas and user metas, and the batch's
 * user metas — what `batch.toJSON()` returns. For tests, debugging, and as a record of what an
 * element upstream wrote. Passes buffers through unchanged.
 *
 * In JSON, 64-bit values that are `bigint` in TypeScript (`ntpTimestamp`) are decimal strings,
 * typed arrays (mask data, user meta bytes) are arrays of numbers.
 *
 * ```sh
 * gst-launch-1.0 videotestsrc num-buffers=10 ! mydetector ! dsmetadump location=/tmp/meta.jsonl ! fakesink
 * ```
 */
export default class DsMetaDump extends Element.define({
  name: "dsmetadump",
  longName: "DeepStream metadata dump",
  klass: "Filter/Debug",
  description: "Writes each batch's metadata (frames, objects, classifiers, display and user metas) as JSON lines",
  author: "ds-element authors <ds-element@example.com>",
  caps: "ANY",
  properties,
}) {
  fd = -1;
  ownsFd = false;
  batches = 0;

  start() {
    this.ownsFd = this.props.location !== "";
    this.fd = this.ownsFd ? openSync(this.props.location, "w") : 1;
    this.batches = 0;
  }

  transform(batch: BatchMeta, buffer: GstBuffer) {
    const line = JSON.stringify({ batch: this.batches++, buffer: buffer.toJSON(), ...batch.toJSON() }, toJsonValue);
    writeSync(this.fd, `${line}\n`);
  }

  stop() {
    if (this.ownsFd) closeSync(this.fd);
    this.fd = -1;
    this.log.info(`wrote ${this.batches} batch(es) to ${this.props.location || "stdout"}`);
  }
}

/** JSON.stringify replacer: bigint → decimal string, typed arrays → plain arrays. */
function toJsonValue(_key: string, value: unknown): unknown {
  if (typeof value === "bigint") return value.toString();
  if (ArrayBuffer.isView(value) && !(value instanceof DataView)) return Array.from(value as unknown as ArrayLike<number>);
  return value;
}
