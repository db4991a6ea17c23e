import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { temporaryDir } from "../test-support/bundle.js";
import { splitRunArguments } from "./main.js";
import { builtinDists, exitCodeOf, pluginEnvironment, resolveDists, runWithPlugins } from "./run.js";

describe("pluginEnvironment", () => {
  it("puts the dists first on GST_PLUGIN_PATH, keeping what was there", () => {
    const env = pluginEnvironment(["/a/dist", "/b/dist"], { GST_PLUGIN_PATH: "/old:/older", HOME: "/home/x" }, "/nonexistent");
    expect(env).toEqual({ GST_PLUGIN_PATH: "/a/dist:/b/dist:/old:/older", HOME: "/home/x", DS_ELEMENT_PROPERTY_NOTES: "1" });
  });

  it("also prepends to GST_PLUGIN_PATH_1_0 when set (GStreamer prefers it)", () => {
    const env = pluginEnvironment(["/a/dist"], { GST_PLUGIN_PATH_1_0: "/x" }, "/nonexistent");
    expect(env).toMatchObject({ GST_PLUGIN_PATH: "/a/dist", GST_PLUGIN_PATH_1_0: "/a/dist:/x" });
  });

  it("asks the plugin for notes on refused property values, unless told otherwise", () => {
    expect(pluginEnvironment([], { DS_ELEMENT_PROPERTY_NOTES: "0" }, "/nonexistent").DS_ELEMENT_PROPERTY_NOTES).toBe("0");
  });

  it("sets DS_ELEMENT_LIBNODE only when the library exists and nothing is set", () => {
    const dir = temporaryDir("libnode");
    expect(pluginEnvironment([], {}, dir).DS_ELEMENT_LIBNODE).toBe(dir);
    expect(pluginEnvironment([], { DS_ELEMENT_LIBNODE: "/mine" }, dir).DS_ELEMENT_LIBNODE).toBe("/mine");
    expect(pluginEnvironment([], {}, join(dir, "missing")).DS_ELEMENT_LIBNODE).toBeUndefined();
  });
});

describe("resolveDists", () => {
  it("defaults to ./dist and fails clearly when it is missing", () => {
    const dir = temporaryDir("dists");
    expect(() => resolveDists(undefined, dir)).toThrow(
      "Expected a built dist/ folder for --dist but received ./dist, which does not exist; run `ds-element build` first",
    );
    mkdirSync(join(dir, "dist"));
    expect(resolveDists([], dir)).toEqual([join(dir, "dist")]);
  });
});

describe("splitRunArguments", () => {
  it("takes --dist options up to -- or the first other word", () => {
    expect(splitRunArguments(["--dist", "a", "--dist=b", "--", "gst-launch-1.0", "-v", "x"])).toEqual({
      dists: ["a", "b"],
      rest: ["gst-launch-1.0", "-v", "x"],
    });
    expect(splitRunArguments(["gst-inspect-1.0", "--dist", "x"])).toEqual({ dists: [], rest: ["gst-inspect-1.0", "--dist", "x"] });
  });
});

describe("runWithPlugins", () => {
  const dir = temporaryDir("run");
  mkdirSync(join(dir, "dist"));

  it("runs the command with the plugin path (the user's dists, then the SDK's built-in elements) and returns its exit code", async () => {
    const expected = [join(dir, "dist"), ...builtinDists()].join(":");
    const code = await runWithPlugins({
      cwd: dir,
      env: { PATH: process.env.PATH },
      command: ["sh", "-c", `test "$GST_PLUGIN_PATH" = "${expected}" && exit 7`],
    });
    expect(code).toBe(7);
  });

  it("returns 128 + the signal number when a signal ended the command", async () => {
    expect(await runWithPlugins({ cwd: dir, command: ["sh", "-c", "kill -TERM $$"] })).toBe(143);
    expect(exitCodeOf({ code: null, signal: "SIGKILL" })).toBe(137);
  });

  it("fails clearly for a command that does not exist", async () => {
    await expect(runWithPlugins({ cwd: dir, command: ["no-such-command-xyz"] })).rejects.toThrow(
      "Expected a command on PATH for ds-element run but received no-such-command-xyz, which was not found",
    );
  });
});
