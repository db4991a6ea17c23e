// Lifecycle hooks reach the element while it runs: property changes while PLAYING, custom
// events, flushes, caps and EOS — driven from a python3-gi host like a real application.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot, scratchDir } from "./helpers/gst";
import { exampleDist } from "./helpers/projects";

interface Line {
  type: string;
  [key: string]: unknown;
}

describe("hooks of a PLAYING element", () => {
  const dir = scratchDir("hooks");
  const location = join(dir, "frames.jsonl");
  const output = execFileSync("/usr/bin/python3", [join(repoRoot, "test", "stress", "hooks.py"), location], {
    encoding: "utf8",
    timeout: 60_000,
    env: { ...process.env, GST_PLUGIN_PATH: exampleDist, GST_REGISTRY_1_0: join(dir, "registry.bin") },
  });
  const lines = readFileSync(location, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Line);
  const indexOf = (predicate: (line: Line) => boolean) => lines.findIndex(predicate);

  it("the host program finished", () => {
    expect(output.trim()).toBe("done");
  });

  it("a property set while PLAYING reaches onPropertyChange and this.props, in order with buffers", () => {
    const change = indexOf((line) => line.type === "property");
    expect(lines[change]).toEqual({ type: "property", name: "label", value: "relabelled", previous: "frames" });
    const framesBefore = lines.slice(0, change).filter((line) => line.type === "frame");
    const framesAfter = lines.slice(change).filter((line) => line.type === "frame");
    expect(framesBefore.length).toBeGreaterThanOrEqual(5);
    expect(framesBefore.every((line) => line.label === "frames")).toBe(true);
    expect(framesAfter.length).toBeGreaterThan(0);
    expect(framesAfter.every((line) => line.label === "relabelled")).toBe(true);
  });

  it("a custom downstream event arrives with its structure", () => {
    expect(lines).toContainEqual({
      type: "event",
      event: "custom-downstream",
      structure: { name: "ds-test-marker", fields: { answer: 42, note: "hello" } },
    });
  });

  it("a flushing seek arrives as flush-start then flush-stop, after the custom event", () => {
    const custom = indexOf((line) => line.event === "custom-downstream");
    const start = indexOf((line) => line.event === "flush-start");
    const stop = indexOf((line) => line.event === "flush-stop");
    expect(custom).toBeGreaterThan(0);
    expect(start).toBeGreaterThan(custom);
    expect(stop).toBeGreaterThan(start);
  });

  it("caps come first and EOS last", () => {
    expect(lines[0]?.type).toBe("caps");
    expect(lines.at(-1)?.type).toBe("eos");
  });
});

describe("a property value the schema rejects, set while PLAYING", () => {
  it("is a pipeline ERROR from that element naming the property, the value and the rule", () => {
    const dir = scratchDir("hooks-invalid");
    const output = execFileSync(
      "/usr/bin/python3",
      [join(repoRoot, "test", "stress", "hooks.py"), join(dir, "frames.jsonl"), "--invalid"],
      {
        encoding: "utf8",
        timeout: 60_000,
        env: { ...process.env, GST_PLUGIN_PATH: exampleDist, GST_REGISTRY_1_0: join(dir, "registry.bin") },
      },
    );
    expect(output.trim()).toBe('counter: counter: Expected a string of at least 1 character for location but received ""');
  });
});
