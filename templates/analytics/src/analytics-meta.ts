/**
 * The user metadata this element writes, typed: each type string with the zod schema of its
 * JSON payload (`defineUserMeta`). The element writes them with `add`, which checks the value;
 * an element downstream imports them and reads the counts back typed with `get` (or `all`),
 * checked again. Untyped readers see regular JSON user metas of these types, and C code
 * (`nvds_get_user_meta_type("DSELEMENT.ANALYTICS.FRAME")`) reads `user_meta_data` as the JSON text.
 */
import { defineUserMeta, z } from "ds-element";

/** On every frame: its source's crossings so far and the ROI's occupancy on this frame. */
export const FRAME_ANALYTICS = defineUserMeta(
  "DSELEMENT.ANALYTICS.FRAME",
  z.object({
    sourceId: z.number().int().min(0),
    frameNum: z.number().int().min(0),
    /** Crossings of the line on this source so far. */
    lineCrossings: z.object({ forward: z.number().int().min(0), backward: z.number().int().min(0) }),
    /** Objects in the ROI on this frame. */
    roiOccupancy: z.number().int().min(0),
  }),
);

/** On every object that crossed the line on this frame or is in the ROI. */
export const OBJECT_ANALYTICS = defineUserMeta(
  "DSELEMENT.ANALYTICS.OBJECT",
  z.object({
    /** The way it crossed the line on this frame, if it did. */
    crossed: z.enum(["forward", "backward"]).optional(),
    inRoi: z.boolean(),
  }),
);

/** What the frame user meta holds. */
export type FrameAnalytics = z.output<typeof FRAME_ANALYTICS.schema>;
/** What the object user meta holds. */
export type ObjectAnalytics = z.output<typeof OBJECT_ANALYTICS.schema>;
