/**
 * Renders a received value for an error message: strings quoted, arrays and plain objects as
 * JSON, `undefined` as "nothing". Long renderings are cut so one bad value cannot flood a log.
 */
export function describeValue(value: unknown): string {
  if (value === undefined) return "nothing";
  if (typeof value === "string") return cut(JSON.stringify(value));
  if (typeof value === "number" || typeof value === "boolean" || value === null) return String(value);
  if (typeof value === "bigint") return `${value}n`;
  if (typeof value === "function") return `a function${value.name ? ` (${value.name})` : ""}`;
  if (typeof value === "symbol") return value.toString();
  try {
    return cut(JSON.stringify(value) ?? String(value));
  } catch {
    return Object.prototype.toString.call(value);
  }
}

function cut(text: string): string {
  return text.length > 200 ? `${text.slice(0, 197)}...` : text;
}

/** The one shape of validation messages in this project. */
export function expectedMessage(what: string, name: string, received: string): string {
  return `Expected ${what} for ${name} but received ${received}`;
}
