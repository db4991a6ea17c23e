import {
  OBJECT_FIELDS,
  OBJECT_MEMBERS,
  type ObjectFieldName,
  type RecordField,
  OBJ_DETECTOR_BBOX_INFO,
  OBJ_FRAME_INDEX,
  OBJ_PARENT_ROW,
  OBJ_STRIDE,
  OBJ_TRACKER_BBOX_INFO,
} from "../protocol/transform-state.js";
import { ClassifierMeta, classifierInternals, type ClassifierMetaJSON } from "./classifier-meta.js";
import { ADDED, checkAddable, checkSameCall, notAHandle, notIn, REMOVED, STAGED } from "./call/handle-checks.js";
import { ObjectCore } from "./call/object-core.js";
import { ObjectBox, ObjectRectParams, ObjectTextParams } from "./call/object-views.js";
import type { TensorOutputMeta } from "./tensor-output-meta.js";
import type { ReidMeta } from "./tracker-meta.js";
import type { TransformScope } from "./call/transform-scope.js";
import { OBJECT_LEVEL, userInternals, type UserMeta, type UserMetaJSON } from "./user-meta.js";
import { defineRecordFields, fieldJSON, type RecordFieldsJSON } from "./call/record-fields.js";
import { checkBoundedString } from "./call/validation.js";
import {
  makeMask,
  type Box,
  type BoxInit,
  type MaskParams,
  type RectParams,
  type RectParamsInit,
  type TextParams,
  type TextParamsInit,
} from "./values.js";

const EMPTY_TENSORS: readonly TensorOutputMeta[] = Object.freeze([]);
const FIELD_BY_NAME: ReadonlyMap<string, RecordField> = new Map(OBJECT_FIELDS.map((field) => [field.name, field]));

/** @internal What FrameMeta needs of an ObjectMeta's private state. */
interface ObjectInternals {
  /** The object's core, or undefined when `value` is not an ObjectMeta. */
  coreOf(value: unknown): ObjectCore | undefined;
}

// Assigned by ObjectMeta's static block.
let objectInternals: ObjectInternals;

/**
 * Where an object's parent is, in a {@link ObjectMetaJSON}: `batch.frameItems[frameIndex].objectItems[objectIndex]`.
 *
 * @example
 * ```ts
 * const { parent } = obj.toJSON();
 * if (parent) console.log(`child of object ${parent.objectIndex} in frame ${parent.frameIndex}`);
 * ```
 */
export interface ObjectMetaReference {
  /** Index of the parent's frame in `frameItems`. */
  frameIndex: number;
  /** Index of the parent in that frame's `objectItems`. */
  objectIndex: number;
}

/**
 * A mask in an {@link ObjectMetaJSON}: {@link MaskParams} with the data as plain numbers.
 *
 * @example
 * ```ts
 * const mask: MaskParamsJSON | null = obj.toJSON().maskParams;
 * ```
 */
export interface MaskParamsJSON {
  /** `width * height` values, row by row. */
  data: number[];
  /** See {@link MaskParams.threshold}. */
  threshold: number;
  /** See {@link MaskParams.width}. */
  width: number;
  /** See {@link MaskParams.height}. */
  height: number;
}

/**
 * The plain values of an {@link ObjectMeta}, as {@link ObjectMeta.toJSON} returns them.
 *
 * @example
 * ```ts
 * const detections: ObjectMetaJSON[] = frame.objectItems.map((obj) => obj.toJSON());
 * ```
 */
export interface ObjectMetaJSON extends RecordFieldsJSON<ObjectMeta, ObjectFieldName> {
  /** See {@link ObjectMeta.label}. */
  label: string;
  /** See {@link ObjectMeta.rectParams}. */
  rectParams: RectParams;
  /** See {@link ObjectMeta.textParams}. */
  textParams: TextParams;
  /** See {@link ObjectMeta.maskParams}; null when none. */
  maskParams: MaskParamsJSON | null;
  /** See {@link ObjectMeta.detectorBboxInfo}. */
  detectorBboxInfo: Box;
  /** See {@link ObjectMeta.trackerBboxInfo}. */
  trackerBboxInfo: Box;
  /** See {@link ObjectMeta.parent}; null when none. */
  parent: ObjectMetaReference | null;
  /** Each classifier's {@link ClassifierMeta.toJSON}. */
  classifierItems: ClassifierMetaJSON[];
  /** Each user meta's {@link UserMeta.toJSON}. */
  userMetaItems: UserMetaJSON[];
}

/**
 * One detected object (`NvDsObjectMeta`): its class, box, confidence, tracking id, label,
 * on-screen text and the classifier and user metadata attached to it. Objects are acquired
 * from the batch's pool (`batch.acquireObjectMeta()`), filled, and added to a frame
 * (`frame.addObjectMeta(obj, parent?)`); they are never constructed with `new`. Objects already
 * in the buffer come from `frame.objectItems`, and every member can be written as well.
 *
 * Numbers are read and written through a table shared with native code (no native call per
 * member); writes to an object already in a frame are sent when transform() settles. Invalid
 * values throw at the assignment, naming the member.
 *
 * Valid only during the transform() call that made it (see {@link StaleHandleError}); after
 * `frame.removeObjectMeta(obj)` every member throws {@link MetaStateError}.
 *
 * @example
 * ```ts
 * const obj = batch.acquireObjectMeta();
 * obj.classId = 0;
 * obj.label = "person";
 * obj.confidence = 0.92;
 * obj.rectParams = { left: 40, top: 60, width: 120, height: 300, borderWidth: 2, borderColor: { red: 1 } };
 * frame.addObjectMeta(obj);
 * ```
 */
export class ObjectMeta {
  readonly #core: ObjectCore;
  #rectParams: ObjectRectParams | undefined;
  #textParams: ObjectTextParams | undefined;
  #detectorBbox: ObjectBox | undefined;
  #trackerBbox: ObjectBox | undefined;

  /** @internal Objects come from `batch.acquireObjectMeta()` or `frame.objectItems`; user code never constructs them. */
  constructor(core: ObjectCore) {
    this.#core = core;
  }

  /**
   * The class name (`obj_label`): at most 127 bytes of UTF-8, no NUL.
   *
   * @example
   * ```ts
   * obj.label = this.props.labels[obj.classId] ?? String(obj.classId);
   * ```
   */
  get label(): string {
    const core = this.#core;
    core.check("label");
    if (core.label === undefined) core.loadExtras();
    return core.label as string;
  }
  /** Checked first (see above): an invalid value throws and changes nothing. */
  set label(value: string) {
    const core = this.#core;
    core.check("label", "writing");
    core.label = checkBoundedString(value, "ObjectMeta.label");
    core.labelChanged = true;
    core.touch();
  }

  /**
   * The box nvdsosd draws and downstream elements use (`rect_params`): a live view, so
   * `obj.rectParams.left = 5` writes the object. Assigning an object changes only the members
   * it has.
   *
   * @example
   * ```ts
   * obj.rectParams.width = Math.min(obj.rectParams.width, frame.pipelineWidth - obj.rectParams.left);
   * obj.rectParams = { borderWidth: 3, borderColor: { red: 0, green: 1, blue: 0, alpha: 1 } };
   * ```
   */
  get rectParams(): RectParams {
    this.#core.check("rectParams");
    return (this.#rectParams ??= new ObjectRectParams(this.#core));
  }
  /** Checked first (see above): an invalid value throws and changes nothing. */
  set rectParams(value: RectParamsInit) {
    (this.#rectParams ??= new ObjectRectParams(this.#core)).assign(value);
  }

  /**
   * The label nvdsosd draws with the box (`text_params`): a live view. Assigning an object
   * changes only the members it has.
   *
   * @example
   * ```ts
   * obj.textParams = { displayText: `${obj.label} ${Math.round(obj.confidence * 100)}%`, font: { size: 12 } };
   * ```
   */
  get textParams(): TextParams {
    this.#core.check("textParams");
    return (this.#textParams ??= new ObjectTextParams(this.#core));
  }
  /** Checked first (see above): an invalid value throws and changes nothing. */
  set textParams(value: TextParamsInit) {
    (this.#textParams ??= new ObjectTextParams(this.#core)).assign(value);
  }

  /**
   * The instance-segmentation mask (`mask_params`), undefined when the object has none.
   * Assign a whole {@link MaskParams} (its data is copied) or undefined to clear it.
   *
   * @example
   * ```ts
   * obj.maskParams = { data: probabilities, threshold: 0.5, width: 28, height: 28 };
   * ```
   */
  get maskParams(): MaskParams | undefined {
    const core = this.#core;
    core.check("maskParams");
    if (!core.maskLoaded) core.loadExtras();
    return core.mask;
  }
  /** Checked first (see above): an invalid value throws and changes nothing. */
  set maskParams(value: MaskParams | undefined) {
    const core = this.#core;
    core.check("maskParams", "writing");
    core.mask = value === undefined ? undefined : makeMask(value, "ObjectMeta.maskParams");
    core.maskLoaded = true;
    core.maskChanged = true;
    core.touch();
  }

  /**
   * The box as the detector output it, before any tracker adjusted it
   * (`detector_bbox_info.org_bbox_coords`): a live view.
   *
   * @example
   * ```ts
   * obj.detectorBboxInfo = { left: 10, top: 20, width: 50, height: 80 };
   * ```
   */
  get detectorBboxInfo(): Box {
    this.#core.check("detectorBboxInfo");
    return (this.#detectorBbox ??= new ObjectBox(this.#core, OBJ_DETECTOR_BBOX_INFO, "detectorBboxInfo"));
  }
  /** Checked first (see above): an invalid value throws and changes nothing. */
  set detectorBboxInfo(value: BoxInit) {
    (this.#detectorBbox ??= new ObjectBox(this.#core, OBJ_DETECTOR_BBOX_INFO, "detectorBboxInfo")).assign(value);
  }

  /**
   * The box as the tracker output it (`tracker_bbox_info.org_bbox_coords`): a live view.
   *
   * @example
   * ```ts
   * const moved = obj.trackerBboxInfo.left - obj.detectorBboxInfo.left;
   * ```
   */
  get trackerBboxInfo(): Box {
    this.#core.check("trackerBboxInfo");
    return (this.#trackerBbox ??= new ObjectBox(this.#core, OBJ_TRACKER_BBOX_INFO, "trackerBboxInfo"));
  }
  /** Checked first (see above): an invalid value throws and changes nothing. */
  set trackerBboxInfo(value: BoxInit) {
    (this.#trackerBbox ??= new ObjectBox(this.#core, OBJ_TRACKER_BBOX_INFO, "trackerBboxInfo")).assign(value);
  }

  /**
   * The object this one belongs to (`parent`), e.g. the car of a licence plate; it may be in
   * another frame of the batch. Set by `frame.addObjectMeta(obj, parent)`; undefined when
   * none (or when the parent was removed).
   *
   * @example
   * ```ts
   * const plates = frame.objectItems.filter((obj) => obj.parent?.classId === CAR);
   * ```
   */
  get parent(): ObjectMeta | undefined {
    const core = this.#core;
    const row = core.read(OBJ_PARENT_ROW, "parent");
    if (row < 0 || core.status === STAGED) return undefined;
    const parent = objectAtRow(core.scope, row);
    return parent.#core.status === REMOVED ? undefined : parent;
  }

  /**
   * Classifier results attached to the object (`classifier_meta_list`), in list order. A real
   * array, fetched once per call and kept until this call changes the list.
   *
   * @example
   * ```ts
   * const colour = obj.classifierItems.find((c) => c.classifierType === "color")?.labelInfoItems[0]?.resultLabel;
   * ```
   */
  get classifierItems(): readonly ClassifierMeta[] {
    const core = this.#core;
    core.check("classifierItems");
    if (core.classifierItems === undefined) {
      const scope = core.scope;
      core.classifierItems = Object.freeze(
        scope.meta.listClassifiers(scope.callId, core.row).map((read) => classifierInternals.fromNative(scope, core, read)),
      );
    }
    return core.classifierItems;
  }

  /**
   * User metadata attached to the object (`obj_user_meta_list`).
   *
   * @example
   * ```ts
   * const notes = obj.userMetaItems.filter((user) => user.metaType === "ACME.NOTES.TEXT");
   * ```
   */
  get userMetaItems(): readonly UserMeta[] {
    const core = this.#core;
    core.check("userMetaItems");
    return (core.userMetaItems ??= userInternals.list(core.scope, OBJECT_LEVEL, core.row));
  }

  /**
   * nvinfer's raw output tensors for this object (secondary inference with
   * `output-tensor-meta=1`): the user metas of kind `"tensor-output"`.
   *
   * @example
   * ```ts
   * for (const tensor of obj.tensorItems) this.classify(obj, tensor.layers);
   * ```
   */
  get tensorItems(): readonly TensorOutputMeta[] {
    this.#core.check("tensorItems");
    return tensorOutputs(this.userMetaItems);
  }

  /**
   * nvtracker's re-ID embedding of this object (`NVDS_TRACKER_OBJ_REID_META`, tracker config
   * `outputReidTensor`); undefined when it has none.
   *
   * @example
   * ```ts
   * const embedding = obj.reid?.vector(0)?.slice(); // a copy, kept past transform()
   * ```
   */
  get reid(): ReidMeta | undefined {
    this.#core.check("reid");
    for (const user of this.userMetaItems) if (user.kind === "tracker-object-reid") return user.asReid();
    return undefined;
  }

  /** What add/removeClassifierMeta check first: a usable object, a ClassifierMeta of its call. */
  #checkClassifier(classifier: ClassifierMeta, operation: string): ObjectCore {
    const core = this.#core;
    core.check(`${operation}()`, "calling");
    if (!(classifier instanceof ClassifierMeta)) notAHandle("ClassifierMeta", `ObjectMeta.${operation} classifier`, classifier);
    checkSameCall(classifierInternals.coreOf(classifier).scope, core.scope, "ClassifierMeta", operation);
    return core;
  }

  /**
   * Attaches a classifier result (from `batch.acquireClassifierMeta()`, with its label infos)
   * to the object (`nvds_add_classifier_meta_to_object`); the classifier is read-only afterwards.
   *
   * @example
   * ```ts
   * const classifier = batch.acquireClassifierMeta();
   * classifier.classifierType = "color";
   * classifier.addLabelInfo(label);
   * obj.addClassifierMeta(classifier);
   * ```
   */
  addClassifierMeta(classifier: ClassifierMeta): void {
    const core = this.#checkClassifier(classifier, "addClassifierMeta");
    checkAddable(classifierInternals.coreOf(classifier).status, "ClassifierMeta", "addClassifierMeta", "removeClassifierMeta");
    const scope = core.scope;
    const index = scope.meta.addClassifier(scope.callId, core.row, classifierInternals.toNative(classifier));
    classifierInternals.markAdded(classifier, core, index);
    core.classifierItems = undefined;
    const labels = classifier.labelInfoItems.map((label) => label.resultLabel).filter((label) => label !== "");
    if (labels.length > 0) core.appendClassifierText(labels);
  }

  /**
   * Removes one of the object's classifier results (`nvds_remove_classifier_meta_from_obj`),
   * with its label infos; they cannot be used afterwards.
   *
   * @example
   * ```ts
   * for (const c of obj.classifierItems) if (c.uniqueComponentId === this.staleComponent) obj.removeClassifierMeta(c);
   * ```
   */
  removeClassifierMeta(classifier: ClassifierMeta): void {
    const core = this.#checkClassifier(classifier, "removeClassifierMeta");
    const scope = core.scope;
    const status = classifierInternals.coreOf(classifier).status;
    if (status !== ADDED || classifierInternals.ownerOf(classifier) !== core) {
      notIn(status, "ClassifierMeta", "object", "removeClassifierMeta", "removeClassifierMeta");
    }
    scope.meta.removeClassifier(scope.callId, core.row, classifierInternals.indexOf(classifier));
    classifierInternals.markRemoved(classifier);
    core.classifierItems = undefined;
  }

  /**
   * Attaches a user meta (from `batch.acquireUserMeta()`, payload set) to the object
   * (`nvds_add_user_meta_to_obj`).
   *
   * @example
   * ```ts
   * const user = batch.acquireUserMeta();
   * user.setJson("ACME.REID.EMBEDDING", { vector: [0.1, 0.7] });
   * obj.addUserMeta(user);
   * ```
   */
  addUserMeta(user: UserMeta): void {
    const core = this.#core;
    core.check("addUserMeta()", "calling");
    userInternals.add(core.scope, OBJECT_LEVEL, core.row, user, "ObjectMeta");
    core.userMetaItems = undefined;
  }

  /**
   * Removes one of the object's user metas (`nvds_remove_user_meta_from_object`).
   *
   * @example
   * ```ts
   * for (const user of obj.userMetaItems) if (user.metaType === "ACME.TMP.SCRATCH") obj.removeUserMeta(user);
   * ```
   */
  removeUserMeta(user: UserMeta): void {
    const core = this.#core;
    core.check("removeUserMeta()", "calling");
    userInternals.remove(core.scope, OBJECT_LEVEL, core.row, user, "ObjectMeta", "object");
    core.userMetaItems = undefined;
  }

  /**
   * The object's values as a plain object, safe to keep after transform() returns (with its
   * classifier and user metadata; the parent as its position in the batch).
   *
   * @example
   * ```ts
   * this.tracks.push(obj.toJSON());
   * ```
   */
  toJSON(): ObjectMetaJSON {
    this.#core.check("toJSON()");
    const json: Record<string, unknown> = {};
    for (const name of OBJECT_MEMBERS) {
      const value = this[name];
      const field = FIELD_BY_NAME.get(name);
      if (field !== undefined) json[name] = fieldJSON(field, value);
      else if (name === "maskParams") json[name] = maskJSON(value as MaskParams | undefined);
      else json[name] = typeof value === "object" ? (value as unknown as { toJSON(): unknown }).toJSON() : value;
    }
    return {
      ...(json as Omit<ObjectMetaJSON, "parent" | "classifierItems" | "userMetaItems">),
      parent: parentReference(this.parent),
      classifierItems: this.classifierItems.map((classifier) => classifier.toJSON()),
      userMetaItems: this.userMetaItems.map((user) => user.toJSON()),
    };
  }

  static {
    objectInternals = {
      coreOf: (value) => (value instanceof ObjectMeta ? value.#core : undefined),
    };
    // classId, objectId, ... : one accessor per OBJECT_FIELDS entry, over the object's row in
    // the call's object table (declared below, in `interface ObjectMeta`). Writes to an object
    // in a frame are sent at commit.
    defineRecordFields(ObjectMeta, OBJECT_FIELDS, {
      owner: "ObjectMeta",
      check: (obj, member, action) => obj.#core.check(member, action),
      array: (obj) => obj.#core.scope.table,
      base: (obj) => obj.#core.base,
      write: (obj, slot, values) => {
        const core = obj.#core;
        const table = core.scope.table;
        for (let i = 0; i < values.length; i++) table[core.base + slot + i] = values[i] as number;
        core.touch();
      },
    });
  }
}

// generated: object-fields (npm run generate)
/** ObjectMeta's fields held in its record: accessors made from the descriptors in protocol/transform-state.ts (metadata/call/record-fields.ts). */
export interface ObjectMeta {
  /**
   * Class index from the detector (`class_id`, int32).
   *
   * Writes are checked first (an integer from -2147483648 to 2147483647): an invalid value throws and changes nothing.
   *
   * @example
   * ```ts
   * const people = frame.objectItems.filter((obj) => obj.classId === 0);
   * ```
   */
  classId: number;

  /**
   * Tracking id (`object_id`) set by a tracker; -1 (DeepStream's `UNTRACKED_OBJECT_ID`) until
   * one tracks the object. Ids are integers up to 2^53 - 1.
   *
   * Writes are checked first (an integer from 0 to 2^53 - 1, or -1 for untracked (UNTRACKED_OBJECT_ID)): an invalid value throws and changes nothing.
   *
   * @example
   * ```ts
   * if (obj.objectId !== -1) this.lastSeen.set(obj.objectId, frame.frameNum);
   * ```
   */
  objectId: number;

  /**
   * Id of the component that made the object (`unique_component_id`, int32), e.g. nvinfer's
   * `gie-unique-id`; secondary inference uses it to pick its input objects.
   *
   * Writes are checked first (an integer from -2147483648 to 2147483647): an invalid value throws and changes nothing.
   *
   * @example
   * ```ts
   * obj.uniqueComponentId = 1;
   * ```
   */
  uniqueComponentId: number;

  /**
   * Detector confidence (`confidence`): 0..1, or -0.1 where there is none (DeepStream's marker,
   * e.g. objects only a tracker knows). Stored as a float: reads give the nearest float.
   *
   * Writes are checked first (a float from 0 to 1, or -0.1 for none): an invalid value throws and changes nothing.
   *
   * @example
   * ```ts
   * const sure = frame.objectItems.filter((obj) => obj.confidence >= 0.5);
   * ```
   */
  confidence: number;

  /**
   * Tracker confidence (`tracker_confidence`): 0..1, or -0.1 where there is none.
   *
   * Writes are checked first (a float from 0 to 1, or -0.1 for none): an invalid value throws and changes nothing.
   *
   * @example
   * ```ts
   * if (obj.trackerConfidence >= 0 && obj.trackerConfidence < 0.2) frame.removeObjectMeta(obj);
   * ```
   */
  trackerConfidence: number;

  /**
   * Four integers for your own use (`misc_obj_info`), set as a whole. int64 in DeepStream;
   * exact here up to 2^53.
   *
   * Writes are checked first (four integers, each exact up to 2^53): an invalid value throws and changes nothing.
   *
   * @example
   * ```ts
   * obj.miscObjInfo = [frame.frameNum, 0, 0, 0];
   * ```
   */
  miscObjInfo: readonly [number, number, number, number];
}
// end generated: object-fields

function maskJSON(mask: MaskParams | undefined): MaskParamsJSON | null {
  return mask === undefined ? null : { data: Array.from(mask.data), threshold: mask.threshold, width: mask.width, height: mask.height };
}

/** @internal The core of an ObjectMeta, or undefined for anything else. */
export function objectCoreOf(value: unknown): ObjectCore | undefined {
  return objectInternals.coreOf(value);
}

/** @internal The one JS handle of `row` in this call (objects listed by native code or reached as parents). */
export function objectAtRow(scope: TransformScope, row: number): ObjectMeta {
  const objects = (scope.objects ??= []);
  let object = objects[row];
  if (object === undefined) {
    const frameIndex = scope.table[row * OBJ_STRIDE + OBJ_FRAME_INDEX] as number;
    object = new ObjectMeta(new ObjectCore(scope, row, frameIndex < 0 ? STAGED : ADDED, frameIndex));
    objects[row] = object;
  }
  return object;
}

/** @internal A new object from the batch's pool. */
export function acquireObject(scope: TransformScope): ObjectMeta {
  const row = scope.acquireRow();
  const core = new ObjectCore(scope, row, STAGED, -1);
  core.applyNvinferRow();
  const object = new ObjectMeta(core);
  (scope.objects ??= [])[row] = object;
  return object;
}

function parentReference(parent: ObjectMeta | undefined): ObjectMetaReference | null {
  if (parent === undefined) return null;
  const core = objectInternals.coreOf(parent) as ObjectCore;
  const frame = core.scope.batch?.frameItems[core.frameIndex];
  if (frame === undefined) return null;
  return { frameIndex: core.frameIndex, objectIndex: frame.objectItems.indexOf(parent) };
}

/** @internal The tensor outputs among `users` (`tensorItems`). */
export function tensorOutputs(users: readonly UserMeta[]): readonly TensorOutputMeta[] {
  let outputs: TensorOutputMeta[] | undefined;
  for (const user of users) {
    if (user.kind !== "tensor-output") continue;
    const output = user.asTensorOutput();
    if (output !== undefined) (outputs ??= []).push(output);
  }
  return outputs === undefined ? EMPTY_TENSORS : Object.freeze(outputs);
}
