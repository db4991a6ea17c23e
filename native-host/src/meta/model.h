// The metadata model both backends speak: DeepStream's NvDs* field names and meanings, as plain
// C++ values. The portable backend stores these structs; the DeepStream backend copies them to
// and from NvDsObjectMeta & co. Nothing here depends on DeepStream, Node or N-API.
//
// Strings that DeepStream keeps in fixed arrays (obj_label, result_label) are fixed arrays here
// too, with the same bound, so a value that fits one backend fits the other.
#ifndef DSNODE_META_MODEL_H
#define DSNODE_META_MODEL_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace dsnode::meta {

// Same values as nvdsmeta.h (checked by static_assert in deepstream_backend.cpp).
inline constexpr size_t kMaxLabelSize = 128;                // MAX_LABEL_SIZE, bytes incl. the NUL
inline constexpr size_t kMaxElementsInDisplayMeta = 16;     // MAX_ELEMENTS_IN_DISPLAY_META
inline constexpr size_t kMaxUserFields = 4;                 // MAX_USER_FIELDS
inline constexpr uint64_t kUntrackedObjectId = 0xFFFFFFFFFFFFFFFFull;  // UNTRACKED_OBJECT_ID
// NvDsMetaType values the project needs to name (nvdsmeta.h enum order).
inline constexpr int32_t kMetaTypeUser = 7;                 // NVDS_USER_META
inline constexpr int32_t kMetaTypeTensorOutput = 12;        // NVDSINFER_TENSOR_OUTPUT_META
inline constexpr int32_t kMetaTypeStartUser = 4096 + 4096 + 1;  // NVDS_START_USER_META
// DeepStream's "no confidence" marker (tracker-only objects, group-rectangles clustering).
inline constexpr float kNoConfidence = -0.1f;
// User meta type strings ("ORG.COMP.DESC") are ours to bound: DeepStream passes a gchar*.
inline constexpr size_t kMaxUserMetaTypeSize = kMaxLabelSize;

struct ColorParams {      // NvOSD_ColorParams, each component 0..1
  // generated: struct ColorParams (npm run generate)
  double red = 0;
  double green = 0;
  double blue = 0;
  double alpha = 0;
  // end generated: struct ColorParams
};

struct BboxCoords {       // NvBbox_Coords
  // generated: struct BboxCoords (npm run generate)
  float left = 0;
  float top = 0;
  float width = 0;
  float height = 0;
  // end generated: struct BboxCoords
};

// What nvinfer writes into every object it detects besides the detection itself
// (sdk/src/protocol/meta-fields.mjs, NVINFER_OBJECT): the defaults of objects written here.
// generated: nvinfer defaults (npm run generate)
inline constexpr uint32_t kNvinferBorderWidth = 3;  // rect_params.border_width, gstnvinfer_meta_utils.cpp:179
inline constexpr ColorParams kNvinferBorderColor = ColorParams{1, 0, 0, 1};  // rect_params.border_color, gstnvinfer_meta_utils.cpp:182
inline constexpr char kNvinferFontName[] = "Serif";  // text_params.font_params.font_name, gstnvinfer_meta_utils.cpp:203
inline constexpr uint32_t kNvinferFontSize = 11;  // text_params.font_params.font_size, gstnvinfer_meta_utils.cpp:204
inline constexpr ColorParams kNvinferFontColor = ColorParams{1, 1, 1, 1};  // text_params.font_params.font_color, gstnvinfer_meta_utils.cpp:205
inline constexpr int32_t kNvinferSetBgColor = 1;  // text_params.set_bg_clr, gstnvinfer_meta_utils.cpp:199
inline constexpr ColorParams kNvinferTextBgColor = ColorParams{0, 0, 0, 1};  // text_params.text_bg_clr, gstnvinfer_meta_utils.cpp:200
inline constexpr float kNvinferTextAbove = 10;  // text_params.y_offset, gstnvinfer_meta_utils.cpp:197
// end generated: nvinfer defaults

struct FontParams {       // NvOSD_FontParams; DeepStream's font_name is a char* it never frees (we intern it)
  // generated: struct FontParams (npm run generate)
  std::string font_name;
  uint32_t font_size = 0;
  ColorParams font_color;
  // end generated: struct FontParams
};

struct TextParams {       // NvOSD_TextParams; DeepStream's display_text is a char* it g_free()s
  // generated: struct TextParams (npm run generate)
  std::string display_text;
  uint32_t x_offset = 0;
  uint32_t y_offset = 0;
  FontParams font_params;
  int32_t set_bg_clr = 0;
  ColorParams text_bg_clr;
  // end generated: struct TextParams
};

struct RectParams {       // NvOSD_RectParams
  // generated: struct RectParams (npm run generate)
  float left = 0;
  float top = 0;
  float width = 0;
  float height = 0;
  uint32_t border_width = 0;
  ColorParams border_color;
  uint32_t has_bg_color = 0;
  uint32_t reserved = 0;
  ColorParams bg_color;
  int32_t has_color_info = 0;
  int32_t color_id = 0;
  float rotation_angle = 0;  // DeepStream 9.0 and later
  // end generated: struct RectParams
};

struct MaskParams {       // NvOSD_MaskParams; size = data bytes (width * height * 4)
  std::vector<float> data;
  float threshold = 0;
  uint32_t width = 0, height = 0;
};

struct LineParams {       // NvOSD_LineParams
  // generated: struct LineParams (npm run generate)
  uint32_t x1 = 0;
  uint32_t y1 = 0;
  uint32_t x2 = 0;
  uint32_t y2 = 0;
  uint32_t line_width = 0;
  ColorParams line_color;
  // end generated: struct LineParams
};

enum class ArrowHead : int32_t { kStart = 0, kEnd = 1, kBoth = 2 };  // NvOSD_Arrow_Head_Direction

struct ArrowParams {      // NvOSD_ArrowParams
  // generated: struct ArrowParams (npm run generate)
  uint32_t x1 = 0;
  uint32_t y1 = 0;
  uint32_t x2 = 0;
  uint32_t y2 = 0;
  uint32_t arrow_width = 0;
  ArrowHead arrow_head = ArrowHead::kEnd;
  ColorParams arrow_color;
  uint32_t reserved = 0;
  // end generated: struct ArrowParams
};

struct CircleParams {     // NvOSD_CircleParams
  // generated: struct CircleParams (npm run generate)
  uint32_t xc = 0;
  uint32_t yc = 0;
  uint32_t radius = 0;
  ColorParams circle_color;
  uint32_t has_bg_color = 0;
  ColorParams bg_color;
  uint32_t circle_width = 0;
  uint32_t reserved = 0;
  // end generated: struct CircleParams
};

// NvDsFrameMeta's value fields. The lists (objects, display, user) are reached through Batch.
struct FrameFields {
  // generated: struct FrameFields (npm run generate)
  int32_t frame_num = 0;
  uint32_t source_id = 0;
  uint32_t pad_index = 0;
  uint32_t batch_id = 0;
  uint64_t buf_pts = 0;
  uint64_t ntp_timestamp = 0;
  uint32_t source_frame_width = 0;
  uint32_t source_frame_height = 0;
  uint32_t pipeline_width = 0;
  uint32_t pipeline_height = 0;
  uint32_t surface_type = 0;
  uint32_t surface_index = 0;
  int32_t num_surfaces_per_frame = 1;
  int32_t bInferDone = 0;
  int64_t misc_frame_info[kMaxUserFields] = {};
  // end generated: struct FrameFields
};

// NvDsObjectMeta's value fields (parent and the lists are reached through Batch).
struct ObjectFields {
  // generated: struct ObjectFields (npm run generate)
  int32_t class_id = 0;
  uint64_t object_id = kUntrackedObjectId;
  int32_t unique_component_id = 0;
  float confidence = 0;
  float tracker_confidence = 0;
  char obj_label[kMaxLabelSize] = {};
  RectParams rect_params;
  TextParams text_params;
  MaskParams mask_params;
  BboxCoords detector_bbox_info;
  BboxCoords tracker_bbox_info;
  int64_t misc_obj_info[kMaxUserFields] = {};
  // end generated: struct ObjectFields
};

struct ClassifierFields {  // NvDsClassifierMeta (its label infos are reached through Batch)
  // generated: struct ClassifierFields (npm run generate)
  uint32_t num_labels = 0;
  int32_t unique_component_id = 0;
  std::string classifier_type;
  // end generated: struct ClassifierFields
};

struct LabelInfoFields {   // NvDsLabelInfo
  // generated: struct LabelInfoFields (npm run generate)
  uint32_t num_classes = 0;
  char result_label[kMaxLabelSize] = {};
  std::string long_label;
  uint32_t result_class_id = 0;
  uint32_t label_id = 0;
  float result_prob = 0;
  // end generated: struct LabelInfoFields
};

// One physical NvDsDisplayMeta: at most 16 of each kind.
struct DisplayFields {
  uint32_t num_rects = 0, num_labels = 0, num_lines = 0, num_arrows = 0, num_circles = 0;
  RectParams rect_params[kMaxElementsInDisplayMeta];
  TextParams text_params[kMaxElementsInDisplayMeta];
  LineParams line_params[kMaxElementsInDisplayMeta];
  ArrowParams arrow_params[kMaxElementsInDisplayMeta];
  CircleParams circle_params[kMaxElementsInDisplayMeta];
  int64_t misc_osd_data[kMaxUserFields] = {};
};

// What a user writes as one logical display meta: any number of each kind; Batch splits it
// into as many physical metas as the 16-per-kind cap needs.
struct DisplayContent {
  std::vector<RectParams> rects;
  std::vector<TextParams> texts;
  std::vector<LineParams> lines;
  std::vector<ArrowParams> arrows;
  std::vector<CircleParams> circles;
};

enum class PayloadKind : uint8_t {
  // generated: payload kinds (scripts/generate-shared-names.mjs: do not edit)
  kBytes = 0,  // opaque bytes
  kJson = 1,  // UTF-8 JSON text
  kTensorOutput = 2,  // nvinfer's NvDsInferTensorMeta (read-only)
  kForeign = 3,  // another component's user meta: type number only, payload unknown
  kEventMsg = 4,  // DeepStream's NvDsEventMsgMeta (meta/event_msg.h), added whole
  kAnalyticsFrame = 5,  // nvdsanalytics' NvDsAnalyticsFrameMeta (meta/analytics_meta.h; read-only)
  kAnalyticsObject = 6,  // nvdsanalytics' NvDsAnalyticsObjInfo (meta/analytics_meta.h; read-only)
  kSegmentation = 7,  // nvinfer's NvDsInferSegmentationMeta (meta/segmentation_meta.h)
  kTrackerPastFrame = 8,  // nvtracker's NVDS_TRACKER_PAST_FRAME_META (meta/component_meta.h; read-only)
  kTrackerBatchReid = 9,  // nvtracker's NVDS_TRACKER_BATCH_REID_META (meta/component_meta.h; read-only)
  kTrackerObjectReid = 10,  // nvtracker's NVDS_TRACKER_OBJ_REID_META (meta/component_meta.h; read-only)
  kTrackerTerminatedList = 11,  // nvtracker's NVDS_TRACKER_TERMINATED_LIST_META (meta/component_meta.h; read-only)
  kTrackerShadowList = 12,  // nvtracker's NVDS_TRACKER_SHADOW_LIST_META (meta/component_meta.h; read-only)
  kPreprocessBatch = 13,  // nvdspreprocess' NVDS_PREPROCESS_BATCH_META (meta/component_meta.h; read-only)
  kRoi = 14,  // nvdspreprocess' NVDS_ROI_META (meta/component_meta.h; read-only)
  // end generated: payload kinds
};

struct UserMetaFields {
  std::string meta_type;        // "ORG.COMP.DESC"; empty for foreign metas
  int32_t meta_type_id = 0;     // NvDsMetaType as the backend knows it
  PayloadKind kind = PayloadKind::kBytes;
  std::vector<uint8_t> payload; // bytes, or JSON text
};

// nvinfer's output tensors (NvDsInferLayerInfo + NvDsInferTensorMeta), pointers not owned.
enum class TensorDataType : int32_t { kFloat = 0, kHalf = 1, kInt8 = 2, kInt32 = 3, kInt64 = 4, kUint8 = 5 };
inline constexpr size_t kMaxTensorDims = 8;  // NVDSINFER_MAX_DIMS

struct TensorLayer {
  std::string layer_name;
  TensorDataType data_type = TensorDataType::kFloat;
  uint32_t num_dims = 0;
  uint32_t dims[kMaxTensorDims] = {};
  uint32_t num_elements = 0;
  int32_t binding_index = 0;
  const void *host_buffer = nullptr;    // out_buf_ptrs_host[i]
  const void *device_buffer = nullptr;  // out_buf_ptrs_dev[i]
};

struct TensorOutput {
  uint32_t unique_id = 0;
  int32_t gpu_id = 0;
  uint32_t network_width = 0, network_height = 0, network_channels = 0;
  bool maintain_aspect_ratio = false, symmetric_padding = false;
  std::vector<TensorLayer> layers;
};

// Bytes per element of a tensor data type.
size_t tensor_element_size(TensorDataType type);

}  // namespace dsnode::meta

#endif
