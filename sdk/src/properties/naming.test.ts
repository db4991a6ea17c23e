import { describe, expect, it } from "vitest";
import { toKebabCase, toNick } from "./naming.js";

describe("property names", () => {
  it.each([
    ["confidenceThreshold", "confidence-threshold", "Confidence threshold"],
    ["everyN", "every-n", "Every N"],
    ["maxFPS", "max-fps", "Max FPS"],
    ["ioURLPath", "io-url-path", "Io URL path"],
    ["location", "location", "Location"],
    ["scale2x", "scale2x", "Scale2x"],
  ])("%s → %s / %s", (jsName, kebab, nick) => {
    expect(toKebabCase(jsName)).toBe(kebab);
    expect(toNick(jsName)).toBe(nick);
  });
});
