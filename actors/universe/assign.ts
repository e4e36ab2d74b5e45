// Stable assignment of tracked symbols to shards: a pair stays on its shard while it is tracked,
// newcomers go to the least-loaded shard, and no shard holds more than its fair share.
import { hashString } from '../feed/sim/rng.js';

/**
 * Returns symbol -> shard index in [0, shardCount). Previous assignments are kept when the shard
 * still exists and is under capacity ceil(n / shardCount); the rest fill the least-loaded shards
 * (ties by a hash of the symbol, so the result does not depend on input order), builder-dex
 * markets first and balanced among themselves.
 */
export function assignShards(symbols: readonly string[], shardCount: number,
  previous: ReadonlyMap<string, number> = new Map()): Map<string, number> {
  if (!Number.isInteger(shardCount) || shardCount < 1) {
    throw new RangeError(`shardCount must be a positive integer (was ${shardCount})`);
  }
  const unique = [...new Set(symbols)].sort();
  const capacity = Math.ceil(unique.length / shardCount);
  const load = new Array<number>(shardCount).fill(0);
  const out = new Map<string, number>();
  const pending: string[] = [];
  for (const symbol of unique) {
    const shard = previous.get(symbol);
    if (shard !== undefined && shard < shardCount && load[shard] < capacity) {
      out.set(symbol, shard);
      load[shard]++;
    } else pending.push(symbol);
  }
  // Builder-dex markets first, spread evenly on their own: their warm-up is the longest (their
  // sessions reach back weeks for a week of trading), and a shard that holds most of them ends
  // its warm-up last while the other's core idles
  // (bench/log/2026-11-26-warm-start-builders-first.md).
  pending.sort((a, b) => Number(isBuilderDex(b)) - Number(isBuilderDex(a)) ||
    hashString(a) - hashString(b) || (a < b ? -1 : 1));
  const builders = new Array<number>(shardCount).fill(0);
  for (const [symbol, shard] of out) if (isBuilderDex(symbol)) builders[shard]++;
  for (const symbol of pending) {
    const builder = isBuilderDex(symbol);
    let best = -1;
    for (let s = 0; s < shardCount; s++) {
      if (load[s] >= capacity) continue;
      if (best < 0 || (builder && builders[s] !== builders[best] ? builders[s] < builders[best]
        : load[s] < load[best])) best = s;
    }
    out.set(symbol, best);
    load[best]++;
    if (builder) builders[best]++;
  }
  return out;
}

/** A builder-dex market (`<dex>:<ticker>`; MarketMeta.symbol). */
function isBuilderDex(symbol: string): boolean {
  return symbol.includes(':');
}

/** The symbols of one shard, sorted: what a shard's setSymbols receives. */
export function symbolsOfShard(assignment: ReadonlyMap<string, number>, shard: number): string[] {
  const out: string[] = [];
  for (const [symbol, s] of assignment) if (s === shard) out.push(symbol);
  return out.sort();
}
