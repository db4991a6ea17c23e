/**
 * A value outside a property's GParamSpec range is refused by GObject before any element code
 * runs: GLib prints `value "-5" of type 'gint' is invalid or out of range for property 'every'
 * of type 'gint'`, the property keeps its previous value (on a gst-launch line, its default) and
 * the pipeline runs, exit 0. The element never sees the value, so it cannot say so; `ds-element
 * run`, which passes the command's stderr on, sees GLib's line and names what it means for the
 * elements of its dist folders: the element, the range, and the value it runs with instead.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { MAX_MANIFEST_BYTES, type ManifestProperty, type ManifestV1 } from "../protocol/manifest.js";

/** GLib's refusal (gobject/gobject.c, the same words since GLib 2.0). */
const GLIB_REFUSAL = /value "(.*)" of type '[^']*' is invalid or out of range for property '([^']+)' of type '[^']*'/;

/** The manifests of every element folder of `dists`; unreadable ones are left out (the plugin warns about them). */
function manifestsOf(dists: readonly string[]): ManifestV1[] {
  const manifests: ManifestV1[] = [];
  for (const dist of dists) {
    let names: string[];
    try {
      names = readdirSync(join(dist, "ds-elements"));
    } catch {
      continue;
    }
    for (const name of names.sort()) {
      const file = join(dist, "ds-elements", name, "element.json");
      try {
        if (statSync(file).size > MAX_MANIFEST_BYTES) continue;
        const manifest = JSON.parse(readFileSync(file, "utf8")) as ManifestV1;
        if (typeof manifest.name === "string" && Array.isArray(manifest.properties)) manifests.push(manifest);
      } catch {
        // not an element folder, or a broken manifest
      }
    }
  }
  return manifests;
}

/** "1 to 100", "items from 0 to 1", or undefined when the type has no range. */
function rangeOf(property: ManifestProperty): string | undefined {
  if (property.minimum === undefined && property.maximum === undefined) return undefined;
  const bounds = `${property.minimum ?? "any"} to ${property.maximum ?? "any"}`;
  return property.type.endsWith("-array") ? `items from ${bounds}` : bounds;
}

/** A property's default as gst-launch spells it. */
function spell(value: ManifestProperty["default"]): string {
  if (Array.isArray(value)) return `<${value.map((item) => (typeof item === "string" ? JSON.stringify(item) : String(item))).join(", ")}>`;
  return typeof value === "string" ? JSON.stringify(value) : String(value);
}

/**
 * Watches a command's stderr, line by line, for GLib refusing a value of a property that an
 * element of `dists` has, and returns what to print about it.
 *
 * @example
 * ```ts
 * const watcher = new RefusedPropertyWatcher(["dist"]);
 * child.stderr.on("data", (chunk) => { process.stderr.write(chunk); for (const note of watcher.push(chunk)) process.stderr.write(`${note}\n`); });
 * // ds-element run: framemark refused every=-5 (it takes 1 to 2147483647): GObject kept every's previous value; on a gst-launch line that is its default, 3
 * ```
 */
export class RefusedPropertyWatcher {
  private pending = "";
  private manifests: ManifestV1[] | undefined;

  constructor(private readonly dists: readonly string[]) {}

  /** The notes for the complete lines of `chunk` (with what came before it). */
  push(chunk: Buffer | string): string[] {
    const lines = (this.pending + chunk.toString()).split("\n");
    this.pending = lines.pop() ?? "";
    // A line that never ends (a progress bar) is not GLib's: keep the tail only.
    if (this.pending.length > 65_536) this.pending = this.pending.slice(-65_536);
    return lines.flatMap((line) => this.notesFor(line));
  }

  /** The notes for `line`: one per element of the dists with the refused property. */
  notesFor(line: string): string[] {
    const match = GLIB_REFUSAL.exec(line);
    if (match === null) return [];
    const [, value, name] = match;
    this.manifests ??= manifestsOf(this.dists);
    const notes: string[] = [];
    for (const manifest of this.manifests) {
      const property = manifest.properties.find((candidate) => candidate.name === name);
      if (property === undefined) continue;
      const range = rangeOf(property);
      const kept =
        property.default === undefined
          ? "it has no default, so the element fails at start if nothing else sets it"
          : `on a gst-launch line that is its default, ${spell(property.default)}`;
      notes.push(`ds-element run: ${manifest.name} refused ${name}=${value}${range ? ` (it takes ${range})` : ""}: GObject kept ${name}'s previous value; ${kept}`);
    }
    return notes;
  }
}
