import { StaleHandleError } from "../../errors/errors.js";
import type { MetaBinding } from "../../native/meta-binding.js";
import {
  OBJ_PARENT_ROW,
  OBJ_STRIDE,
  STATE_CALL_ID,
  STATE_NUM_FRAMES,
  stateLength,
} from "../../protocol/transform-state.js";
import type { BatchMeta } from "../batch-meta.js";
import type { ClassifierMeta } from "../classifier-meta.js";
import type { DisplayMeta } from "../display-meta.js";
import type { LabelInfo } from "../label-info.js";
import type { ObjectCore } from "./object-core.js";
import type { ObjectMeta } from "../object-meta.js";
import { grownRows, sharedObjectTables, type ObjectTablePool } from "./object-table.js";
import type { UserMeta } from "../user-meta.js";

const NO_TABLE = new Float64Array(0);
/** The code of the RangeError `acquireObject` throws when the bound table has no room. */
const TABLE_FULL = "ERR_DS_ELEMENT_TABLE_FULL";

/**
 * The life of one transform() call, shared by every handle that call hands out. Ending the
 * scope invalidates all of them with one write, which is what makes StaleHandleError free on
 * the hot path.
 *
 * It also holds the call's metadata state (docs/internals/metadata-design.md §5): the binding
 * and call id every native function takes, the object table (taken from a pool on the first
 * object operation, so a transform that only reads frame fields makes no native call), one JS
 * handle per native row or index (so identity holds: the object you added is the one
 * `objectItems` lists), and the objects written since they were last sent (`commit`).
 *
 * The host adapter's order per call: `new TransformScope(state, meta)`, transform,
 * `commit()` once it settled, then `end()`, then native closes the call.
 *
 * @internal
 */
export class TransformScope {
  alive = true;
  /** The call's state array (header + frame records); a private copy after detach(). */
  state: Float64Array;
  /** The metadata binding every native function of the call goes through. */
  readonly meta: MetaBinding;
  /** `state[STATE_CALL_ID]`, taken before anything can rewrite the shared array. */
  readonly callId: number;
  /** The object table bound for this call (empty until the first object operation). */
  table: Float64Array = NO_TABLE;
  /** The BatchMeta of this call (toJSON resolves parent references through it). */
  batch: BatchMeta | undefined;
  /** JS handle of each row, for identity. */
  objects: (ObjectMeta | undefined)[] | undefined;
  /** Per-call indices → JS handles, for identity. */
  classifiers: Map<number, ClassifierMeta> | undefined;
  labelInfos: Map<number, LabelInfo> | undefined;
  displays: Map<number, DisplayMeta> | undefined;
  userMetas: Map<number, UserMeta> | undefined;

  readonly #tables: ObjectTablePool;
  #rows: Int32Array | undefined;
  /** One past the highest row native code has handed out (rows are small integers from 0). */
  #rowsSeen = 0;
  #dirty: ObjectCore[] | undefined;

  constructor(state: Float64Array, meta: MetaBinding, tables: ObjectTablePool = sharedObjectTables) {
    this.state = state;
    this.meta = meta;
    this.callId = state[STATE_CALL_ID] ?? 0;
    this.#tables = tables;
  }

  /**
   * Copies this call's numbers out of the shared state array. Needed once transform() returns
   * a pending Promise: while it waits, the JS thread serves other elements, and native code
   * rewrites the shared array for each of them. (The object table is the call's own.)
   */
  detach(): void {
    const length = stateLength(this.state[STATE_NUM_FRAMES] ?? 0);
    this.state = this.state.slice(0, length);
  }

  /** Sends every object written since it was last sent (meta.writeObject per dirty row). */
  commit(): void {
    if (!this.alive) throw new StaleHandleError("TransformScope", "commit()", "calling");
    const dirty = this.#dirty;
    if (dirty === undefined || dirty.length === 0) return;
    let sent = 0;
    try {
      for (; sent < dirty.length; sent++) (dirty[sent] as ObjectCore).flush();
    } finally {
      dirty.splice(0, sent);
    }
  }

  /** Ends the call: every handle goes stale; the object table goes back to the pool. */
  end(): void {
    this.alive = false;
    if (this.table !== NO_TABLE) {
      this.#tables.giveTable(this.table);
      this.table = NO_TABLE;
    }
    if (this.#rows !== undefined) {
      this.#tables.giveRows(this.#rows);
      this.#rows = undefined;
    }
    this.#dirty = undefined;
    this.objects = undefined;
    this.classifiers = this.labelInfos = this.displays = this.userMetas = undefined;
    this.batch = undefined;
  }

  /** Queues an object whose row or strings changed after it was added. */
  markDirty(core: ObjectCore): void {
    (this.#dirty ??= []).push(core);
  }

  /** Acquires an object from the batch's pool: its row, filled with DeepStream's defaults. */
  acquireRow(): number {
    const meta = this.meta;
    this.#bindTable(meta);
    if (this.#rowsSeen >= this.table.length / OBJ_STRIDE) this.#growTable(meta, this.#rowsSeen + 1);
    let row: number;
    try {
      row = meta.acquireObject(this.callId);
    } catch (error) {
      // No room in the table (rows are not always handed out in order): grow once and retry.
      if ((error as { code?: unknown } | null)?.code !== TABLE_FULL) throw error;
      this.#growTable(meta, this.table.length / OBJ_STRIDE + 1);
      row = meta.acquireObject(this.callId);
    }
    if (row >= this.#rowsSeen) this.#rowsSeen = row + 1;
    return row;
  }

  /** The rows of frame `frameIndex`'s objects, in list order: `rows[0..count)`. */
  listRows(frameIndex: number): { rows: Int32Array; count: number } {
    const meta = this.meta;
    // Listing refills the rows from native metadata: send pending writes first.
    this.commit();
    this.#bindTable(meta);
    let rows = (this.#rows ??= this.#tables.takeRows());
    for (;;) {
      const count = meta.listObjects(this.callId, frameIndex, rows);
      if (count >= 0) {
        this.#noteRows(rows, count);
        return { rows, count };
      }
      const needed = -count;
      const tableRows = this.table.length / OBJ_STRIDE;
      if (needed <= tableRows && needed <= rows.length) {
        throw new Error(`listObjects asked for ${needed} rows with ${tableRows} table rows and ${rows.length} row slots`);
      }
      if (needed > tableRows) this.#growTable(meta, needed);
      if (needed > rows.length) {
        this.#tables.giveRows(rows);
        rows = this.#rows = new Int32Array(grownRows(rows.length, needed));
      }
    }
  }

  #noteRows(rows: Int32Array, count: number): void {
    const table = this.table;
    let seen = this.#rowsSeen;
    for (let i = 0; i < count; i++) {
      const row = rows[i] as number;
      if (row >= seen) seen = row + 1;
      const parent = table[row * OBJ_STRIDE + OBJ_PARENT_ROW] as number;
      if (parent >= seen) seen = parent + 1;
    }
    this.#rowsSeen = seen;
  }

  #bindTable(meta: MetaBinding): void {
    if (this.table !== NO_TABLE) return;
    this.table = this.#tables.takeTable();
    meta.bindObjectTable(this.callId, this.table);
  }

  #growTable(meta: MetaBinding, neededRows: number): void {
    const table = new Float64Array(grownRows(this.table.length / OBJ_STRIDE, neededRows) * OBJ_STRIDE);
    table.set(this.table);
    meta.bindObjectTable(this.callId, table);
    this.table = table;
  }
}

/** Reads one double of a live scope, or throws StaleHandleError naming the handle and member. */
export function readState(scope: TransformScope, index: number, handle: string, member: string): number {
  if (!scope.alive) throw new StaleHandleError(handle, member);
  return scope.state[index] as number;
}

/** GstClockTime → number of ns, or undefined for GST_CLOCK_TIME_NONE (sent as -1). */
export function readClockTime(scope: TransformScope, index: number, handle: string, member: string): number | undefined {
  const value = readState(scope, index, handle, member);
  return value < 0 ? undefined : value;
}
