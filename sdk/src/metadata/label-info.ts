import { StaleHandleError } from "../errors/errors.js";
import type { NativeLabelInfo } from "../native/meta-binding.js";
import type { ClassifierMeta } from "./classifier-meta.js";
import { ADDED, REMOVED } from "./call/handle-checks.js";
import type { TransformScope } from "./call/transform-scope.js";
import { LABEL_INFO_FIELDS } from "../protocol/value-fields.js";
import { defineValueFields, valueCopy, ValueCore, type ValueAccess } from "./call/value-fields.js";

const TYPE = "LabelInfo";

/** @internal What ClassifierMeta needs of a LabelInfo's private state. */
export interface LabelInternals extends ValueAccess<LabelInfo> {
  classifierOf(label: LabelInfo): ClassifierMeta | undefined;
  indexOf(label: LabelInfo): number;
  setIndex(label: LabelInfo, index: number): void;
  toNative(label: LabelInfo): NativeLabelInfo;
  /** Added to `classifier`; `index` -1 when native code has not told it yet. */
  markAdded(label: LabelInfo, classifier: ClassifierMeta, index: number): void;
  markRemoved(label: LabelInfo): void;
  fromNative(scope: TransformScope, read: NativeLabelInfo & { index: number }, classifier: ClassifierMeta): LabelInfo;
}

/** @internal */
// Assigned by LabelInfo's static block (the only code that sees its private fields).
export let labelInternals: LabelInternals;

/**
 * The plain values of a {@link LabelInfo}, as {@link LabelInfo.toJSON} returns them.
 *
 * @example
 * ```ts
 * const labels: LabelInfoJSON[] = classifier.labelInfoItems.map((label) => label.toJSON());
 * ```
 */
export interface LabelInfoJSON {
  // generated: label-info-json (npm run generate)
  /** See {@link LabelInfo.numClasses}. */
  numClasses: number;
  /** See {@link LabelInfo.resultLabel}. */
  resultLabel: string;
  /** See {@link LabelInfo.resultClassId}. */
  resultClassId: number;
  /** See {@link LabelInfo.labelId}. */
  labelId: number;
  /** See {@link LabelInfo.resultProb}. */
  resultProb: number;
  // end generated: label-info-json
}

/**
 * One result of a classifier (`NvDsLabelInfo`): the class it chose for one attribute and how
 * sure it is. Acquire one with `batch.acquireLabelInfo()`, fill it, and add it to a
 * {@link ClassifierMeta} with `addLabelInfo`; once added (or read from the buffer) its values
 * are read-only.
 *
 * Valid only during the transform() call that made it (see {@link StaleHandleError}).
 *
 * @example
 * ```ts
 * const label = batch.acquireLabelInfo();
 * label.resultClassId = 2;
 * label.resultLabel = "red";
 * label.resultProb = 0.93;
 * classifier.addLabelInfo(label);
 * ```
 */
export class LabelInfo {
  /** Its call, state and members (LABEL_INFO_FIELDS; accessors defined below), and the check every member makes first. */
  readonly #core: ValueCore;
  #index = -1;
  #classifier: ClassifierMeta | undefined;

  /** @internal Label infos come from `batch.acquireLabelInfo()` or the buffer; user code never constructs them. */
  constructor(scope: TransformScope) {
    this.#core = new ValueCore(scope, TYPE, LABEL_INFO_FIELDS);
  }

  /**
   * The label's values as a plain object, safe to keep after transform() returns.
   *
   * @example
   * ```ts
   * const { resultLabel, resultProb } = label.toJSON();
   * ```
   */
  toJSON(): LabelInfoJSON {
    this.#core.check("toJSON()");
    return valueCopy(LABEL_INFO_FIELDS, this.#core.values) as unknown as LabelInfoJSON;
  }

  static {
    labelInternals = {
      coreOf: (label) => label.#core,
      classifierOf: (label) => label.#classifier,
      indexOf: (label) => label.#index,
      setIndex: (label, index) => {
        label.#index = index;
        (label.#core.scope.labelInfos ??= new Map()).set(index, label);
      },
      toNative: (label) => valueCopy(LABEL_INFO_FIELDS, label.#core.values) as unknown as NativeLabelInfo,
      markAdded: (label, classifier, index) => {
        label.#core.status = ADDED;
        label.#classifier = classifier;
        label.#index = index;
        if (index >= 0) (label.#core.scope.labelInfos ??= new Map()).set(index, label);
      },
      markRemoved: (label) => {
        label.#core.status = REMOVED;
        if (label.#index >= 0) label.#core.scope.labelInfos?.delete(label.#index);
      },
      fromNative: (scope, read, classifier) => {
        const label = new LabelInfo(scope);
        Object.assign(label.#core.values, valueCopy(LABEL_INFO_FIELDS, read as unknown as Record<string, unknown>));
        labelInternals.markAdded(label, classifier, read.index);
        return label;
      },
    };
    // numClasses, resultLabel, ... : one accessor per LABEL_INFO_FIELDS entry (declared below,
    // in `interface LabelInfo`).
    defineValueFields(LabelInfo, LABEL_INFO_FIELDS, labelInternals);
  }
}

// generated: label-info-fields (npm run generate)
/** LabelInfo's members: accessors made from the descriptors in protocol/value-fields.ts (metadata/call/value-fields.ts). */
export interface LabelInfo {
  /**
   * Number of classes the classifier chose among (`num_classes`, uint32).
   *
   * Writes are checked first (an integer from 0 to 4294967295): an invalid value throws and changes nothing.
   *
   * @example
   * ```ts
   * label.numClasses = 4;
   * ```
   */
  numClasses: number;

  /**
   * The chosen class's name (`result_label`): at most 127 bytes of UTF-8, no NUL; a longer one
   * is an error, never cut. nvinfer copies labels into `result_label` (128 bytes,
   * gstnvinfer_meta_utils.cpp:317) and writes no `pResult_label`; deepstream-app copies a
   * `pResult_label` into 128 bytes (deepstream_app.c ~1336-1364). Reading gives `pResult_label`
   * when an upstream element set one.
   *
   * Writes are checked first (at most 127 bytes of UTF-8, no NUL): an invalid value throws and changes nothing.
   *
   * @example
   * ```ts
   * label.resultLabel = "sedan";
   * ```
   */
  resultLabel: string;

  /**
   * The chosen class's id (`result_class_id`, uint32).
   *
   * Writes are checked first (an integer from 0 to 4294967295): an invalid value throws and changes nothing.
   *
   * @example
   * ```ts
   * label.resultClassId = 3;
   * ```
   */
  resultClassId: number;

  /**
   * Which attribute of a multi-attribute classifier this result is for (`label_id`, uint32).
   *
   * Writes are checked first (an integer from 0 to 4294967295): an invalid value throws and changes nothing.
   *
   * @example
   * ```ts
   * label.labelId = 1; // e.g. 0 = colour, 1 = make
   * ```
   */
  labelId: number;

  /**
   * Probability of the chosen class, 0..1 (`result_prob`).
   *
   * Writes are checked first (a number from 0 to 1, stored as a float): an invalid value throws and changes nothing.
   *
   * @example
   * ```ts
   * label.resultProb = 0.87;
   * ```
   */
  resultProb: number;
}
// end generated: label-info-fields
