import type { MetaBinding } from "../native/meta-binding.js";
import { toPreprocessBatchMeta, toRoiMeta, type PreprocessBatchMeta, type RoiMeta } from "./preprocess-meta.js";
import { toReidMeta, toTrackerTargetList, type ReidMeta, type TrackerTargetList } from "./tracker-meta.js";

/**
 * The user meta kinds of NVIDIA components' metas that ds-element reads (read-only), with
 * their DeepStream types: `"tracker-past-frame"` (`NVDS_TRACKER_PAST_FRAME_META`),
 * `"tracker-batch-reid"` (`NVDS_TRACKER_BATCH_REID_META`), `"tracker-object-reid"`
 * (`NVDS_TRACKER_OBJ_REID_META`), `"tracker-terminated-list"`
 * (`NVDS_TRACKER_TERMINATED_LIST_META`), `"tracker-shadow-list"`
 * (`NVDS_TRACKER_SHADOW_LIST_META`), `"preprocess-batch"` (`NVDS_PREPROCESS_BATCH_META`) and
 * `"roi"` (`NVDS_ROI_META`).
 *
 * @example
 * ```ts
 * const fromTracker = (kind: ComponentMetaKind) => kind.startsWith("tracker-");
 * ```
 */
export type ComponentMetaKind =
  | "tracker-past-frame"
  | "tracker-batch-reid"
  | "tracker-object-reid"
  | "tracker-terminated-list"
  | "tracker-shadow-list"
  | "preprocess-batch"
  | "roi";

/** @internal What each UserMeta.as*() returns for one meta (undefined: not that kind). */
export interface ComponentReads {
  asTrackerTargets: TrackerTargetList | undefined;
  asReid: ReidMeta | undefined;
  asPreprocessBatch: PreprocessBatchMeta | undefined;
  asRoi: RoiMeta | undefined;
}

const NONE: ComponentReads = Object.freeze({ asTrackerTargets: undefined, asReid: undefined, asPreprocessBatch: undefined, asRoi: undefined });

/** @internal Reads user meta `index` of call `callId` as its kind says (once per meta and call). */
export function readComponent(meta: MetaBinding, callId: number, index: number, kind: string): ComponentReads {
  switch (kind) {
    case "tracker-past-frame":
    case "tracker-terminated-list":
    case "tracker-shadow-list":
      return { ...NONE, asTrackerTargets: toTrackerTargetList(meta.readTrackerTargets(callId, index)) };
    case "tracker-batch-reid":
    case "tracker-object-reid":
      return { ...NONE, asReid: toReidMeta(meta.readReid(callId, index)) };
    case "preprocess-batch":
      return { ...NONE, asPreprocessBatch: toPreprocessBatchMeta(meta.readPreprocessBatch(callId, index)) };
    case "roi":
      return { ...NONE, asRoi: toRoiMeta(meta.readRoi(callId, index)) };
    default:
      return NONE;
  }
}
