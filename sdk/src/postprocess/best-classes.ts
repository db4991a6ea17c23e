import type { TensorLayerData } from "../metadata/tensor-output-meta.js";
import { describeKind, invalid, invalidReceived, wrongType } from "./checks.js";
import { optionalTensorBinding } from "../native/installed-bindings.js";
import { nativeTensorSource, TensorHandle } from "../tensor/tensor-handle.js";

const NAME = "bestClasses";

/**
 * Scores to pick from, given with their dims: the last dim is the classes, the others the rows
 * (`[batch, classes]`, or `[classes]` for one row). A classifier's {@link TensorLayer} is one.
 *
 * @example
 * ```ts
 * const scores: ScoreTensor = { data: new Float32Array([0.1, 0.7, 0.2]), dims: [1, 3] };
 * ```
 */
export interface ScoreTensor {
  /** The scores, row after row (a float32 array; anything else is rejected). */
  readonly data: TensorLayerData | undefined;
  /** The shape: at least one dim, the classes last. */
  readonly dims: readonly number[];
}

/**
 * The best class of each row and its score, row order: what a classifier says per object.
 *
 * @example
 * ```ts
 * const { classIds, scores } = bestClasses(probabilities);
 * if (scores[0]! >= 0.5) this.log.info(`class ${classIds[0]}`);
 * ```
 */
export interface BestClasses {
  /** Each row's class with the highest score (the lowest id on a tie); -1 where no score beats -Infinity (all NaN or -Infinity). */
  readonly classIds: Int32Array;
  /** That score (-Infinity for class -1). */
  readonly scores: Float32Array;
}

/**
 * The best class of every row of a classifier's scores (a softmax output `[objects, classes]`,
 * say): the highest score, the lowest class id on a tie, NaN never wins. On a `"cuda"`
 * {@link TensorHandle} (TensorRT, or any dense CUDA tensor) one kernel does it and only one class
 * and score per row are copied to the host; a host tensor or a `{ data, dims }` is read in place.
 * The tensor must be float32 (and dense, as a handle).
 *
 * @example
 * ```ts
 * postprocess(inference: InferenceBatch, [probabilities]: TensorHandle[]) {
 *   const { classIds, scores } = bestClasses(probabilities!);
 *   for (const [row, object] of inference.objects.entries()) {
 *     if (scores[row]! >= this.props.classifierThreshold) object!.classId = classIds[row]!;
 *   }
 * }
 * ```
 */
export function bestClasses(output: TensorHandle | ScoreTensor): BestClasses {
  if (output instanceof TensorHandle) {
    if (output.dtype !== "float32") {
      return invalidReceived("a float32 tensor (convert other types first)", `${NAME} output`, `a ${output.dtype} tensor`);
    }
    const [rows, classes] = rowsOf(output.shape, `${NAME} output.shape`);
    const binding = optionalTensorBinding();
    if (binding !== undefined) {
      const { classIds, scores } = binding.rowArgmax(nativeTensorSource(output, `${NAME} output`), rows, classes);
      return { classIds, scores };
    }
    return argmaxRows(output.toTypedArray() as Float32Array, rows, classes);
  }
  if (typeof output !== "object" || output === null) return invalid("a TensorHandle or a tensor { data, dims }", `${NAME} output`, output, true);
  const { data, dims } = output;
  if (!(data instanceof Float32Array)) {
    return wrongType("a Float32Array (a float32 output; convert other types first)", `${NAME} output.data`, describeKind(data));
  }
  const [rows, classes] = rowsOf(dims, `${NAME} output.dims`);
  if (rows * classes !== data.length) return invalidReceived(`${rows * classes} values (dims ${JSON.stringify(dims)})`, `${NAME} output.data`, `${data.length} values`);
  return argmaxRows(data, rows, classes);
}

function rowsOf(dims: readonly number[], name: string): [rows: number, classes: number] {
  if (!Array.isArray(dims) || dims.length === 0 || !dims.every((size) => Number.isInteger(size) && size >= 0) || dims.at(-1) === 0) {
    return invalid("at least one integer size, the classes last and at least 1", name, dims, !Array.isArray(dims));
  }
  return [dims.slice(0, -1).reduce((product, size) => product * size, 1), dims.at(-1) as number];
}

/** The scan every path follows (native-host/src/postprocess/candidates.h: `consider`). */
function argmaxRows(data: Float32Array, rows: number, classes: number): BestClasses {
  const classIds = new Int32Array(rows);
  const scores = new Float32Array(rows);
  for (let row = 0, at = 0; row < rows; row++) {
    let best = -Infinity;
    let bestClass = -1;
    for (let classId = 0; classId < classes; classId++, at++) {
      const score = data[at] as number;
      if (score > best) {
        best = score;
        bestClass = classId;
      }
    }
    classIds[row] = bestClass;
    scores[row] = best;
  }
  return { classIds, scores };
}
