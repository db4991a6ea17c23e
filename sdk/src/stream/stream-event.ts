import type { Structure } from "./caps.js";
import type { Source } from "./source.js";

/**
 * GStreamer event types forwarded to `onEvent()`, named as `gst_event_type_get_name()` names
 * them. Other types may appear as plain strings.
 *
 * @example
 * ```ts
 * const type: StreamEventType = "eos";
 * ```
 */
export type StreamEventType =
  | "eos"
  | "flush-start"
  | "flush-stop"
  | "stream-start"
  | "segment"
  | "gap"
  | "custom-downstream"
  | "custom-downstream-oob"
  | "custom-downstream-sticky"
  | SourceEventType
  | (string & {});

/**
 * nvstreammux's per-source events (DeepStream's `GST_NVEVENT_PAD_ADDED`, `PAD_DELETED`,
 * `STREAM_EOS`, `STREAM_SEGMENT`, `STREAM_RESET`), as the element receives them. The first three
 * and `"source-reset"` call the element's source hooks (`onSourceAdded()`, ...); a
 * `"source-segment"` (a source's new segment) comes to `onEvent()`. Each carries
 * {@link StreamEvent.source}.
 *
 * @example
 * ```ts
 * const type: SourceEventType = "source-added";
 * ```
 */
export type SourceEventType = "source-added" | "source-removed" | "source-eos" | "source-segment" | "source-reset";

/**
 * A serialized event that reached the element (end of stream, flush, new stream, custom
 * application events), handed to `onEvent()`. The event is forwarded downstream after the
 * hook returns (or its Promise resolves).
 *
 * @example
 * ```ts
 * async onEvent(event: StreamEvent) {
 *   if (event.type === "eos") await this.flushPendingResults();
 *   if (event.type === "custom-downstream" && event.structure?.name === "my-app/reset") this.count = 0;
 * }
 * ```
 */
export interface StreamEvent {
  /** The event type, e.g. `"eos"`. */
  readonly type: StreamEventType;
  /** The event's structure, when it has one (custom events, stream-start, segment). */
  readonly structure: Structure | null;
  /** The source a per-source event of nvstreammux is about ({@link SourceEventType}); absent on other events. */
  readonly source?: Source;
}
