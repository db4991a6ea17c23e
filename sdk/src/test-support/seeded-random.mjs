// Deterministic pseudo-random numbers for tests and benchmarks (mulberry32): the same seed gives
// the same sequence everywhere, so a failing seed can be replayed. Plain JavaScript so that the
// benchmarks (bench/*.mjs, run by Node without a TypeScript step) share it with the tests.

/**
 * A generator of numbers in [0, 1) for `seed`.
 * @param {number} seed
 * @returns {() => number}
 */
export function seededRandom(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
