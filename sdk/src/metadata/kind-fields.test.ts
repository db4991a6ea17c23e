// Every row of the table's event message and segmentation meta (sdk/src/protocol/meta-fields.mjs,
// as protocol/kind-fields.ts describes them) written from TypeScript and read back through the
// real native binding: the portable backend under `npm test`, NVIDIA's NvDsBatchMeta under
// `npm run test:deepstream`. The values are made from each row's kind, so a member added as a
// row is taken through both languages and both backends here without editing this file.
import { describe, expect, it } from "vitest";
import { EVENT_MSG_EXTENSIONS, EVENT_MSG_MEMBERS, SEGMENTATION_MEMBERS, type EventMember } from "../protocol/kind-fields.js";
import { inCall, makeBuffer, requireStandaloneBinding } from "../test-support/standalone-binding.js";
import type { BatchMeta } from "./batch-meta.js";
import type { EventMsgInit } from "./event-msg-meta.js";

const addon = requireStandaloneBinding();

/** A value of `member` away from its default (`seed` tells members of one kind apart), exact in its kind's precision. */
function sample(member: EventMember, seed: number): unknown {
  switch (member.kind) {
    case "int32":
      return -1000 - seed;
    case "uint32":
      return 4_000_000_000 + seed;
    case "double":
      return seed + 0.125;
    case "float":
      return -(seed + 0.5);
    case "floatSize":
      return seed + 0.75;
    case "objectId":
      return 2 ** 40 + seed;
    case "string":
      return `${member.name}-${seed}`;
    case "doubles":
      return [seed, -0.5, 1e-3];
    case "enum":
      // The last name: never the default 0 (every enum's first value).
      return Object.keys(member.enum!.values).at(-1);
    case "struct":
      return values(member.members!);
  }
}

const values = (members: readonly EventMember[]) => Object.fromEntries(members.map((member, i) => [member.name, sample(member, i + 1)]));

/** Writes in one call, copies the buffer (the metas' copy functions), releases the original and reads the copy in another call. */
function roundTrip(write: (batch: BatchMeta) => void, read: (batch: BatchMeta) => unknown): unknown {
  const buffer = makeBuffer(addon.harness, [{}]);
  inCall(addon, buffer, 1, write);
  const copy = addon.harness.copyBuffer(buffer);
  addon.harness.releaseBuffer(buffer); // what is read is the copy's own
  try {
    return inCall(addon, copy, 1, read);
  } finally {
    addon.harness.releaseBuffer(copy);
  }
}

describe("every row of the event message and the segmentation meta, through the native binding", () => {
  for (const extension of [undefined, ...EVENT_MSG_EXTENSIONS]) {
    it(`NvDsEventMsgMeta: every member${extension === undefined ? "" : ` and every ${extension.name} member`} reads back as written`, () => {
      const msg = values(EVENT_MSG_MEMBERS) as unknown as EventMsgInit & Record<string, unknown>;
      if (extension !== undefined) {
        msg.objType = extension.objType as EventMsgInit["objType"];
        msg[extension.name] = values(extension.members);
      }
      const read = roundTrip(
        (batch) => {
          const user = batch.acquireUserMeta();
          user.setEventMsg(msg);
          batch.frameItems[0]!.addUserMeta(user);
        },
        (batch) => batch.frameItems[0]!.userMetaItems[0]!.asEventMsg(),
      );
      expect(read).toEqual(msg);
    });
  }

  it("NvDsInferSegmentationMeta: every scalar member reads back as written", () => {
    const written = Object.fromEntries(SEGMENTATION_MEMBERS.map((member, i) => [member.name, (member.min ?? 0) + i + 1]));
    const pixels = written["width"]! * written["height"]!;
    const read = roundTrip(
      (batch) => {
        const user = batch.acquireUserMeta();
        user.setSegmentation({ ...(written as { classes: number; width: number; height: number }), classMap: new Int32Array(pixels) });
        batch.frameItems[0]!.addUserMeta(user);
      },
      (batch) => {
        const segmentation = batch.frameItems[0]!.userMetaItems[0]!.asSegmentation()!;
        return Object.fromEntries(SEGMENTATION_MEMBERS.map(({ name }) => [name, segmentation[name as keyof typeof segmentation]]));
      },
    );
    expect(read).toEqual(written);
  });
});
