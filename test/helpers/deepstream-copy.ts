// What a batch reads like after a buffer copy (a tee branch's gst_buffer_make_writable): what
// NVIDIA's nvds_batch_meta_copy_func does on DeepStream, and the portable backend's copy does
// the same (docs/metadata.md, "Buffer copies"). Applied to batch.toJSON() of the original.

/* eslint-disable @typescript-eslint/no-explicit-any */
type Json = Record<string, any>;

/** `batch` (a batch.toJSON()) as it reads after one buffer copy. */
export function asCopied(batch: Json): Json {
  const copy = structuredClone(batch);
  for (const frame of copy.frameItems as Json[]) {
    frame.pipelineWidth = 0;
    frame.pipelineHeight = 0;
    // Lists DeepStream prepends to come out reversed; frames and batch user metas do not.
    frame.objectItems.reverse();
    frame.displayMetaItems.reverse();
    frame.userMetaItems.reverse();
    for (const object of frame.objectItems as Json[]) {
      // The copy links a parent only when it copied the parent first: never, for a child added
      // after its parent (DeepStream's list has the child first).
      object.parent = null;
      object.userMetaItems.reverse();
      object.classifierItems.reverse();
      for (const classifier of object.classifierItems as Json[]) {
        classifier.classifierType = "";
        classifier.labelInfoItems.reverse();
        classifier.numLabels = classifier.labelInfoItems.length;
      }
    }
  }
  return copy;
}
