import { StaleHandleError } from "../errors/errors.js";
import type { NativeLabelInfo } from "../native/meta-binding.js";
import type { ClassifierMeta } from "./classifier-meta.js";
import { ADDED, checkUsable, REMOVED, STAGED, type HandleState } from "./call/handle-checks.js";
import type { TransformScope } from "./call/transform-scope.js";
import { checkBoundedString, checkFloatUnit, checkUint32 } from "./call/validation.js";

const TYPE = "LabelInfo";

/** @internal What ClassifierMeta needs of a LabelInfo's private state. */
export interface LabelInternals {
  scopeOf(label: LabelInfo): TransformScope;
  statusOf(label: LabelInfo): HandleState;
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
  readonly #scope: TransformScope;
  #status: HandleState;
  #index = -1;
  #classifier: ClassifierMeta | undefined;
  #numClasses = 0;
  #resultLabel = "";
  #resultClassId = 0;
  #labelId = 0;
  #resultProb = 0;

  /** @internal Label infos come from `batch.acquireLabelInfo()` or the buffer; user code never constructs them. */
  constructor(scope: TransformScope) {
    this.#scope = scope;
    this.#status = STAGED;
  }

  #check(member: string, action: "reading" | "writing" = "reading"): void {
    checkUsable(this.#scope, this.#status, TYPE, member, action);
  }

  /**
   * Number of classes the classifier chose among (`num_classes`, uint32).
   *
   * @example
   * ```ts
   * label.numClasses = 4;
   * ```
   */
  get numClasses(): number {
    this.#check("numClasses");
    return this.#numClasses;
  }
  /** Checked first (see above): an invalid value throws and changes nothing. */
  set numClasses(value: number) {
    this.#check("numClasses", "writing");
    this.#numClasses = checkUint32(value, "LabelInfo.numClasses");
  }

  /**
   * The chosen class's name (`result_label`): at most 127 bytes of UTF-8, no NUL; a longer one
   * is an error, never cut. nvinfer copies labels into `result_label` (128 bytes,
   * gstnvinfer_meta_utils.cpp:317) and writes no `pResult_label`; deepstream-app copies a
   * `pResult_label` into 128 bytes (deepstream_app.c ~1336-1364). Reading gives `pResult_label`
   * when an upstream element set one.
   *
   * @example
   * ```ts
   * label.resultLabel = "sedan";
   * ```
   */
  get resultLabel(): string {
    this.#check("resultLabel");
    return this.#resultLabel;
  }
  /** Checked first (see above): an invalid value throws and changes nothing. */
  set resultLabel(value: string) {
    this.#check("resultLabel", "writing");
    this.#resultLabel = checkBoundedString(value, "LabelInfo.resultLabel");
  }

  /**
   * The chosen class's id (`result_class_id`, uint32).
   *
   * @example
   * ```ts
   * label.resultClassId = 3;
   * ```
   */
  get resultClassId(): number {
    this.#check("resultClassId");
    return this.#resultClassId;
  }
  /** Checked first (see above): an invalid value throws and changes nothing. */
  set resultClassId(value: number) {
    this.#check("resultClassId", "writing");
    this.#resultClassId = checkUint32(value, "LabelInfo.resultClassId");
  }

  /**
   * Which attribute of a multi-attribute classifier this result is for (`label_id`, uint32).
   *
   * @example
   * ```ts
   * label.labelId = 1; // e.g. 0 = colour, 1 = make
   * ```
   */
  get labelId(): number {
    this.#check("labelId");
    return this.#labelId;
  }
  /** Checked first (see above): an invalid value throws and changes nothing. */
  set labelId(value: number) {
    this.#check("labelId", "writing");
    this.#labelId = checkUint32(value, "LabelInfo.labelId");
  }

  /**
   * Probability of the chosen class, 0..1 (`result_prob`).
   *
   * @example
   * ```ts
   * label.resultProb = 0.87;
   * ```
   */
  get resultProb(): number {
    this.#check("resultProb");
    return this.#resultProb;
  }
  /** Checked first (see above): an invalid value throws and changes nothing. */
  set resultProb(value: number) {
    this.#check("resultProb", "writing");
    this.#resultProb = checkFloatUnit(value, "LabelInfo.resultProb");
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
    this.#check("toJSON()");
    return {
      numClasses: this.#numClasses,
      resultLabel: this.#resultLabel,
      resultClassId: this.#resultClassId,
      labelId: this.#labelId,
      resultProb: this.#resultProb,
    };
  }

  static {
    labelInternals = {
      scopeOf: (label) => label.#scope,
      statusOf: (label) => label.#status,
      classifierOf: (label) => label.#classifier,
      indexOf: (label) => label.#index,
      setIndex: (label, index) => {
        label.#index = index;
        (label.#scope.labelInfos ??= new Map()).set(index, label);
      },
      toNative: (label) => ({
        numClasses: label.#numClasses,
        resultLabel: label.#resultLabel,
        resultClassId: label.#resultClassId,
        labelId: label.#labelId,
        resultProb: label.#resultProb,
      }),
      markAdded: (label, classifier, index) => {
        label.#status = ADDED;
        label.#classifier = classifier;
        label.#index = index;
        if (index >= 0) (label.#scope.labelInfos ??= new Map()).set(index, label);
      },
      markRemoved: (label) => {
        label.#status = REMOVED;
        if (label.#index >= 0) label.#scope.labelInfos?.delete(label.#index);
      },
      fromNative: (scope, read, classifier) => {
        const label = new LabelInfo(scope);
        label.#numClasses = read.numClasses;
        label.#resultLabel = read.resultLabel;
        label.#resultClassId = read.resultClassId;
        label.#labelId = read.labelId;
        label.#resultProb = read.resultProb;
        labelInternals.markAdded(label, classifier, read.index);
        return label;
      },
    };
  }
}

