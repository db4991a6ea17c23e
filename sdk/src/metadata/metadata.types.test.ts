// The types made from the table of fields (protocol/meta-fields.mjs): the accessors' declared
// types and the JSON forms derived from them are what users write against.
import { describe, expectTypeOf, it } from "vitest";
import type { FrameMeta, FrameMetaJSON } from "./frame-meta.js";
import type { ObjectMeta, ObjectMetaJSON } from "./object-meta.js";
import type { FrameInit, ObjectInit } from "../testing/batch-init.js";

type Misc = readonly [number, number, number, number];

describe("metadata field types", () => {
  it("types FrameMeta's fields by their kind, batchId read-only", () => {
    expectTypeOf<FrameMeta["frameNum"]>().toEqualTypeOf<number>();
    expectTypeOf<FrameMeta["bufPts"]>().toEqualTypeOf<number | undefined>();
    expectTypeOf<FrameMeta["ntpTimestamp"]>().toEqualTypeOf<bigint>();
    expectTypeOf<FrameMeta["inferDone"]>().toEqualTypeOf<boolean>();
    expectTypeOf<FrameMeta["miscFrameInfo"]>().toEqualTypeOf<Misc>();
    const assign = (frame: FrameMeta): void => {
      // @ts-expect-error batch_id is not for elements to change
      frame.batchId = 1;
    };
    expectTypeOf(assign).toBeFunction();
  });

  it("gives FrameMetaJSON the JSON form of each field and the lists", () => {
    expectTypeOf<FrameMetaJSON["ntpTimestamp"]>().toEqualTypeOf<string>();
    expectTypeOf<FrameMetaJSON["bufPts"]>().toEqualTypeOf<number | undefined>();
    expectTypeOf<FrameMetaJSON["miscFrameInfo"]>().toEqualTypeOf<[number, number, number, number]>();
    expectTypeOf<FrameMetaJSON["batchId"]>().toEqualTypeOf<number>();
    expectTypeOf<FrameMetaJSON["objectItems"]>().toEqualTypeOf<ObjectMetaJSON[]>();
    expectTypeOf<keyof FrameMetaJSON>().toEqualTypeOf<
      | "frameNum"
      | "sourceId"
      | "padIndex"
      | "batchId"
      | "bufPts"
      | "ntpTimestamp"
      | "sourceFrameWidth"
      | "sourceFrameHeight"
      | "pipelineWidth"
      | "pipelineHeight"
      | "surfaceType"
      | "surfaceIndex"
      | "numSurfacesPerFrame"
      | "inferDone"
      | "miscFrameInfo"
      | "objectItems"
      | "displayMetaItems"
      | "userMetaItems"
    >();
  });

  it("gives ObjectMeta and ObjectMetaJSON the same numeric fields", () => {
    expectTypeOf<ObjectMeta["objectId"]>().toEqualTypeOf<number>();
    expectTypeOf<ObjectMeta["miscObjInfo"]>().toEqualTypeOf<Misc>();
    expectTypeOf<ObjectMetaJSON["miscObjInfo"]>().toEqualTypeOf<[number, number, number, number]>();
    expectTypeOf<ObjectMetaJSON["confidence"]>().toEqualTypeOf<number>();
  });

  it("lets tests give every writable field, optionally", () => {
    expectTypeOf<ObjectInit["classId"]>().toEqualTypeOf<number | undefined>();
    expectTypeOf<ObjectInit["miscObjInfo"]>().toEqualTypeOf<Misc | undefined>();
    expectTypeOf<FrameInit["ntpTimestamp"]>().toEqualTypeOf<bigint | undefined>();
    expectTypeOf<FrameInit["bufPts"]>().toEqualTypeOf<number | undefined>();
    // @ts-expect-error batchId is the frame's place in the batch, not a test's to give
    expectTypeOf<FrameInit["batchId"]>().toBeNever();
  });
});
