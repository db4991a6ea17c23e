import { StaleHandleError } from "../errors/errors.js";
import type { NativeClassifier, NativeClassifierRead } from "../native/meta-binding.js";
import { ADDED, checkAddable, checkSameCall, notAHandle, notIn, REMOVED } from "./call/handle-checks.js";
import { LabelInfo, labelInternals, type LabelInfoJSON } from "./label-info.js";
import type { ObjectCore } from "./call/object-core.js";
import type { TransformScope } from "./call/transform-scope.js";
import { CLASSIFIER_FIELDS } from "../protocol/value-fields.js";
import { checkUint32 } from "./call/validation.js";
import { defineValueFields, valueCopy, ValueCore, type ValueAccess } from "./call/value-fields.js";

const TYPE = "ClassifierMeta";

/** @internal What ObjectMeta needs of a ClassifierMeta's private state. */
export interface ClassifierInternals extends ValueAccess<ClassifierMeta> {
  ownerOf(classifier: ClassifierMeta): ObjectCore | undefined;
  indexOf(classifier: ClassifierMeta): number;
  toNative(classifier: ClassifierMeta): NativeClassifier;
  markAdded(classifier: ClassifierMeta, owner: ObjectCore, index: number): void;
  markRemoved(classifier: ClassifierMeta): void;
  /** The JS handle of a listed classifier: the known one (label indices learned) or a new one. */
  fromNative(scope: TransformScope, owner: ObjectCore, read: NativeClassifierRead): ClassifierMeta;
}

/** @internal */
// Assigned by ClassifierMeta's static block (the only code that sees its private fields).
export let classifierInternals: ClassifierInternals;

/**
 * The plain values of a {@link ClassifierMeta}, as {@link ClassifierMeta.toJSON} returns them.
 *
 * @example
 * ```ts
 * const results: ClassifierMetaJSON[] = obj.classifierItems.map((classifier) => classifier.toJSON());
 * ```
 */
export interface ClassifierMetaJSON {
  // generated: classifier-json (npm run generate)
  /** See {@link ClassifierMeta.numLabels}; default: the number of `labels`. */
  numLabels: number;
  /** See {@link ClassifierMeta.uniqueComponentId}. */
  uniqueComponentId: number;
  /** See {@link ClassifierMeta.classifierType}. */
  classifierType: string;
  // end generated: classifier-json
  /** Each label's {@link LabelInfo.toJSON}. */
  labelInfoItems: LabelInfoJSON[];
}

/**
 * What a secondary classifier concluded about one object (`NvDsClassifierMeta`), with one
 * {@link LabelInfo} per attribute. Acquire one with `batch.acquireClassifierMeta()`, set its
 * fields, add its label infos, then `obj.addClassifierMeta(classifier)`: it is sent to the
 * buffer with its labels in one native call. Once added (or read from the buffer) its fields
 * are read-only; label infos can still be added and removed.
 *
 * Valid only during the transform() call that made it (see {@link StaleHandleError}).
 *
 * @example
 * ```ts
 * const classifier = batch.acquireClassifierMeta();
 * classifier.uniqueComponentId = 2;
 * classifier.classifierType = "vehicle-color";
 * const label = batch.acquireLabelInfo();
 * label.resultLabel = "red";
 * label.resultProb = 0.9;
 * classifier.addLabelInfo(label);
 * obj.addClassifierMeta(classifier);
 * ```
 */
export class ClassifierMeta {
  /** Its call, state and members (CLASSIFIER_FIELDS; accessors defined below), and the check every member makes first. */
  readonly #core: ValueCore;
  #index = -1;
  #owner: ObjectCore | undefined;
  #numLabels: number | undefined;
  /** The label infos in list order (staged, or mirroring the buffer's list once added). */
  readonly #labels: LabelInfo[] = [];
  #labelItems: readonly LabelInfo[] | undefined;
  /** Whether every label in #labels knows its native index. */
  #labelIndicesKnown = true;

  /** @internal Classifiers come from `batch.acquireClassifierMeta()` or the buffer; user code never constructs them. */
  constructor(scope: TransformScope) {
    this.#core = new ValueCore(scope, TYPE, CLASSIFIER_FIELDS);
  }

  /**
   * Number of labels the classifier outputs (`num_labels`, uint32). Until set, the number of
   * label infos added; once the classifier is on an object, each label info added or removed
   * counts (+1 / -1), as DeepStream's `nvds_add_label_info_meta_to_classifier` counts it.
   *
   * @example
   * ```ts
   * classifier.numLabels = 1;
   * ```
   */
  get numLabels(): number {
    this.#core.check("numLabels");
    return this.#numLabels ?? this.#labels.length;
  }
  /** Checked first (see above): an invalid value throws and changes nothing. */
  set numLabels(value: number) {
    this.#core.check("numLabels", "writing");
    this.#numLabels = checkUint32(value, "ClassifierMeta.numLabels");
  }

  /**
   * The classifier's label infos (`label_info_list`), in list order. A real array: iterate it
   * as often as you like.
   *
   * @example
   * ```ts
   * const best = classifier.labelInfoItems.reduce((a, b) => (b.resultProb > a.resultProb ? b : a));
   * ```
   */
  get labelInfoItems(): readonly LabelInfo[] {
    this.#core.check("labelInfoItems");
    return (this.#labelItems ??= Object.freeze(this.#labels.slice()));
  }

  /**
   * Adds a label info (from `batch.acquireLabelInfo()`): staged with the classifier until it is
   * added, or sent to the buffer at once if it already is (`nvds_add_label_info_meta_to_classifier`).
   *
   * @example
   * ```ts
   * const label = batch.acquireLabelInfo();
   * label.resultLabel = "blue";
   * classifier.addLabelInfo(label);
   * ```
   */
  addLabelInfo(label: LabelInfo): void {
    this.#core.check("addLabelInfo()", "calling");
    if (!(label instanceof LabelInfo)) notAHandle("LabelInfo", "ClassifierMeta.addLabelInfo label", label);
    checkSameCall(labelInternals.coreOf(label).scope, this.#core.scope, "LabelInfo", "addLabelInfo");
    checkAddable(labelInternals.coreOf(label).status, "LabelInfo", "addLabelInfo", "removeLabelInfo");
    if (this.#core.status === ADDED) {
      const scope = this.#core.scope;
      const meta = scope.meta;
      const index = meta.addLabelInfo(scope.callId, this.#index, labelInternals.toNative(label));
      labelInternals.markAdded(label, this, index);
      // Counted in num_labels as nvds_add_label_info_meta_to_classifier counts it.
      this.#numLabels = (this.#numLabels ?? 0) + 1;
    } else {
      labelInternals.markAdded(label, this, -1);
    }
    this.#labels.push(label);
    this.#labelItems = undefined;
  }

  /**
   * Removes one of this classifier's label infos (`nvds_remove_label_info_meta_from_classifier`);
   * the label info cannot be used afterwards.
   *
   * @example
   * ```ts
   * for (const label of classifier.labelInfoItems) if (label.resultProb < 0.2) classifier.removeLabelInfo(label);
   * ```
   */
  removeLabelInfo(label: LabelInfo): void {
    this.#core.check("removeLabelInfo()", "calling");
    if (!(label instanceof LabelInfo)) notAHandle("LabelInfo", "ClassifierMeta.removeLabelInfo label", label);
    checkSameCall(labelInternals.coreOf(label).scope, this.#core.scope, "LabelInfo", "removeLabelInfo");
    const position = this.#labels.indexOf(label);
    if (position < 0 || labelInternals.classifierOf(label) !== this) {
      notIn(labelInternals.coreOf(label).status, "LabelInfo", "classifier", "removeLabelInfo", "removeLabelInfo");
    }
    if (this.#core.status === ADDED) {
      const scope = this.#core.scope;
      const meta = scope.meta;
      if (labelInternals.indexOf(label) < 0) this.#learnLabelIndices();
      meta.removeLabelInfo(scope.callId, this.#index, labelInternals.indexOf(label));
      this.#numLabels = Math.max(0, (this.#numLabels ?? 0) - 1);
    }
    labelInternals.markRemoved(label);
    this.#labels.splice(position, 1);
    this.#labelItems = undefined;
  }

  /** Labels sent with addClassifier have no index yet: native code gives them when listed. */
  #learnLabelIndices(): void {
    const owner = this.#owner as ObjectCore;
    const meta = this.#core.scope.meta;
    for (const read of meta.listClassifiers(this.#core.scope.callId, owner.row)) {
      if (read.index === this.#index) this.#adoptLabelIndices(read);
    }
  }

  #adoptLabelIndices(read: NativeClassifierRead): void {
    if (this.#labelIndicesKnown) return;
    read.labels.forEach((labelRead, position) => {
      const label = this.#labels[position];
      if (label !== undefined && labelInternals.indexOf(label) < 0) labelInternals.setIndex(label, labelRead.index);
    });
    this.#labelIndicesKnown = true;
  }

  /**
   * The classifier's values as a plain object, safe to keep after transform() returns.
   *
   * @example
   * ```ts
   * this.seen.push(classifier.toJSON());
   * ```
   */
  toJSON(): ClassifierMetaJSON {
    this.#core.check("toJSON()");
    return {
      ...(valueCopy(CLASSIFIER_FIELDS, { ...this.#core.values, numLabels: this.numLabels }) as unknown as Omit<ClassifierMetaJSON, "labelInfoItems">),
      labelInfoItems: this.#labels.map((label) => label.toJSON()),
    };
  }

  static {
    classifierInternals = {
      coreOf: (classifier) => classifier.#core,
      ownerOf: (classifier) => classifier.#owner,
      indexOf: (classifier) => classifier.#index,
      toNative: (classifier) => ({
        ...(valueCopy(CLASSIFIER_FIELDS, { ...classifier.#core.values, numLabels: classifier.#numLabels ?? classifier.#labels.length }) as unknown as Omit<
          NativeClassifier,
          "labels"
        >),
        labels: classifier.#labels.map((label) => labelInternals.toNative(label)),
      }),
      markAdded: (classifier, owner, index) => {
        classifier.#core.status = ADDED;
        classifier.#owner = owner;
        classifier.#index = index;
        classifier.#numLabels ??= classifier.#labels.length;
        classifier.#labelIndicesKnown = classifier.#labels.length === 0;
        (classifier.#core.scope.classifiers ??= new Map()).set(index, classifier);
      },
      markRemoved: (classifier) => {
        classifier.#core.status = REMOVED;
        classifier.#core.scope.classifiers?.delete(classifier.#index);
        for (const label of classifier.#labels) labelInternals.markRemoved(label);
      },
      fromNative: (scope, owner, read) => {
        const known = scope.classifiers?.get(read.index);
        if (known !== undefined) {
          known.#adoptLabelIndices(read);
          return known;
        }
        const classifier = new ClassifierMeta(scope);
        Object.assign(classifier.#core.values, valueCopy(CLASSIFIER_FIELDS, read as unknown as Record<string, unknown>));
        classifier.#numLabels = read.numLabels;
        for (const labelRead of read.labels) {
          classifier.#labels.push(scope.labelInfos?.get(labelRead.index) ?? labelInternals.fromNative(scope, labelRead, classifier));
        }
        classifierInternals.markAdded(classifier, owner, read.index);
        classifier.#labelIndicesKnown = true;
        return classifier;
      },
    };
    // uniqueComponentId, classifierType, ... : one accessor per CLASSIFIER_FIELDS entry but the
    // list's numLabels (declared below, in `interface ClassifierMeta`).
    defineValueFields(ClassifierMeta, CLASSIFIER_FIELDS, classifierInternals);
  }
}

// generated: classifier-fields (npm run generate)
/** ClassifierMeta's members: accessors made from the descriptors in protocol/value-fields.ts (metadata/call/value-fields.ts). */
export interface ClassifierMeta {
  /**
   * Id of the component (e.g. nvinfer's `gie-unique-id`) that made this classification
   * (`unique_component_id`, int32).
   *
   * Writes are checked first (an integer from -2147483648 to 2147483647): an invalid value throws and changes nothing.
   *
   * @example
   * ```ts
   * classifier.uniqueComponentId = 3;
   * ```
   */
  uniqueComponentId: number;

  /**
   * What the classifier classifies (`classifier_type`): at most 127 bytes of UTF-8, no NUL.
   *
   * Writes are checked first (at most 127 bytes of UTF-8, no NUL): an invalid value throws and changes nothing.
   *
   * @example
   * ```ts
   * classifier.classifierType = "vehicle-make";
   * ```
   */
  classifierType: string;
}
// end generated: classifier-fields
