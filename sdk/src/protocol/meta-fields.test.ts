// The table of metadata fields (meta-fields.mjs) is the one definition of every field that
// numbers carry between native code and TypeScript: what is generated from it must be what it
// gives, and what TypeScript builds from the generated descriptors must match it.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FrameMeta } from "../metadata/frame-meta.js";
import { ObjectMeta } from "../metadata/object-meta.js";
import { FRAME, KINDS, OBJECT } from "./meta-fields.mjs";
import { FRAME_FIELDS, OBJECT_FIELDS, OBJECT_MEMBERS, OBJ_STRIDE, STATE_FRAME_STRIDE } from "./transform-state.js";

const repoRoot = join(__dirname, "..", "..", "..");
const generator = join(repoRoot, "scripts", "generate-meta-fields.mjs");

describe("the table of metadata fields", () => {
  it("is what the generated files say (npm run generate writes them)", () => {
    const run = spawnSync(process.execPath, [generator, "--check"], { encoding: "utf8" });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
  });

  it("gives every TypeScript field of a frame an accessor on FrameMeta, writable unless read-only", () => {
    const inTable = FRAME.fields.filter((field) => field.kind !== undefined && KINDS[field.kind].ts !== null).map((field) => field.name);
    expect(FRAME_FIELDS.map((field) => field.name)).toEqual(inTable);
    for (const field of FRAME.fields.filter((f) => f.kind !== undefined && KINDS[f.kind].ts !== null)) {
      const accessor = Object.getOwnPropertyDescriptor(FrameMeta.prototype, field.name);
      expect(accessor?.get, field.name).toBeTypeOf("function");
      expect(accessor?.set === undefined, field.name).toBe(field.readOnly === true);
    }
  });

  it("gives every numeric field of an object an accessor on ObjectMeta and lists every member in toJSON order", () => {
    const numeric = OBJECT.fields.filter((field) => field.kind !== undefined).map((field) => field.name);
    expect(OBJECT_FIELDS.map((field) => field.name)).toEqual(numeric);
    expect([...OBJECT_MEMBERS]).toEqual(OBJECT.fields.map((field) => field.name));
    for (const name of OBJECT_MEMBERS) {
      const accessor = Object.getOwnPropertyDescriptor(ObjectMeta.prototype, name);
      expect(accessor?.get, name).toBeTypeOf("function");
      expect(accessor?.set, name).toBeTypeOf("function");
    }
  });

  it("lays records out within their strides, each slot used once", () => {
    for (const [fields, stride] of [
      [FRAME_FIELDS, STATE_FRAME_STRIDE],
      [OBJECT_FIELDS, OBJ_STRIDE],
    ] as const) {
      const used = new Set<number>();
      for (const field of fields) {
        for (let i = 0; i < KINDS[field.kind].slots; i++) {
          const slot = field.slot + i;
          expect(used.has(slot), `${field.name} slot ${slot}`).toBe(false);
          expect(slot).toBeLessThan(stride);
          used.add(slot);
        }
      }
    }
  });

  it("finds a generated file or region that differs from the table, by its path", async () => {
    const { staleFiles } = (await import(generator)) as { staleFiles(read?: (path: string) => string | null): Map<string, string> };
    const read = (path: string): string | null => {
      const text = readFileSync(join(repoRoot, path), "utf8");
      if (path === "native-host/src/protocol/state_layout.h") return text.replace("kObjStride = 40", "kObjStride = 41");
      if (path === "sdk/src/metadata/object-meta.ts") return text.replace("  classId: number;", "  classId: string;");
      return text;
    };
    expect([...staleFiles(read).keys()]).toEqual(["native-host/src/protocol/state_layout.h", "sdk/src/metadata/object-meta.ts"]);
  });
});
