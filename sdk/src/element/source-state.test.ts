// Sources that come and go (nvstreammux's per-source events): the hooks, in order, and the
// per-source state they drop. Driven through the host protocol adapter by ds-element/testing, as
// the host drives it; the pipeline test with nvstreammux's events is test/source-events.test.ts.
import { describe, expect, it } from "vitest";
import { Element, SourceState, z, type BatchMeta, type Source, type StreamEvent } from "../index.js";
import { createHarness } from "../testing/index.js";

const author = "ds-element tests <tests@example.com>";

class PerSource extends Element.define({
  name: "persource",
  longName: "Per source",
  klass: "Filter/Analyzer/Video",
  description: "Counts frames per source",
  author,
  caps: "video/x-raw",
  properties: z.object({}),
}) {
  frames = new SourceState(this, (sourceId) => {
    this.log.info(`made ${sourceId}`);
    return { count: 0 };
  });
  transform(batch: BatchMeta) {
    for (const frame of batch.frameItems) this.log.info(`frame ${frame.padIndex} #${++this.frames.of(frame).count}`);
  }
  onSourceAdded(source: Source) {
    this.log.info(`added ${source.sourceId}`);
  }
  async onSourceRemoved(source: Source) {
    await Promise.resolve();
    this.log.info(`removed ${source.sourceId} after ${this.frames.get(source.sourceId)?.count ?? "none"}`);
  }
  onSourceEos(source: Source) {
    this.log.info(`eos ${source.sourceId} kept ${String(this.frames.has(source.sourceId))}`);
  }
  onSourceReset(source: Source) {
    this.log.info(`reset ${source.sourceId}`);
  }
  onEvent(event: StreamEvent) {
    this.log.info(`event ${event.type} ${event.source?.sourceId ?? ""}`.trim());
  }
}

const sourceEvent = (type: string, sourceId: number): StreamEvent => ({ type, structure: null, source: { sourceId } });

describe("source hooks and SourceState", () => {
  it("fire in order with the batches; removal and reset drop the state after the hook; a re-added source starts fresh", async () => {
    const harness = await createHarness(PerSource);
    await harness.pushEvent(sourceEvent("source-added", 0));
    await harness.push({ frames: [{ sourceId: 0 }] });
    await harness.pushEvent(sourceEvent("source-added", 1));
    await harness.push({ frames: [{ sourceId: 0 }, { sourceId: 1 }] });
    await harness.pushEvent(sourceEvent("source-segment", 1));
    await harness.pushEvent(sourceEvent("source-eos", 0));
    await harness.pushEvent(sourceEvent("source-removed", 0));
    await harness.pushEvent(sourceEvent("source-reset", 1));
    await harness.push({ frames: [{ sourceId: 1 }] });
    await harness.pushEvent(sourceEvent("source-added", 0));
    await harness.push({ frames: [{ sourceId: 0 }, { sourceId: 1 }] });
    await harness.stop();
    expect(harness.logs.map((record) => record.message)).toEqual([
      "added 0",
      "made 0",
      "frame 0 #1",
      "added 1",
      "frame 0 #2",
      "made 1",
      "frame 1 #1",
      "event source-segment 1",
      "eos 0 kept true",
      "removed 0 after 2",
      "reset 1",
      "made 1",
      "frame 1 #1",
      "added 0",
      "made 0",
      "frame 0 #1",
      "frame 1 #2",
    ]);
  });

  it("drops the state even when the hook throws", async () => {
    class Throws extends PerSource {
      onSourceRemoved(): Promise<void> {
        throw new Error("hook failed");
      }
    }
    const harness = await createHarness(Throws);
    await harness.push({ frames: [{ sourceId: 2 }] });
    await expect(harness.pushEvent(sourceEvent("source-removed", 2))).rejects.toThrow("hook failed");
    await harness.push({ frames: [{ sourceId: 2 }] });
    expect(harness.logs.map((record) => record.message)).toEqual(["made 2", "frame 2 #1", "made 2", "frame 2 #1"]);
  });

  it("refuses what is not a source", () => {
    const element = PerSource.create();
    expect(() => element.frames.of(-1)).toThrow(new TypeError("Expected a source id (an integer >= 0) or a frame for source but received -1"));
    expect(() => new SourceState(undefined as unknown as object, () => 0)).toThrow(
      new TypeError("Expected the element (this) for element but received nothing"),
    );
  });
});
