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
//            a number's row of the frame, object, classifier or label-info record or of
//            RectParams (the generator refuses it elsewhere);
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

// ---------------------------------------------------------------- the kinds of NVIDIA components' user metas
//
// The user metas that DeepStream components attach and ds-element reads (some it writes too):
// the event message nvmsgconv converts, nvdsanalytics' frame and object metas, nvinfer's
// segmentation meta. One row per member, as above: `npm run generate` writes from them the
// X-macro lists of native-host/src/meta/{event_msg,analytics_meta,segmentation_meta}.h (the
// model structs, validators, DeepStream copies and JS readers expand them), the TypeScript
// descriptors of sdk/src/protocol/kind-fields.ts (walked by the metadata files) and the members
// of the public TypeScript types. Adding a member: one row, `npm run generate`, tests.
//
// Columns of a member: name (TypeScript; DeepStream's member unless `ds` says otherwise), ds,
// c (the model's C++ type), kind (MEMBER_KINDS), doc (its TSDoc), and per kind: `enum` (the
// enum of an `enum` member), `struct` (the struct of a `struct` member), `initial` ("now":
// the current time, ISO 8601, when a writer leaves it out).

/**
 * What each member kind is: `ts`, its TypeScript type in the public types (`%` is the enum or
 * struct named by the row); `cKind`, the X-macro's kind argument where a list carries one.
 */
export const MEMBER_KINDS = {
  int32: { ts: "number", cKind: "int32" },
  uint32: { ts: "number", cKind: "uint32" },
  double: { ts: "number", cKind: "double" },
  float: { ts: "number", cKind: "float" },
  floatSize: { ts: "number", cKind: "float" },
  // A guint64 tracking id: -1 in TypeScript is UNTRACKED_OBJECT_ID.
  objectId: { ts: "number", cKind: "objectId" },
  // An integer of an NvDs enum, a name in TypeScript (EVENT_ENUMS).
  enum: { ts: "%", cKind: "int32" },
  // A nul-terminated string; empty natively is NULL in DeepStream where the member is a pointer.
  string: { ts: "string" },
  // NvDsObjectSignature: a list of doubles.
  doubles: { ts: "readonly number[]" },
  struct: { ts: "%" },
  // nvdsanalytics' maps and lists (std::unordered_map / std::vector in NVIDIA's structs).
  flagMap: { ts: "Readonly<Record<string, boolean>>", c: "AnalyticsFlags", value: "flags" },
  countMap: { ts: "Readonly<Record<string, number>>", c: "AnalyticsCounts", value: "counts" },
  totalMap: { ts: "Readonly<Record<string, number>>", c: "AnalyticsTotals", value: "counts" },
  classCountMap: { ts: "Readonly<Record<number, number>>", c: "AnalyticsClassCounts", value: "class-counts" },
  labels: { ts: "readonly string[]", c: "AnalyticsLabels", value: "labels" },
};

/**
 * The NvDs enums of the event message (nvdsmeta_schema.h): their names in TypeScript (DeepStream's,
 * lower case, `_` as `-`), in DeepStream's order, with their values. `fallback`: what a value
 * another component wrote outside these reads as.
 */
export const EVENT_ENUMS = {
  EventType: {
    ds: "NvDsEventType",
    fallback: "custom",
    doc:
      "An event's type (`NvDsEventType`, nvdsmeta_schema.h): `\"entry\"` `NVDS_EVENT_ENTRY`, `\"exit\"`,\n" +
      "`\"moving\"`, `\"stopped\"`, `\"empty\"`, `\"parked\"`, `\"reset\"`, `\"custom\"` `NVDS_EVENT_CUSTOM`.\n" +
      "nvmsgconv writes it as the message's `event.type`. A value another component wrote outside\n" +
      "these reads as `\"custom\"`.",
    example: 'const type: EventType = crossed ? "entry" : "moving";',
    values: { entry: 0, exit: 1, moving: 2, stopped: 3, empty: 4, parked: 5, reset: 6, custom: 0x101 },
  },
  EventObjectType: {
    ds: "NvDsObjectType",
    fallback: "unknown",
    doc:
      "The type of the object an event is about (`NvDsObjectType`): `\"vehicle\"`\n" +
      "`NVDS_OBJECT_TYPE_VEHICLE`, `\"person\"`, `\"face\"`, `\"bag\"`, `\"bicycle\"`, `\"roadsign\"`,\n" +
      "`\"vehicle-ext\"`, `\"person-ext\"`, `\"face-ext\"`, `\"3d\"`, `\"dummy\"`, `\"product\"`,\n" +
      "`\"product-ext\"`, `\"custom\"`, `\"unknown\"` `NVDS_OBJECT_TYPE_UNKNOWN`. It decides which\n" +
      "extension object nvmsgconv reads (`vehicle`, `person`, `face`). A value another component\n" +
      "wrote outside these reads as `\"unknown\"`.",
    example: 'const objType: EventObjectType = obj.classId === 0 ? "vehicle" : "person";',
    values: {
      vehicle: 0,
      person: 1,
      face: 2,
      bag: 3,
      bicycle: 4,
      roadsign: 5,
      "vehicle-ext": 6,
      "person-ext": 7,
      "face-ext": 8,
      "3d": 9,
      dummy: 10,
      product: 11,
      "product-ext": 12,
      custom: 0x101,
      unknown: 0x102,
    },
  },
};

/**
 * The value structs an event message holds, in DeepStream's member order. `macro`: the name of
 * their X-macro list (DSNODE_EVENT_MSG_<macro>, X(member)).
 */
export const EVENT_MSG_STRUCTS = {
  EventMsgRect: {
    ds: "NvDsRect",
    macro: "BBOX",
    members: [
      { name: "top", c: "float", kind: "float", doc: "`top`, px." },
      { name: "left", c: "float", kind: "float", doc: "`left`, px." },
      { name: "width", c: "float", kind: "floatSize", doc: "`width`, px (>= 0)." },
      { name: "height", c: "float", kind: "floatSize", doc: "`height`, px (>= 0)." },
    ],
  },
  EventMsgLocation: {
    ds: "NvDsGeoLocation",
    macro: "LOCATION",
    members: [
      { name: "lat", c: "double", kind: "double", doc: "`lat`: latitude." },
      { name: "lon", c: "double", kind: "double", doc: "`lon`: longitude." },
      { name: "alt", c: "double", kind: "double", doc: "`alt`: altitude." },
    ],
  },
  EventMsgCoordinate: {
    ds: "NvDsCoordinate",
    macro: "COORDINATE",
    members: [
      { name: "x", c: "double", kind: "double", doc: "`x`." },
      { name: "y", c: "double", kind: "double", doc: "`y`." },
      { name: "z", c: "double", kind: "double", doc: "`z`." },
    ],
  },
};

/**
 * DeepStream's event message (`NvDsEventMsgMeta`, nvdsmeta_schema.h): what nvmsgconv turns into
 * a message by default. Members in DeepStream's order, under DeepStream's names in both languages.
 * Numbers are listed in DSNODE_EVENT_MSG_NUMBERS (X(member, C type, kind)), strings in
 * DSNODE_EVENT_MSG_STRINGS; `bbox`, `location`, `coordinate` are EVENT_MSG_STRUCTS.
 */
export const EVENT_MSG = {
  owner: "EventMsgMeta",
  ds: "NvDsEventMsgMeta",
  model: "EventMsg",
  fields: [
    { name: "type", c: "int32_t", kind: "enum", enum: "EventType", doc: "`type`: the event." },
    {
      name: "objType",
      c: "int32_t",
      kind: "enum",
      enum: "EventObjectType",
      doc: "`objType`: the object's type; decides which of `vehicle`, `person`, `face` nvmsgconv reads.",
    },
    { name: "bbox", kind: "struct", struct: "EventMsgRect", doc: "`bbox` (`NvDsRect`): the object's box, pixels (floats); nvmsgconv writes it as integers." },
    { name: "location", kind: "struct", struct: "EventMsgLocation", doc: "`location` (`NvDsGeoLocation`): the object's latitude, longitude, altitude." },
    { name: "coordinate", kind: "struct", struct: "EventMsgCoordinate", doc: "`coordinate` (`NvDsCoordinate`): the object's x, y, z." },
    { name: "objSignature", c: "std::vector<double>", kind: "doubles", doc: "`objSignature`: the object's signature values (finite numbers); empty for none." },
    { name: "objClassId", c: "int32_t", kind: "int32", doc: "`objClassId`: the object's class id (an int32)." },
    { name: "sensorId", c: "int32_t", kind: "int32", doc: "`sensorId`: the sensor, as nvmsgconv's configuration numbers it (`[sensorN]`; an int32)." },
    { name: "moduleId", c: "int32_t", kind: "int32", doc: "`moduleId`: the analytics module (`[analyticsN]` of nvmsgconv's configuration; an int32)." },
    { name: "placeId", c: "int32_t", kind: "int32", doc: "`placeId`: the place (`[placeN]` of nvmsgconv's configuration; an int32)." },
    {
      name: "componentId",
      c: "int32_t",
      kind: "int32",
      doc: "`componentId`: the component that made the event; nvmsgconv's `comp-id` keeps only its own (an int32).",
    },
    { name: "frameId", c: "int32_t", kind: "int32", doc: "`frameId`: the frame's number (deepstream-test4 gives it `frame_num`; an int32)." },
    { name: "confidence", c: "double", kind: "double", doc: "`confidence` (a finite number, double precision)." },
    {
      name: "trackingId",
      c: "uint64_t",
      kind: "objectId",
      doc: "`trackingId`: the object's tracking id; -1 for `UNTRACKED_OBJECT_ID`, as `ObjectMeta.objectId`.",
    },
    {
      name: "ts",
      c: "std::string",
      kind: "string",
      initial: "now",
      doc:
        "`ts`: the event's time, the message's `@timestamp`, as deepstream-test4 writes it (RFC 3339\n" +
        "in UTC with milliseconds, `2026-04-11T04:59:59.828Z`: `Date.prototype.toISOString()`). Default:\n" +
        "the time `setEventMsg` was called.",
    },
    { name: "objectId", c: "std::string", kind: "string", doc: "`objectId`: the object's id string (deepstream-test4 gives it the object's label)." },
    { name: "sensorStr", c: "std::string", kind: "string", doc: "`sensorStr`: the sensor's id string; the minimal schema's `sensorId` when set." },
    { name: "otherAttrs", c: "std::string", kind: "string", doc: "`otherAttrs`: other attributes of the object, free text." },
    { name: "videoPath", c: "std::string", kind: "string", doc: "`videoPath`: the video file's name; the message's `videoPath`." },
  ],
};

/**
 * The extension objects of an event message (its `extMsg`, the struct of its `objType`): the
 * member of EventMsgMeta, the object type, DeepStream's struct, the model struct and the X-macro
 * list of its strings (DSNODE_EVENT_MSG_<macro>, X(member)); `age` is carried beside them.
 */
export const EVENT_MSG_EXTENSIONS = [
  {
    name: "vehicle",
    objType: "vehicle",
    ds: "NvDsVehicleObject",
    model: "EventMsgVehicle",
    macro: "VEHICLE",
    owner: "VehicleObject",
    members: [
      { name: "type", c: "std::string", kind: "string", doc: "`type`: sedan, truck, ..." },
      { name: "make", c: "std::string", kind: "string", doc: "`make`." },
      { name: "model", c: "std::string", kind: "string", doc: "`model`." },
      { name: "color", c: "std::string", kind: "string", doc: "`color`." },
      { name: "region", c: "std::string", kind: "string", doc: "`region`: where the licence plate is from." },
      { name: "license", c: "std::string", kind: "string", doc: "`license`: the plate." },
    ],
  },
  {
    name: "person",
    objType: "person",
    ds: "NvDsPersonObject",
    model: "EventMsgPerson",
    macro: "PERSON",
    owner: "PersonObject",
    members: [
      { name: "gender", c: "std::string", kind: "string", doc: "`gender`." },
      { name: "hair", c: "std::string", kind: "string", doc: "`hair`: colour." },
      { name: "cap", c: "std::string", kind: "string", doc: "`cap`: the cap worn, if any." },
      { name: "apparel", c: "std::string", kind: "string", doc: "`apparel`." },
      { name: "age", c: "uint32_t", kind: "uint32", doc: "`age`, years (an integer from 0 to 4294967295)." },
    ],
  },
  {
    name: "face",
    objType: "face",
    ds: "NvDsFaceObject",
    model: "EventMsgFace",
    macro: "FACE",
    owner: "FaceObject",
    members: [
      { name: "gender", c: "std::string", kind: "string", doc: "`gender`." },
      { name: "hair", c: "std::string", kind: "string", doc: "`hair`: colour." },
      { name: "cap", c: "std::string", kind: "string", doc: "`cap`: the cap worn, if any." },
      { name: "glasses", c: "std::string", kind: "string", doc: "`glasses`: the glasses worn, if any." },
      { name: "facialhair", c: "std::string", kind: "string", doc: "`facialhair`: colour." },
      { name: "name", c: "std::string", kind: "string", doc: "`name`." },
      { name: "eyecolor", c: "std::string", kind: "string", doc: "`eyecolor`." },
      { name: "age", c: "uint32_t", kind: "uint32", doc: "`age`, years." },
    ],
  },
];

/**
 * nvdsanalytics' frame meta (`NvDsAnalyticsFrameMeta`, nvds_analytics_meta.h), in NVIDIA's
 * member order; the TypeScript names are NVIDIA's but `unique_id`. X-macro:
 * DSNODE_ANALYTICS_FRAME_MEMBERS, X(C++ type, member, JS name, what it holds).
 */
export const ANALYTICS_FRAME = {
  owner: "AnalyticsFrameMeta",
  ds: "NvDsAnalyticsFrameMeta",
  model: "AnalyticsFrameMeta",
  macro: "DSNODE_ANALYTICS_FRAME_MEMBERS",
  fields: [
    { name: "ocStatus", kind: "flagMap", doc: "Whether each ROI is overcrowded (`ocStatus`), by ROI label." },
    { name: "objInROIcnt", kind: "countMap", doc: "Objects in each ROI (`objInROIcnt`), by ROI label." },
    { name: "objLCCurrCnt", kind: "totalMap", doc: "Line crossings in this frame (`objLCCurrCnt`), by line label." },
    { name: "objLCCumCnt", kind: "totalMap", doc: "Line crossings since the stream started (`objLCCumCnt`), by line label." },
    { name: "uniqueId", ds: "unique_id", c: "uint32_t", kind: "uint32", doc: "The nvdsanalytics instance's `unique-id` (`unique_id`)." },
    { name: "objCnt", kind: "classCountMap", doc: "Objects of each class in the frame (`objCnt`), by class id." },
  ],
};

/** nvdsanalytics' object meta (`NvDsAnalyticsObjInfo`); X-macro DSNODE_ANALYTICS_OBJECT_MEMBERS. */
export const ANALYTICS_OBJECT = {
  owner: "AnalyticsObjectInfo",
  ds: "NvDsAnalyticsObjInfo",
  model: "AnalyticsObjectInfo",
  macro: "DSNODE_ANALYTICS_OBJECT_MEMBERS",
  fields: [
    { name: "roiStatus", kind: "labels", doc: "Labels of the ROIs the object is in (`roiStatus`)." },
    { name: "ocStatus", kind: "labels", doc: "Labels of the overcrowded ROIs the object is in (`ocStatus`)." },
    { name: "lcStatus", kind: "labels", doc: "Labels of the lines it crossed in this frame (`lcStatus`)." },
    { name: "dirStatus", c: "std::string", kind: "string", doc: "Its direction, as the configured direction label says (`dirStatus`)." },
    { name: "uniqueId", ds: "unique_id", c: "uint32_t", kind: "uint32", doc: "The nvdsanalytics instance's `unique-id` (`unique_id`)." },
    { name: "objStatus", c: "std::string", kind: "string", doc: "Its status text (`objStatus`)." },
  ],
};

/**
 * nvinfer's segmentation meta (`NvDsInferSegmentationMeta`, gstnvdsinfer.h), its scalar members
 * (the class map and probabilities travel beside them). X-macro DSNODE_SEGMENTATION_MEMBERS,
 * X(C++ type, member, JS name, what it holds). `min`: the least value a writer may give (the
 * member is then required); `init`: what a writer leaving it out gets.
 */
export const SEGMENTATION = {
  owner: "SegmentationMeta",
  ds: "NvDsInferSegmentationMeta",
  model: "SegmentationFields",
  macro: "DSNODE_SEGMENTATION_MEMBERS",
  fields: [
    {
      name: "classes",
      c: "uint32_t",
      kind: "uint32",
      min: 1,
      doc: "Number of classes (`classes`).",
      example: "const perClass = new Uint32Array(segmentation.classes);",
    },
    {
      name: "width",
      c: "uint32_t",
      kind: "uint32",
      min: 1,
      doc: "Width of the class map in pixels (`width`): the network's output width, not the frame's.",
      example: "const scaleX = frame.sourceFrameWidth / segmentation.width;",
    },
    {
      name: "height",
      c: "uint32_t",
      kind: "uint32",
      min: 1,
      doc: "Height of the class map in pixels (`height`).",
      example: "const scaleY = frame.sourceFrameHeight / segmentation.height;",
    },
    {
      name: "uniqueId",
      ds: "unique_id",
      c: "int32_t",
      kind: "int32",
      doc: "Id of the element that attached it (`unique_id`: nvinfer's `gie-unique-id`).",
      example: "const mine = segmentation.uniqueId === 2;",
      init: "default 0",
    },
  ],
};

// ---------------------------------------------------------------- nvtracker, nvdspreprocess, the sensor information
//
// What ds-element reads, read-only, of nvtracker's and nvdspreprocess's metas and of the frame's
// sensor information: one row per member of the model structs (native-host/src/meta/
// {tracker_meta,preprocess_meta,component_meta}.h, generated) and of the public TypeScript types
// (metadata/{tracker-meta,preprocess-meta,sensor-info}.ts, generated members). Columns: name (the
// TypeScript member; none for a model-only member), model (the C++ member), ds (DeepStream's
// member, when named otherwise), c (the C++ type; `array`: a C array of that many), default (the
// C++ initializer, when not 0, false, nullptr or empty), ts (the public TypeScript type), note (a
// C++ comment), doc (the TSDoc). A struct's `note` comments its C++ declaration.
//
// How the DeepStream backend reads a member (component_meta_deepstream.cpp's generated
// read_component overloads): from DeepStream's member `ds`, else `name` in a struct whose
// `dsNames` is "camel", else `model`; a vector of model structs from `list` (a C array of `count`
// entries) or `each` (a std::vector); a model struct from `pointer` (skipped when NULL); `read`: a
// C++ expression over `from` instead. A struct read from several DeepStream types (`reads`) is
// read by a function template over them. How
// the binding hands it to TypeScript and the SDK converts it (sdk/src/protocol/component-fields.ts,
// walked by metadata/component-values.ts): `js` (COMPONENT_JS; none: the value as it is), `values`
// (an enum's names by number), `count` (hostFloats: the members whose product is the length). A
// struct's `native` names its binding interface (native/component-meta-binding.ts, generated);
// `writes`: the backend writes it back too.

/** nvtracker's metas (nvds_tracker_meta.h): the past-frame, terminated and shadow lists, the re-ID embeddings. */
export const TRACKER_STRUCTS = {
  TrackerTargetFrame: {
    ds: "NvDsTargetMiscDataFrame",
    owner: "TrackerTargetFrame",
    native: "NativeTrackerTargetFrame",
    dsNames: "camel",
    members: [
      { name: "frameNum", model: "frame_num", c: "uint32_t", ts: "number", doc: "Frame number (`frameNum`)." },
      {
        name: "bbox",
        model: "bbox",
        ds: "tBbox",
        c: "BboxCoords",
        ts: "Readonly<Box>",
        js: "box",
        note: "tBbox's geometry (nvtracker fills only left/top/width/height)",
        doc: "The box, scaled to the frame (`tBbox`).",
      },
      { name: "confidence", model: "confidence", c: "float", ts: "number", doc: "Tracking confidence (`confidence`)." },
      { name: "age", model: "age", c: "uint32_t", ts: "number", doc: "Tracking age, frames (`age`)." },
      {
        name: "trackerState",
        model: "tracker_state",
        c: "int32_t",
        read: "static_cast<int32_t>(from.trackerState)",
        ts: "TrackerState",
        js: "enum",
        values: ["empty", "active", "inactive", "tentative", "projected", "quasiactive"],
        note: "TRACKER_STATE",
        doc: "Tracker state (`trackerState`).",
      },
      { name: "visibility", model: "visibility", c: "float", ts: "number", doc: "Visibility of the box with respect to the image border (`visibility`)." },
      {
        name: "worldFeet",
        model: "world_feet",
        ds: "ptWorldFeet",
        c: "float",
        array: 2,
        default: "{0, 0}",
        ts: "readonly [number, number]",
        js: "xy",
        doc: "Feet location on the world ground (`ptWorldFeet`), [x, y].",
      },
    ],
  },
  TrackerTarget: {
    ds: "NvDsTargetMiscDataObject",
    owner: "TrackerTarget",
    native: "NativeTrackerTarget",
    dsNames: "camel",
    members: [
      {
        name: "uniqueId",
        model: "unique_id",
        c: "uint64_t",
        ts: "number",
        js: "objectId",
        doc: "Tracking id (`uniqueId`): the `objectId` its object has, read as `objectId` is (-1 for UNTRACKED_OBJECT_ID).",
      },
      { name: "classId", model: "class_id", c: "uint16_t", ts: "number", doc: "Class id (`classId`)." },
      {
        name: "objLabel",
        model: "obj_label",
        c: "std::string",
        read: "std::string(from.objLabel, strnlen(from.objLabel, MAX_LABEL_SIZE))",
        ts: "string",
        doc: "Class label (`objLabel`).",
      },
      {
        name: "frames",
        model: "frames",
        ds: "list[0..numObj)",
        list: "list",
        count: "numObj",
        c: "std::vector<TrackerTargetFrame>",
        ts: "readonly TrackerTargetFrame[]",
        js: "list",
        doc: "Its frames (`list[0..numObj)`), oldest first as nvtracker lists them.",
      },
    ],
  },
  TrackerStream: {
    ds: "NvDsTargetMiscDataStream",
    owner: "TrackerStream",
    native: "NativeTrackerStream",
    dsNames: "camel",
    members: [
      { name: "streamId", model: "stream_id", ds: "streamID", c: "uint32_t", ts: "number", doc: "The stream (`streamID`: the frames' `padIndex`)." },
      { name: "surfaceStreamId", model: "surface_stream_id", ds: "surfaceStreamID", c: "uint64_t", ts: "bigint", doc: "The stream id inside nvtracker (`surfaceStreamID`)." },
      {
        name: "targets",
        model: "targets",
        ds: "list[0..numFilled)",
        list: "list",
        count: "numFilled",
        c: "std::vector<TrackerTarget>",
        ts: "readonly TrackerTarget[]",
        js: "list",
        doc: "The targets (`list[0..numFilled)`).",
      },
    ],
  },
  TrackerTargetBatch: {
    ds: "NvDsTargetMiscDataBatch",
    owner: "TrackerTargetList",
    native: "NativeTrackerTargets",
    dsNames: "camel",
    note: "The past-frame, terminated and shadow metas share this shape.",
    members: [
      {
        name: "streams",
        model: "streams",
        ds: "list[0..numFilled)",
        list: "list",
        count: "numFilled",
        c: "std::vector<TrackerStream>",
        ts: "readonly TrackerStream[]",
        js: "list",
        doc: "The streams (`list[0..numFilled)`).",
      },
    ],
  },
  ReidTensor: {
    ds: "NvDsReidTensorBatch / NvDsObjReid",
    owner: "ReidMeta",
    native: "NativeReid",
    dsNames: "camel",
    reads: ["NvDsReidTensorBatch", "NvDsObjReid"],
    note: "num_vectors: numFilled of a batch's, 1 for an object's. Pointers not owned: the meta's.",
    members: [
      { name: "featureSize", model: "feature_size", c: "uint32_t", ts: "number", doc: "Floats per embedding (`featureSize`)." },
      {
        name: "numVectors",
        model: "num_vectors",
        c: "uint32_t",
        read: "vector_count(from)",
        ts: "number",
        doc: "Embeddings (`numFilled` of the batch's, 1 for an object's).",
      },
      {
        name: "data",
        model: "host",
        ds: "ptr_host",
        c: "const float *",
        ts: "Float32Array | undefined",
        js: "hostFloats",
        count: ["featureSize", "numVectors"],
        note: "ptr_host, not owned",
        doc:
          "The host copy (`ptr_host`), `featureSize × numVectors` floats, zero-copy; undefined when\n" +
          "there is none. The memory belongs to nvtracker: the view is emptied (detached) when the\n" +
          "transform() call ends, so copy what you keep (`data.slice()`).",
      },
      { name: "devicePointer", model: "device", ds: "ptr_dev", c: "const void *", ts: "bigint", note: "ptr_dev, not owned", doc: "The device copy (`ptr_dev`), 0n when none." },
    ],
  },
};

/** nvdspreprocess's metas (nvdspreprocess_meta.h, nvds_roi_meta.h). */
export const PREPROCESS_STRUCTS = {
  RoiMeta: {
    ds: "NvDsRoiMeta",
    owner: "RoiMeta",
    native: "NativeRoi",
    note: "The frame and object it belongs to are given by what they hold that JS can name.",
    members: [
      { name: "roi", model: "roi", c: "BboxCoords", ts: "Readonly<Box>", js: "box", note: "roi's geometry", doc: "The region in the frame, px (`roi`)." },
      { model: "has_frame", c: "bool", read: "from.frame_meta != nullptr", note: "frame_meta != NULL" },
      {
        name: "frameBatchId",
        model: "frame_batch_id",
        c: "uint32_t",
        read: "from.frame_meta != nullptr ? from.frame_meta->batch_id : 0",
        ts: "number | undefined",
        js: "optional",
        note: "frame_meta->batch_id",
        doc: "The frame's `batchId` (`frame_meta->batch_id`); undefined when it names none.",
      },
      {
        name: "frameSourceId",
        model: "frame_source_id",
        c: "uint32_t",
        read: "from.frame_meta != nullptr ? from.frame_meta->source_id : 0",
        ts: "number | undefined",
        js: "optional",
        note: "frame_meta->source_id",
        doc: "The frame's `sourceId` (`frame_meta->source_id`); undefined when it names none.",
      },
      { model: "has_object", c: "bool", read: "from.object_meta != nullptr", note: "object_meta != NULL" },
      {
        name: "objectId",
        model: "object_id",
        c: "uint64_t",
        read: "from.object_meta != nullptr ? from.object_meta->object_id : 0",
        ts: "number | undefined",
        js: "optionalObjectId",
        note: "object_meta->object_id",
        doc: "The object's `objectId` when the ROI is an object (`object_meta->object_id`, read as `objectId` is); else undefined.",
      },
      { name: "scaleRatioX", model: "scale_ratio_x", c: "double", ts: "number", doc: "Horizontal scale from the ROI to the tensor (`scale_ratio_x`)." },
      { name: "scaleRatioY", model: "scale_ratio_y", c: "double", ts: "number", doc: "Vertical scale (`scale_ratio_y`)." },
      { name: "offsetLeft", model: "offset_left", c: "double", ts: "number", doc: "Horizontal padding offset in the tensor, px (`offset_left`)." },
      { name: "offsetTop", model: "offset_top", c: "double", ts: "number", doc: "Vertical padding offset (`offset_top`)." },
    ],
  },
  PreprocessTensor: {
    ds: "NvDsPreProcessTensorMeta",
    owner: "PreprocessTensorMeta",
    native: "NativePreprocessTensor",
    note: "raw_tensor_buffer is device memory (nvdspreprocess's CUDA tensor pool, on gpu_id).",
    members: [
      {
        name: "devicePointer",
        model: "raw_tensor_buffer",
        c: "const void *",
        ts: "bigint",
        note: "device memory: its address only",
        doc: "Device address of the tensor (`raw_tensor_buffer`).",
      },
      { name: "bufferSize", model: "buffer_size", c: "uint64_t", ts: "number", doc: "Size in bytes (`buffer_size`)." },
      { name: "tensorShape", model: "tensor_shape", c: "std::vector<int32_t>", ts: "readonly number[]", js: "numbers", doc: "Shape, batch dimension first (`tensor_shape`)." },
      {
        name: "dataType",
        model: "data_type",
        c: "PreprocessDataType",
        default: "PreprocessDataType::kFp32",
        read: "static_cast<PreprocessDataType>(from.data_type)",
        ts: "PreprocessDataType",
        js: "enum",
        values: ["float32", "uint8", "int8", "uint32", "int32", "int64", "uint64", "float16"],
        doc: "Element type (`data_type`).",
      },
      { name: "tensorName", model: "tensor_name", c: "std::string", ts: "string", doc: "The model input layer it is for (`tensor_name`)." },
      { name: "gpuId", model: "gpu_id", c: "uint32_t", ts: "number", doc: "GPU the memory is on (`gpu_id`)." },
      { name: "metaId", model: "meta_id", c: "uint32_t", ts: "number", doc: "Which of the buffer's tensors it is, when the ROIs exceed one batch (`meta_id`)." },
      {
        name: "maintainAspectRatio",
        model: "maintain_aspect_ratio",
        c: "bool",
        read: "from.maintain_aspect_ratio != FALSE",
        ts: "boolean",
        doc: "Whether scaling kept the aspect ratio (`maintain_aspect_ratio`).",
      },
    ],
  },
  PreprocessBatch: {
    ds: "GstNvDsPreProcessBatchMeta",
    owner: "PreprocessBatchMeta",
    native: "NativePreprocessBatch",
    members: [
      {
        name: "targetUniqueIds",
        model: "target_unique_ids",
        c: "std::vector<uint64_t>",
        ts: "readonly number[]",
        js: "numbers",
        doc: "The `gie-unique-id`s of the nvinfers it is for (`target_unique_ids`).",
      },
      { model: "has_tensor", c: "bool", read: "from.tensor_meta != nullptr", note: "tensor_meta != NULL" },
      {
        name: "tensor",
        model: "tensor",
        ds: "tensor_meta",
        pointer: "tensor_meta",
        c: "PreprocessTensor",
        ts: "PreprocessTensorMeta | undefined",
        js: "optionalStruct",
        doc: "The prepared tensor (`tensor_meta`); undefined when none.",
      },
      {
        name: "rois",
        model: "rois",
        ds: "roi_vector",
        each: "roi_vector",
        c: "std::vector<RoiMeta>",
        ts: "readonly RoiMeta[]",
        js: "list",
        doc: "The ROIs, one per tensor batch entry (`roi_vector`).",
      },
    ],
  },
};

/** The frame's sensor information (`NvDsFrameMeta.sensorInfo_meta`, `NvDsSensorInfo_meta`); NULL strings are nullopt natively. */
export const SENSOR_INFO = {
  ds: "NvDsSensorInfo_meta",
  owner: "SensorInfo",
  native: "NativeSensorInfo",
  writes: true,
  note: "DeepStream's frame owns the strings (g_strdup'd by the source bin, g_free'd by its release).",
  members: [
    { name: "sourceId", model: "source_id", c: "uint32_t", ts: "number", doc: "The source's id (`source_id`)." },
    { name: "uri", model: "uri", c: "std::optional<std::string>", ts: "string | undefined", js: "optional", doc: "The source's URI (`uri`)." },
    { name: "sensorId", model: "sensor_id", c: "std::optional<std::string>", ts: "string | undefined", js: "optional", doc: "The sensor's id (`sensor_id`)." },
    { name: "sensorName", model: "sensor_name", c: "std::optional<std::string>", ts: "string | undefined", js: "optional", doc: "The sensor's name (`sensor_name`)." },
  ],
};
