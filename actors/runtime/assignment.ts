// Assigning tracked pairs to shards: stable (a pair stays on its shard while it is tracked) and
// balanced (a newcomer goes to the least loaded shard), so re-ranking moves as little as possible.

/** Returns, per shard, the symbols it owns. `previous` is the last assignment (or empty). */
export function assignToShards(symbols: readonly string[], shardCount: number,
  previous: readonly (readonly string[])[] = []): string[][] {
  if (!Number.isInteger(shardCount) || shardCount < 1) {
    throw new RangeError(`shardCount must be a positive integer (was ${shardCount})`);
  }
  const wanted = new Set(symbols);
  const out: string[][] = Array.from({ length: shardCount }, (_, i) =>
    (previous[i] ?? []).filter((s) => wanted.has(s)));
  const placed = new Set(out.flat());
  for (const symbol of symbols) {
    if (placed.has(symbol)) continue;
    let target = 0;
    for (let i = 1; i < shardCount; i++) if (out[i].length < out[target].length) target = i;
    out[target].push(symbol);
    placed.add(symbol);
  }
  return out;
}
