/**
 * Layout of the per-call state Float64Array that native code fills right before each
 * `transform` call (docs/internals/host-protocol.md), and of the object rows the metadata
 * binding reads and writes (docs/internals/metadata-design.md §5). Mirrored in C++ by
 * native-host/src/binding/state_layout.h: change both together and bump
 * META_LAYOUT_VERSION.
 *
 * Reading plain doubles from one shared array is what keeps the per-buffer hand-off free of
 * allocation on the native side.
 */

/** Version of this layout; the binding's `meta.layoutVersion` must equal it. */
export const META_LAYOUT_VERSION = 2;

// ---------------------------------------------------------------- header

/** Index of the buffer PTS (ns, -1 when none). */
export const STATE_PTS = 0;
/** Index of the buffer DTS (ns, -1 when none). */
export const STATE_DTS = 1;
/** Index of the buffer duration (ns, -1 when none). */
export const STATE_DURATION = 2;
/** Index of the buffer size in bytes. */
export const STATE_SIZE = 3;
/** Index of the number of frames in the batch (`num_frames_in_batch`). */
export const STATE_NUM_FRAMES = 4;
/** Index of `max_frames_in_batch`. */
export const STATE_MAX_FRAMES = 5;
/** Index of the call id every metadata binding function takes (a uint32, never 0 for a live call). */
export const STATE_CALL_ID = 6;
/** Index of the backend: 0 portable GstMeta, 1 DeepStream NvDsBatchMeta. */
export const STATE_BACKEND = 7;
/** Index of the first frame's record. */
export const STATE_FRAMES_BASE = 8;
/** Doubles per frame record. */
export const STATE_FRAME_STRIDE = 24;

// ---------------------------------------------------------------- one frame record

/** `frame_num` (int32 in DeepStream). */
export const FRAME_NUM = 0;
/** `buf_pts` (ns, -1 when none). */
export const FRAME_BUF_PTS = 1;
/** The buffer's DTS (ns, -1 when none); not a DeepStream field. */
export const FRAME_BUF_DTS = 2;
/** The buffer's duration (ns, -1 when none); not a DeepStream field. */
export const FRAME_BUF_DURATION = 3;
/** `source_id`. */
export const FRAME_SOURCE_ID = 4;
/** `pad_index`. */
export const FRAME_PAD_INDEX = 5;
/** `batch_id`. */
export const FRAME_BATCH_ID = 6;
/** `source_frame_width`. */
export const FRAME_SOURCE_WIDTH = 7;
/** `source_frame_height`. */
export const FRAME_SOURCE_HEIGHT = 8;
/** `pipeline_width`. */
export const FRAME_PIPELINE_WIDTH = 9;
/** `pipeline_height`. */
export const FRAME_PIPELINE_HEIGHT = 10;
/** `ntp_timestamp`, high 32 bits (uint64 split in two exact halves). */
export const FRAME_NTP_HI = 11;
/** `ntp_timestamp`, low 32 bits. */
export const FRAME_NTP_LO = 12;
/** `surface_type`. */
export const FRAME_SURFACE_TYPE = 13;
/** `surface_index`. */
export const FRAME_SURFACE_INDEX = 14;
/** `num_surfaces_per_frame`. */
export const FRAME_NUM_SURFACES = 15;
/** `bInferDone` (0 or 1). */
export const FRAME_INFER_DONE = 16;
/** `misc_frame_info[0..3]` (int64 values; exact up to 2^53). */
export const FRAME_MISC = 17;
// 21..23 reserved (0).

/** How many doubles a batch of `numFrames` frames occupies. */
export function stateLength(numFrames: number): number {
  return STATE_FRAMES_BASE + numFrames * STATE_FRAME_STRIDE;
}

// ---------------------------------------------------------------- object rows

/** Doubles per object row in an object table (`meta.bindObjectTable`). */
export const OBJ_STRIDE = 40;
/** `class_id` (int32). */
export const OBJ_CLASS_ID = 0;
/** `object_id` (uint64; UNTRACKED_OBJECT_ID is -1, others exact up to 2^53). */
export const OBJ_OBJECT_ID = 1;
/** `unique_component_id` (int32). */
export const OBJ_UNIQUE_COMPONENT_ID = 2;
/** `confidence`. */
export const OBJ_CONFIDENCE = 3;
/** `tracker_confidence`. */
export const OBJ_TRACKER_CONFIDENCE = 4;
/** `rect_params.left`, then top, width, height at +1..+3. */
export const OBJ_RECT = 5;
/** `rect_params.border_width`. */
export const OBJ_BORDER_WIDTH = 9;
/** `rect_params.border_color` red, green, blue, alpha at +0..+3. */
export const OBJ_BORDER_COLOR = 10;
/** `rect_params.has_bg_color` (0 or 1). */
export const OBJ_HAS_BG_COLOR = 14;
/** `rect_params.bg_color` red, green, blue, alpha at +0..+3. */
export const OBJ_BG_COLOR = 15;
/** `rect_params.has_color_info` (0 or 1). */
export const OBJ_HAS_COLOR_INFO = 19;
/** `rect_params.color_id`. */
export const OBJ_COLOR_ID = 20;
/** `rect_params.rotation_angle` (degrees). */
export const OBJ_ROTATION_ANGLE = 21;
/** `detector_bbox_info.org_bbox_coords` left, top, width, height at +0..+3. */
export const OBJ_DETECTOR_BBOX = 22;
/** `tracker_bbox_info.org_bbox_coords` left, top, width, height at +0..+3. */
export const OBJ_TRACKER_BBOX = 26;
/** `misc_obj_info[0..3]` (int64 values; exact up to 2^53). */
export const OBJ_MISC = 30;
/** Row of the parent object, -1 when none (filled by `listObjects`; written by `addObject`'s argument). */
export const OBJ_PARENT_ROW = 34;
/** Index of the frame the object is in, -1 when not added (filled by native). */
export const OBJ_FRAME_INDEX = 35;
// 36..39 reserved.
