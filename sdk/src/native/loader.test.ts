import { writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { temporaryDir } from "../test-support/bundle.js";
import { META_LAYOUT_VERSION } from "../protocol/transform-state.js";
import { installBindings } from "./installed-bindings.js";
import { loadStandaloneBinding, standaloneBindingPath, standaloneBindings } from "./loader.js";
import { TENSOR_BINDING_VERSION } from "./tensor-binding.js";

const platform = `${process.platform}-${process.arch}, Node ${process.versions.node}`;
const fix =
  "ds-element-native ships it in build/Release: reinstall it with `npm install ds-element` " +
  "(in the ds-element repository: `npm run build -w ds-element-native`)";

describe("loadStandaloneBinding", () => {
  const override = process.env.DSNODE_STANDALONE_BINDING;
  afterEach(() => {
    if (override === undefined) delete process.env.DSNODE_STANDALONE_BINDING;
    else process.env.DSNODE_STANDALONE_BINDING = override;
  });

  it("loads ds-element-native's dsnode_standalone.node, once", () => {
    const native = createRequire(__filename)("ds-element-native") as { buildDir: string };
    expect(standaloneBindingPath()).toBe(join(native.buildDir, "dsnode_standalone.node"));
    const addon = loadStandaloneBinding();
    expect(typeof addon.harness.openCall).toBe("function");
    expect(loadStandaloneBinding()).toBe(addon);
  });

  it("names the path, the platform and the fix when the addon is missing", () => {
    const missing = join(temporaryDir("standalone-binding"), "dsnode_standalone.node");
    process.env.DSNODE_STANDALONE_BINDING = missing;
    expect(() => loadStandaloneBinding()).toThrow(`Expected ds-element's standalone binding at ${missing} but received no such file (${platform}); ${fix}`);
  });

  it("names the path, the platform, the loader's reason and the fix when the addon does not load", () => {
    const broken = join(temporaryDir("standalone-binding"), "dsnode_standalone.node");
    writeFileSync(broken, "not a shared object");
    process.env.DSNODE_STANDALONE_BINDING = broken;
    expect(() => loadStandaloneBinding()).toThrow(new RegExp(`^Cannot load ds-element's standalone binding from ${broken} \\(${platform}\\): .+; ${fix.replace(/[()`]/g, "\\$&")}$`));
  });
});

describe("the one version check (installBindings, for every set a host hands over)", () => {
  const bindings = standaloneBindings();
  const rebuild = "the element was built with another release of ds-element than the runtime's (rebuild both with one release)";

  it("takes a set of this release's versions", () => {
    expect(() => installBindings(bindings)).not.toThrow();
  });

  it("refuses a metadata binding of another layout version, naming the binary and the fix", () => {
    const meta = { ...bindings.meta, layoutVersion: META_LAYOUT_VERSION + 1 };
    expect(() => installBindings({ ...bindings, meta })).toThrow(
      `Expected metadata layout version ${META_LAYOUT_VERSION} for ${bindings.libraryPath} but received ${META_LAYOUT_VERSION + 1}; ${rebuild}`,
    );
  });

  it("refuses a tensor binding of another version", () => {
    const tensor = { ...bindings.tensor, version: TENSOR_BINDING_VERSION + 1 };
    expect(() => installBindings({ ...bindings, tensor })).toThrow(
      `Expected tensor binding version ${TENSOR_BINDING_VERSION} for ${bindings.libraryPath} but received ${TENSOR_BINDING_VERSION + 1}; ${rebuild}`,
    );
  });
});
