import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { temporaryDir } from "../test-support/bundle.js";
import { builtLibnode, findNativeArtefacts, hostBundleTarget } from "./native-artefacts.js";
import { DEFAULT_LIBNODE } from "./run.js";

describe("the libnode the host was built against", () => {
  it("is read from libnode.json beside the runtime, and unknown without it", () => {
    const dir = temporaryDir("libnode-json");
    const runtimePath = join(dir, "libdsnode-runtime.so.0");
    expect(builtLibnode(runtimePath)).toBeUndefined();
    writeFileSync(join(dir, "libnode.json"), '{"version": "20.19.2", "soname": "libnode.so.115", "path": "/usr/lib/x86_64-linux-gnu/libnode.so.115"}\n');
    expect(builtLibnode(runtimePath)).toEqual({ version: "20.19.2", soname: "libnode.so.115", path: "/usr/lib/x86_64-linux-gnu/libnode.so.115" });
    writeFileSync(join(dir, "libnode.json"), '{"version": 20}');
    expect(builtLibnode(runtimePath)).toBeUndefined();
  });

  it("is what this repository's native build recorded: the soname and version of the libnode-dev it compiled against", () => {
    const { runtimePath } = findNativeArtefacts(join(__dirname, "..", ".."));
    const recorded = builtLibnode(runtimePath);
    expect(recorded).toBeDefined();
    // node_version.h of the headers the runtime compiled against, and the soname it links.
    const header = readFileSync(join(process.env.DS_ELEMENT_NODE_PREFIX || "/usr", "include", "nodejs", "src", "node_version.h"), "utf8");
    const version = ["MAJOR", "MINOR", "PATCH"].map((part) => new RegExp(`#define NODE_${part}_VERSION (\\d+)`).exec(header)![1]).join(".");
    const moduleVersion = /#define NODE_MODULE_VERSION (\d+)$/m.exec(header)![1];
    expect(recorded).toMatchObject({ version, soname: `libnode.so.${moduleVersion}` });
    expect(recorded!.path.endsWith(`/libnode.so.${moduleVersion}`)).toBe(true);
    expect(DEFAULT_LIBNODE).toBe(recorded!.path);
  });

  it("sets the Node an element's bundle targets, Node 18 when unknown", () => {
    const at = (version: string) => hostBundleTarget({ version, soname: "", path: "" });
    expect([at("18.20.4"), at("20.19.2"), at("22.22.2"), at("24.22.2")]).toEqual(["node18", "node20", "node22", "node24"]);
    expect(hostBundleTarget(undefined)).toBe("node18");
    expect(at("")).toBe("node18");
  });
});
