// Free-mode digests of the screener: top movers, funding extremes and a market summary.
import { byNumber, type Selection } from './select.js';
import { numberAt, type Row } from './records.js';

function liquid(pairs: readonly Row[], minVolume24h: number, field: string): Row[] {
  return pairs.filter((row) => numberAt(row, field) !== null &&
    (numberAt(row, 'volume24h') ?? 0) >= minVolume24h);
}

/** Rising pairs by change24h first, falling pairs by most negative first. */
export function topMovers(pairs: readonly Row[], minVolume24h: number, limit: number):
  { gainers: Row[]; losers: Row[] } {
  const rows = liquid(pairs, minVolume24h, 'change24h');
  const gainers = rows.filter((r) => (numberAt(r, 'change24h') ?? 0) > 0)
    .sort(byNumber('change24h', 'desc')).slice(0, limit);
  const losers = rows.filter((r) => (numberAt(r, 'change24h') ?? 0) < 0)
    .sort(byNumber('change24h', 'asc')).slice(0, limit);
  return { gainers, losers };
}

export function fundingExtremes(pairs: readonly Row[], minVolume24h: number, limit: number):
  { highest: Row[]; lowest: Row[] } {
  const rows = liquid(pairs, minVolume24h, 'fundingAnnualized');
  const highest = rows.filter((r) => (numberAt(r, 'fundingAnnualized') ?? 0) > 0)
    .sort(byNumber('fundingAnnualized', 'desc')).slice(0, limit);
  const lowest = rows.filter((r) => (numberAt(r, 'fundingAnnualized') ?? 0) < 0)
    .sort(byNumber('fundingAnnualized', 'asc')).slice(0, limit);
  return { highest, lowest };
}

function median(values: number[]): number | null {
  if (values.length === 0) return null;
  values.sort((a, b) => a - b);
  const mid = values.length >> 1;
  return values.length % 2 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
}

export function marketSummary(pairs: readonly Row[]): Row {
  const active = pairs.filter((row) => (numberAt(row, 'volume24h') ?? 0) > 0);
  let totalVolume24h = 0;
  let totalOpenInterest = 0;
  let fundingWeighted = 0;
  let fundingWeight = 0;
  for (const row of active) {
    const openInterest = numberAt(row, 'openInterest') ?? 0;
    const funding = numberAt(row, 'fundingAnnualized');
    totalVolume24h += numberAt(row, 'volume24h') ?? 0;
    totalOpenInterest += openInterest;
    if (funding !== null && openInterest > 0) {
      fundingWeighted += funding * openInterest;
      fundingWeight += openInterest;
    }
  }
  const changes = active.map((row) => numberAt(row, 'change24h'))
    .filter((v): v is number => v !== null);
  const byVolume: Selection['items'] = [...active].sort(byNumber('volume24h', 'desc')).slice(0, 5);
  return {
    pairs: pairs.length,
    activePairs: active.length,
    totalVolume24h,
    totalOpenInterest,
    advancers: changes.filter((v) => v > 0).length,
    decliners: changes.filter((v) => v < 0).length,
    medianChange24h: median(changes),
    averageFundingAnnualized: fundingWeight > 0 ? fundingWeighted / fundingWeight : null,
    topByVolume: byVolume,
  };
}
