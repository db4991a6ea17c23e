// Writing a segmentation meta marks its frame as inferred, as nvinfer does when it attaches one
// (gstnvinfer_meta_utils.cpp attach_metadata_segmentation sets the frame's bInferDone), whether
// the meta goes on the frame or on one of its objects; other user metas leave the flag alone.
import { describe, expect, it } from "vitest";
import { Element, z, type BatchMeta } from "../index.js";
import { runTransform } from "../testing/index.js";

const author = "ds-element tests <tests@example.com>";
const base = { klass: "Filter/Analyzer/Video", author, caps: "video/x-raw, format=GRAY8", properties: z.object({}) };
const segmentation = { classes: 2, width: 2, height: 1, classMap: new Int32Array([0, 1]), uniqueId: 7 };

/** Attaches a segmentation meta to each frame, noting inferDone before and after in miscFrameInfo. */
class FrameSegmenter extends Element.define({ ...base, name: "framesegmenter", longName: "Frame segmenter", description: "Segments frames" }) {
  transform(batch: BatchMeta) {
    for (const frame of batch.frameItems) {
      const before = frame.inferDone;
      const user = batch.acquireUserMeta();
      user.setSegmentation(segmentation);
      frame.addUserMeta(user);
      frame.miscFrameInfo = [before ? 1 : 0, frame.inferDone ? 1 : 0, 0, 0];
    }
  }
}

/** Attaches a segmentation meta to each object, as secondary nvinfer does. */
class ObjectSegmenter extends Element.define({ ...base, name: "objectsegmenter", longName: "Object segmenter", description: "Segments objects" }) {
  transform(batch: BatchMeta) {
    for (const frame of batch.frameItems) {
      // The harness adds its objects as a detector does, which sets inferDone: start from false.
      frame.inferDone = false;
      for (const obj of frame.objectItems) {
        const user = batch.acquireUserMeta();
        user.setSegmentation(segmentation);
        obj.addUserMeta(user);
      }
    }
  }
}

/** Attaches a JSON user meta to each frame: not an inference result. */
class Annotator extends Element.define({ ...base, name: "annotator", longName: "Annotator", description: "Writes JSON metas" }) {
  transform(batch: BatchMeta) {
    for (const frame of batch.frameItems) {
      const user = batch.acquireUserMeta();
      user.setJson("ACME.NOTE.TEXT", { note: "seen" });
      frame.addUserMeta(user);
    }
  }
}

describe("a segmentation meta written marks its frame inferred (bInferDone), as nvinfer does", () => {
  it("on the frame: inferDone is set by addUserMeta, seen in the call and downstream", async () => {
    const out = await runTransform(FrameSegmenter, { frames: [{ width: 2, height: 1, inferDone: false }, { width: 2, height: 1, inferDone: false }] });
    for (const frame of out.frameItems) {
      expect(frame.inferDone).toBe(true);
      expect(frame.miscFrameInfo).toEqual([0, 1, 0, 0]);
      expect(frame.userMetaItems.map((user) => user.kind)).toEqual(["segmentation"]);
    }
  });

  it("on an object: the object's frame gets inferDone, the other frame keeps its own", async () => {
    const out = await runTransform(ObjectSegmenter, {
      frames: [
        { width: 2, height: 1 },
        { width: 2, height: 1, objects: [{ classId: 0, rectParams: { left: 0, top: 0, width: 1, height: 1 } }] },
      ],
    });
    expect(out.frameItems.map((frame) => frame.inferDone)).toEqual([false, true]);
    expect(out.frameItems[1]!.objectItems[0]!.userMetaItems.map((user) => user.kind)).toEqual(["segmentation"]);
  });

  it("other user metas leave inferDone as it was", async () => {
    const out = await runTransform(Annotator, { frames: [{ width: 2, height: 1, inferDone: false }] });
    expect(out.frameItems[0]!.inferDone).toBe(false);
  });
});
