/** What every backend checks of the tensors given to `Runner.infer`, with one message shape. */
import { describeValue, expectedMessage } from "../errors/describe-value.js";
import { InvalidTypeError, InvalidValueError } from "../errors/errors.js";
import { denseStrides, TensorHandle } from "../tensor/tensor-handle.js";
import type { RunnerInputs, TensorInfo } from "./types.js";

/** `[1,3,640,640]`; dynamic dimensions as -1. */
export function describeShape(shape: readonly number[]): string {
  return `[${shape.join(",")}]`;
}

/**
 * The inputs in the model's order, each checked against its declaration: a TensorHandle, on a
 * device the backend can read (`device`), of the model's dtype, rank and fixed dimensions,
 * dense row-major. Throws InvalidTypeError/InvalidValueError naming the input.
 */
export function checkedInputs(
  infos: readonly TensorInfo[],
  inputs: RunnerInputs,
  path: string,
  device: (tensor: TensorHandle, name: string, path: string) => void,
): TensorHandle[] {
  const names = infos.map((info) => `"${info.name}"`).join(", ");
  let ordered: unknown[];
  if (Array.isArray(inputs)) {
    if (inputs.length !== infos.length) {
      throw new InvalidValueError(
        expectedMessage(`${infos.length} tensor${infos.length === 1 ? "" : "s"} (${names})`, `the inputs of ${path}`, `${inputs.length}`),
      );
    }
    ordered = inputs;
  } else if (typeof inputs === "object" && inputs !== null && !(inputs instanceof TensorHandle)) {
    const record = inputs as Readonly<Record<string, unknown>>;
    const extra = Object.keys(record).find((key) => !infos.some((info) => info.name === key));
    if (extra !== undefined) {
      throw new InvalidValueError(expectedMessage(`only the model's inputs (${names})`, `the inputs of ${path}`, `"${extra}"`));
    }
    ordered = infos.map((info) => record[info.name]);
  } else {
    throw new InvalidTypeError(
      expectedMessage("an array of TensorHandles or an object of them keyed by input name", `the inputs of ${path}`, describeValue(inputs)),
    );
  }
  return infos.map((info, index) => {
    const name = `input "${info.name}"`;
    const tensor = ordered[index];
    if (tensor === undefined) throw new InvalidValueError(expectedMessage("a tensor", name, "none"));
    if (!(tensor instanceof TensorHandle)) throw new InvalidTypeError(expectedMessage("a TensorHandle", name, describeValue(tensor)));
    device(tensor, name, path);
    if (tensor.dtype !== info.dtype) {
      throw new InvalidValueError(expectedMessage(`a ${info.dtype} tensor`, name, `a ${tensor.dtype} tensor`));
    }
    const shape = tensor.shape;
    if (shape.length !== info.shape.length) {
      throw new InvalidValueError(expectedMessage(`a ${info.shape.length}-dimensional shape`, name, describeShape(shape)));
    }
    if (info.shape.some((dim, d) => dim >= 0 && dim !== shape[d])) {
      const wanted = info.shape.map((dim, d) => (dim >= 0 ? String(dim) : (info.dimNames[d] ?? "?"))).join(",");
      throw new InvalidValueError(expectedMessage(`shape [${wanted}]`, name, describeShape(shape)));
    }
    const dense = denseStrides(shape);
    if (tensor.strides.some((stride, d) => stride !== dense[d] && shape[d] !== 1)) {
      throw new InvalidValueError(
        expectedMessage(
          `a dense row-major tensor (strides ${describeShape(dense)})`,
          name,
          `strides ${describeShape(tensor.strides)} (a frame with padded rows: run preprocess() first)`,
        ),
      );
    }
    return tensor;
  });
}

/** Counts inferences in flight, so dispose() can wait for them. */
export class InflightCounter {
  #count = 0;
  #waiters: (() => void)[] = [];

  enter(): void {
    this.#count++;
  }

  leave(): void {
    if (--this.#count === 0) for (const wake of this.#waiters.splice(0)) wake();
  }

  idle(): Promise<void> {
    return this.#count === 0 ? Promise.resolve() : new Promise((resolve) => this.#waiters.push(resolve));
  }
}
