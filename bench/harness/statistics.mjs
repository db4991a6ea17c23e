// The summaries the benchmark prints: medians resist the occasional descheduled run that a
// small virtual machine produces, and min/max show how noisy the run was.

export function median(values) {
  const sorted = values.filter((value) => value !== null && value !== undefined).sort((a, b) => a - b);
  if (sorted.length === 0) return null;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** The values at the quarter, half and three quarters of the sorted list (nearest rank). */
export function quartiles(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * (sorted.length - 1) + 0.5))];
  return [at(0.25), at(0.5), at(0.75)];
}

export function summary(values) {
  const present = values.filter((value) => value !== null && value !== undefined);
  if (present.length === 0) return { median: null, min: null, max: null };
  return { median: median(present), min: Math.min(...present), max: Math.max(...present) };
}

/** Every configuration once per round, each round starting one later, so none always follows another. */
export function interleaved(configurations, rounds) {
  const order = [];
  for (let round = 0; round < rounds; round++) {
    for (let i = 0; i < configurations.length; i++) order.push({ round, configuration: configurations[(round + i) % configurations.length] });
  }
  return order;
}
