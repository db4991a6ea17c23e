/** A generator of deterministic numbers in [0, 1) for `seed` (seeded-random.mjs). */
export function seededRandom(seed: number): () => number;
