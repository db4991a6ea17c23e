// The metadata fields that numbers carry between native code and TypeScript: one row per field,
// and the one place a field is defined. `npm run generate` (scripts/generate-meta-fields.mjs)
// writes from it, on the native side, the state and object-row layout
// (native-host/src/protocol/state_layout.h), the model structs (meta/model.h), the record
// codec (protocol/records.cpp), the native validators (meta/validate.cpp) and the copies to and
// from DeepStream's structs (meta/deepstream_backend.cpp); on the TypeScript side the layout
// and the field descriptors (protocol/transform-state.ts) from which FrameMeta's and
// ObjectMeta's accessors, checks and toJSON are built at run time, and their typed declarations
// (metadata/frame-meta.ts, metadata/object-meta.ts, testing/batch-init.ts). `npm test` fails
// when a generated file is not what this table gives (test/generated-files.test.ts).
//
// Adding a numeric field of a frame or an object: one row here (name, C type, kind, DeepStream
// field, TSDoc), `npm run generate`, and tests of the field (docs/internals/metadata-fields.md).
//
// Columns of a field:
//   name     the TypeScript member (DeepStream's name in camelCase);
//   ds       the DeepStream field (NvDsFrameMeta / NvDsObjectMeta member path); also the model
//            member unless `model` says otherwise;
//   c        the C type in the model (meta/model.h);
//   kind     what the value is, which decides its TypeScript type, its check on both sides
//            and how it travels (see KINDS below);
//   default  the model's initial value (C++), when not zero;
//   readOnly TypeScript reads it but never writes it;
//   inline   a struct whose members DeepStream declares in this one (NvOSD_RectParams' box);
//   deepstream.since / deepstream.missing: the first DeepStream release with the field, and
//            what an older one lacks (a non-zero value is then an error, never dropped);
//   doc, example  the member's TSDoc; init: what `ds-element/testing` does when a test omits it;
//   extra / view  a member not held as numbers (kept JS-side / a live view over a struct of the
//            row): the type `ds-element/testing` takes for it.

/**
 * What each kind is. `slots`: doubles in a record; `ts`: the TypeScript type (`get` / `set`
 * when they differ); `check`: what a value must be (both sides say it in these words).
 */
export const KINDS = {
  int32: { slots: 1, ts: "number", check: "an integer from -2147483648 to 2147483647" },
  uint32: { slots: 1, ts: "number", check: "an integer from 0 to 4294967295" },
  count: { slots: 1, ts: "number", check: "an integer from 0 to 2147483647" },
  flag: { slots: 1, ts: "boolean", check: "a boolean (0 or 1 natively)" },
  objectId: { slots: 1, ts: "number", check: "an integer from 0 to 2^53 - 1, or -1 for untracked (UNTRACKED_OBJECT_ID)" },
  clockTime: { slots: 1, ts: "number | undefined", check: "an integer from 0 to 2^53 - 1, or undefined (-1 natively) for none" },
  uint64: { slots: 2, ts: "bigint", check: "a bigint from 0n to 2^64 - 1 (two exact 32-bit halves natively, high first)" },
  misc: { slots: 4, ts: "readonly [number, number, number, number]", check: "four integers, each exact up to 2^53" },
  confidence: { slots: 1, ts: "number", check: "a float from 0 to 1, or -0.1 for none" },
  float: { slots: 1, ts: "number", check: "a finite float" },
  floatSize: { slots: 1, ts: "number", check: "a finite float >= 0" },
  unit: { slots: 1, ts: "number", check: "a number from 0 to 1" },
  // Not DeepStream fields: the buffer's own times, written by native code, never read back.
  bufferTime: { slots: 1, ts: null, check: "written by native code from the GstBuffer" },
  // Members carried by the model but not in a record (kept by native code, never sent).
  reserved: { slots: 0, ts: null, check: "copied as it is" },
  // Members of the records that travel as JS objects (classifier, label info), never in slots.
  probability: { slots: 0, ts: "number", check: "a number from 0 to 1, stored as a float" },
  label: { slots: 0, ts: "string", check: "at most 127 bytes of UTF-8, no NUL" },
  // A C string of any length (display_text, font_name); `own` says who frees DeepStream's copy:
  // "dup" (g_strdup'd, DeepStream g_free()s it) or "intern" (never freed: an interned string).
  text: { slots: 0, ts: "string", check: "a string without NUL characters" },
  // NvOSD_Arrow_Head_Direction: "start", "end" or "both" in TypeScript, 0, 1 or 2 natively.
  arrowHead: { slots: 0, ts: "ArrowHead", native: "0 | 1 | 2", check: '"start", "end" or "both" (0, 1 or 2 natively)' },
  // Model members whose ownership native code handles by hand (pResult_label): never sent.
  owned: { slots: 0, ts: null, check: "kept by native code" },
};

/**
 * DeepStream's value structs that records embed. Members in DeepStream's order; `ts` is the
 * TypeScript type of the plain value.
 */
export const STRUCTS = {
  ColorParams: {
    ds: "NvOSD_ColorParams",
    ts: "Color",
    members: [
      { name: "red", ds: "red", c: "double", kind: "unit", doc: "Red, 0..1." },
      { name: "green", ds: "green", c: "double", kind: "unit", doc: "Green, 0..1." },
      { name: "blue", ds: "blue", c: "double", kind: "unit", doc: "Blue, 0..1." },
      { name: "alpha", ds: "alpha", c: "double", kind: "unit", doc: "Opacity, 0 (transparent) .. 1 (opaque)." },
    ],
  },
  BboxCoords: {
    ds: "NvBbox_Coords",
    ts: "Box",
    members: [
      { name: "left", ds: "left", c: "float", kind: "float", doc: "Left edge, px." },
      { name: "top", ds: "top", c: "float", kind: "float", doc: "Top edge, px." },
      { name: "width", ds: "width", c: "float", kind: "floatSize", doc: "Width, px (>= 0)." },
      { name: "height", ds: "height", c: "float", kind: "floatSize", doc: "Height, px (>= 0)." },
    ],
  },
  FontParams: {
    ds: "NvOSD_FontParams",
    ts: "FontParams",
    members: [
      // DeepStream never frees font_name (nvinfer points it at a static string): interned.
      { name: "name", ds: "font_name", c: "std::string", kind: "text", own: "intern", doc: "Font family as Pango knows it (`font_name`), e.g. \"Serif\"." },
      { name: "size", ds: "font_size", c: "uint32_t", kind: "uint32", doc: "Size in points (`font_size`)." },
      { name: "color", ds: "font_color", struct: "ColorParams", fallback: [1, 1, 1, 1], doc: "Text colour (`font_color`)." },
    ],
  },
  TextParams: {
    ds: "NvOSD_TextParams",
    ts: "TextParams",
    members: [
      // DeepStream g_free()s display_text when it releases a meta (nvinfer g_strdup()s it).
      { name: "displayText", ds: "display_text", c: "std::string", kind: "text", own: "dup", doc: "The text (`display_text`); no NUL characters." },
      { name: "xOffset", ds: "x_offset", c: "uint32_t", kind: "uint32", doc: "Horizontal position, px (`x_offset`, uint32)." },
      { name: "yOffset", ds: "y_offset", c: "uint32_t", kind: "uint32", doc: "Vertical position, px (`y_offset`, uint32)." },
      { name: "font", ds: "font_params", struct: "FontParams", doc: "The font (`font_params`)." },
      { name: "setBgColor", ds: "set_bg_clr", c: "int32_t", kind: "flag", doc: "Whether the text gets a background box (`set_bg_clr`)." },
      { name: "bgColor", ds: "text_bg_clr", struct: "ColorParams", fallback: [0, 0, 0, 0], doc: "Background colour (`text_bg_clr`), used when `setBgColor`." },
    ],
  },
  LineParams: {
    ds: "NvOSD_LineParams",
    ts: "LineParams",
    members: [
      { name: "x1", ds: "x1", c: "uint32_t", kind: "uint32", doc: "Start x, px (`x1`)." },
      { name: "y1", ds: "y1", c: "uint32_t", kind: "uint32", doc: "Start y, px (`y1`)." },
      { name: "x2", ds: "x2", c: "uint32_t", kind: "uint32", doc: "End x, px (`x2`)." },
      { name: "y2", ds: "y2", c: "uint32_t", kind: "uint32", doc: "End y, px (`y2`)." },
      { name: "lineWidth", ds: "line_width", c: "uint32_t", kind: "uint32", doc: "Line width, px (`line_width`)." },
      { name: "lineColor", ds: "line_color", struct: "ColorParams", fallback: [0, 0, 0, 1], doc: "Line colour (`line_color`)." },
    ],
  },
  ArrowParams: {
    ds: "NvOSD_ArrowParams",
    ts: "ArrowParams",
    members: [
      { name: "x1", ds: "x1", c: "uint32_t", kind: "uint32", doc: "Start x, px (`x1`)." },
      { name: "y1", ds: "y1", c: "uint32_t", kind: "uint32", doc: "Start y, px (`y1`)." },
      { name: "x2", ds: "x2", c: "uint32_t", kind: "uint32", doc: "End x, px (`x2`)." },
      { name: "y2", ds: "y2", c: "uint32_t", kind: "uint32", doc: "End y, px (`y2`)." },
      { name: "arrowWidth", ds: "arrow_width", c: "uint32_t", kind: "uint32", doc: "Arrow width, px (`arrow_width`)." },
      { name: "arrowHead", ds: "arrow_head", c: "ArrowHead", kind: "arrowHead", default: "ArrowHead::kEnd", doc: "Which ends get a head (`arrow_head`)." },
      { name: "arrowColor", ds: "arrow_color", struct: "ColorParams", fallback: [0, 0, 0, 1], doc: "Arrow colour (`arrow_color`)." },
      { name: "reserved", ds: "reserved", c: "uint32_t", kind: "reserved" },
    ],
  },
  CircleParams: {
    ds: "NvOSD_CircleParams",
    ts: "CircleParams",
    members: [
      { name: "xc", ds: "xc", c: "uint32_t", kind: "uint32", doc: "Centre x, px (`xc`)." },
      { name: "yc", ds: "yc", c: "uint32_t", kind: "uint32", doc: "Centre y, px (`yc`)." },
      { name: "radius", ds: "radius", c: "uint32_t", kind: "uint32", doc: "Radius, px (`radius`)." },
      { name: "circleColor", ds: "circle_color", struct: "ColorParams", fallback: [0, 0, 0, 1], doc: "Outline colour (`circle_color`)." },
      { name: "hasBgColor", ds: "has_bg_color", c: "uint32_t", kind: "flag", doc: "Whether the circle is filled with `bgColor` (`has_bg_color`)." },
      { name: "bgColor", ds: "bg_color", struct: "ColorParams", fallback: [0, 0, 0, 0], doc: "Fill colour (`bg_color`), used when `hasBgColor`." },
      { name: "circleWidth", ds: "circle_width", c: "uint32_t", kind: "uint32", doc: "Outline width, px (`circle_width`)." },
      { name: "reserved", ds: "reserved", c: "uint32_t", kind: "reserved" },
    ],
  },
  RectParams: {
    ds: "NvOSD_RectParams",
    ts: "RectParams",
    members: [
      // NvOSD_RectParams starts with a box's members, declared in the struct itself.
      { inline: "BboxCoords" },
      { name: "borderWidth", ds: "border_width", c: "uint32_t", kind: "uint32", doc: "Border width, px (`border_width`)." },
      {
        name: "borderColor",
        ds: "border_color",
        struct: "ColorParams",
        fallback: [0, 0, 0, 1],
        doc: "Border colour (`border_color`); assign a {@link ColorInit} to change some components.",
      },
      { name: "hasBgColor", ds: "has_bg_color", c: "uint32_t", kind: "flag", doc: "Whether the box is filled with `bgColor` (`has_bg_color`)." },
      { name: "reserved", ds: "reserved", c: "uint32_t", kind: "reserved" },
      { name: "bgColor", ds: "bg_color", struct: "ColorParams", fallback: [0, 0, 0, 0], doc: "Fill colour (`bg_color`), used when `hasBgColor`." },
      { name: "hasColorInfo", ds: "has_color_info", c: "int32_t", kind: "flag", doc: "Whether `colorId` is set (`has_color_info`)." },
      { name: "colorId", ds: "color_id", c: "int32_t", kind: "int32", doc: "Colour palette index (`color_id`), used when `hasColorInfo`." },
      {
        name: "rotationAngle",
        ds: "rotation_angle",
        c: "float",
        kind: "float",
        deepstream: { since: "9.0", missing: "has no rotated boxes" },
        doc: "Rotation of the box in degrees (`rotation_angle`, oriented boxes).",
      },
    ],
  },
};

/**
 * The per-call state array's header: the buffer and the batch, before the frame records
 * (docs/internals/host-protocol.md).
 */
export const STATE_HEADER = [
  { name: "pts", doc: "the buffer PTS (ns, -1 when none)" },
  { name: "dts", doc: "the buffer DTS (ns, -1 when none)" },
  { name: "duration", doc: "the buffer duration (ns, -1 when none)" },
  { name: "size", doc: "the buffer size in bytes" },
  { name: "numFrames", doc: "the number of frames in the batch (`num_frames_in_batch`)" },
  { name: "maxFrames", doc: "`max_frames_in_batch`" },
  { name: "callId", doc: "the call id every metadata binding function takes (a uint32, never 0 for a live call)" },
  { name: "backend", doc: "the backend: 0 portable GstMeta, 1 DeepStream NvDsBatchMeta" },
];

/**
 * A frame: its record in the state array (filled by native code before each call, written
 * back by `meta.writeFrame`), `NvDsFrameMeta`'s value fields.
 */
export const FRAME = {
  owner: "FrameMeta",
  ds: "NvDsFrameMeta",
  model: "FrameFields",
  prefix: "FRAME",
  stride: 24,
  // In the order of FrameMeta's toJSON and of the testing FrameInit's members; slots are
  // given in this order too.
  fields: [
    {
      name: "frameNum",
      ds: "frame_num",
      c: "int32_t",
      kind: "int32",
      doc: "Frame number within its source (`frame_num`, int32).",
      example: "if (frame.frameNum % 30 === 0) this.log.info(`frame ${frame.frameNum}`);",
      init: "default: one more than the previous frame of this `sourceId` in this harness, else 0",
    },
    {
      name: "sourceId",
      ds: "source_id",
      c: "uint32_t",
      kind: "uint32",
      doc: "Source (camera/stream) the frame came from (`source_id`, uint32).",
      example: "this.counts.set(frame.sourceId, (this.counts.get(frame.sourceId) ?? 0) + 1);",
      init: "default: the frame's index in the batch (one source per muxer pad)",
    },
    {
      name: "padIndex",
      ds: "pad_index",
      c: "uint32_t",
      kind: "uint32",
      doc: "Sink pad of the muxer the frame came in on (`pad_index`, uint32).",
      example: "const camera = this.cameras[frame.padIndex];",
      init: "default: the frame's `sourceId`",
    },
    {
      name: "batchId",
      ds: "batch_id",
      c: "uint32_t",
      kind: "uint32",
      readOnly: true,
      doc: "Index of this frame inside the batch (`batch_id`): which surface of the batched buffer holds it.",
      example: "const tensor = buffer.extract(frame.batchId);",
    },
    {
      name: "bufPts",
      ds: "buf_pts",
      c: "uint64_t",
      kind: "clockTime",
      doc: "Presentation timestamp of the frame's original buffer in ns (`buf_pts`); undefined when it\nhad none. Write an integer >= 0 or undefined.",
      example: "const seconds = (frame.bufPts ?? 0) / 1e9;",
      init: "default: the batch's `pts`",
    },
    { name: "bufDts", kind: "bufferTime", buffer: "dts", doc: "The buffer's DTS (ns, -1 when none); not a DeepStream field." },
    { name: "bufDuration", kind: "bufferTime", buffer: "duration", doc: "The buffer's duration (ns, -1 when none); not a DeepStream field." },
    {
      name: "ntpTimestamp",
      ds: "ntp_timestamp",
      c: "uint64_t",
      kind: "uint64",
      doc: "Wall-clock time the source captured the frame, ns since the Unix epoch (`ntp_timestamp`,\nuint64); set by nvstreammux when `attach-sys-ts` or RTCP sender reports give one.",
      example: "const captured = new Date(Number(frame.ntpTimestamp / 1_000_000n));",
      init: "default 0n",
    },
    {
      name: "sourceFrameWidth",
      ds: "source_frame_width",
      c: "uint32_t",
      kind: "uint32",
      doc: "Width of the frame as the source produced it (`source_frame_width`, uint32).",
      example: "const scaleX = frame.sourceFrameWidth / frame.pipelineWidth;",
      init: "default `width`",
    },
    {
      name: "sourceFrameHeight",
      ds: "source_frame_height",
      c: "uint32_t",
      kind: "uint32",
      doc: "Height of the frame as the source produced it (`source_frame_height`, uint32).",
      example: "const scaleY = frame.sourceFrameHeight / frame.pipelineHeight;",
      init: "default `height`",
    },
    {
      name: "pipelineWidth",
      ds: "pipeline_width",
      c: "uint32_t",
      kind: "uint32",
      doc: "Width of the frame in this pipeline's buffers (`pipeline_width`, uint32).",
      example: "const right = Math.min(obj.rectParams.left + obj.rectParams.width, frame.pipelineWidth);",
    },
    {
      name: "pipelineHeight",
      ds: "pipeline_height",
      c: "uint32_t",
      kind: "uint32",
      doc: "Height of the frame in this pipeline's buffers (`pipeline_height`, uint32).",
      example: "const bottom = Math.min(obj.rectParams.top + obj.rectParams.height, frame.pipelineHeight);",
    },
    {
      name: "surfaceType",
      ds: "surface_type",
      c: "uint32_t",
      kind: "uint32",
      doc: "Surface type (`surface_type`, uint32; 0 for a regular frame, other values for 360° cameras).",
      example: "if (frame.surfaceType !== 0) return; // only regular surfaces",
      init: "default 0",
    },
    {
      name: "surfaceIndex",
      ds: "surface_index",
      c: "uint32_t",
      kind: "uint32",
      doc: "Which of the frame's surfaces this is (`surface_index`, uint32).",
      example: "const view = `${frame.sourceId}/${frame.surfaceIndex}`;",
      init: "default 0",
    },
    {
      name: "numSurfacesPerFrame",
      ds: "num_surfaces_per_frame",
      c: "int32_t",
      kind: "count",
      default: "1",
      doc: "Number of surfaces the source frame has (`num_surfaces_per_frame`, 1 for a regular frame).",
      example: "const multi = frame.numSurfacesPerFrame > 1;",
      init: "default 1",
    },
    {
      name: "inferDone",
      ds: "bInferDone",
      c: "int32_t",
      kind: "flag",
      doc: "Whether inference ran on this frame (`bInferDone`); nvinfer's `interval` skips frames.\nSet it when your element infers, so downstream elements can tell.",
      example: "frame.inferDone = true;",
      init: "default false",
    },
    {
      name: "miscFrameInfo",
      ds: "misc_frame_info",
      c: "int64_t",
      kind: "misc",
      doc: "Four integers for your own use (`misc_frame_info`), set as a whole. int64 in DeepStream;\nexact here up to 2^53.",
      example: "frame.miscFrameInfo = [this.sceneId, 0, 0, 0];",
      init: "default zeros",
    },
  ],
};

/**
 * An object: its row in the call's object table (OBJECT.stride doubles; docs/internals/
 * metadata-design.md §5), `NvDsObjectMeta`'s numeric fields. Its strings, text params and mask
 * travel as arguments (`extra`: declared here for the model; accessors are hand-written), its
 * parent and frame as row links.
 */
export const OBJECT = {
  owner: "ObjectMeta",
  ds: "NvDsObjectMeta",
  model: "ObjectFields",
  prefix: "OBJ",
  stride: 40,
  fields: [
    {
      name: "classId",
      ds: "class_id",
      c: "int32_t",
      kind: "int32",
      doc: "Class index from the detector (`class_id`, int32).",
      example: "const people = frame.objectItems.filter((obj) => obj.classId === 0);",
    },
    {
      name: "objectId",
      ds: "object_id",
      c: "uint64_t",
      kind: "objectId",
      default: "kUntrackedObjectId",
      doc: "Tracking id (`object_id`) set by a tracker; -1 (DeepStream's `UNTRACKED_OBJECT_ID`) until\none tracks the object. Ids are integers up to 2^53 - 1.",
      example: "if (obj.objectId !== -1) this.lastSeen.set(obj.objectId, frame.frameNum);",
    },
    {
      name: "uniqueComponentId",
      ds: "unique_component_id",
      c: "int32_t",
      kind: "int32",
      doc: "Id of the component that made the object (`unique_component_id`, int32), e.g. nvinfer's\n`gie-unique-id`; secondary inference uses it to pick its input objects.",
      example: "obj.uniqueComponentId = 1;",
    },
    {
      name: "confidence",
      ds: "confidence",
      c: "float",
      kind: "confidence",
      doc: "Detector confidence (`confidence`): 0..1, or -0.1 where there is none (DeepStream's marker,\ne.g. objects only a tracker knows). Stored as a float: reads give the nearest float.",
      example: "const sure = frame.objectItems.filter((obj) => obj.confidence >= 0.5);",
    },
    {
      name: "trackerConfidence",
      ds: "tracker_confidence",
      c: "float",
      kind: "confidence",
      doc: "Tracker confidence (`tracker_confidence`): 0..1, or -0.1 where there is none.",
      example: "if (obj.trackerConfidence >= 0 && obj.trackerConfidence < 0.2) frame.removeObjectMeta(obj);",
    },
    { name: "label", ds: "obj_label", c: "char[kMaxLabelSize]", extra: "string" },
    { name: "rectParams", ds: "rect_params", struct: "RectParams", view: "RectParamsInit" },
    { name: "textParams", ds: "text_params", c: "TextParams", extra: "TextParamsInit" },
    { name: "maskParams", ds: "mask_params", c: "MaskParams", extra: "MaskParams" },
    {
      name: "detectorBboxInfo",
      ds: "detector_bbox_info.org_bbox_coords",
      model: "detector_bbox_info",
      struct: "BboxCoords",
      view: "BoxInit",
    },
    {
      name: "trackerBboxInfo",
      ds: "tracker_bbox_info.org_bbox_coords",
      model: "tracker_bbox_info",
      struct: "BboxCoords",
      view: "BoxInit",
    },
    {
      name: "miscObjInfo",
      ds: "misc_obj_info",
      c: "int64_t",
      kind: "misc",
      doc: "Four integers for your own use (`misc_obj_info`), set as a whole. int64 in DeepStream;\nexact here up to 2^53.",
      example: "obj.miscObjInfo = [frame.frameNum, 0, 0, 0];",
    },
  ],
  // Filled by native code: where the object hangs (not DeepStream fields of their own).
  links: [
    { name: "parentRow", doc: "Row of the parent object, -1 when none (filled by `listObjects`; written by `addObject`'s argument)." },
    { name: "frameIndex", doc: "Index of the frame the object is in, -1 when not added (filled by native)." },
  ],
};

/**
 * What nvinfer writes into every object it detects besides the detection itself, and what
 * ds-element writes by default wherever detections are written (bulk `frame.addObjects()`, one
 * by one with `batch.acquireObjectMeta()`, classifier labels): DeepStream 9.1's
 * gst-plugins/gst-nvinfer/gstnvinfer_meta_utils.cpp, attach_metadata_detector (`line`s below)
 * and attach_metadata_classifier (~270-348, the same text params). nvinfer's per-class
 * colours default to the red border below for every class (gstnvinfer_property_parser.cpp
 * ~1355-1361). docs/metadata.md has the whole table, with where a user overrides each value.
 *
 * Columns: name (TypeScript), c (the C++ constant's type; `color`: an NvOSD_ColorParams as
 * [red, green, blue, alpha]), value, ds (the NvDsObjectMeta member), line (where nvinfer sets it).
 */
export const NVINFER_OBJECT = [
  { name: "borderWidth", c: "uint32_t", value: 3, ds: "rect_params.border_width", line: 179 },
  { name: "borderColor", c: "color", value: [1, 0, 0, 1], ds: "rect_params.border_color", line: 182 },
  { name: "fontName", c: "string", value: "Serif", ds: "text_params.font_params.font_name", line: 203 },
  { name: "fontSize", c: "uint32_t", value: 11, ds: "text_params.font_params.font_size", line: 204 },
  { name: "fontColor", c: "color", value: [1, 1, 1, 1], ds: "text_params.font_params.font_color", line: 205 },
  { name: "setBgColor", c: "int32_t", value: 1, ds: "text_params.set_bg_clr", line: 199 },
  { name: "textBgColor", c: "color", value: [0, 0, 0, 1], ds: "text_params.text_bg_clr", line: 200 },
  // y_offset = rect_params.top - 10: the label sits above the box's top left corner.
  { name: "textAbove", c: "float", value: 10, ds: "text_params.y_offset", line: 197 },
];

/**
 * A classifier's result for one attribute (`NvDsLabelInfo`): what a `LabelInfo` holds, in the
 * order of its API and toJSON. Travels as a JS object (meta-binding.ts NativeLabelInfo); the
 * accessors, their checks, toJSON and `ds-element/testing`'s LabelInfoInit are made from these
 * rows (metadata/call/value-fields.ts).
 */
export const LABEL_INFO = {
  owner: "LabelInfo",
  ds: "NvDsLabelInfo",
  model: "LabelInfoFields",
  fields: [
    {
      name: "numClasses",
      ds: "num_classes",
      c: "uint32_t",
      kind: "uint32",
      doc: "Number of classes the classifier chose among (`num_classes`, uint32).",
      example: "label.numClasses = 4;",
    },
    {
      name: "resultLabel",
      ds: "result_label",
      c: "char[kMaxLabelSize]",
      kind: "label",
      // Read through meta::result_label: an upstream pResult_label (long_label) wins.
      read: "meta::result_label",
      doc:
        "The chosen class's name (`result_label`): at most 127 bytes of UTF-8, no NUL; a longer one\n" +
        "is an error, never cut. nvinfer copies labels into `result_label` (128 bytes,\n" +
        "gstnvinfer_meta_utils.cpp:317) and writes no `pResult_label`; deepstream-app copies a\n" +
        "`pResult_label` into 128 bytes (deepstream_app.c ~1336-1364). Reading gives `pResult_label`\n" +
        "when an upstream element set one.",
      example: 'label.resultLabel = "sedan";',
    },
    // pResult_label as an upstream element left it (read only: no NVIDIA plugin writes it, and
    // ds-element never does; see set_result_label); empty when NULL.
    { model: "long_label", ds: "pResult_label", c: "std::string", kind: "owned" },
    {
      name: "resultClassId",
      ds: "result_class_id",
      c: "uint32_t",
      kind: "uint32",
      doc: "The chosen class's id (`result_class_id`, uint32).",
      example: "label.resultClassId = 3;",
    },
    {
      name: "labelId",
      ds: "label_id",
      c: "uint32_t",
      kind: "uint32",
      doc: "Which attribute of a multi-attribute classifier this result is for (`label_id`, uint32).",
      example: "label.labelId = 1; // e.g. 0 = colour, 1 = make",
    },
    {
      name: "resultProb",
      ds: "result_prob",
      c: "float",
      kind: "probability",
      doc: "Probability of the chosen class, 0..1 (`result_prob`).",
      example: "label.resultProb = 0.87;",
    },
  ],
};

/**
 * What a secondary classifier concluded about one object (`NvDsClassifierMeta`), its value
 * members; its label infos are a list (hand-written, classifier-meta.ts). `list`: the accessor
 * is hand-written because the value follows the list (num_labels counts the labels).
 */
export const CLASSIFIER = {
  owner: "ClassifierMeta",
  ds: "NvDsClassifierMeta",
  model: "ClassifierFields",
  fields: [
    {
      name: "numLabels",
      ds: "num_labels",
      c: "uint32_t",
      kind: "uint32",
      list: true,
      init: "default: the number of `labels`",
    },
    {
      name: "uniqueComponentId",
      ds: "unique_component_id",
      c: "int32_t",
      kind: "int32",
      doc: "Id of the component (e.g. nvinfer's `gie-unique-id`) that made this classification\n(`unique_component_id`, int32).",
      example: "classifier.uniqueComponentId = 3;",
    },
    {
      name: "classifierType",
      ds: "classifier_type",
      // DeepStream: a const gchar* it does not own (nvinfer points it at its own string): interned.
      c: "std::string",
      kind: "label",
      doc: "What the classifier classifies (`classifier_type`): at most 127 bytes of UTF-8, no NUL.",
      example: 'classifier.classifierType = "vehicle-make";',
    },
  ],
};
