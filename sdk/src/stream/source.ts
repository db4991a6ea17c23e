/**
 * One source (camera, file, stream) of a batched DeepStream pipeline, as nvstreammux's
 * per-source events name it: handed to `onSourceAdded()`, `onSourceRemoved()`, `onSourceEos()`
 * and `onSourceReset()`.
 *
 * `sourceId` is the number of nvstreammux's sink pad the source is linked to (`sink_<n>`), which
 * is every frame's `padIndex` for that source (DeepStream's gst-nvevent.h: the source id "is also
 * the pad ID of the sinkpad of the Gst-nvstreammux plugin"). A frame's `sourceId` is the same
 * number unless the source element answers nvstreammux's source-id query with another (nvurisrcbin
 * with a `source-id`); per-source state is therefore keyed by `frame.padIndex`, as nvtracker keys
 * its streams ({@link SourceState}).
 *
 * @example
 * ```ts
 * onSourceAdded(source: Source) {
 *   this.log.info(`camera ${source.sourceId} joined`);
 * }
 * ```
 */
export interface Source {
  /** nvstreammux's sink pad number of the source: the `padIndex` of its frames. */
  readonly sourceId: number;
}
