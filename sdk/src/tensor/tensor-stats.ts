import { tensorBinding } from "../native/installed-bindings.js";

/** What {@link tensorStats} returns: counters since the process started. */
export interface TensorStats {
  /**
   * Copies from GPU memory to the host the SDK made (`toHost()` of `"cuda"` tensors). On a
   * GPU pipeline, `Buffer.extract` and `preprocess` make none: a count that grows per frame
   * means something reads device memory on the host.
   */
  hostCopies: number;
  /** Bytes those copies moved. */
  hostCopyBytes: number;
  /** The pool of owned tensors (outputs of ops and runners, toHost() copies). */
  pool: {
    /** Blocks held by live tensors, DLPack capsules or views. */
    liveBlocks: number;
    /** Bytes of those blocks. */
    liveBytes: number;
    /** Blocks back in the pool, ready for reuse. */
    cachedBlocks: number;
    /** Bytes of those blocks. */
    cachedBytes: number;
    /** Blocks allocated from the system (host or CUDA). */
    allocations: number;
    /** Requests served from the pool instead. */
    reuses: number;
  };
}

/**
 * Counters of the native tensor code: host copies of device memory and the tensor pool. For
 * tests and diagnostics (e.g. checking that a GPU path never touches host memory, or that
 * tensors are disposed).
 *
 * @example
 * ```ts
 * const before = tensorStats().hostCopies;
 * const { tensor } = preprocess(buffer.extract(0), { width: 640, height: 640 });
 * if (tensorStats().hostCopies !== before) this.log.warn("the frame went through host memory");
 * ```
 */
export function tensorStats(): TensorStats {
  const { hostCopies, hostCopyBytes, ...pool } = tensorBinding("tensorStats()").stats();
  return { hostCopies, hostCopyBytes, pool };
}
