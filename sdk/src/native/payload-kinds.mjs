// The payload kinds of a user meta, as the binding numbers them: the one place they are written.
// `npm run generate` (scripts/generate-shared-names.mjs) writes them into the native model
// (native-host/src/meta/model.h, `enum class PayloadKind`, `k<Name>`) and into the binding's
// TypeScript (native/meta-binding.ts: `PAYLOAD_<NAME>` and `PAYLOAD_KIND_NAMES`, the
// `UserMeta.kind` of each number). `npm test` fails when either differs
// (test/generated-files.test.ts).
//
// A kind's number is its index here: append new kinds, never reorder (the numbers cross the
// binding). Columns: kind (UserMeta.kind), name (PAYLOAD_<name>, k<Name> in C++), doc;
// component: an NVIDIA component's read-only meta (ComponentPayloadKind, component_meta.h).

export const PAYLOAD_KINDS = [
  { kind: "bytes", name: "BYTES", doc: "opaque bytes" },
  { kind: "json", name: "JSON", doc: "UTF-8 JSON text" },
  { kind: "tensor-output", name: "TENSOR_OUTPUT", doc: "nvinfer's NvDsInferTensorMeta (read-only)" },
  { kind: "foreign", name: "FOREIGN", doc: "another component's user meta: type number only, payload unknown" },
  { kind: "event-msg", name: "EVENT_MSG", doc: "DeepStream's NvDsEventMsgMeta (meta/event_msg.h), added whole" },
  { kind: "analytics-frame", name: "ANALYTICS_FRAME", doc: "nvdsanalytics' NvDsAnalyticsFrameMeta (meta/analytics_meta.h; read-only)" },
  { kind: "analytics-object", name: "ANALYTICS_OBJECT", doc: "nvdsanalytics' NvDsAnalyticsObjInfo (meta/analytics_meta.h; read-only)" },
  { kind: "segmentation", name: "SEGMENTATION", doc: "nvinfer's NvDsInferSegmentationMeta (meta/segmentation_meta.h)" },
  { kind: "tracker-past-frame", name: "TRACKER_PAST_FRAME", doc: "nvtracker's NVDS_TRACKER_PAST_FRAME_META (meta/component_meta.h; read-only)", component: true },
  { kind: "tracker-batch-reid", name: "TRACKER_BATCH_REID", doc: "nvtracker's NVDS_TRACKER_BATCH_REID_META (meta/component_meta.h; read-only)", component: true },
  { kind: "tracker-object-reid", name: "TRACKER_OBJECT_REID", doc: "nvtracker's NVDS_TRACKER_OBJ_REID_META (meta/component_meta.h; read-only)", component: true },
  { kind: "tracker-terminated-list", name: "TRACKER_TERMINATED_LIST", doc: "nvtracker's NVDS_TRACKER_TERMINATED_LIST_META (meta/component_meta.h; read-only)", component: true },
  { kind: "tracker-shadow-list", name: "TRACKER_SHADOW_LIST", doc: "nvtracker's NVDS_TRACKER_SHADOW_LIST_META (meta/component_meta.h; read-only)", component: true },
  { kind: "preprocess-batch", name: "PREPROCESS_BATCH", doc: "nvdspreprocess' NVDS_PREPROCESS_BATCH_META (meta/component_meta.h; read-only)", component: true },
  { kind: "roi", name: "ROI", doc: "nvdspreprocess' NVDS_ROI_META (meta/component_meta.h; read-only)", component: true },
];
