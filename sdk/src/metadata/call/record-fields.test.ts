// Every numeric field of the table (protocol/meta-fields.mjs), by its kind: written in
// TypeScript and read back through native code, written by "upstream" (the testing harness)
// and read by an element, refused with the kind's message in TypeScript, and refused by native
// code (naming the DeepStream field) when a record holds what TypeScript would never send.
// A field added to the table is covered here without a line of its own; on
// `npm run test:deepstream` the values go through NVIDIA's NvDsBatchMeta.
import { describe, expect, it } from "vitest";
import { Element, type BatchMeta as Batch } from "../../index.js";
import type { MetaBinding } from "../../native/meta-binding.js";
import { FRAME, OBJECT, type Field, type KindName } from "../../protocol/meta-fields.mjs";
import { FRAME_FIELDS, FRAME_INIT_MEMBERS, OBJECT_FIELDS, OBJ_STRIDE, STATE_FRAMES_BASE, type RecordField } from "../../protocol/transform-state.js";
import { inCall, makeBuffer, requireStandaloneBinding, type OpenCall } from "../../test-support/standalone-binding.js";
import { runTransform } from "../../testing/index.js";
import type { BatchMeta } from "../batch-meta.js";
import type { FrameMeta } from "../frame-meta.js";
import { objectCoreOf, type ObjectMeta } from "../object-meta.js";

// Kinds of the values that travel as JS objects are value-fields.test.ts's.
type Kind = Exclude<KindName, "bufferTime" | "reserved" | "probability" | "label" | "owned">;

/**
 * Per kind: a value no default equals, as TypeScript writes it and toJSON gives it back; a value
 * TypeScript refuses and the start of its message; a double in a record slot native code refuses
 * and the start of its message (`suffix`: what follows the DeepStream field's name).
 */
interface KindCase {
  value: unknown;
  json: unknown;
  refused: { value: unknown; what: string };
  native: { value: number; what: string; suffix?: string };
}

const INT32 = "an integer from -2147483648 to 2147483647";
const UINT32 = "an integer from 0 to 4294967295";
const UNIT = "a number from 0 to 1";
const CASES: Record<Kind, KindCase> = {
  int32: { value: -2147483648, json: -2147483648, refused: { value: 2147483648, what: INT32 }, native: { value: 1.5, what: INT32 } },
  uint32: { value: 4294967295, json: 4294967295, refused: { value: -1, what: UINT32 }, native: { value: -1, what: UINT32 } },
  count: { value: 3, json: 3, refused: { value: -1, what: "an integer from 0 to 2147483647" }, native: { value: -1, what: "an integer >= 0" } },
  flag: { value: true, json: true, refused: { value: 1, what: "a boolean" }, native: { value: 2, what: "an integer from 0 to 1" } },
  objectId: {
    value: 2 ** 40 + 1,
    json: 2 ** 40 + 1,
    refused: { value: -2, what: "an integer from 0 to 9007199254740991 (or -1 for untracked)" },
    native: { value: -2, what: "an integer from 0 to 9007199254740991 (or -1 for untracked)" },
  },
  clockTime: {
    value: 123_456_789,
    json: 123_456_789,
    refused: { value: -5, what: "an integer from 0 to 9007199254740991 (or undefined for none)" },
    native: { value: -5, what: "an integer from 0 to 9007199254740991 (or -1 for none)" },
  },
  uint64: {
    value: 2n ** 63n + 5n,
    json: (2n ** 63n + 5n).toString(),
    refused: { value: -1n, what: "a bigint from 0n to 18446744073709551615n" },
    native: { value: 2 ** 32, what: UINT32, suffix: " (high 32 bits)" },
  },
  misc: {
    value: [1, -2, 3, 2 ** 40],
    json: [1, -2, 3, 2 ** 40],
    refused: { value: [1, 2, 3], what: "an array of 4 integers" },
    native: { value: 1.5, what: "an integer from -9007199254740991 to 9007199254740991", suffix: "[0]" },
  },
  confidence: {
    value: 0.75,
    json: 0.75,
    refused: { value: 2, what: "a number from 0 to 1 (or -0.1 for none)" },
    native: { value: Number.NaN, what: "a number from 0 to 1 (or -0.1 for none)" },
  },
  float: { value: -12.5, json: -12.5, refused: { value: Number.NaN, what: "a finite number" }, native: { value: Number.NaN, what: "a finite number" } },
  floatSize: { value: 7.25, json: 7.25, refused: { value: -1, what: "a finite number >= 0" }, native: { value: -1, what: "a finite number >= 0" } },
  unit: { value: 0.5, json: 0.5, refused: { value: 2, what: UNIT }, native: { value: 2, what: UNIT } },
};

const kindOf = (field: RecordField): Kind => field.kind;
const writable = (fields: readonly RecordField[]) => fields.filter((field) => field.writable);

/** Runs `body` in a transform-like call over a one-frame buffer of the standalone binding. */
function inFrameCall<T>(body: (batch: BatchMeta, call: OpenCall, meta: MetaBinding) => T): T {
  const addon = requireStandaloneBinding();
  const buffer = makeBuffer(addon.harness, [{ width: 64, height: 48 }]);
  try {
    return inCall(addon, buffer, 1, (batch, call) => body(batch, call, addon.meta));
  } finally {
    addon.harness.releaseBuffer(buffer);
  }
}

/** The name native code gives a field in messages ("NvDsFrameMeta.source_id"). */
function nativeName(owner: string, fields: readonly Field[], name: string, suffix = ""): string {
  const found = fields.find((field) => field.name === name);
  if (found?.ds === undefined) throw new Error(`no DeepStream field for ${name} in the table`);
  return `${owner}.${found.ds}${suffix}`;
}

describe.each(writable(FRAME_FIELDS).map((field) => [field.name, field] as const))("FrameMeta.%s", (name, field) => {
  const { refused, ...sample } = CASES[kindOf(field)];

  it("keeps what an element writes, as native code stores it", async () => {
    class Writer extends Element.define({ name: "fieldwriter", longName: "w", klass: "Filter", description: "w", author: "t <t@example.com>", caps: "ANY" }) {
      transform(batch: Batch) {
        (batch.frameItems[0] as unknown as Record<string, unknown>)[name] = sample.value;
      }
    }
    const out = await runTransform(Writer, { frames: [{}] });
    expect((out.frameItems[0] as unknown as Record<string, unknown>)[name]).toEqual(sample.json);
  });

  it("refuses a value of the wrong range, naming the member, and changes nothing", () => {
    inFrameCall((batch) => {
      const frame = batch.frameItems[0] as FrameMeta & Record<string, unknown>;
      const before = frame[name];
      expect(() => (frame[name] = refused.value)).toThrow(`Expected ${refused.what} for FrameMeta.${name} but received`);
      expect(frame[name]).toEqual(before);
    });
  });

  // Members a test gives in FrameInit (pipelineWidth/Height come from the frame's size).
  it.runIf((FRAME_INIT_MEMBERS as readonly string[]).includes(name))("reaches an element as upstream wrote it", async () => {
    let seen: unknown;
    class Reader extends Element.define({ name: "fieldreader", longName: "r", klass: "Filter", description: "r", author: "t <t@example.com>", caps: "ANY" }) {
      transform(batch: Batch) {
        seen = (batch.frameItems[0] as unknown as Record<string, unknown>)[name];
      }
    }
    await runTransform(Reader, { frames: [{ [name]: sample.value }] });
    expect(seen).toEqual(sample.value);
  });

  it("is refused by native code, which names the DeepStream field", () => {
    const bad = CASES[kindOf(field)].native;
    inFrameCall((_batch, call, meta) => {
      const state = call.scope.state.slice();
      state[STATE_FRAMES_BASE + field.slot] = bad.value;
      const native = nativeName(FRAME.ds, FRAME.fields, name, bad.suffix);
      expect(() => meta.writeFrame(call.callId, 0, state)).toThrow(`Expected ${bad.what} for ${native} but received`);
    });
  });
});

describe.each(OBJECT_FIELDS.map((field) => [field.name, field] as const))("ObjectMeta.%s", (name, field) => {
  const { refused, ...sample } = CASES[kindOf(field)];

  it("keeps what an element writes, as native code stores it", async () => {
    class Writer extends Element.define({ name: "objectwriter", longName: "w", klass: "Filter", description: "w", author: "t <t@example.com>", caps: "ANY" }) {
      transform(batch: Batch) {
        const obj = batch.acquireObjectMeta() as ObjectMeta & Record<string, unknown>;
        obj[name] = sample.value;
        batch.frameItems[0]?.addObjectMeta(obj);
        // An object already in a frame: its writes are sent at commit.
        const listed = batch.frameItems[0]?.objectItems[0] as ObjectMeta & Record<string, unknown>;
        listed[name] = sample.value;
      }
    }
    const out = await runTransform(Writer, { frames: [{}] });
    expect((out.frameItems[0]?.objectItems[0] as unknown as Record<string, unknown>)[name]).toEqual(sample.json);
  });

  it("reaches an element as upstream wrote it", async () => {
    let seen: unknown;
    class Reader extends Element.define({ name: "objectreader", longName: "r", klass: "Filter", description: "r", author: "t <t@example.com>", caps: "ANY" }) {
      transform(batch: Batch) {
        seen = (batch.frameItems[0]?.objectItems[0] as unknown as Record<string, unknown>)[name];
      }
    }
    await runTransform(Reader, { frames: [{ objects: [{ [name]: sample.value }] }] });
    expect(seen).toEqual(sample.value);
  });

  it("is refused by native code, which names the DeepStream field", () => {
    const bad = CASES[kindOf(field)].native;
    inFrameCall((batch, call, meta) => {
      const row = objectCoreOf(batch.acquireObjectMeta())?.row ?? -1;
      call.scope.table[row * OBJ_STRIDE + field.slot] = bad.value;
      const native = nativeName(OBJECT.ds, OBJECT.fields, name, bad.suffix);
      expect(() => meta.writeObject(call.callId, row, null, null, null)).toThrow(`Expected ${bad.what} for ${native} but received`);
    });
  });

  it("refuses a value of the wrong range, naming the member, and changes nothing", () => {
    inFrameCall((batch) => {
      const obj = batch.acquireObjectMeta() as ObjectMeta & Record<string, unknown>;
      const before = obj[name];
      expect(() => (obj[name] = refused.value)).toThrow(`Expected ${refused.what} for ObjectMeta.${name} but received`);
      expect(obj[name]).toEqual(before);
    });
  });
});
