// The tracked set: the listed, non-delisted pairs with the highest 24h notional volume, with
// hysteresis so a pair near the edge does not flap in and out (docs/decisions.md).
import type { AssetCtx, MarketMeta } from '../../core/messages.js';

export type UniverseMarket = MarketMeta & { readonly ctx: AssetCtx };

/**
 * Ranks by dayNtlVlm (ties by symbol) and returns the tracked symbols in rank order: the
 * previous members still ranked better than `exitRank`, topped up with the best newcomers to
 * `count`. A member leaves only when it falls below exitRank (or is delisted).
 */
export function rankTracked(markets: readonly UniverseMarket[], previous: ReadonlySet<string>,
  count = 100, exitRank = 110): string[] {
  if (!Number.isInteger(count) || count < 0) throw new RangeError(`count was ${count}`);
  if (!Number.isInteger(exitRank) || exitRank < count) {
    throw new RangeError(`exitRank must be >= count (was ${exitRank})`);
  }
  const ranked = markets
    .filter((m) => !m.isDelisted && Number.isFinite(m.ctx.dayNtlVlm) && m.ctx.dayNtlVlm > 0)
    .slice()
    .sort((a, b) => b.ctx.dayNtlVlm - a.ctx.dayNtlVlm || (a.symbol < b.symbol ? -1 : 1));
  const kept = new Set<string>();
  for (let i = 0; i < ranked.length && i < exitRank; i++) {
    if (previous.has(ranked[i].symbol)) kept.add(ranked[i].symbol);
  }
  // Seats are reserved for kept members, so a newcomer never pushes one out.
  const out: string[] = [];
  let placedKept = 0;
  for (const m of ranked) {
    if (out.length >= count) break;
    if (kept.has(m.symbol)) {
      out.push(m.symbol);
      placedKept++;
    } else if (out.length + (kept.size - placedKept) < count) out.push(m.symbol);
  }
  return out;
}
