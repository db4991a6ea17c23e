import { PropertyValidationError, type LogSink } from "ds-element";
import { describe, expect, it } from "vitest";
import FrameFilter from "./index.js";

/** Makes the element outside a pipeline, collecting its log lines as "<level> <message>". */
function create(props: Parameters<typeof FrameFilter.create>[0] = {}) {
  const lines: string[] = [];
  const onLog: LogSink = (level, message) => lines.push(`${level} ${message}`);
  return { element: FrameFilter.create(props, { onLog }), lines };
}

describe("template-element-name", () => {
  it("has the documented defaults", () => {
    expect(create().element.props).toEqual({ everyN: 30, rateWindow: 1, gapFactor: 2 });
  });

  it("takes property values as gst-launch-1.0 would set them", () => {
    expect(create({ everyN: 10, gapFactor: 3 }).element.props).toEqual({ everyN: 10, rateWindow: 1, gapFactor: 3 });
  });

  it("rejects an invalid value with the message GStreamer shows", () => {
    expect(() => create({ everyN: 0 })).toThrow(PropertyValidationError);
    expect(() => create({ everyN: 0 })).toThrow("Expected a number ≥ 1 for every-n but received 0");
    expect(() => create({ rateWindow: 120 })).toThrow("Expected a number ≤ 60 for rate-window but received 120");
  });

  it("says so at end of stream when no frame came", async () => {
    const { element, lines } = create();
    await element.start();
    await element.onEvent({ type: "eos", structure: null });
    await element.stop();
    expect(lines).toEqual(["4 end of stream before any frame"]);
  });
});
