// The adapter interface for venues the home venue's predictedFundings does not cover, and the
// collection of all sources into funding rows, each source bounded by a deadline. The base rows
// are the universe feed's FundingEvents (actors/feed/home/info-mappers.ts parses
// predictedFundings).
import type { Venue } from '../../core/messages.js';
import type { ParseResult } from './errors.js';
import { mergeFunding, type FundingRow } from './funding-arb.js';

/**
 * One venue's funding. `fetchFunding` answers for the symbols it lists (home-venue naming: the
 * plain ticker), with each rate per settlement interval and that interval in hours; it respects
 * its own venue's request budget and reports failure as a value, never by throwing.
 */
export interface FundingSource {
  readonly venue: Venue;
  fetchFunding(symbols: readonly string[]): Promise<ParseResult<FundingRow[]>>;
}

export interface CollectedFunding {
  readonly rows: FundingRow[];
  /** `<venue>: <message>` per source that failed or missed the deadline. */
  readonly errors: string[];
}

/**
 * Merges the base rows (from predictedFundings) with every source's rows. A source that fails,
 * throws or misses `deadlineMs` is left out: its venue shows as null rather than failing the view.
 * Only entries for the source's own venue are taken from it.
 */
export async function collectFunding(base: readonly FundingRow[],
  sources: readonly FundingSource[], symbols: readonly string[], deadlineMs: number):
  Promise<CollectedFunding> {
  const errors: string[] = [];
  const answers = await Promise.all(sources.map((source) =>
    withDeadline(source.fetchFunding(symbols), deadlineMs).then(
      (result) => ({ source, result }),
      (error: unknown) => ({ source, result: { ok: false as const, error: String(error) } }),
    )));
  const extra: FundingRow[][] = [];
  for (const { source, result } of answers) {
    if (!result.ok) {
      errors.push(`${source.venue}: ${result.error}`);
      continue;
    }
    extra.push(result.value.map((row) => ({
      symbol: row.symbol, venues: row.venues.filter((v) => v.venue === source.venue),
    })));
  }
  return { rows: mergeFunding([base, ...extra]), errors };
}

function withDeadline<T>(promise: Promise<T>, deadlineMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${deadlineMs} ms`)), deadlineMs);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}
