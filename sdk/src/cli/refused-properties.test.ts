// The note `ds-element run` adds after GLib refuses a property value (refused-properties.ts):
// GLib's line may arrive in pieces; properties no element of the dists has get no note.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { temporaryDir } from "../test-support/bundle.js";
import { RefusedPropertyWatcher } from "./refused-properties.js";

const dist = temporaryDir("refused");
mkdirSync(join(dist, "ds-elements", "gain"), { recursive: true });
writeFileSync(
  join(dist, "ds-elements", "gain", "element.json"),
  JSON.stringify({
    name: "gain",
    properties: [
      { name: "level", jsName: "level", type: "double", nick: "Level", blurb: "Level", minimum: 0, maximum: 1, default: 0.5 },
      { name: "model", jsName: "model", type: "string", nick: "Model", blurb: "Model" },
      { name: "class-ids", jsName: "classIds", type: "int-array", nick: "Class ids", blurb: "Class ids", minimum: 0, maximum: 79, default: [] },
    ],
  }),
);
const glib = (value: string, property: string) =>
  `(gst-launch-1.0:4959): GLib-GObject-WARNING **: 17:02:21.271: value "${value}" of type 'gdouble' is invalid or out of range for property '${property}' of type 'gdouble'\n`;

describe("RefusedPropertyWatcher", () => {
  it("notes a refusal of an element's property, even when the line comes in pieces", () => {
    const watcher = new RefusedPropertyWatcher([dist]);
    const line = glib("1.500000", "level");
    expect(watcher.push(line.slice(0, 40))).toEqual([]);
    expect(watcher.push(line.slice(40))).toEqual([
      "ds-element run: gain refused level=1.500000 (it takes 0 to 1): GObject kept level's previous value; on a gst-launch line that is its default, 0.5",
    ]);
    expect(watcher.push(glib("< 3, 100 >", "class-ids"))).toEqual([
      "ds-element run: gain refused class-ids=< 3, 100 > (it takes items from 0 to 79): GObject kept class-ids's previous value; on a gst-launch line that is its default, <>",
    ]);
  });

  it("says nothing about other elements' properties or other lines", () => {
    const watcher = new RefusedPropertyWatcher([dist, join(dist, "missing")]);
    expect(watcher.push(glib("-1", "num-buffers"))).toEqual([]);
    expect(watcher.push("Setting pipeline to PAUSED ...\n")).toEqual([]);
  });
});
