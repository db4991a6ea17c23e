/**
 * Whether an element's bundle and the element.json the host plugin registered it from come from
 * one build. The plugin makes the GObject properties from element.json alone (no Node at
 * registration); the bundle validates what it is given against its own schema. When the two
 * disagree (an element.json left from an older build, a bundle copied over), a value set on the
 * command line under a name the bundle no longer has was dropped and the default used, without a
 * word: so the bundle is refused instead, naming both files.
 */
import { readFileSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { MAX_MANIFEST_BYTES, type ManifestProperty, type ManifestV1 } from "../protocol/manifest.js";

/**
 * The element.json of a bundle: the nearest one in the bundle's folder or above (the manifest's
 * `entry` is a path inside the element folder). Undefined when there is none or it cannot be
 * read as JSON: the host plugin registered the element from a readable one, so that is a file
 * changed since, which GStreamer's registry rescans.
 */
function readManifestOf(bundlePath: string): { file: string; manifest: Partial<ManifestV1> } | undefined {
  for (let folder = dirname(bundlePath); ; folder = dirname(folder)) {
    const file = join(folder, "element.json");
    try {
      if (statSync(file).size > MAX_MANIFEST_BYTES) return undefined;
      return { file, manifest: JSON.parse(readFileSync(file, "utf8")) as Partial<ManifestV1> };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") return undefined;
    }
    if (dirname(folder) === folder) return undefined;
  }
}

/** "int", "enum of fast, slow". */
function typeOf(property: ManifestProperty): string {
  return property.type === "enum" ? `enum of ${(property.values ?? []).map((value) => value.nick).join(", ")}` : property.type;
}

/** The differences between two property lists, in words; empty when they agree. */
function propertyDifferences(registered: readonly ManifestProperty[], declared: readonly ManifestProperty[]): string[] {
  const byName = (list: readonly ManifestProperty[]) => new Map(list.map((property) => [property.name, property]));
  const registeredByName = byName(registered);
  const declaredByName = byName(declared);
  const differences: string[] = [];
  for (const property of registered) {
    const other = declaredByName.get(property.name);
    if (other === undefined) differences.push(`${property.name} (${typeOf(property)}) is only in element.json`);
    else if (typeOf(other) !== typeOf(property)) differences.push(`${property.name} is ${typeOf(property)} in element.json, ${typeOf(other)} in the bundle`);
    else if (other.jsName !== property.jsName) differences.push(`${property.name} is ${property.jsName} in element.json's JavaScript, ${other.jsName} in the bundle's`);
  }
  for (const property of declared) {
    if (!registeredByName.has(property.name)) differences.push(`${property.name} (${typeOf(property)}) is only in the bundle`);
  }
  return differences;
}

/**
 * Throws when the properties (names, JS names, types, enum values) that `declared` (the
 * bundle's own declaration) has differ from those of the element.json beside `bundlePath`.
 *
 * @example
 * ```ts
 * checkManifestAgreement("framecounter", "/dist/ds-elements/framecounter/index.js", adapter.manifest());
 * // Error: Expected the properties of /dist/ds-elements/framecounter/element.json in
 * //   /dist/ds-elements/framecounter/index.js but received other ones: count (int) is only in
 * //   element.json; limit (int) is only in the bundle. The two files are from different builds:
 * //   run `ds-element build` again
 * ```
 */
export function checkManifestAgreement(elementName: string, bundlePath: string, declared: ManifestV1): void {
  const found = readManifestOf(bundlePath);
  if (found === undefined || found.manifest.name !== elementName || !Array.isArray(found.manifest.properties)) return;
  const differences = propertyDifferences(found.manifest.properties, declared.properties);
  if (differences.length === 0) return;
  throw new Error(
    `Expected the properties of ${found.file} in ${bundlePath} but received other ones: ${differences.join("; ")}. ` +
      "The two files are from different builds (a property set under a name the bundle does not have would be lost): " +
      "run `ds-element build` again",
  );
}
