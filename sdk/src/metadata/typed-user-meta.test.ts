// defineUserMeta through the testing harness, on the native build under test (the portable
// backend under `npm test`, NVIDIA's NvDsBatchMeta under `npm run test:deepstream`): what an
// element's own tests do with a typed user meta.
import { describe, expect, expectTypeOf, it } from "vitest";
import {
  defineUserMeta,
  Element,
  InvalidTypeError,
  InvalidValueError,
  StaleHandleError,
  z,
  type BatchMeta,
  type FrameMeta,
  type UserMetaReadResult,
} from "../index.js";
import { createHarness, runTransform, type BatchInit } from "../testing/index.js";

const author = "ds-element tests <tests@example.com>";

const PLATE = defineUserMeta(
  "ACME.ANPR.PLATE",
  z.object({
    text: z.string().min(1),
    confidence: z.number().min(0).max(1),
    region: z.enum(["IN", "EU"]).default("IN"),
    candidates: z.array(z.object({ text: z.string(), confidence: z.number().min(0).max(1) })).optional(),
  }),
);
const TOTALS = defineUserMeta("ACME.ANPR.TOTALS", z.object({ plates: z.number().int().min(0) }));

/** Reads each object's plate (written upstream) and writes the frame's and the batch's totals. */
class PlateTotals extends Element.define({
  name: "platetotals",
  longName: "Plate totals",
  klass: "Filter/Analyzer/Video",
  description: "Counts the plates read on each frame",
  author,
  caps: "video/x-raw",
  properties: z.object({ minConfidence: z.number().min(0).max(1).default(0.5).describe("Lowest confidence counted") }),
}) {
  transform(batch: BatchMeta) {
    let plates = 0;
    for (const frame of batch.frameItems) {
      const count = frame.objectItems.filter((obj) => (PLATE.get(obj)?.confidence ?? 0) >= this.props.minConfidence).length;
      TOTALS.add(frame, { plates: count });
      plates += count;
    }
    TOTALS.add(batch, { plates });
  }
}

/** Runs `body` as an element's transform() on one synthetic batch; returns the batch it left. */
function transformWith(body: (batch: BatchMeta) => void, init: BatchInit) {
  class Body extends Element.define({
    name: "typedmetabody",
    longName: "Typed meta test body",
    klass: "Filter/Video",
    description: "Runs the test's transform",
    author,
    caps: "video/x-raw",
    properties: z.object({}),
  }) {
    transform(batch: BatchMeta) {
      body(batch);
    }
  }
  return runTransform(Body, init);
}

describe("defineUserMeta", () => {
  it("writes a validated value at batch, frame and object level and reads it back typed", async () => {
    const out = await transformWith(
      (batch: BatchMeta) => {
        const frame = batch.frameItems[0]!;
        const obj = frame.objectItems[0]!;
        const added = PLATE.add(obj, { text: "KA01AB1234", confidence: 0.93 });
        expect(added.metaType).toBe("ACME.ANPR.PLATE");
        expect(added.kind).toBe("json");
        PLATE.add(frame, { text: "MH12", confidence: 0.5, candidates: [{ text: "MH12", confidence: 0.5 }] });
        PLATE.add(batch, { text: "DL3C", confidence: 0, region: "EU" });
        // Read back in the same call, from the live handles.
        const plate = PLATE.get(obj);
        expectTypeOf(plate).toEqualTypeOf<
          { text: string; confidence: number; region: "IN" | "EU"; candidates?: { text: string; confidence: number }[] | undefined } | undefined
        >();
        expect(plate).toEqual({ text: "KA01AB1234", confidence: 0.93, region: "IN" });
        expect(PLATE.all(frame)).toEqual([{ text: "MH12", confidence: 0.5, region: "IN", candidates: [{ text: "MH12", confidence: 0.5 }] }]);
        expect(PLATE.get(batch)).toEqual({ text: "DL3C", confidence: 0, region: "EU" });
        expect(TOTALS.get(frame)).toBeUndefined();
        expect(TOTALS.all(frame)).toEqual([]);
      },
      { frames: [{ objects: [{ classId: 2, rectParams: { left: 10, top: 10, width: 40, height: 20 } }] }] },
    );
    // The buffer carries regular JSON user metas (defaults applied), which untyped readers see as before...
    expect(out.frameItems[0]!.objectItems[0]!.userMetaItems).toEqual([
      { metaType: "ACME.ANPR.PLATE", metaTypeId: expect.any(Number), kind: "json", json: { text: "KA01AB1234", confidence: 0.93, region: "IN" } },
    ]);
    // ...and the same definition reads the harness's output (toJSON()).
    expect(PLATE.get(out.frameItems[0]!.objectItems[0]!)).toEqual({ text: "KA01AB1234", confidence: 0.93, region: "IN" });
    expect(PLATE.all(out)).toEqual([{ text: "DL3C", confidence: 0, region: "EU" }]);
  });

  it("refuses an invalid value on write, naming the meta type, the path and what was expected, and adds nothing", async () => {
    const errors: unknown[] = [];
    const out = await transformWith(
      (batch: BatchMeta) => {
        const frame = batch.frameItems[0]!;
        for (const value of [
          { text: 7, confidence: 0.5 },
          { text: "KA01", confidence: 1.5 },
          { text: "KA01", confidence: 0.5, candidates: [{ text: "KA01", confidence: -1 }] },
          { text: "KA01", confidence: 0.5, region: "US" },
          { confidence: 0.5 },
          "KA01",
        ]) {
          try {
            PLATE.add(frame, value as never);
          } catch (error) {
            errors.push(error);
          }
        }
      },
      { frames: [{}] },
    );
    expect(errors.map((error) => [(error as Error).constructor.name, (error as Error).message])).toEqual([
      ["InvalidTypeError", "Expected a string for text of user meta ACME.ANPR.PLATE but received 7"],
      ["InvalidValueError", "Expected a number ≤ 1 for confidence of user meta ACME.ANPR.PLATE but received 1.5"],
      ["InvalidValueError", "Expected a number ≥ 0 for candidates[0].confidence of user meta ACME.ANPR.PLATE but received -1"],
      ["InvalidValueError", 'Expected one of "IN", "EU" for region of user meta ACME.ANPR.PLATE but received "US"'],
      ["InvalidTypeError", "Expected a string for text of user meta ACME.ANPR.PLATE but received nothing"],
      ["InvalidTypeError", 'Expected an object for user meta ACME.ANPR.PLATE but received "KA01"'],
    ]);
    for (const error of errors) {
      expect(error).toBeInstanceOf(InvalidValueError);
      expect(error).toMatchObject({ code: "ERR_DS_ELEMENT_INVALID_VALUE" });
    }
    expect(errors[0]).toBeInstanceOf(InvalidTypeError);
    expect(out.frameItems[0]!.userMetaItems).toEqual([]);
  });

  it("reads a meta of its type written with other content as a clear error, or safely with safeAll()", async () => {
    const out = await transformWith(() => undefined, {
      frames: [
        {
          userMeta: [
            { type: "ACME.ANPR.PLATE", json: { text: "", confidence: "high" } },
            PLATE.init({ text: "KA01", confidence: 0.9 }),
            { type: "ACME.ANPR.PLATE", bytes: new Uint8Array([1, 2, 3]) },
            { type: "ACME.OTHER.THING", json: { text: 1 } },
          ],
        },
      ],
    });
    const frame = out.frameItems[0]!;
    expect(() => PLATE.get(frame)).toThrow(
      new InvalidValueError(
        'Expected a string of at least 1 character for text of user meta ACME.ANPR.PLATE read from the buffer but received ""; ' +
          'Expected a number for confidence of user meta ACME.ANPR.PLATE read from the buffer but received "high"',
      ),
    );
    expect(() => PLATE.all(frame)).toThrow(InvalidValueError);
    const reads = PLATE.safeAll(frame);
    expect(reads.map((read) => (read.success ? read.value : read.error.message))).toEqual([
      expect.stringContaining("for text of user meta ACME.ANPR.PLATE read from the buffer"),
      { text: "KA01", confidence: 0.9, region: "IN" },
      "Expected a JSON payload (UserMeta.setJson) for user meta ACME.ANPR.PLATE read from the buffer but received a bytes payload (3 bytes)",
    ]);
    expect(reads[1]!.user).toBe(frame.userMetaItems[1]);
    // Each result names its user meta, the failures too, and carries nothing else.
    expect(reads.map((read) => read.user)).toEqual(frame.userMetaItems.slice(0, 3));
    expect(reads.map((read) => Object.keys(read).sort())).toEqual([["error", "success", "user"], ["success", "user", "value"], ["error", "success", "user"]]);
    expectTypeOf(reads).toEqualTypeOf<UserMetaReadResult<z.output<typeof PLATE.schema>>[]>();
    expect(PLATE.parse(frame.userMetaItems[1]!)).toEqual({ text: "KA01", confidence: 0.9, region: "IN" });
    expect(() => PLATE.parse(frame.userMetaItems[3]!)).toThrow(
      'Expected a user meta of type ACME.ANPR.PLATE for ACME.ANPR.PLATE parse() user but received one of type "ACME.OTHER.THING"',
    );
    expect(frame.userMetaItems.map((user) => PLATE.is(user))).toEqual([true, true, true, false]);
  });

  it("lets an element's tests feed typed metas in and read them out (ds-element/testing)", async () => {
    const harness = await createHarness(PlateTotals, { props: { minConfidence: 0.8 } });
    const car = (confidence: number) => ({ classId: 2, userMeta: [PLATE.init({ text: "KA01", confidence })] });
    const out = await harness.push({ frames: [{ objects: [car(0.9), car(0.7), { classId: 2 }] }, { objects: [car(0.95)] }] });
    expect(out.frameItems.map((frame) => TOTALS.get(frame))).toEqual([{ plates: 1 }, { plates: 1 }]);
    expect(TOTALS.get(out)).toEqual({ plates: 2 });
    await harness.stop();
    expect(() => PLATE.init({ text: "", confidence: 0.9 })).toThrow("Expected a string of at least 1 character for text of user meta ACME.ANPR.PLATE but received \"\"");
  });

  it("refuses an owner that is not a live handle of the call", async () => {
    let kept: FrameMeta | undefined;
    await transformWith(
      (batch: BatchMeta) => {
        kept = batch.frameItems[0];
        expect(() => PLATE.add({ userMetaItems: [] } as never, { text: "KA01", confidence: 1 })).toThrow(
          "Expected a BatchMeta, FrameMeta or ObjectMeta of this transform() call for ACME.ANPR.PLATE add() owner but received {\"userMetaItems\":[]}",
        );
      },
      { frames: [{}] },
    );
    expect(() => PLATE.add(kept!, { text: "KA01", confidence: 1 })).toThrow(StaleHandleError);
    expect(() => PLATE.get(7 as never)).toThrow("Expected a BatchMeta, FrameMeta or ObjectMeta (or its toJSON()) for ACME.ANPR.PLATE get() source but received 7");
  });

  it("refuses a bad type string or a schema that does not describe JSON, at definition", () => {
    expect(() => defineUserMeta("plate", z.string())).toThrow(
      'Expected a type of the form ORG.COMPONENT.DESCRIPTION (letters, digits, _ and -) for defineUserMeta metaType but received "plate"',
    );
    expect(() => defineUserMeta("ACME.ANPR.PLATE", {} as never)).toThrow("Expected a zod schema for defineUserMeta schema of ACME.ANPR.PLATE but received {}");
    expect(() => defineUserMeta("ACME.ANPR.SEEN", z.object({ at: z.date() }))).toThrow(
      "Expected a zod schema of JSON values (no transforms, dates, bigints, maps, sets or custom types) for defineUserMeta schema of ACME.ANPR.SEEN " +
        "but received one that is not (Date cannot be represented in JSON Schema)",
    );
    expect(() => defineUserMeta("ACME.ANPR.LENGTH", z.string().transform((text) => text.length))).toThrow(InvalidTypeError);
  });
});
