// The Benjamini-Hochberg (1995) step-up procedure: which of m tests to call discoveries so that
// the expected share of false ones among them stays at most q.

/** For each p-value, whether it is a discovery at false discovery rate q. */
export function benjaminiHochberg(pValues: readonly number[], q = 0.05): boolean[] {
  const m = pValues.length;
  const order = pValues.map((_, i) => i).sort((a, b) => pValues[a] - pValues[b]);
  // The largest rank k with p_(k) <= k q / m; the k smallest p-values are discoveries.
  let cut = 0;
  for (let k = 1; k <= m; k++) {
    if (pValues[order[k - 1]] <= (k * q) / m) cut = k;
  }
  const out = new Array<boolean>(m).fill(false);
  for (let k = 0; k < cut; k++) out[order[k]] = true;
  return out;
}
