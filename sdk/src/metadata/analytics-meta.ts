import type { NativeAnalyticsFrame, NativeAnalyticsObject } from "../native/meta-binding.js";
import type { AnalyticsMember, AnalyticsValue } from "../protocol/kind-fields.js";
import { checkBoolean, checkCString, checkInteger, checkObject, checkUint32, invalid, invalidReceived } from "./call/validation.js";

/**
 * What nvdsanalytics found on a frame (`NvDsAnalyticsFrameMeta`, a frame user meta of type
 * `NVDS_USER_FRAME_META_NVDSANALYTICS`): counts per ROI, per line and per class, keyed by the
 * labels of its configuration file (`roi-<label>`, `line-crossing-<label>`, `overcrowding-<label>`).
 * Read with {@link UserMeta.asAnalyticsFrame}; a plain frozen value, safe to keep after
 * transform() returns. The member names are NVIDIA's.
 *
 * @example
 * ```ts
 * for (const user of frame.userMetaItems) {
 *   const analytics = user.asAnalyticsFrame();
 *   if (analytics) this.log.info(`entrance: ${analytics.objLCCumCnt["Entrance"] ?? 0} so far`);
 * }
 * ```
 */
export interface AnalyticsFrameMeta {
  // generated: analytics-frame-members (npm run generate)
  /** Whether each ROI is overcrowded (`ocStatus`), by ROI label. */
  readonly ocStatus: Readonly<Record<string, boolean>>;
  /** Objects in each ROI (`objInROIcnt`), by ROI label. */
  readonly objInROIcnt: Readonly<Record<string, number>>;
  /** Line crossings in this frame (`objLCCurrCnt`), by line label. */
  readonly objLCCurrCnt: Readonly<Record<string, number>>;
  /** Line crossings since the stream started (`objLCCumCnt`), by line label. */
  readonly objLCCumCnt: Readonly<Record<string, number>>;
  /** The nvdsanalytics instance's `unique-id` (`unique_id`). */
  readonly uniqueId: number;
  /** Objects of each class in the frame (`objCnt`), by class id. */
  readonly objCnt: Readonly<Record<number, number>>;
  // end generated: analytics-frame-members
}

/**
 * What nvdsanalytics found about one object (`NvDsAnalyticsObjInfo`, an object user meta of
 * type `NVDS_USER_OBJ_META_NVDSANALYTICS`): the ROIs it is in, the lines it crossed in this
 * frame, its direction. Read with {@link UserMeta.asAnalyticsObject}; a plain frozen value,
 * safe to keep after transform() returns. The member names are NVIDIA's.
 *
 * @example
 * ```ts
 * for (const obj of frame.objectItems) {
 *   const info = obj.userMetaItems.map((user) => user.asAnalyticsObject()).find((found) => found !== undefined);
 *   if (info?.lcStatus.includes("Entrance")) this.entered(obj.objectId);
 * }
 * ```
 */
export interface AnalyticsObjectInfo {
  // generated: analytics-object-members (npm run generate)
  /** Labels of the ROIs the object is in (`roiStatus`). */
  readonly roiStatus: readonly string[];
  /** Labels of the overcrowded ROIs the object is in (`ocStatus`). */
  readonly ocStatus: readonly string[];
  /** Labels of the lines it crossed in this frame (`lcStatus`). */
  readonly lcStatus: readonly string[];
  /** Its direction, as the configured direction label says (`dirStatus`). */
  readonly dirStatus: string;
  /** The nvdsanalytics instance's `unique-id` (`unique_id`). */
  readonly uniqueId: number;
  /** Its status text (`objStatus`). */
  readonly objStatus: string;
  // end generated: analytics-object-members
}

/**
 * An {@link AnalyticsFrameMeta} for the testing harness (`userMeta: [{ analyticsFrame }]`): any
 * member left out is empty (maps, lists, text) or 0.
 *
 * @example
 * ```ts
 * const analyticsFrame: AnalyticsFrameInit = { objInROIcnt: { Entrance: 2 }, objLCCumCnt: { Door: 5 } };
 * ```
 */
export type AnalyticsFrameInit = { -readonly [K in keyof AnalyticsFrameMeta]?: AnalyticsFrameMeta[K] };

/**
 * An {@link AnalyticsObjectInfo} for the testing harness (`userMeta: [{ analyticsObject }]`):
 * any member left out is empty or 0.
 *
 * @example
 * ```ts
 * const analyticsObject: AnalyticsObjectInit = { roiStatus: ["Entrance"], lcStatus: ["Door"] };
 * ```
 */
export type AnalyticsObjectInit = { -readonly [K in keyof AnalyticsObjectInfo]?: AnalyticsObjectInfo[K] };

/** @internal The members of NVIDIA's analytics metas, rows of protocol/meta-fields.mjs (native code expands the same rows). */
export { ANALYTICS_FRAME_MEMBERS, ANALYTICS_OBJECT_MEMBERS } from "../protocol/kind-fields.js";

/** @internal The binding's value, frozen to the last list. */
export function frozenAnalytics<T extends AnalyticsFrameMeta | AnalyticsObjectInfo>(
  native: NativeAnalyticsFrame | NativeAnalyticsObject,
  members: readonly AnalyticsMember[],
): T {
  const frozen: Record<string, unknown> = {};
  for (const { name } of members) {
    const value = (native as unknown as Record<string, unknown>)[name];
    frozen[name] = typeof value === "object" && value !== null ? Object.freeze(value) : value;
  }
  return Object.freeze(frozen) as T;
}

/** Checks one member of a harness init (`path` names it), giving the value or its default. */
function checkMember(value: unknown, kind: AnalyticsValue, path: string): unknown {
  switch (kind) {
    case "id":
      return value === undefined ? 0 : checkUint32(value, path);
    case "text":
      return value === undefined ? "" : checkCString(value, path);
    case "labels":
      if (value === undefined) return [];
      if (!Array.isArray(value)) return invalid("an array of labels", path, value, true);
      return value.map((label, i) => checkCString(label, `${path}[${i}]`));
    default: {
      if (value === undefined) return {};
      const map: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(checkObject(value, path))) {
        const where = `${path}[${JSON.stringify(key)}]`;
        if (kind === "class-counts" && !/^-?\d+$/.test(key)) invalidReceived("class ids (integers) as keys", path, `a key ${JSON.stringify(key)}`);
        map[key] = kind === "flags" ? checkBoolean(item, where) : checkInteger(item, 0, kind === "counts" ? Number.MAX_SAFE_INTEGER : 4294967295, where);
      }
      return map;
    }
  }
}

/** @internal A harness init checked against `members` (unknown keys rejected), every member filled. */
export function analyticsFromInit<T>(init: unknown, members: readonly AnalyticsMember[], path: string): T {
  const record = checkObject(init, path);
  const names = members.map((member) => member.name);
  for (const key of Object.keys(record)) {
    if (!names.includes(key)) invalidReceived(`only the members ${names.join(", ")}`, path, `a member ${JSON.stringify(key)}`);
  }
  const value: Record<string, unknown> = {};
  for (const member of members) value[member.name] = checkMember(record[member.name], member.value, `${path}.${member.name}`);
  return value as T;
}
