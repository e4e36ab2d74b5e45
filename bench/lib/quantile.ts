// The q-quantile of values sorted ascending: the value at rank floor(q * n), NaN for none. One
// rule for every bench that keeps its samples whole.
export function sortedQuantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}
