/**
 * Which objects the classifier runs on, as nvinfer decides for a secondary model
 * (`operate-on-gie-id`, `operate-on-class-ids`, `input-object-min-width/height`), and what it
 * makes of the model's scores (`classifier-threshold`). Plain TypeScript, tested on its own.
 */

/** The object fields the selection looks at (an ObjectMeta has them). */
export interface Candidate {
  classId: number;
  uniqueComponentId: number;
  rectParams: { width: number; height: number };
}

/** The element's properties the selection follows. */
export interface SelectionSettings {
  /** Class ids to classify; empty: all. */
  operateOnClassIds: readonly number[];
  /** unique_component_id of the detector whose objects to classify; -1: any. */
  operateOnComponentId: number;
  /** Smallest box to classify, in frame pixels. */
  minObjectWidth: number;
  minObjectHeight: number;
}

/**
 * Whether the classifier runs on `object`.
 *
 * @example
 * ```ts
 * selected({ classId: 2, uniqueComponentId: 1, rectParams: { width: 80, height: 60 } },
 *   { operateOnClassIds: [2], operateOnComponentId: 1, minObjectWidth: 16, minObjectHeight: 16 }); // true
 * ```
 */
export function selected(object: Candidate, settings: SelectionSettings): boolean {
  if (settings.operateOnClassIds.length > 0 && !settings.operateOnClassIds.includes(object.classId)) return false;
  if (settings.operateOnComponentId >= 0 && object.uniqueComponentId !== settings.operateOnComponentId) return false;
  return object.rectParams.width >= settings.minObjectWidth && object.rectParams.height >= settings.minObjectHeight;
}

/** The class a row of scores says, when its score reaches the threshold. */
export interface Classification {
  classId: number;
  probability: number;
}

/**
 * The best class of one image's `scores` (probabilities, as a softmax gives them), or undefined
 * when it scores under `threshold` (nvinfer's `classifier-threshold`: no classifier meta then).
 *
 * @example
 * ```ts
 * classify(new Float32Array([0.1, 0.7, 0.2]), 0.5); // { classId: 1, probability: 0.7 }
 * ```
 */
export function classify(scores: ArrayLike<number>, threshold: number): Classification | undefined {
  let classId = -1;
  let probability = -Infinity;
  for (let index = 0; index < scores.length; index++) {
    if (scores[index]! > probability) {
      probability = scores[index]!;
      classId = index;
    }
  }
  return classId >= 0 && probability >= threshold ? { classId, probability } : undefined;
}
