/**
 * Object tables: the Float64Arrays (OBJ_STRIDE doubles per row) through which object fields
 * travel between JS and native code (docs/internals/metadata-design.md §5), and the Int32Array
 * `listObjects` writes rows into. A call takes one of each from the pool on its first object
 * operation and gives them back when it ends, so a steady stream of buffers allocates none.
 *
 * @internal
 */
import { OBJ_STRIDE } from "../../protocol/transform-state.js";

/** Rows of a new table: enough for a typical frame's objects without growing. */
export const INITIAL_ROWS = 64;
/** Tables kept for reuse: one per call in flight at once is the most ever needed. */
const MAX_POOLED = 8;

/** Reusable object tables and row lists. */
export class ObjectTablePool {
  readonly #tables: Float64Array[] = [];
  readonly #rowLists: Int32Array[] = [];

  /** A table (its contents are stale: native code fills every row it hands out). */
  takeTable(): Float64Array {
    return this.#tables.pop() ?? new Float64Array(INITIAL_ROWS * OBJ_STRIDE);
  }

  giveTable(table: Float64Array): void {
    if (this.#tables.length < MAX_POOLED) this.#tables.push(table);
  }

  /** A row list for `listObjects`. */
  takeRows(): Int32Array {
    return this.#rowLists.pop() ?? new Int32Array(INITIAL_ROWS);
  }

  giveRows(rows: Int32Array): void {
    if (this.#rowLists.length < MAX_POOLED) this.#rowLists.push(rows);
  }
}

/** The pool every scope uses unless given another (the JS thread is the only user). */
export const sharedObjectTables = new ObjectTablePool();

/** The smallest power-of-two multiple of `rows` (at least `current * 2`) that holds `needed` rows. */
export function grownRows(current: number, needed: number): number {
  let rows = Math.max(current * 2, INITIAL_ROWS);
  while (rows < needed) rows *= 2;
  return rows;
}
