// The plugin loads the libnode the host was built against (native-host/CMakeLists.txt records
// it: build/Release/libnode.json, the soname compiled into the plugin), says which at load
// (GST_DEBUG=dsnode:4), and names it, with the fix, when it cannot be loaded.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { launch } from "./helpers/gst";
import { fixturesDist } from "./helpers/projects";

const nativeDir = process.env.DS_ELEMENT_NATIVE_DIR ?? join(__dirname, "..", "native-host", "build", "Release");
const libnode = JSON.parse(readFileSync(join(nativeDir, "libnode.json"), "utf8")) as { version: string; soname: string; path: string };
const pipeline = "videotestsrc num-buffers=2 ! video/x-raw,format=RGB,width=64,height=48 ! throwsync after=10 ! fakesink";

describe("the libnode the host loads", () => {
  it("is the one it was built against, named at load", () => {
    const run = launch(pipeline, { dists: [fixturesDist], env: { DS_ELEMENT_LIBNODE: undefined, GST_DEBUG: "dsnode:4" } });
    expect(run.code, run.output).toBe(0);
    expect(run.stderr).toContain(`loading libnode from ${libnode.soname} (the host was built against Node ${libnode.version}, ${libnode.soname})`);
  });

  it("that cannot be loaded is an element error naming the library, the Node it must be and the fix", () => {
    const run = launch(pipeline, { dists: [fixturesDist], env: { DS_ELEMENT_LIBNODE: "/opt/nope/libnode.so.1" } });
    expect(run.signal, run.output).toBeNull();
    expect(run.code, run.output).not.toBe(0);
    expect(run.stderr).toContain(
      `cannot load libnode from DS_ELEMENT_LIBNODE=/opt/nope/libnode.so.1; point it at Node ${libnode.version}'s shared library ` +
        `(${libnode.soname}), the one this host was built against, or unset it to use the system one (\`npm run setup\` installs it)`,
    );
    expect(run.stderr).toContain("/opt/nope/libnode.so.1: cannot open shared object file");
  });
});
