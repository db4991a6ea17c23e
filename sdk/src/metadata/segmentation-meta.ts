import type { StaleHandleError } from "../errors/errors.js";
import type { NativeSegmentation, NativeSegmentationInit, UserMetaLevel } from "../native/meta-binding.js";
import { SEGMENTATION_MEMBERS } from "../protocol/kind-fields.js";
import { FRAME_INFER_DONE, OBJ_FRAME_INDEX, OBJ_STRIDE, STATE_FRAME_STRIDE, STATE_FRAMES_BASE } from "../protocol/transform-state.js";
import { checkInteger, checkObject, invalid, invalidReceived } from "./call/validation.js";
import type { TransformScope } from "./call/transform-scope.js";
import { scopedNative } from "./scoped-native.js";

const TYPE = "SegmentationMeta";
const UINT32_MAX = 4294967295;
const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;

/**
 * A semantic segmentation result to attach (`NvDsInferSegmentationMeta`), as nvinfer with
 * `network-type=2` writes it and nvsegvisual draws it: {@link UserMeta.setSegmentation} takes it.
 * The class of pixel (x, y) is `classMap[y * width + x]` (-1: none above the threshold); the
 * probability of class c there is `classProbabilities[c * width * height + y * width + x]`.
 * Both are copied when the meta is added.
 *
 * @example
 * ```ts
 * const segmentation: SegmentationInit = { classes: 4, width: 64, height: 64, classMap: new Int32Array(64 * 64) };
 * ```
 */
export interface SegmentationInit {
  // generated: segmentation-init (npm run generate)
  /** See {@link SegmentationMeta.classes}. At least 1. */
  classes: number;
  /** See {@link SegmentationMeta.width}. At least 1. */
  width: number;
  /** See {@link SegmentationMeta.height}. At least 1. */
  height: number;
  /** See {@link SegmentationMeta.uniqueId}. Optional: default 0. */
  uniqueId?: number;
  // end generated: segmentation-init
  /** The class of each pixel, row by row (`class_map`): `width × height` class ids or -1. */
  classMap: Int32Array;
  /** Each class's probability at each pixel (`class_probabilities_map`): `classes × width × height` values; none by default. */
  classProbabilities?: Float32Array | undefined;
}

/**
 * The plain values of a {@link SegmentationMeta} without its maps, as
 * {@link SegmentationMeta.toJSON} returns them.
 *
 * @example
 * ```ts
 * const { width, height }: SegmentationMetaJSON = segmentation.toJSON();
 * ```
 */
export interface SegmentationMetaJSON {
  // generated: segmentation-json (npm run generate)
  /** See {@link SegmentationMeta.classes}. */
  classes: number;
  /** See {@link SegmentationMeta.width}. */
  width: number;
  /** See {@link SegmentationMeta.height}. */
  height: number;
  /** See {@link SegmentationMeta.uniqueId}. */
  uniqueId: number;
  // end generated: segmentation-json
  /** Whether it carries class probabilities. */
  hasProbabilities: boolean;
}

/**
 * A semantic segmentation result on a frame (full-frame nvinfer) or an object (secondary
 * nvinfer): `NvDsInferSegmentationMeta`, a user meta of type `NVDSINFER_SEGMENTATION_META`, read
 * with {@link UserMeta.asSegmentation}. Read-only.
 *
 * Valid only during the transform() call that received it (see {@link StaleHandleError}); its
 * maps are views of the buffer's memory, emptied when the call ends: copy what you keep.
 *
 * @example
 * ```ts
 * for (const user of frame.userMetaItems) {
 *   const segmentation = user.asSegmentation();
 *   if (!segmentation) continue;
 *   const road = segmentation.classMap.filter((id) => id === 0).length / segmentation.classMap.length;
 *   this.log.debug(`road covers ${(road * 100).toFixed(1)} %`);
 * }
 * ```
 */
export class SegmentationMeta {
  readonly #check: (member: string) => NativeSegmentation;
  #classMap: Int32Array | undefined;
  #probabilities: Float32Array | null | undefined;

  /** @internal Segmentation metas come from `asSegmentation()`; user code never constructs them. */
  constructor(scope: TransformScope, native: NativeSegmentation) {
    this.#check = scopedNative(scope, native, TYPE);
  }

  static {
    // The scalar members' getters, one per row of the table (declared in the interface below).
    for (const { name } of SEGMENTATION_MEMBERS) {
      Object.defineProperty(SegmentationMeta.prototype, name, {
        configurable: true,
        get(this: SegmentationMeta) {
          return this.#check(name)[name as keyof NativeSegmentation];
        },
      });
    }
  }

  /**
   * The class of each pixel (`class_map`), row by row: pixel (x, y) at `y * width + x`; -1 where
   * no class passed nvinfer's threshold. A zero-copy view, emptied when the call ends.
   *
   * @example
   * ```ts
   * const centre = segmentation.classMap[(segmentation.height >> 1) * segmentation.width + (segmentation.width >> 1)];
   * ```
   */
  get classMap(): Int32Array {
    const native = this.#check("classMap");
    return (this.#classMap ??= native.classMap === null ? new Int32Array(0) : new Int32Array(native.classMap, 0, native.width * native.height));
  }

  /**
   * Each class's probability at each pixel (`class_probabilities_map`): class c at (x, y) at
   * `c * width * height + y * width + x`; undefined when the meta has none. A zero-copy view,
   * emptied when the call ends.
   *
   * @example
   * ```ts
   * const sky = segmentation.classProbabilities?.subarray(2 * segmentation.width * segmentation.height, 3 * segmentation.width * segmentation.height);
   * ```
   */
  get classProbabilities(): Float32Array | undefined {
    const native = this.#check("classProbabilities");
    if (this.#probabilities === undefined) {
      const size = native.classes * native.width * native.height;
      this.#probabilities = native.classProbabilities === null ? null : new Float32Array(native.classProbabilities, 0, size);
    }
    return this.#probabilities ?? undefined;
  }

  /**
   * The sizes and ids without the maps, safe to keep after transform() returns.
   *
   * @example
   * ```ts
   * this.lastShape = segmentation.toJSON();
   * ```
   */
  toJSON(): SegmentationMetaJSON {
    const native = this.#check("toJSON()");
    const json: Record<string, unknown> = {};
    for (const { name } of SEGMENTATION_MEMBERS) json[name] = native[name as keyof NativeSegmentation];
    return { ...json, hasProbabilities: native.classProbabilities !== null } as SegmentationMetaJSON;
  }
}

// generated: segmentation-fields (npm run generate)
/** SegmentationMeta's scalar members: getters made from protocol/kind-fields.ts's SEGMENTATION_MEMBERS (read-only). */
export interface SegmentationMeta {
  /**
   * Number of classes (`classes`).
   *
   * @example
   * ```ts
   * const perClass = new Uint32Array(segmentation.classes);
   * ```
   */
  readonly classes: number;

  /**
   * Width of the class map in pixels (`width`): the network's output width, not the frame's.
   *
   * @example
   * ```ts
   * const scaleX = frame.sourceFrameWidth / segmentation.width;
   * ```
   */
  readonly width: number;

  /**
   * Height of the class map in pixels (`height`).
   *
   * @example
   * ```ts
   * const scaleY = frame.sourceFrameHeight / segmentation.height;
   * ```
   */
  readonly height: number;

  /**
   * Id of the element that attached it (`unique_id`: nvinfer's `gie-unique-id`).
   *
   * @example
   * ```ts
   * const mine = segmentation.uniqueId === 2;
   * ```
   */
  readonly uniqueId: number;
}
// end generated: segmentation-fields

/** @internal A SegmentationInit checked (`name`: how messages name it), as the binding takes it. */
export function checkSegmentation(init: unknown, name: string): NativeSegmentationInit {
  const value = checkObject(init, name);
  const allowed = [...SEGMENTATION_MEMBERS.map((member) => member.name), "classMap", "classProbabilities"];
  for (const key of Object.keys(value)) {
    if (!allowed.includes(key)) invalidReceived(`only the members ${allowed.join(", ")}`, name, `a member ${JSON.stringify(key)}`);
  }
  const fields: Record<string, number> = {};
  for (const member of SEGMENTATION_MEMBERS) {
    const given = value[member.name];
    const [least, most] = member.kind === "uint32" ? [member.min ?? 0, UINT32_MAX] : [member.min ?? INT32_MIN, INT32_MAX];
    fields[member.name] = given === undefined && member.min === undefined ? 0 : checkInteger(given, least, most, `${name}.${member.name}`);
  }
  const { classes, width, height } = fields as { classes: number; width: number; height: number };
  const classMap = value["classMap"];
  if (!(classMap instanceof Int32Array)) return invalid("an Int32Array", `${name}.classMap`, classMap, true);
  if (classMap.length !== width * height) {
    invalidReceived(`${width * height} class ids (width ${width} × height ${height})`, `${name}.classMap`, `${classMap.length}`);
  }
  const probabilities = value["classProbabilities"];
  if (probabilities !== undefined) {
    if (!(probabilities instanceof Float32Array)) return invalid("a Float32Array", `${name}.classProbabilities`, probabilities, true);
    if (probabilities.length !== classes * width * height) {
      invalidReceived(`${classes * width * height} values (classes × width × height)`, `${name}.classProbabilities`, `${probabilities.length}`);
    }
  }
  return { ...fields, classMap, classProbabilities: probabilities ?? null } as NativeSegmentationInit;
}

/**
 * @internal Adds a checked segmentation meta to a frame (`level` 1, `owner` its index) or an
 * object (`level` 2, `owner` its row) and, as nvinfer does when it attaches one
 * (gstnvinfer_meta_utils.cpp attach_metadata_segmentation), sets the frame's `inferDone`
 * (`bInferDone`): the object's frame for an object's. Returns the user meta's index.
 */
export function addSegmentation(scope: TransformScope, level: UserMetaLevel, owner: number, segmentation: NativeSegmentationInit): number {
  const index = scope.meta.addSegmentation(scope.callId, level, owner, segmentation);
  const frameIndex = level === 1 ? owner : level === 2 ? (scope.table[owner * OBJ_STRIDE + OBJ_FRAME_INDEX] as number) : -1;
  const slot = STATE_FRAMES_BASE + frameIndex * STATE_FRAME_STRIDE + FRAME_INFER_DONE;
  if (frameIndex >= 0 && scope.state[slot] !== 1) {
    scope.state[slot] = 1;
    scope.meta.writeFrame(scope.callId, frameIndex, scope.state);
  }
  return index;
}
