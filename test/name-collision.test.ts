// An element.json whose name another plugin provides (here by hand: `ds-element build` refuses
// such a name, sdk/src/cli/build.test.ts) is skipped by the host plugin with a warning, and the
// other plugin keeps its element, in the registry and in its cache, whichever process scans
// the plugin: gst-plugin-scanner (GStreamer's default) or the application itself.
import { cpSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { inspect, scratchDir } from "./helpers/gst";
import { exampleDist } from "./helpers/projects";

/** A dist/ with the example's framecounter and a copy of it renamed `identity`. */
function distWithIdentity(): { dist: string; identityManifest: string } {
  const dist = join(scratchDir("name-collision"), "dist");
  cpSync(exampleDist, dist, { recursive: true });
  cpSync(join(dist, "ds-elements", "framecounter"), join(dist, "ds-elements", "identity"), { recursive: true });
  const identityManifest = join(dist, "ds-elements", "identity", "element.json");
  const manifest = JSON.parse(readFileSync(identityManifest, "utf8")) as { name: string };
  writeFileSync(identityManifest, JSON.stringify({ ...manifest, name: "identity" }, null, 2));
  return { dist, identityManifest };
}

function pluginOf(output: string): string | undefined {
  return /Plugin Details:\n\s+Name\s+(\S+)/.exec(output)?.[1];
}

const warning = /WARN .*dsnode .*skipping .*ds-elements\/identity\/element\.json: an element named "identity" already exists in plugin coreelements/;

describe.each([
  { scanner: "gst-plugin-scanner", env: {} },
  { scanner: "the application", env: { GST_REGISTRY_FORK: "no" } },
])("an element.json named identity, scanned in $scanner", ({ env }) => {
  it("leaves identity to coreelements on every scan, warns, and keeps the plugin's other elements", () => {
    const { dist, identityManifest } = distWithIdentity();
    const registry = join(scratchDir("name-collision-registry"), "registry.bin");
    const options = { dists: [dist], registry, env: { ...env, GST_DEBUG: "dsnode:2" } };

    // A new registry: every plugin is scanned.
    const first = inspect(["identity"], options);
    expect(first.code, first.output).toBe(0);
    expect(pluginOf(first.stdout)).toBe("coreelements");

    // The element.json changes: only dsnode is scanned again, against a registry that knows coreelements.
    writeFileSync(identityManifest, `${readFileSync(identityManifest, "utf8")}\n`);
    const rescanned = inspect(["identity"], options);
    expect(pluginOf(rescanned.stdout), rescanned.output).toBe("coreelements");
    expect(rescanned.stderr).toMatch(warning);
    const framecounter = inspect(["framecounter"], options);
    expect(pluginOf(framecounter.stdout), framecounter.output).toBe("dsnode");

    // The element goes away: identity is still there (the registry cache never lost it).
    rmSync(join(dist, "ds-elements", "identity"), { recursive: true });
    const removed = inspect(["identity"], options);
    expect(pluginOf(removed.stdout), removed.output).toBe("coreelements");
    expect(removed.stderr).not.toMatch(warning);
  });
});
