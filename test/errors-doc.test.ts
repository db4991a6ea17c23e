// docs/errors.md shows real gst-launch-1.0 / gst-inspect-1.0 output. Every excerpt there (a
// fenced block starting with `$ command`) is run again here, and each line it shows must still
// be printed, in that order. So a message changed in the code fails this test until the guide
// shows the new one.
//
// What the excerpts may abbreviate, and how they are replayed:
// - `$ … ! <elements>`: gst-launch-1.0 with the standard source
//   `videotestsrc num-buffers=5 ! video/x-raw,format=RGB,width=64,height=48` in front;
//   `$ … <pipeline>`: gst-launch-1.0 <pipeline>; `VAR=value` words before the tool are its
//   environment; the fixture elements (test/out/fixture-elements) are on the plugin path.
// - `node sdk/bin/ds-element.js run --dist <dist> -- <tool> …`: <tool> with <dist> on the path.
// - /tmp/dsdoc/<case>/dist: a copy of the fixture elements broken the way the guide says
//   (prepareCase below).
// - An output line `...` or `…` stands for any lines; a line starting or ending with `…`
//   matches an output line that contains the rest.
// - Compared without the repository's path (the guide shows /work/main) and with Debian 12's
//   libnode for the one the host was built against, the line numbers of
//   C sources (GStreamer's "file.c(N)" and GST_DEBUG's "file.c:N:") and of the SDK's own
//   frames (they move with every edit), process ids and times.
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot, runGst, scratchDir } from "./helpers/gst";
import { fixturesDist } from "./helpers/projects";

const STANDARD_SOURCE = "videotestsrc num-buffers=5 ! video/x-raw,format=RGB,width=64,height=48";

interface Excerpt {
  heading: string;
  command: string;
  expected: string[];
}

function excerpts(markdown: string): Excerpt[] {
  const found: Excerpt[] = [];
  let heading = "";
  let block: string[] | undefined;
  for (const line of markdown.split("\n")) {
    if (block === undefined) {
      if (line.startsWith("#")) heading = line.replace(/^#+\s*/, "");
      else if (line.startsWith("```")) block = [];
      continue;
    }
    if (!line.startsWith("```")) {
      block.push(line);
      continue;
    }
    let current: Excerpt | undefined;
    for (const text of block) {
      if (text.startsWith("$ ")) {
        current = { heading, command: text.slice(2).trim(), expected: [] };
        found.push(current);
      } else if (current !== undefined && text.trim() !== "") {
        current.expected.push(text);
      }
    }
    block = undefined;
  }
  return found;
}

/** /tmp/dsdoc/<case>/dist as the guide describes it, in a scratch folder. */
function prepareCase(root: string, name: string): string {
  const dist = join(root, name, "dist");
  rmSync(join(root, name), { recursive: true, force: true });
  mkdirSync(join(root, name), { recursive: true });
  cpSync(fixturesDist, dist, { recursive: true });
  const elements = join(dist, "ds-elements");
  switch (name) {
    case "syntax":
      writeFileSync(join(elements, "throwsync", "index.js"), "'use strict';\nmodule.exports = {\n  default: class {\n};\n");
      break;
    case "missing":
      rmSync(join(elements, "throwsync", "index.js"));
      break;
    case "manifests": {
      const manifest = (element: string) => join(elements, element, "element.json");
      const edit = (element: string, change: (value: Record<string, unknown>) => void) => {
        const value = JSON.parse(readFileSync(manifest(element), "utf8")) as Record<string, unknown>;
        change(value);
        writeFileSync(manifest(element), JSON.stringify(value));
      };
      edit("exits", (value) => delete value.entry);
      writeFileSync(manifest("rejects"), '{ "manifestVersion": 1, "name": "rejects", ');
      edit("strictprop", (value) => ((value.properties as Record<string, unknown>[])[0]!.type = "float"));
      edit("timerthrow", (value) => (value.sinkCaps = "video/x-raw, format=(string){ RGB"));
      rmSync(manifest("startthrows"));
      mkdirSync(manifest("startthrows"));
      break;
    }
    default:
      throw new Error(`docs/errors.md uses /tmp/dsdoc/${name}, which this test does not know how to prepare (add it to prepareCase)`);
  }
  return dist;
}

interface Replay {
  tool: string;
  args: string[];
  env: Record<string, string>;
  dists: string[];
}

function replay(command: string, dsdoc: string): Replay {
  const words = command.split(/\s+/);
  const env: Record<string, string> = {};
  while (/^[A-Z_0-9]+=/.test(words[0]!)) {
    const [name, ...value] = words.shift()!.split("=");
    env[name!] = value.join("=").replace(/^"(.*)"$/, "$1");
  }
  let dists = [fixturesDist];
  if (words[0] === "node" && words[1] === "sdk/bin/ds-element.js" && words[2] === "run") {
    const separator = words.indexOf("--");
    const dist = words.indexOf("--dist");
    if (dist > 0 && dist < separator) dists = [words[dist + 1]!];
    words.splice(0, separator + 1);
  }
  const casePath = /^\/tmp\/dsdoc\/([^/]+)\/dist$/;
  dists = dists.map((dist) => (casePath.test(dist) ? prepareCase(dsdoc, dist.match(casePath)![1]!) : dist));
  let tool = words.shift()!;
  if (tool === "…") {
    tool = "gst-launch-1.0";
    words.unshift("…");
  }
  if (!["gst-launch-1.0", "gst-inspect-1.0"].includes(tool)) throw new Error(`docs/errors.md runs ${tool}, which this test cannot replay: ${command}`);
  const args = words.flatMap((word, index) => {
    if (word !== "…") return [word];
    return words[index + 1] === "!" ? STANDARD_SOURCE.split(" ") : [];
  });
  return { tool, args, env, dists };
}

// The libnode the host was built against; the guide shows Debian 12's.
const nativeDir = process.env.DS_ELEMENT_NATIVE_DIR ?? join(repoRoot, "native-host", "build", "Release");
const libnode = JSON.parse(readFileSync(join(nativeDir, "libnode.json"), "utf8")) as { version: string; soname: string };

function normalise(line: string, dsdoc: string): string {
  let text = line.split(dsdoc).join("/tmp/dsdoc").split(repoRoot).join("/work/main");
  text = text.split(`Node ${libnode.version}'s shared library (${libnode.soname})`).join("Node 18.20.4's shared library (libnode.so.108)");
  text = text.replace(/\.(c|cpp)\(\d+\)/g, ".$1(N)").replace(/\.(c|cpp):\d+:/g, ".$1:N:");
  // Frames of the SDK itself and of Node: their lines move with every edit.
  text = text.replace(/\((ds-element:\/src\/[^:)]+|\/work\/main\/sdk\/src\/[^:)]+|node:[^:)]+):\d+:\d+\)/g, "($1)");
  text = text.replace(/\(gst-launch-1\.0:\d+\)/g, "(gst-launch-1.0:PID)").replace(/\b\d\d:\d\d:\d\d\.\d+/g, "TIME");
  if (text.startsWith("dsnode hand-off:")) text = text.replace(/\d+/g, "N");
  return text.trimEnd();
}

function matches(expected: string, actual: string): boolean {
  const core = expected.replace(/^…\s?/, "").replace(/\s?…$/, "");
  return core !== expected ? actual.includes(core) : actual === expected;
}

describe("docs/errors.md shows what is printed", () => {
  const doc = readFileSync(join(repoRoot, "docs", "errors.md"), "utf8");
  const all = excerpts(doc);
  const dsdoc = scratchDir("dsdoc");

  it("has excerpts to check", () => {
    expect(all.length).toBeGreaterThanOrEqual(15);
  });

  it.each(all.map((excerpt, index) => [`${excerpt.heading}: $ ${excerpt.command}`, excerpt, index] as const))("%s", (_title, excerpt, index) => {
    const { tool, args, env, dists } = replay(excerpt.command, dsdoc);
    // A registry per excerpt: the broken copies must be scanned afresh.
    const run = runGst(tool, args, { dists, env, registry: join(dsdoc, `registry-${index}.bin`) });
    // stdout and stderr interleave arbitrarily: the order is checked within each.
    const streams = [run.stdout, run.stderr].map((text) => ({ lines: text.split("\n").map((line) => normalise(line, dsdoc)), at: 0 }));
    for (const line of excerpt.expected) {
      if (line.trim() === "..." || line.trim() === "…") continue;
      const wanted = normalise(line, dsdoc);
      const found = streams.some((stream) => {
        const at = stream.lines.findIndex((candidate, i) => i >= stream.at && matches(wanted, candidate));
        if (at >= 0) stream.at = at + 1;
        return at >= 0;
      });
      expect(found, `docs/errors.md (${excerpt.heading}) shows\n  ${wanted}\nwhich \`${tool} ${args.join(" ")}\` did not print (after the lines matched so far):\n${run.output}`).toBe(true);
    }
  });
});
