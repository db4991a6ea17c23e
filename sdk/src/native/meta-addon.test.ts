import { writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { temporaryDir } from "../test-support/bundle.js";
import { loadMetaAddon, metaAddonPath } from "./meta-addon.js";

const platform = `${process.platform}-${process.arch}, Node ${process.versions.node}`;
const fix =
  "ds-element-native ships it in build/Release: reinstall it with `npm install ds-element` " +
  "(in the ds-element repository: `npm run build -w ds-element-native`)";

describe("loadMetaAddon", () => {
  const override = process.env.DSNODE_META_ADDON;
  afterEach(() => {
    if (override === undefined) delete process.env.DSNODE_META_ADDON;
    else process.env.DSNODE_META_ADDON = override;
  });

  it("loads ds-element-native's dsnode_meta.node, once", () => {
    const native = createRequire(__filename)("ds-element-native") as { buildDir: string };
    expect(metaAddonPath()).toBe(join(native.buildDir, "dsnode_meta.node"));
    const addon = loadMetaAddon();
    expect(typeof addon.harness.openCall).toBe("function");
    expect(loadMetaAddon()).toBe(addon);
  });

  it("names the path, the platform and the fix when the addon is missing", () => {
    const missing = join(temporaryDir("meta-addon"), "dsnode_meta.node");
    process.env.DSNODE_META_ADDON = missing;
    expect(() => loadMetaAddon()).toThrow(`Expected ds-element's testing addon at ${missing} but received no such file (${platform}); ${fix}`);
  });

  it("names the path, the platform, the loader's reason and the fix when the addon does not load", () => {
    const broken = join(temporaryDir("meta-addon"), "dsnode_meta.node");
    writeFileSync(broken, "not a shared object");
    process.env.DSNODE_META_ADDON = broken;
    expect(() => loadMetaAddon()).toThrow(new RegExp(`^Cannot load ds-element's testing addon from ${broken} \\(${platform}\\): .+; ${fix.replace(/[()`]/g, "\\$&")}$`));
  });
});
