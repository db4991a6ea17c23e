import type { z } from "zod";
import { describeValue, expectedMessage } from "../errors/describe-value.js";
import { ElementDefinitionError } from "../errors/errors.js";
import type { BatchMeta } from "../metadata/batch-meta.js";
import type { GstBuffer } from "../stream/gst-buffer.js";
import { HOST_PROTOCOL_V1, TRANSFORM_DROP_V1, type ElementAdapterV1, type HostServicesV1 } from "../protocol/host-protocol-v1.js";
import { validateProperties } from "../properties/validate-properties.js";
import type { Caps } from "../stream/caps.js";
import type { Source } from "../stream/source.js";
import type { StreamEvent } from "../stream/stream-event.js";
import { defineElement, type ElementDeclaration, type ElementDefinition } from "./declaration.js";
import { attachDefinition, constructWithContext, definitionOf, takePendingContext } from "./element-context.js";
import { createAdapterV1 } from "./host-adapter-v1.js";
import { createLogger, LOG_LEVEL, type ElementLogger, type LogSink } from "./logger.js";

/**
 * Options of {@link ElementClass.create}.
 *
 * @example
 * ```ts
 * const lines: string[] = [];
 * const counter = FrameCounter.create({ location: "/tmp/c.jsonl" }, { onLog: (level, message) => lines.push(message) });
 * ```
 */
export interface CreateOptions {
  /** Receives the element's log lines (level: 1 error … 7 trace). Default: errors and warnings go to stderr. */
  onLog?: LogSink;
}

/**
 * The class `Element.define()` returns, to be extended by the element's own class.
 *
 * @example
 * ```ts
 * const Base: ElementClass<typeof schema> = Element.define({ ...declaration, properties: schema });
 * export default class FrameCounter extends Base {}
 * ```
 */
export interface ElementClass<S extends z.ZodObject = z.ZodObject> {
  new (): Element<z.output<S>>;
  /** The prototype of the element's instances (what `transform()` and the other hooks live on). */
  readonly prototype: Element<z.output<S>>;
  /**
   * Makes an instance outside a pipeline (unit tests, scripts): validates `props` with the
   * schema exactly as the host does, then constructs the class.
   *
   * @example
   * ```ts
   * const counter = FrameCounter.create({ location: "/tmp/count.jsonl", everyN: 5 });
   * await counter.start();
   * ```
   */
  create<T extends Element<z.output<S>>>(this: new () => T, props?: z.input<S>, options?: CreateOptions): T;
  /** The host protocol adapter factory (see docs/internals/host-protocol.md). */
  [HOST_PROTOCOL_V1](services: HostServicesV1): ElementAdapterV1;
}

/**
 * What `transform()` may return (or its Promise resolve to): nothing, to pass the buffer on,
 * or {@link Element.DROP} to drop it.
 *
 * @example
 * ```ts
 * transform(batch: BatchMeta): TransformResult {
 *   return batch.numFrames === 0 ? Element.DROP : undefined;
 * }
 * ```
 */
export type TransformResult = void | typeof TRANSFORM_DROP_V1;

function stderrSink(name: string): LogSink {
  return (level, message, file, line) => {
    if (level > LOG_LEVEL.warn) return;
    const where = file ? ` (${file}:${line ?? 0})` : "";
    process.stderr.write(`${name} ${level === LOG_LEVEL.error ? "ERROR" : "WARN"}: ${message}${where}\n`);
  };
}

/** @internal The class `define()` returns: `Base` extended, carrying the validated definition. */
export function subclassWithDefinition(Base: new () => Element<object>, definition: ElementDefinition): Function {
  const Defined = class extends Base {};
  Object.defineProperty(Defined, "name", { value: `${Base.name}<${definition.name}>` });
  attachDefinition(Defined, definition);
  return Defined;
}

function requireDefinition(cls: Function): ElementDefinition {
  const definition = definitionOf(cls);
  if (!definition) {
    throw new ElementDefinitionError(
      expectedMessage(
        "a class extending Element.define({ name, ..., properties })",
        cls.name || "an element class",
        `a class extending ${describeValue(Object.getPrototypeOf(cls)?.name ?? "Element")} directly`,
      ),
    );
  }
  return definition;
}

/**
 * Base class of every ds-element element. Extend what `Element.define()` returns, and
 * override the hooks you need; each may be synchronous or `async` (the streaming thread waits
 * for the Promise). `this.props` is typed from the zod schema and always valid; `this.log`
 * writes to GST_DEBUG.
 *
 * Per-run state belongs in fields set in `start()` and dropped in `stop()`; settings are
 * `this.props`.
 *
 * @example
 * ```ts
 * import { Element, z, type BatchMeta } from "ds-element";
 *
 * export default class FrameCounter extends Element.define({
 *   name: "framecounter",
 *   longName: "Frame counter",
 *   klass: "Filter/Analyzer/Video",
 *   description: "Counts frames",
 *   author: "Jane Doe <jane@example.com>",
 *   caps: "video/x-raw, format={ RGB, RGBA }",
 *   properties: z.object({
 *     everyN: z.number().int().min(1).default(1).describe("Log every N frames"),
 *   }),
 * }) {
 *   count = 0;
 *   transform(batch: BatchMeta) {
 *     this.count += batch.numFrames;
 *     if (this.count % this.props.everyN === 0) this.log.info(`${this.count} frames`);
 *   }
 * }
 * ```
 */
export class Element<P extends object = {}> {
  /** The element's properties, validated by its schema. Replaced (not mutated) when one changes. */
  readonly props: Readonly<P>;
  /** Logs into the GST_DEBUG category named after the element. */
  readonly log: ElementLogger;

  /** Instances are made by the host or by `create()`; `new` with no context validates the schema's defaults. */
  constructor() {
    const context = takePendingContext();
    if (context) {
      this.props = context.props as Readonly<P>;
      this.log = context.log;
    } else {
      const definition = requireDefinition(new.target);
      this.props = validateProperties(definition.properties, {}) as Readonly<P>;
      this.log = createLogger(stderrSink(definition.name));
    }
  }

  /**
   * Returned by `transform()` (or what its Promise resolves to) to drop the buffer: it is not
   * pushed downstream, as when a C element returns GST_BASE_TRANSFORM_FLOW_DROPPED.
   * GStreamer's base class marks the next buffer it pushes DISCONT; events (EOS included),
   * QoS and latency queries go on as usual. Metadata written in a call that drops is
   * discarded with the buffer.
   *
   * @example
   * ```ts
   * transform(batch: BatchMeta) {
   *   // Keep every other frame.
   *   if (batch.frameItems[0]!.frameNum % 2 === 1) return Element.DROP;
   * }
   * ```
   */
  static readonly DROP: typeof TRANSFORM_DROP_V1 = TRANSFORM_DROP_V1;

  /**
   * Declares an element: metadata, caps and properties, as data. Returns the class to extend.
   * Throws {@link ElementDefinitionError} when the declaration cannot become a GStreamer
   * element (so `ds-element build` fails with the reason).
   *
   * @example
   * ```ts
   * export default class Marker extends Element.define({
   *   name: "marker", longName: "Marker", klass: "Filter/Video", description: "Marks frames",
   *   author: "Jane Doe <jane@example.com>", caps: "video/x-raw",
   *   properties: z.object({ label: z.string().default("hello").describe("Text to attach") }),
   * }) {}
   * ```
   */
  static define<S extends z.ZodObject = z.ZodObject<{}>>(declaration: ElementDeclaration<S>): ElementClass<S> {
    return subclassWithDefinition(Element, defineElement(declaration)) as unknown as ElementClass<S>;
  }

  /**
   * Makes an instance outside a pipeline; see {@link ElementClass.create}.
   *
   * @example
   * ```ts
   * const counter = FrameCounter.create({ location: "/tmp/count.jsonl" });
   * ```
   */
  static create<T extends Element<object>>(this: new () => T, props: object = {}, options: CreateOptions = {}): T {
    const definition = requireDefinition(this);
    const validated = validateProperties(definition.properties, props as Record<string, unknown>);
    const log = createLogger(options.onLog ?? stderrSink(definition.name));
    return constructWithContext(this, { props: validated, log });
  }

  /**
   * The host protocol adapter factory (docs/internals/host-protocol.md). Not for user code.
   *
   * @example
   * ```ts
   * const adapter = FrameCounter[Symbol.for("ds-element.host.v1")](services);
   * ```
   */
  static [HOST_PROTOCOL_V1](this: Function, services: HostServicesV1): ElementAdapterV1 {
    return createAdapterV1(this as new () => Element<object>, requireDefinition(this), services);
  }

  /**
   * Called when the element goes from READY to PAUSED, before the first buffer: open files,
   * load models, set up per-run state.
   *
   * @example
   * ```ts
   * async start() { this.file = await open(this.props.location, "a"); }
   * ```
   */
  start(): void | Promise<void> {}

  /**
   * Called for every buffer, on the element's streaming thread's behalf. The handles are valid
   * until this call returns (or its Promise settles). Return (or resolve to)
   * {@link Element.DROP} to drop the buffer instead of passing it on.
   *
   * @example
   * ```ts
   * transform(batch: BatchMeta, buffer: GstBuffer) {
   *   for (const frame of batch.frameItems) this.log.trace(`frame ${frame.frameNum} pts ${buffer.pts}`);
   * }
   * ```
   */
  transform(batch: BatchMeta, buffer: GstBuffer): TransformResult | Promise<TransformResult> {}

  /**
   * Called when the element goes from PAUSED to READY: flush and release what start() opened.
   *
   * @example
   * ```ts
   * async stop() { await this.file?.close(); }
   * ```
   */
  stop(): void | Promise<void> {}

  /**
   * Called when caps are negotiated (before the first buffer, and again on renegotiation).
   *
   * @example
   * ```ts
   * onCaps(caps: Caps) { this.format = String(caps.structures[0]?.fields.format); }
   * ```
   */
  onCaps(caps: Caps): void | Promise<void> {}

  /**
   * Called for serialized events (EOS, flushes, stream-start, segment, custom events, a source's
   * new segment from nvstreammux) before they are forwarded downstream. nvstreammux's source
   * added, removed, EOS and reset events go to `onSourceAdded()`, `onSourceRemoved()`,
   * `onSourceEos()` and `onSourceReset()` instead.
   *
   * @example
   * ```ts
   * onEvent(event: StreamEvent) { if (event.type === "eos") this.log.info("end of stream"); }
   * ```
   */
  onEvent(event: StreamEvent): void | Promise<void> {}

  /**
   * Called when nvstreammux adds a source (`GST_NVEVENT_PAD_ADDED`), in order with the batches:
   * before the first batch with a frame of it. Each source's {@link SourceState} starts fresh
   * here, also for a source id seen before.
   *
   * @example
   * ```ts
   * onSourceAdded(source: Source) { this.log.info(`camera ${source.sourceId} joined`); }
   * ```
   */
  onSourceAdded(source: Source): void | Promise<void> {}

  /**
   * Called when nvstreammux removes a source (`GST_NVEVENT_PAD_DELETED`: its sink pad was
   * released), after the last batch with a frame of it. The source's {@link SourceState} is
   * dropped once this hook returns (or its Promise settles).
   *
   * @example
   * ```ts
   * onSourceRemoved(source: Source) { this.tracks.get(source.sourceId)?.close(); }
   * ```
   */
  onSourceRemoved(source: Source): void | Promise<void> {}

  /**
   * Called when one source reaches its end of stream (`GST_NVEVENT_STREAM_EOS`) while others go
   * on; the pipeline's own EOS (`onEvent()`) comes when every source ended. The source's
   * {@link SourceState} is kept: the source is still linked and may be removed next.
   *
   * @example
   * ```ts
   * onSourceEos(source: Source) { this.log.info(`camera ${source.sourceId} ended`); }
   * ```
   */
  onSourceEos(source: Source): void | Promise<void> {}

  /**
   * Called when a source is reset (`GST_NVEVENT_STREAM_RESET`, e.g. nvurisrcbin reconnecting an
   * RTSP camera): what came before no longer continues. The source's {@link SourceState} is
   * dropped once this hook returns.
   *
   * @example
   * ```ts
   * onSourceReset(source: Source) { this.log.warn(`camera ${source.sourceId} reconnected`); }
   * ```
   */
  onSourceReset(source: Source): void | Promise<void> {}

  /**
   * Called after a property changed while the element exists (`this.props` already holds the
   * new value). Values the schema rejects never get here: the host posts an error instead.
   *
   * @example
   * ```ts
   * onPropertyChange(name: string, value: unknown, previous: unknown) {
   *   this.log.info(`${name}: ${String(previous)} -> ${String(value)}`);
   * }
   * ```
   */
  onPropertyChange<K extends keyof P & string>(name: K, value: P[K], previous: P[K]): void | Promise<void> {}

  /**
   * Dev mode only (`ds-element dev`, docs/dev-mode.md): called on the instance of a new build
   * when it takes over from `previous`, the running instance of the build before, at the next
   * buffer. By then this instance was constructed with the same properties, `start()` ran and
   * it saw the current caps; `previous.stop()` runs right after this hook. Copy what should
   * survive an edit (counters, tracks, open resources you hand over); everything else starts
   * fresh. `previous` is an instance of the *earlier* class: its fields are what that code
   * kept, its methods are the old code. Never called outside dev mode.
   *
   * @example
   * ```ts
   * count = 0;
   * onHotReload(previous: this) {
   *   this.count = previous.count; // keep counting across edits
   * }
   * ```
   */
  onHotReload(previous: this): void | Promise<void> {}
}
