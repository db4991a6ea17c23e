import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { ElementDefinitionError, PropertyValidationError, StaleHandleError } from "../errors/errors.js";
import type { BatchMeta } from "../metadata/batch-meta.js";
import type { GstBuffer } from "../stream/gst-buffer.js";
import { HOST_PROTOCOL_V1, type HostServicesV1 } from "../protocol/host-protocol-v1.js";
import { standaloneBindings } from "../native/loader.js";
import { makeTransformState, writeTransformState } from "../test-support/transform-state.js";
import { Element } from "./element.js";

const declaration = {
  name: "framecounter",
  longName: "Frame counter",
  klass: "Filter/Analyzer/Video",
  description: "Counts frames",
  author: "Jane Doe <jane@example.com>",
  caps: "video/x-raw, format={ RGB, RGBA }",
  properties: z.object({
    location: z.string().describe("Where to write the count"),
    everyN: z.number().int().min(1).default(1).describe("Log every N frames"),
  }),
};

class FrameCounter extends Element.define(declaration) {
  count = 0;
  everyAtConstruction = this.props.everyN;
  kept: BatchMeta | undefined;
  changes: [string, unknown, unknown][] = [];

  transform(batch: BatchMeta, buffer: GstBuffer) {
    this.count += batch.numFrames;
    this.kept = batch;
    if (this.count % this.props.everyN === 0) this.log.info(`${this.count} frames, pts ${buffer.pts}`);
  }

  onPropertyChange(name: string, value: unknown, previous: unknown) {
    this.changes.push([name, value, previous]);
  }
}

const bindings = standaloneBindings();

/** The host's services, with the real bindings (these tests read only frame fields, which make no native call). */
function hostServices() {
  return { log: vi.fn(), postError: vi.fn(), bindings } satisfies HostServicesV1;
}

describe("Element.create", () => {
  it("validates props, applies defaults and makes them visible to field initializers", () => {
    const counter = FrameCounter.create({ location: "/tmp/x", everyN: 5 });
    expect(counter).toBeInstanceOf(FrameCounter);
    expect(counter.props).toEqual({ location: "/tmp/x", everyN: 5 });
    expect(counter.everyAtConstruction).toBe(5);
    expect(FrameCounter.create({ location: "/tmp/x" }).props.everyN).toBe(1);
  });

  it("throws PropertyValidationError for invalid props", () => {
    expect(() => FrameCounter.create({ location: "/tmp/x", everyN: 0 })).toThrow(
      new PropertyValidationError("Expected a number ≥ 1 for every-n but received 0"),
    );
  });

  it("sends log lines to onLog", () => {
    const lines: [number, string][] = [];
    const counter = FrameCounter.create({ location: "/tmp/x" }, { onLog: (level, message) => lines.push([level, message]) });
    counter.log.error("e", 1);
    counter.log.warn("w");
    counter.log.info({ a: 1 });
    counter.log.debug("d");
    counter.log.trace("t %d", 5);
    expect(lines).toEqual([
      [1, "e 1"],
      [2, "w"],
      [4, "{ a: 1 }"],
      [5, "d"],
      [7, "t 5"],
    ]);
  });

  it("makes `new` without a host validate the schema's defaults", () => {
    expect(() => new FrameCounter()).toThrow("Expected a string for location but received nothing (the property is required)");
  });
});

describe("Element.define", () => {
  it("rejects a bad declaration when the class is defined", () => {
    expect(() => Element.define({ ...declaration, name: "Frame Counter" })).toThrow(ElementDefinitionError);
  });

  it("refuses classes that extend Element directly", () => {
    class Plain extends Element {}
    expect(() => Plain.create()).toThrow(
      'Expected a class extending Element.define({ name, ..., properties }) for Plain but received a class extending "Element" directly',
    );
  });
});

describe("host protocol v1 adapter", () => {
  const adapterOf = (services: HostServicesV1 = hostServices()) => FrameCounter[HOST_PROTOCOL_V1](services);

  it("is found under Symbol.for, so another SDK copy's host finds it", () => {
    const factory = (FrameCounter as unknown as Record<symbol, unknown>)[Symbol.for("ds-element.host.v1")];
    expect(typeof factory).toBe("function");
    const adapter = adapterOf();
    expect(adapter).toMatchObject({ protocolVersion: 1, sdkVersion: "0.1.0", name: "framecounter" });
    expect(adapter.manifest().properties.map((property) => property.name)).toEqual(["location", "every-n"]);
  });

  it("instantiates with validated props and logs through the host", () => {
    const services = hostServices();
    const instance = adapterOf(services).instantiate(4, { location: "/tmp/x", everyN: null });
    instance.transform(makeTransformState({ pts: 5, frames: [{}] }));
    expect(services.log).toHaveBeenCalledWith(4, 4, "1 frames, pts 5", undefined, undefined);
  });

  it("refuses a transform from a host that gave no metadata binding, naming the element", () => {
    const instance = adapterOf({ log: vi.fn(), postError: vi.fn() }).instantiate(1, { location: "/tmp/x" });
    expect(() => instance.transform(makeTransformState({ frames: [{}] }))).toThrow(
      "framecounter: transform() called by a host that gave no native bindings (HostServicesV1.bindings)",
    );
  });

  it("rejects invalid props at instantiation", () => {
    expect(() => adapterOf().instantiate(1, { location: "/tmp/x", everyN: 0 })).toThrow(
      "Expected a number ≥ 1 for every-n but received 0",
    );
  });

  it("invalidates handles when a synchronous transform returns", () => {
    const services = hostServices();
    const adapter = adapterOf(services);
    let element: FrameCounter | undefined;
    const spy = vi.spyOn(FrameCounter.prototype, "transform").mockImplementation(function (this: FrameCounter, batch) {
      element = this;
      this.kept = batch;
    });
    const instance = adapter.instantiate(1, { location: "/tmp/x" });
    expect(instance.transform(makeTransformState())).toBeUndefined();
    spy.mockRestore();
    expect(() => element?.kept?.numFrames).toThrow(StaleHandleError);
  });

  it("invalidates handles when a throwing transform throws, keeping the error", () => {
    let kept: BatchMeta | undefined;
    class Thrower extends Element.define({ ...declaration, properties: z.object({}) }) {
      transform(batch: BatchMeta) {
        kept = batch;
        throw new Error("boom");
      }
    }
    const instance = Thrower[HOST_PROTOCOL_V1](hostServices()).instantiate(1, {});
    expect(() => instance.transform(makeTransformState())).toThrow("boom");
    expect(() => kept?.numFrames).toThrow(StaleHandleError);
  });

  it("keeps handles of an async transform valid until its Promise settles, with their own values", async () => {
    let release: () => void = () => undefined;
    const seen: number[] = [];
    let kept: BatchMeta | undefined;
    class Slow extends Element.define({ ...declaration, properties: z.object({}) }) {
      async transform(batch: BatchMeta) {
        kept = batch;
        await new Promise<void>((resolve) => (release = resolve));
        seen.push(batch.frameItems[0]!.frameNum);
      }
    }
    const state = makeTransformState({ frames: [{ frameNum: 1 }] });
    const instance = Slow[HOST_PROTOCOL_V1](hostServices()).instantiate(1, {});
    const pending = instance.transform(state) as Promise<void>;
    // Another element's call rewrites the shared array while this one waits.
    writeTransformState(state, { frames: [{ frameNum: 99 }] });
    release();
    await pending;
    expect(seen).toEqual([1]);
    expect(() => kept?.numFrames).toThrow(StaleHandleError);
  });

  it("applies a valid property change and calls onPropertyChange", () => {
    const adapter = adapterOf();
    let element: FrameCounter | undefined;
    const spy = vi.spyOn(FrameCounter.prototype, "onPropertyChange").mockImplementation(function (this: FrameCounter, ...args) {
      element = this;
      this.changes.push(args);
    });
    const instance = adapter.instantiate(1, { location: "/tmp/x" });
    instance.property("everyN", 3);
    spy.mockRestore();
    expect(element?.props.everyN).toBe(3);
    expect(element?.changes).toEqual([["everyN", 3, 1]]);
  });

  it("rejects an invalid property change and keeps the old value", () => {
    const instance = adapterOf().instantiate(1, { location: "/tmp/x" });
    expect(() => instance.property("everyN", -1)).toThrow("Expected a number ≥ 1 for every-n but received -1");
  });

  it("forwards the lifecycle hooks", async () => {
    const calls: string[] = [];
    class Hooks extends Element.define({ ...declaration, properties: z.object({}) }) {
      async start() {
        calls.push("start");
      }
      onCaps(caps: { string: string }) {
        calls.push(`caps ${caps.string}`);
      }
      onEvent(event: { type: string }) {
        calls.push(`event ${event.type}`);
      }
      stop() {
        calls.push("stop");
      }
    }
    const instance = Hooks[HOST_PROTOCOL_V1](hostServices()).instantiate(1, {});
    await instance.start();
    instance.caps({ string: "video/x-raw", structures: [] });
    instance.event({ type: "eos", structure: null });
    instance.stop();
    instance.destroy();
    expect(calls).toEqual(["start", "caps video/x-raw", "event eos", "stop"]);
  });
});
