import { describe, expect, it } from "vitest";
import { userStack, withUserStack } from "./user-stack.js";

const sdkThrew = [
  "InvalidValueError: Expected a number from 0 to 1 for confidence but received 2",
  "    at checkUnit (ds-element:/src/metadata/validation.ts:40:11)",
  "    at ObjectMeta.set confidence [as confidence] (ds-element:/src/metadata/object-meta.ts:240:5)",
  "    at Scorer.transform (/home/jane/scorer/src/index.ts:12:22)",
  "    at HostedElement.transform (ds-element:/src/element/host-adapter-v1.ts:93:29)",
  "    at ds-element:/src/host-runtime/host.ts:92:95",
  "    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)",
].join("\n");

describe("userStack", () => {
  it("drops the SDK's frames, so the stack starts at the user's line", () => {
    expect(userStack(sdkThrew)).toBe(
      [
        "InvalidValueError: Expected a number from 0 to 1 for confidence but received 2",
        "    at Scorer.transform (/home/jane/scorer/src/index.ts:12:22)",
        "    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)",
      ].join("\n"),
    );
  });

  it("keeps a message of several lines and a stack of the SDK's own", () => {
    expect(userStack("Error: two\nlines\n    at a (/src/x.ts:1:1)\n    at b (ds-element:/src/y.ts:2:2)")).toBe("Error: two\nlines\n    at a (/src/x.ts:1:1)");
    const ownOnly = "Error: no model\n    at get runner (ds-element:/src/element/inference-element.ts:1:1)";
    expect(userStack(ownOnly)).toBe(ownOnly);
  });

  it("rewrites the stack of what was thrown, and leaves other values alone", () => {
    const error = new Error("x");
    error.stack = sdkThrew;
    expect(withUserStack(error).stack!.split("\n")[1]).toBe("    at Scorer.transform (/home/jane/scorer/src/index.ts:12:22)");
    expect(withUserStack("a string")).toBe("a string");
    const frozen = Object.freeze({ stack: sdkThrew });
    expect(withUserStack(frozen).stack).toBe(sdkThrew);
  });
});
