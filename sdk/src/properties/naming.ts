/**
 * camelCase (TypeScript) ↔ kebab-case (GStreamer) property names, and the human nick shown
 * by gst-inspect. Acronyms stay together: `maxFPS` → `max-fps` / "Max FPS".
 */

const WORD = /[A-Z]+(?![a-z])|[A-Z]?[a-z0-9]+/g;

/** A JS property name the mapping accepts: starts lowercase, letters and digits only. */
export const JS_PROPERTY_NAME = /^[a-z][a-zA-Z0-9]*$/;

function words(jsName: string): string[] {
  return jsName.match(WORD) ?? [jsName];
}

/** `confidenceThreshold` → `confidence-threshold`, `everyN` → `every-n`. */
export function toKebabCase(jsName: string): string {
  return words(jsName)
    .map((word) => word.toLowerCase())
    .join("-");
}

/** `confidenceThreshold` → "Confidence threshold", `everyN` → "Every N", `maxFPS` → "Max FPS". */
export function toNick(jsName: string): string {
  return words(jsName)
    .map((word, index) => {
      const isAcronym = word === word.toUpperCase() && /[A-Z]/.test(word);
      if (isAcronym) return word;
      const lower = word.toLowerCase();
      return index === 0 ? lower.charAt(0).toUpperCase() + lower.slice(1) : lower;
    })
    .join(" ");
}
