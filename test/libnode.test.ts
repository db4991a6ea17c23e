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

// Node 24 keeps AsyncLocalStorage's context in one slot of the isolate, which V8 13 visits once
// per thread that took the isolate's v8::Locker (native-host/src/embed/node_embed.cpp,
// initialize_process): with the direct hand-off, young-generation collections then corrupted
// the heap and the host died in V8's "unreachable code" fatal error (SIGTRAP). Two streaming
// threads and the JS thread, each call making garbage inside contexts of its own.
describe("JavaScript on several threads, with AsyncLocalStorage and collections", () => {
  const twoBranches =
    "videotestsrc num-buffers=300 ! video/x-raw,format=RGB,width=64,height=48 ! tee name=t " +
    "t. ! queue ! churn ! fakesink t. ! queue ! churn ! fakesink";

  it("the pipeline ends normally (direct hand-off)", () => {
    const run = launch(twoBranches, { dists: [fixturesDist], env: { DS_ELEMENT_HANDOFF: "direct" } });
    expect(run.signal, run.output).toBeNull();
    expect(run.code, run.output).toBe(0);
    expect(run.output).not.toContain("Fatal error");
  });

  it.runIf(Number.parseInt(libnode.version, 10) >= 24)(
    "Node 24: --async-context-frame given back through DS_ELEMENT_NODE_OPTIONS takes the queued hand-off, with a warning",
    () => {
      const run = launch(twoBranches, {
        dists: [fixturesDist],
        env: { DS_ELEMENT_HANDOFF: "direct", DS_ELEMENT_NODE_OPTIONS: "--async-context-frame" },
      });
      expect(run.signal, run.output).toBeNull();
      expect(run.code, run.output).toBe(0);
      expect(run.stderr).toContain(
        "DS_ELEMENT_NODE_OPTIONS turns --async-context-frame back on, which corrupts V8's heap when several threads run JavaScript: using the queued hand-off (DS_ELEMENT_HANDOFF=queue)",
      );
    },
  );
});
