/**
 * The harness: drives an element class the way the GStreamer host does, through host protocol
 * v1 (props validated by the class's adapter, start, caps, transform with commit and end,
 * events, stop), over the standalone binding's buffers instead of a pipeline's. Only the buffers are
 * synthetic: the metadata goes through the same binding and backend code as in a pipeline.
 */
import { LOG_LEVEL } from "../element/logger.js";
import type { BatchMetaJSON } from "../metadata/batch-meta.js";
import { toError } from "../host-runtime/host.js";
import { loadStandaloneBinding, standaloneBindings, type StandaloneBinding } from "../native/loader.js";
import {
  HOST_PROTOCOL_V1,
  TRANSFORM_DROP_V1,
  type ElementAdapterV1,
  type ElementInstanceV1,
  type HostServicesV1,
} from "../protocol/host-protocol-v1.js";
import { describeValue, expectedMessage } from "../errors/describe-value.js";
import type { Caps } from "../stream/caps.js";
import type { StreamEvent, StreamEventType } from "../stream/stream-event.js";
import type { BatchInit } from "./batch-init.js";
import { inCall, openNativeCall } from "./native-call.js";
import { buildBuffer, countFrames, planBatch, writeUpstreamMeta } from "./synthetic-batch.js";
import { capsOf, sameVideo, type VideoInfo } from "./video-format.js";

/**
 * The level of a {@link LogRecord}, as `this.log` names it.
 *
 * @example
 * ```ts
 * const warnings = harness.logs.filter((record) => record.level === ("warn" satisfies LogLevel));
 * ```
 */
export type LogLevel = "error" | "warn" | "info" | "debug" | "trace";

/**
 * One line the element logged with `this.log` (in a pipeline it would go to GST_DEBUG).
 * Errors and warnings carry the file and line of the `this.log` call where it can be told
 * cheaply, as in a pipeline: when the element runs from a bundle with its source map.
 *
 * @example
 * ```ts
 * expect(harness.logs).toContainEqual({ level: "info", message: "source 0: 30 frames, 30.0 fps, 0 gaps" });
 * ```
 */
export interface LogRecord {
  /** The `this.log` method that wrote it. */
  level: LogLevel;
  /** The text, formatted like `console.log`'s. */
  message: string;
  /** The source file of the call (errors and warnings, when known). */
  file?: string;
  /** The line of the call in `file`. */
  line?: number;
}

/**
 * What the harness drives: a class made by `Element.define()` or `InferenceElement.define()`
 * (or extending one). Its `create()` gives the type of the props the harness takes.
 *
 * @example
 * ```ts
 * const element: HarnessElementClass = FrameFilter;
 * ```
 */
export interface HarnessElementClass {
  /** See `ElementClass.create`: `(props?, options?: CreateOptions)`. */
  create(...args: never[]): object;
}

/**
 * The properties `createHarness` and `runTransform` take for element class `C`: the input of
 * its zod schema, keyed by the TypeScript (camelCase) names, as `C.create()` takes them.
 *
 * @example
 * ```ts
 * const props: PropsInit<typeof FrameFilter> = { everyN: 10 };
 * ```
 */
export type PropsInit<C extends HarnessElementClass> = NonNullable<Parameters<C["create"]>[0]>;

/**
 * Options of {@link createHarness} and {@link runTransform}.
 *
 * @example
 * ```ts
 * const options: HarnessOptions<typeof YoloParse> = { props: { labels: ["person", "bicycle", "car"] } };
 * ```
 */
export interface HarnessOptions<C extends HarnessElementClass = HarnessElementClass> {
  /**
   * Property values, as `gst-launch-1.0 element prop=value` would set them (camelCase names
   * here). Validated by the element's schema exactly as in a pipeline; omitted ones take their
   * defaults.
   */
  props?: PropsInit<C>;
}

const LEVEL_NAMES: Readonly<Record<number, LogLevel>> = {
  [LOG_LEVEL.error]: "error",
  [LOG_LEVEL.warn]: "warn",
  [LOG_LEVEL.info]: "info",
  [LOG_LEVEL.debug]: "debug",
  [LOG_LEVEL.trace]: "trace",
};

let lastInstanceId = 0;

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === "object" && value !== null && typeof (value as { then?: unknown }).then === "function";
}

/** Waits for a hook's result, as the host does: a rejection or throw becomes an Error (the same one when it is an Error). */
async function settled(run: () => unknown): Promise<unknown> {
  let result: unknown;
  try {
    result = run();
  } catch (thrown) {
    throw toError(thrown);
  }
  if (isThenable(result)) {
    try {
      return await result;
    } catch (thrown) {
      throw toError(thrown);
    }
  }
  return result;
}

/** The class's host protocol v1 adapter factory, or a TypeError naming what was passed instead. */
function adapterFactoryOf(element: unknown): (services: HostServicesV1) => ElementAdapterV1 {
  const factory = typeof element === "function" ? (element as unknown as Record<symbol, unknown>)[HOST_PROTOCOL_V1] : undefined;
  if (typeof factory !== "function") {
    const received =
      typeof element === "function"
        ? `${element.name ? `class ${element.name}` : "a function"}, which does not extend Element`
        : describeValue(element);
    throw new TypeError(expectedMessage("an element class (a class extending Element.define({...}))", "createHarness element", received));
  }
  return (services) => (factory as (services: HostServicesV1) => ElementAdapterV1).call(element, services);
}

/**
 * An element instance driven outside GStreamer, made by {@link createHarness}: push synthetic
 * batches through its `transform()` and get back what downstream would see. Like a streaming
 * thread, it runs one thing at a time: await each call before the next.
 *
 * @example
 * ```ts
 * const harness = await createHarness(PeopleCounter, { props: { minConfidence: 0.5 } });
 * const out = await harness.push({ frames: [{ objects: [{ classId: 0, confidence: 0.9 }] }] });
 * await harness.pushEvent("eos");
 * await harness.stop();
 * expect(harness.logs.map((record) => record.message)).toContain("1 people");
 * ```
 */
export class ElementHarness<C extends HarnessElementClass = HarnessElementClass> {
  /**
   * Everything the element logged with `this.log`, oldest first. The harness only appends:
   * clear it with `harness.logs.length = 0` between steps.
   */
  readonly logs: LogRecord[];
  readonly #addon: StandaloneBinding;
  readonly #instance: ElementInstanceV1;
  #caps: Caps | undefined;
  #video: VideoInfo | undefined;
  /** Each source's next default frameNum. */
  readonly #frameCounters = new Map<number, number>();
  #busy: string | undefined;
  #stopped = false;
  #droppedBuffers = 0;

  /** @internal Made by createHarness(). */
  constructor(addon: StandaloneBinding, instance: ElementInstanceV1, logs: LogRecord[]) {
    this.#addon = addon;
    this.#instance = instance;
    this.logs = logs;
  }

  /**
   * The caps last given to the element's `onCaps()`: `video/x-raw` with the format, width and
   * height of the first push's frames, and again whenever a push's frames differ (a
   * renegotiation); undefined before the first push.
   *
   * @example
   * ```ts
   * await harness.push({ frames: [{ width: 64, height: 48, format: "RGBA" }] });
   * harness.caps?.string; // "video/x-raw, format=(string)RGBA, width=(int)64, height=(int)48"
   * ```
   */
  get caps(): Caps | undefined {
    return this.#caps;
  }

  /**
   * How many pushed buffers `transform()` dropped (returned or resolved to `Element.DROP`): in a
   * pipeline they would not have reached downstream. `push()` still resolves to what such a
   * buffer held.
   *
   * @example
   * ```ts
   * for (let i = 0; i < 4; i++) await harness.push();
   * expect(harness.droppedBuffers).toBe(2);
   * ```
   */
  get droppedBuffers(): number {
    return this.#droppedBuffers;
  }

  /**
   * Runs the element's `transform()` on one synthetic batched buffer and returns the buffer's
   * metadata afterwards, as downstream elements would see it (`batch.toJSON()`, read in a fresh
   * call once transform() settled and its writes were committed).
   *
   * Before the element's call, the buffer gets the frames' pixels and what `batch` says
   * upstream left (objects, classifiers, user metas, tensor outputs), written through the
   * metadata API in a call of its own. Calls `onCaps()` first when the frames' caps are new.
   * An `async` transform is awaited. What transform() throws or rejects with rejects the
   * Promise, the same Error; handles the element kept go stale as in a pipeline.
   *
   * @example
   * ```ts
   * const out = await harness.push({
   *   pts: 0,
   *   frames: [{ width: 1280, height: 720, objects: [{ classId: 0, rectParams: { left: 100, top: 500, width: 40, height: 80 } }] }],
   * });
   * expect(out.frameItems[0]?.userMetaItems[0]?.json).toEqual({ zone: "gate", vehicles: 0, people: 1 });
   * ```
   */
  async push(batch: BatchInit = {}): Promise<BatchMetaJSON> {
    this.#enter("push()");
    try {
      const addon = this.#addon;
      const plan = planBatch(batch, this.#frameCounters);
      const buffer = buildBuffer(addon.harness, plan);
      try {
        writeUpstreamMeta(addon, buffer, plan);
        countFrames(plan, this.#frameCounters);
        if (this.#video === undefined || !sameVideo(this.#video, plan.video)) {
          const caps = capsOf(plan.video);
          await settled(() => this.#instance.caps(caps));
          this.#caps = caps;
          this.#video = plan.video;
        }
        const numFrames = plan.frames.length;
        const { callId, state } = openNativeCall(addon, buffer, numFrames);
        try {
          if ((await settled(() => this.#instance.transform(state))) === TRANSFORM_DROP_V1) this.#droppedBuffers++;
        } finally {
          addon.harness.closeCall(callId);
        }
        return inCall(addon, buffer, numFrames, (read) => read.toJSON());
      } finally {
        addon.harness.releaseBuffer(buffer);
      }
    } finally {
      this.#busy = undefined;
    }
  }

  /**
   * Sends an event to the element's `onEvent()`, as a serialized event flowing downstream
   * would (`"eos"` is short for `{ type: "eos", structure: null }`).
   *
   * @example
   * ```ts
   * await harness.pushEvent("eos");
   * await harness.pushEvent({ type: "custom-downstream", structure: { name: "acme/reset", fields: {} } });
   * ```
   */
  async pushEvent(event: StreamEvent | StreamEventType): Promise<void> {
    this.#enter("pushEvent()");
    try {
      const value: StreamEvent = typeof event === "string" ? Object.freeze({ type: event, structure: null }) : event;
      await settled(() => this.#instance.event(value));
    } finally {
      this.#busy = undefined;
    }
  }

  /**
   * Changes one property while the element runs, as `g_object_set` would: the schema checks the
   * value (an invalid one rejects with the pipeline's message and changes nothing), then
   * `onPropertyChange()` runs.
   *
   * @example
   * ```ts
   * await harness.setProperty("threshold", 0.8);
   * ```
   */
  async setProperty<K extends keyof PropsInit<C> & string>(name: K, value: Exclude<PropsInit<C>[K], undefined>): Promise<void> {
    this.#enter("setProperty()");
    try {
      await settled(() => this.#instance.property(name, value));
    } finally {
      this.#busy = undefined;
    }
  }

  /**
   * Calls the element's `stop()` (PAUSED to READY) and ends the harness; later calls reject.
   * Stopping twice is harmless.
   *
   * @example
   * ```ts
   * await harness.stop();
   * ```
   */
  async stop(): Promise<void> {
    if (this.#stopped && this.#busy === undefined) return;
    this.#enter("stop()");
    this.#stopped = true;
    try {
      await settled(() => this.#instance.stop());
    } finally {
      this.#instance.destroy();
      this.#busy = undefined;
    }
  }

  #enter(operation: string): void {
    if (this.#busy !== undefined) {
      throw new Error(
        expectedMessage(`the harness's ${this.#busy} to have settled`, operation, "a call while it runs (await each call of the harness before the next)"),
      );
    }
    if (this.#stopped) throw new Error(expectedMessage("a harness that was not stopped", operation, "one stopped with stop()"));
    this.#busy = operation;
  }
}

/**
 * Makes an instance of an element class as the GStreamer host does (its properties validated
 * by its schema: an invalid one rejects with the same error a pipeline shows) and calls its
 * `start()`. Runs in vitest or plain Node, without GStreamer elements or a pipeline, over
 * ds-element-native's standalone binding.
 *
 * @example
 * ```ts
 * import { createHarness } from "ds-element/testing";
 * import YoloParse from "./yolo-parse.js";
 *
 * const harness = await createHarness(YoloParse, { props: { labels: ["person", "bicycle", "car"] } });
 * const out = await harness.push({ frames: [{ width: 1280, height: 720, tensorOutputs: [yoloOutput] }] });
 * await harness.stop();
 * ```
 */
export async function createHarness<C extends HarnessElementClass>(element: C, options: HarnessOptions<C> = {}): Promise<ElementHarness<C>> {
  const factory = adapterFactoryOf(element);
  const addon = loadStandaloneBinding();
  const logs: LogRecord[] = [];
  const services: HostServicesV1 = {
    log(_instanceId, level, message, file, line) {
      const record: LogRecord = { level: LEVEL_NAMES[level] ?? "debug", message };
      if (file !== undefined) record.file = file;
      if (line !== undefined) record.line = line;
      logs.push(record);
    },
    postError(_instanceId, message) {
      logs.push({ level: "error", message });
    },
    bindings: standaloneBindings(),
  };
  const instance = factory(services).instantiate(++lastInstanceId, (options.props ?? {}) as Record<string, unknown>);
  try {
    await settled(() => instance.start());
  } catch (error) {
    instance.destroy();
    throw error;
  }
  return new ElementHarness<C>(addon, instance, logs);
}

/**
 * One-shot: creates a harness, pushes one batch, stops, and returns what the element left in
 * the buffer (see {@link ElementHarness.push}).
 *
 * @example
 * ```ts
 * const out = await runTransform(ZoneCounter, {
 *   frames: [{ width: 1280, height: 720, objects: [{ classId: 2, rectParams: { left: 100, top: 500, width: 120, height: 80 } }] }],
 * });
 * expect(out.frameItems[0]?.userMetaItems[0]?.json).toEqual({ zone: "gate", vehicles: 1, people: 0 });
 * ```
 */
export async function runTransform<C extends HarnessElementClass>(element: C, batch: BatchInit = {}, options: HarnessOptions<C> = {}): Promise<BatchMetaJSON> {
  const harness = await createHarness(element, options);
  let result: BatchMetaJSON;
  try {
    result = await harness.push(batch);
  } catch (error) {
    await harness.stop().catch(() => undefined);
    throw error;
  }
  await harness.stop();
  return result;
}
