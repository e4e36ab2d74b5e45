// Funding arbitrage across venues: raw rate per venue, annualized on each venue's own settlement
// interval, and the spread between venues compared on hourly-equivalent rates (docs/decisions.md).
import { VENUES, type Venue, type VenueFunding } from '../../core/messages.js';

/** Percent per year: rate * (24 / intervalHours) * 365 * 100. */
export function annualizedPct(rate: number, intervalHours: number): number {
  if (!(intervalHours > 0) || !Number.isFinite(intervalHours)) {
    throw new RangeError(`intervalHours must be a positive number (was ${intervalHours})`);
  }
  return rate * (24 / intervalHours) * 365 * 100;
}

export interface VenueFundingView {
  readonly rate: number;
  readonly intervalHours: number;
  readonly annualized: number;
}

export interface FundingArbItem {
  readonly symbol: string;
  readonly home: number;
  readonly exchange_b: number | null;
  readonly exchange_c: number | null;
  readonly exchange_d: number | null;
  readonly exchange_e: number | null;
  /** Equals spread (kept for compatibility): never a difference of raw rates. */
  readonly maxSpread: number;
  /** Highest minus lowest hourly-equivalent rate (rate / intervalHours). */
  readonly spread: number;
  /** spread * 24 * 365 * 100, percent per year. */
  readonly spreadAnnualized: number;
  /** Lowest hourly-equivalent rate: hold the long there. */
  readonly longVenue: Venue;
  /** Highest hourly-equivalent rate (among the other venues): hold the short there. */
  readonly shortVenue: Venue;
  readonly venues: Readonly<Record<Venue, VenueFundingView | null>>;
  /** The home venue's open interest, USD (null when the pair is not in the universe). */
  readonly openInterest: number | null;
  /** The home venue's 24 h notional volume, USD (null when the pair is not in the universe). */
  readonly volume24h: number | null;
  /** One of the tracked pairs (orderflow analytics). */
  readonly tracked: boolean;
}

/** What the home venue's market says of a pair: enough to judge whether a spread is tradable. */
export interface FundingArbMarket {
  readonly symbol: string;
  readonly openInterest: number;
  readonly volume24h: number;
  readonly tracked: boolean;
}

export interface FundingRow {
  readonly symbol: string;
  readonly venues: readonly VenueFunding[];
}

/** A venue entry that is usable: a known venue, a finite rate, a positive interval. */
function usable(entry: VenueFunding): boolean {
  return (VENUES as readonly string[]).includes(entry.venue) && Number.isFinite(entry.rate) &&
    Number.isFinite(entry.intervalHours) && entry.intervalHours > 0;
}

/** One item, or null when the pair is not on home plus at least one other venue. */
export function fundingArbItem(row: FundingRow, market?: FundingArbMarket): FundingArbItem | null {
  const byVenue = new Map<Venue, VenueFunding>();
  // Unusable entries count as absent; a venue listed twice keeps its first entry.
  for (const entry of row.venues) {
    if (usable(entry) && !byVenue.has(entry.venue)) byVenue.set(entry.venue, entry);
  }
  const home = byVenue.get('home');
  if (home === undefined || byVenue.size < 2) return null;
  const hourly = (v: Venue) => byVenue.get(v)!.rate / byVenue.get(v)!.intervalHours;
  const listed = VENUES.filter((v) => byVenue.has(v));
  // Ties go to the earlier venue in VENUES order; the short venue is chosen among the others so
  // the two legs are always on different venues.
  const longVenue = listed.reduce((low, v) => (hourly(v) < hourly(low) ? v : low));
  const others = listed.filter((v) => v !== longVenue);
  const shortVenue = others.reduce((high, v) => (hourly(v) > hourly(high) ? v : high));
  const spread = hourly(shortVenue) - hourly(longVenue);
  const venues = {} as Record<Venue, VenueFundingView | null>;
  for (const v of VENUES) {
    const entry = byVenue.get(v);
    venues[v] = entry === undefined ? null : {
      rate: entry.rate, intervalHours: entry.intervalHours,
      annualized: annualizedPct(entry.rate, entry.intervalHours),
    };
  }
  const rate = (v: Venue) => byVenue.get(v)?.rate ?? null;
  return {
    symbol: row.symbol, home: home.rate,
    exchange_b: rate('exchange_b'), exchange_c: rate('exchange_c'),
    exchange_d: rate('exchange_d'), exchange_e: rate('exchange_e'),
    maxSpread: spread, spread, spreadAnnualized: spread * 24 * 365 * 100,
    longVenue, shortVenue, venues,
    openInterest: market?.openInterest ?? null, volume24h: market?.volume24h ?? null,
    tracked: market?.tracked ?? false,
  };
}

/**
 * Every pair on home and at least one other venue, widest annualized spread first, each with its
 * home market's open interest and volume from `markets` (the screener rows).
 */
export function buildFundingArb(rows: readonly FundingRow[],
  markets: readonly FundingArbMarket[] = []): { pairs: FundingArbItem[] } {
  const steps = buildFundingArbSteps(rows, Infinity, markets);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/**
 * `buildFundingArb`, `rowsPerStep` rows a step (the sort is one more): thousands of listed
 * symbols are milliseconds of work, run in slices on the main thread (actors/runtime/sliced.ts).
 */
export function* buildFundingArbSteps(rows: readonly FundingRow[], rowsPerStep: number,
  markets: readonly FundingArbMarket[] = []): Generator<void, { pairs: FundingArbItem[] }> {
  const bySymbol = new Map(markets.map((m) => [m.symbol, m]));
  const seen = new Set<string>();
  const pairs: FundingArbItem[] = [];
  let inStep = 0;
  for (const row of rows) {
    if (++inStep > rowsPerStep) {
      inStep = 1;
      yield;
    }
    if (seen.has(row.symbol)) continue;
    seen.add(row.symbol);
    const item = fundingArbItem(row, bySymbol.get(row.symbol));
    if (item !== null) pairs.push(item);
  }
  yield;
  pairs.sort((a, b) => b.spreadAnnualized - a.spreadAnnualized ||
    (a.symbol < b.symbol ? -1 : a.symbol > b.symbol ? 1 : 0));
  return { pairs };
}

/**
 * Merges funding from several sources (the home venue's predictedFundings, one adapter per other
 * venue) into one row per symbol; a later source replaces an earlier one for the same venue.
 */
export function mergeFunding(sources: readonly (readonly FundingRow[])[]): FundingRow[] {
  const merged = new Map<string, Map<Venue, VenueFunding>>();
  for (const rows of sources) {
    for (const row of rows) {
      let venues = merged.get(row.symbol);
      if (venues === undefined) merged.set(row.symbol, (venues = new Map()));
      for (const entry of row.venues) venues.set(entry.venue, entry);
    }
  }
  return [...merged].map(([symbol, venues]) => ({ symbol, venues: [...venues.values()] }));
}
